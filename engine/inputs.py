"""The one place the public entry points check what they are given; the kernels behind them check nothing.

Every public function (``Grid``, ``solve`` and the solvers, ``generate``, ``canonical_key(s)``, ``carve``, the
format registry) calls these first and passes the kernels plain, contiguous int8 arrays and ints within int64
(GUIDE example 4: validate in the public function, keep ``_kernel``s free of checks). Wrong types raise
TypeError (a float is never truncated to an int without a word), wrong values ValueError, each naming the
argument. Box sizes and the size-to-box conversions are in :mod:`engine.geometry`.
"""
from __future__ import annotations

import operator
from typing import Iterable

import numpy as np

from .geometry import box_for_ncells, check_box, check_shape
from .shape import Shape

#: the largest limit the compiled kernels take (int64); larger limits mean the same thing: "no practical limit"
MAX_LIMIT = 2**63 - 1
#: seeds are stored in a signed 64-bit column: 0 .. 2**63 - 1
SEED_LIMIT = 1 << 63
#: new seeds (run, batch, board and carve seeds) fit in 53 bits: exact in JSON and JavaScript numbers; 2**53 still
#: makes a shared seed in a 10-million-board fill unlikely (about 0.6%), and older 63-bit seeds are still accepted
NEW_SEED_BITS = 53
NEW_SEED_MASK = (1 << NEW_SEED_BITS) - 1


def check_name(kind: str, value: str, names: Iterable[str]) -> str:
    """``value`` when it is one of ``names`` (a vocabulary list), else ``unknown <kind> 'x'; choose from ...``."""
    names = tuple(names)
    if value not in names:
        raise ValueError(f"unknown {kind} {value!r}; choose from {', '.join(names)}")
    return value


def whole(name: str, value, least: int | None = None) -> int:
    """``value`` as a plain int (numpy integers too), at least ``least``. Bools and floats are refused: 30.5 used
    to be truncated silently, and a float limit made numba compile a new specialisation."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}") from None
    if least is not None and value < least:
        raise ValueError(f"{name} must be at least {least}" + (" (0 = no limit)" if least == 0 else "")
                         + f", got {value}")
    return value


def check_limits(limit, node_limit) -> tuple[int, int]:
    """``limit`` (solutions to count, >= 1) and ``node_limit`` (0 = none) as ints within the kernels' int64.

    Limits beyond int64 are clamped, since no search ever counts that far (they used to raise a numba typing error).
    """
    return min(whole("limit", limit, 1), MAX_LIMIT), min(whole("node_limit", node_limit, 0), MAX_LIMIT)


def check_seed(seed) -> int:
    """A seed in 0 .. 2**63 - 1 (what the catalogue's seed column holds)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an integer, got {type(seed).__name__}")
    if not 0 <= int(seed) < SEED_LIMIT:
        raise ValueError(f"seed must be in 0 .. 2**63 - 1, got {seed}")
    return int(seed)


def check_count(name: str, value, least: int) -> int:
    """A whole number of things (boards, threads) of at least ``least``; ValueError otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
        kind = "non-negative" if least == 0 else "positive"
        raise ValueError(f"{name} must be a {kind} integer, got {value!r}")
    return int(value)


def _digits(arr: np.ndarray, what: str, n: int) -> None:
    if arr.size and arr.dtype.kind not in "iu":
        raise TypeError(f"{what} must be integers (0 = blank), got {arr.dtype}")
    if arr.size and (int(arr.min()) < 0 or int(arr.max()) > n):
        raise ValueError(f"digits of a {n}x{n} grid are 0..{n} (0 = blank)")


def check_cells(cells, box: int | None = None, what: str = "cells") -> tuple[np.ndarray, int]:
    """One grid (flat, or n x n rows) as a fresh flat int8 array the caller may hand to a kernel, and its box size
    (from the number of cells when ``box`` is None)."""
    arr = np.asarray(cells)
    box = box_for_ncells(arr.size) if box is None else check_box(box)
    n = box * box
    if arr.size != n * n:
        raise ValueError(f"a {n}x{n} grid has {n * n} cells, got {arr.size}")
    _digits(arr, what, n)
    return np.array(arr.reshape(-1), dtype=np.int8, order="C", copy=True), box


def check_grids(grids, box: int | None = None, what: str = "grids") -> tuple[np.ndarray, int]:
    """Grids one per row, ``(m, ncells)``, as a fresh C-contiguous int8 array, and their box size (from the row
    length when ``box`` is None)."""
    arr = np.asarray(grids)
    if arr.ndim != 2:
        raise ValueError(f"{what} must be a 2-d array, one grid per row, got shape {arr.shape}")
    box = box_for_ncells(arr.shape[1]) if box is None else check_box(box)
    n = box * box
    if arr.shape[1] != n * n:
        raise ValueError(f"a {n}x{n} grid has {n * n} cells, got rows of {arr.shape[1]}")
    _digits(arr, what, n)
    return np.array(arr, dtype=np.int8, order="C", copy=True), box


def check_shape_cells(cells, shape: Shape) -> np.ndarray:
    """``cells`` as a fresh flat int8 array of ``shape``'s grid; ValueError naming the shape it expected."""
    arr = np.asarray(cells)
    n = shape.size
    if arr.size != n * n:
        raise ValueError(f"a grid of shape {shape.name} ({shape.describe()}) has {n * n} cells, got {arr.size}")
    if arr.size and arr.dtype.kind not in "iu":
        raise TypeError(f"cells must be integers (0 = blank), got {arr.dtype}")
    if arr.size and (int(arr.min()) < 0 or int(arr.max()) > n):
        raise ValueError(f"digits of shape {shape.name} are 0..{n} (0 = blank)")
    return np.array(arr.reshape(-1), dtype=np.int8, order="C", copy=True)


def check_any_cells(cells, box: "int | Shape | None" = None, what: str = "cells") -> tuple[np.ndarray, "int | Shape"]:
    """:func:`check_cells` for a part that works on every shape: ``box`` may be a Shape (square boxes become their
    box size, as :func:`engine.geometry.check_shape` says)."""
    box = None if box is None else check_shape(box)
    if isinstance(box, Shape):
        return check_shape_cells(cells, box), box
    return check_cells(cells, box, what)


def check_any_grids(grids, box: "int | Shape | None" = None, what: str = "grids") -> tuple[np.ndarray, "int | Shape"]:
    """:func:`check_grids` for a part that works on every shape (as :func:`check_any_cells`)."""
    box = None if box is None else check_shape(box)
    if not isinstance(box, Shape):
        return check_grids(grids, box, what)
    arr = np.asarray(grids)
    if arr.ndim != 2:
        raise ValueError(f"{what} must be a 2-d array, one grid per row, got shape {arr.shape}")
    return np.array([check_shape_cells(row, box) for row in arr], dtype=np.int8).reshape(-1, box.size ** 2), box
