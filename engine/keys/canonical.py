"""Canonical keys: one compact representative per class of "the same" grids.

Equivalences (:data:`EQUIVALENCES`; the groups are in :mod:`engine.keys.transforms`):

``d4`` (the default)
    Seed 000's sameness: a grid is the same as its rotations by 90, 180, 270 degrees and its mirror images
    (flipped rows, flipped columns, either diagonal): the 8 symmetries of the square.
``full``
    Puzzle people's "essentially different": also permute bands, stacks, rows within a band, columns within a
    stack, and relabel the digits. Every such move keeps a valid grid valid.
``none``
    A grid is only the same as itself.

The key of a grid is the **smallest image** of the grid under its equivalence's group: images are flat int8
arrays in reading order (row 0 left to right, then row 1, ...), compared lexicographically, with blanks (0)
smaller than every digit. Under ``full`` the digits of an image are relabelled in order of first appearance
(blanks stay blank), which is the smallest relabelling. Because ``.`` < ``1`` < ... < ``9`` < ``A`` < ... < ``P``
in ASCII, comparing keys' line strings (:func:`key_text`) gives the same order. The key is itself a member of the
class (``canonical_transform`` returns the move that makes it), the same for every member, and different between
classes; taking the key of a key changes nothing.

Costs per key (bench/bench_keys.py; docs/benchmarks.md, Canonical keys): ``d4`` is the cheapest (8 images compared
lazily, cell by cell); ``none`` a copy; ``full`` a pruned exact search, on boards (:mod:`engine.keys._board`) and on
puzzles (:mod:`engine.keys._grid`), dearer on puzzles and dearest on very sparse 25x25 grids. ``full`` needs grids
without conflicts (a digit twice in a house): those raise
:class:`KeySearchError`.

The batch function :func:`canonical_keys` makes one compiled, GIL-free call per batch, so several threads can
key batches at once.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ._d4 import _d4_keys, d4_tables
from ._full import full_keys
from .errors import KeySearchError, raise_for
from ..formats import SYMBOLS, to_line
from ..inputs import check_grids, check_shape_cells
from ..geometry import check_box
from ..shape import Shape
from .shape_group import shape_keys
from .transforms import EQUIVALENCES, Transform, check_equivalence, d4_group, identity

__all__ = ["EQUIVALENCES", "KeySearchError", "canonical_key", "canonical_keys", "canonical_transform", "key_text",
           "key_texts", "same_class", "warm"]

#: beam size at which the full search of a puzzle gives up (~30 MB per beam on 25x25); only grids with a huge
#: symmetry group come near it
MAX_STATES = 1 << 16

_SYMBOL_BYTES = np.frombuffer(SYMBOLS.encode("ascii"), dtype=np.uint8)


@lru_cache(maxsize=None)
def _d4_perms(box: int) -> np.ndarray:
    perms = d4_tables(box)
    perms.flags.writeable = False  # shared by every thread that keys
    return perms


def _grids(grids, box: "int | Shape | None") -> tuple[np.ndarray, int]:
    """(m, ncells) int8 C-contiguous copy of ``grids``, checked, and the box size."""
    if isinstance(box, Shape):
        box = check_box(box)  # square boxes as their box size; another shape here is a ValueError naming it
    return check_grids(grids, box)


def _shape_grids(grids, shape: Shape) -> np.ndarray:
    arr = np.asarray(grids)
    if arr.ndim != 2:
        raise ValueError(f"grids must be a 2-d array, one grid per row, got shape {arr.shape}")
    return np.array([check_shape_cells(row, shape) for row in arr], dtype=np.int8).reshape(-1, shape.ncells)


def _one(cells, box: int | None) -> tuple[np.ndarray, int]:
    if hasattr(cells, "cells") and hasattr(cells, "box"):  # a Grid
        cells, box = cells.cells, cells.box if box is None else box
    return _grids(np.asarray(cells).reshape(1, -1), box)


def _full(grids: np.ndarray, b: int) -> tuple[np.ndarray, np.ndarray]:
    m, ncells = grids.shape
    out = np.empty((m, ncells), dtype=np.int8)
    perms = np.empty((m, ncells), dtype=np.int32)
    status = np.empty(m, dtype=np.int32)
    full_keys(grids, b, out, perms, status, MAX_STATES)
    raise_for(status, "", "it has a conflict (a digit twice in a row, column or box)",
              f"its search kept more than {MAX_STATES} tied states (too symmetric); use d4 or none")
    return out, perms


def canonical_keys(grids, box: int | None = None, equivalence: str = "d4") -> np.ndarray:
    """The keys of a batch: ``grids`` is (m, ncells); returns (m, ncells) int8, row k the key of row k.

    One compiled, GIL-free kernel call for the whole batch (none: a copy). Raises ValueError on bad input and
    :class:`KeySearchError` when a grid has no ``full`` key.
    """
    check_equivalence(equivalence)
    if isinstance(box, Shape) and not box.square_box:  # every other shape: its own group (shape_group.py)
        return shape_keys(_shape_grids(grids, box), box, equivalence)
    arr, b = _grids(grids, box)
    if equivalence == "none":
        return arr.copy()
    if equivalence == "d4":
        out = np.empty_like(arr)
        _d4_keys(arr, _d4_perms(b), out, np.empty(arr.shape[0], dtype=np.int32))
        return out
    return _full(arr, b)[0]


def canonical_key(cells, box: int | None = None, equivalence: str = "d4") -> np.ndarray:
    """The key of one grid (a flat array of n*n digits, 0 = blank, or a :class:`engine.grid.Grid`):
    the smallest image under ``equivalence``, as a flat int8 array."""
    if hasattr(cells, "cells") and isinstance(getattr(cells, "box", None), Shape):  # a Grid of another shape
        cells, box = cells.cells, cells.box if box is None else box
    if isinstance(box, Shape) and not box.square_box:
        return canonical_keys(np.asarray(cells).reshape(1, -1), box, equivalence)[0]
    arr, b = _one(cells, box)
    return canonical_keys(arr, b, equivalence)[0]


def canonical_transform(cells, box: int | None = None, equivalence: str = "d4") -> Transform:
    """A transformation of ``equivalence``'s group that maps ``cells`` onto its key
    (``canonical_transform(g).apply(g) == canonical_key(g)``): the proof that the key is in the class."""
    check_equivalence(equivalence)
    arr, b = _one(cells, box)
    if equivalence == "none":
        return identity(b)
    if equivalence == "d4":
        which = np.empty(1, dtype=np.int32)
        _d4_keys(arr, _d4_perms(b), np.empty_like(arr), which)
        return d4_group(b)[int(which[0])]
    _, perms = _full(arr, b)
    perm = perms[0]
    n = b * b
    relabel = np.zeros(n + 1, dtype=np.int64)
    label = 0
    for d in arr[0][perm]:  # first appearance in the image gives the labels
        if d and not relabel[d]:
            label += 1
            relabel[d] = label
    for d in range(1, n + 1):  # digits a puzzle never uses take the labels left, in order
        if not relabel[d]:
            label += 1
            relabel[d] = label
    return Transform(b, perm, relabel)


def key_text(cells, box: int | None = None, equivalence: str = "d4") -> str:
    """The key in line format (:func:`engine.formats.to_line`): the catalogue's UNIQUE key column.
    Idempotent: ``key_text`` of a key is the key."""
    return to_line(canonical_key(cells, box, equivalence))


def key_texts(grids, box: int | None = None, equivalence: str = "d4") -> list[str]:
    """:func:`key_text` of every row of ``grids``, from one batch kernel call (same strings as ``to_line``)."""
    keys = canonical_keys(grids, box, equivalence)
    text = _SYMBOL_BYTES[keys].tobytes().decode("ascii")
    width = keys.shape[1]
    return [text[k * width:(k + 1) * width] for k in range(keys.shape[0])]


def same_class(a, b, box: int | None = None, equivalence: str = "d4") -> bool:
    """Whether grids ``a`` and ``b`` are the same under ``equivalence`` (their keys are equal)."""
    ka = canonical_key(a, box, equivalence)
    kb = canonical_key(b, box, equivalence)
    return ka.shape == kb.shape and bool(np.array_equal(ka, kb))


def warm() -> None:
    """Compile (or load from numba's cache) every key kernel now, in the calling thread, before worker threads
    start. One small grid is enough: the kernels' types do not depend on the box size."""
    board = np.array([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1], dtype=np.int8)
    puzzle = board.copy()
    puzzle[0] = 0
    grids = np.stack([board, puzzle])
    canonical_keys(grids, 2, "d4")
    canonical_keys(grids, 2, "full")
