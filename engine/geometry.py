"""Constant tables of cell indices for each box size, built once and shared.

Cells are numbered row-major: cell = row * size + column. Every table is a read-only numpy array of int32 so
compiled kernels can take them as arguments without conversion.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .vocabulary import BOX_SIZES


@dataclass(frozen=True, eq=False)
class Geometry:
    """The shape of a grid whose boxes are ``box`` x ``box`` cells (so ``size = box * box``)."""

    box: int
    size: int
    ncells: int
    row_of: np.ndarray  # (ncells,) row of each cell
    col_of: np.ndarray  # (ncells,) column of each cell
    box_of: np.ndarray  # (ncells,) box of each cell, boxes numbered row-major
    houses: np.ndarray  # (3 * size, size): rows 0..n-1, then columns, then boxes; cells in reading order
    cell_houses: np.ndarray  # (ncells, 3): the row, column and box house index of each cell
    peers: np.ndarray  # (ncells, npeers): every other cell sharing a house, ascending

    @property
    def npeers(self) -> int:
        return self.peers.shape[1]


def check_box(box: int) -> int:
    if box not in BOX_SIZES:
        raise ValueError(f"box size must be one of {BOX_SIZES} (grids 4x4, 9x9, 16x16, 25x25), got {box}")
    return box


def box_for_size(size: int) -> int:
    """The box size of a grid with ``size`` rows (4 -> 2, 9 -> 3, 16 -> 4, 25 -> 5)."""
    for b in BOX_SIZES:
        if b * b == size:
            return b
    raise ValueError(f"a grid has 4, 9, 16 or 25 rows, not {size}")


def box_for_ncells(ncells: int) -> int:
    """The box size of a grid with ``ncells`` cells (16, 81, 256 or 625)."""
    for b in BOX_SIZES:
        if b**4 == ncells:
            return b
    raise ValueError(f"a grid has 16, 81, 256 or 625 cells, not {ncells}")


def _readonly(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a, dtype=np.int32)
    a.flags.writeable = False
    return a


@lru_cache(maxsize=None)
def geometry(box: int) -> Geometry:
    """The tables for box size ``box`` (2..5), computed on first use and cached."""
    check_box(box)
    n = box * box
    cells = np.arange(n * n)
    row_of, col_of = cells // n, cells % n
    box_of = (row_of // box) * box + col_of // box
    houses = np.empty((3 * n, n), dtype=np.int32)
    for h in range(n):
        houses[h] = np.flatnonzero(row_of == h)
        houses[n + h] = np.flatnonzero(col_of == h)
        houses[2 * n + h] = np.flatnonzero(box_of == h)
    cell_houses = np.stack([row_of, n + col_of, 2 * n + box_of], axis=1)
    npeers = 3 * n - 2 * box - 1
    peers = np.empty((n * n, npeers), dtype=np.int32)
    for c in range(n * n):
        same = (row_of == row_of[c]) | (col_of == col_of[c]) | (box_of == box_of[c])
        same[c] = False
        peers[c] = np.flatnonzero(same)
    return Geometry(
        box=box,
        size=n,
        ncells=n * n,
        row_of=_readonly(row_of),
        col_of=_readonly(col_of),
        box_of=_readonly(box_of),
        houses=_readonly(houses),
        cell_houses=_readonly(cell_houses),
        peers=_readonly(peers),
    )
