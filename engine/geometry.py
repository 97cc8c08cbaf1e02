"""Constant tables of cell indices for each shape, built once and shared.

Cells are numbered row-major: cell = row * size + column. Every table is a read-only numpy array of int32 so
compiled kernels can take them as arguments without conversion. A shape (:mod:`engine.shape`) says which units
there are; this module turns it into the tables every solver, generator and finder reads: the units (``houses``:
rows, then columns, then regions, then the two diagonals), each cell's units and each cell's peers.

Not every cell has as many units or peers as every other (on X-Sudoku a cell on a diagonal has more). The tables
stay rectangular, so one compiled kernel serves every shape: a row of ``cell_houses`` or ``peers`` shorter than
the widest is padded by repeating its own first entry. Every kernel's use of them is idempotent (a digit removed
from a peer twice, a unit marked twice, a mask or-ed twice), so the repeats change no result; ``nunits`` and
``npeers_of`` give the true counts. Square boxes have no padding: their tables are today's, byte for byte.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .shape import Shape
from .vocabulary import BOX_SIZES

#: what each unit is, in ``Geometry.house_kind``
ROW, COLUMN, REGION, DIAGONAL = 0, 1, 2, 3
UNIT_NAMES = ("row", "column", "region", "diagonal")


@dataclass(frozen=True, eq=False)
class Geometry:
    """The tables of one shape. ``box`` is b for square boxes without diagonals (4x4, 9x9, 16x16, 25x25), else 0."""

    shape: Shape
    box: int
    size: int
    ncells: int
    row_of: np.ndarray  # (ncells,) row of each cell
    col_of: np.ndarray  # (ncells,) column of each cell
    box_of: np.ndarray  # (ncells,) region of each cell (boxes numbered row-major; -1 on a Latin square)
    houses: np.ndarray  # (nhouses, size): rows 0..n-1, columns, regions, diagonals; cells in reading order
    house_kind: np.ndarray  # (nhouses,) ROW, COLUMN, REGION or DIAGONAL
    cell_houses: np.ndarray  # (ncells, width): each cell's units (row, column, region, diagonals), padded
    nunits: np.ndarray  # (ncells,) how many of a cell's ``cell_houses`` are its own (the rest repeat)
    peers: np.ndarray  # (ncells, width): every other cell sharing a unit, ascending, padded
    npeers_of: np.ndarray  # (ncells,) how many of a cell's ``peers`` are distinct

    @property
    def npeers(self) -> int:
        return self.peers.shape[1]

    @property
    def nhouses(self) -> int:
        return self.houses.shape[0]

    def unit_name(self, house: int) -> str:
        """``row 4``, ``column 2``, ``box 7`` (``region`` on a jigsaw), ``diagonal 1`` (1: top left to bottom
        right, 2: top right to bottom left), counted from 1."""
        kind = int(self.house_kind[house])
        first = int(np.flatnonzero(self.house_kind == kind)[0])
        word = "box" if kind == REGION and self.shape.kind == "boxes" else UNIT_NAMES[kind]
        return f"{word} {house - first + 1}"


def check_box(box) -> int:
    """A box size 2..5, or a Shape of square boxes as its box size; ValueError for anything else, naming a shape
    that is not square boxes (the parts that call this know square boxes only: docs/shapes.md lists them)."""
    if isinstance(box, Shape):
        if box.square_box:
            return box.square_box
        raise ValueError(f"shape {box.name} ({box.describe()}) is not square boxes, which this part of the engine "
                         "still needs (docs/shapes.md: what works on every shape)")
    if box not in BOX_SIZES:
        raise ValueError(f"box size must be one of {BOX_SIZES} (grids 4x4, 9x9, 16x16, 25x25), got {box}")
    return box


def check_shape(box: "int | Shape") -> "int | Shape":
    """A box size (checked) or a :class:`~engine.shape.Shape`; a shape of square boxes without diagonals becomes its
    box size, so square grids keep the one path (and the compiled kernels) they always took."""
    if isinstance(box, Shape):
        return box.square_box or box
    return check_box(box)


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


def geometry(shape: "int | Shape") -> Geometry:
    """The tables of ``shape``: a :class:`~engine.shape.Shape`, or a box size 2..5 for square boxes."""
    geo = _made.get(shape)  # one dict lookup: every Grid and many entry points ask, 9x9 first of all
    if geo is None:
        geo = _made[shape] = _geometry(shape) if isinstance(shape, Shape) else _square(shape)
    return geo


#: every shape's tables made so far, by box size or Shape
_made: dict = {}


@lru_cache(maxsize=None)
def _square(box: int) -> Geometry:
    return _geometry(Shape.square(check_box(box)))


@lru_cache(maxsize=None)
def _geometry(shape: Shape) -> Geometry:
    n = shape.size
    cells = np.arange(n * n)
    row_of, col_of = cells // n, cells % n
    if shape.kind == "boxes":
        r, c = shape.box_rows, shape.box_cols
        box_of = (row_of // r) * (n // c) + col_of // c  # boxes numbered row-major: n / c boxes in a band
    elif shape.kind == "jigsaw":
        box_of = np.array(shape.regions)
    else:
        box_of = np.full(n * n, -1)
    units = [row_of == h for h in range(n)] + [col_of == h for h in range(n)]
    kinds = [ROW] * n + [COLUMN] * n
    if shape.has_regions:
        units += [box_of == h for h in range(n)]
        kinds += [REGION] * n
    if shape.diagonals:
        units += [row_of == col_of, row_of + col_of == n - 1]
        kinds += [DIAGONAL] * 2
    houses = np.array([np.flatnonzero(u) for u in units])
    member = np.array(units)  # (nhouses, ncells)
    own_units = [np.flatnonzero(member[:, c]) for c in range(n * n)]
    own_peers = [np.setdiff1d(np.flatnonzero(member[own_units[c]].any(axis=0)), [c]) for c in range(n * n)]
    return Geometry(
        shape=shape,
        box=shape.square_box,
        size=n,
        ncells=n * n,
        row_of=_readonly(row_of),
        col_of=_readonly(col_of),
        box_of=_readonly(box_of),
        houses=_readonly(houses),
        house_kind=_readonly(np.array(kinds)),
        cell_houses=_padded(own_units),
        nunits=_readonly([len(u) for u in own_units]),
        peers=_padded(own_peers),
        npeers_of=_readonly([len(p) for p in own_peers]),
    )


def _padded(rows: list) -> np.ndarray:
    """Rows of different lengths as one table, each short row padded by repeating its first entry."""
    width = max(len(r) for r in rows)
    return _readonly([list(r) + [r[0]] * (width - len(r)) for r in rows])
