"""The grid model, and the words the whole project uses.

Throughout this project we have (code, CLI, database columns and docs use exactly these words):

box size  ``box`` = b, 2..5. The grid is n x n with ``size`` = n = b * b: 4x4, 9x9, 16x16 or 25x25.
shape     which cells must hold every digit once (engine/shape.py): boxes of r x c (``2x3``: 6x6; ``3x3``: 9x9),
          none (a Latin square), or jigsaw regions; with or without the two diagonals. Square boxes are the
          shapes with a box size; a Grid of any other shape carries the Shape itself as its ``box``.
region    a box, or a jigsaw's irregular piece: n cells that hold every digit once.
diagonal  on X-Sudoku, the main diagonal (top left to bottom right) or the anti-diagonal, each a unit.
cell      one square of the grid, numbered row-major 0 .. n*n - 1 (cell = row * n + column). The CLI and the
          "row column value" format count rows and columns from 1; Python counts from 0.
row       the n cells of one horizontal line.      column  the n cells of one vertical line.
box       one of the n b x b squares, numbered row-major from the top left.
band      a row of b boxes (b consecutive rows).     stack   a column of b boxes (b consecutive columns).
house     a row, a column or a box: any unit that must hold every digit once. There are 3n houses (2n on a Latin
          square, 2 more with the diagonals). ``unit`` means the same.
peer      another cell sharing a house with a cell (20 of them on 9x9: 3n - 2b - 1).
digit     a value 1..n placed in a cell; 0 means blank. Above 9, text shows 10.. as A.. (A = 10, ..., P = 25).
candidate a digit that a blank cell could still hold without a conflict with its peers.
clue      a filled cell of a puzzle.               given   a clue that is locked: solving never changes it.
grid      any n x n arrangement of digits and blanks (the :class:`Grid` class).
board     a complete, valid grid (every cell filled, no conflict): what generators make.
puzzle    a grid with blanks, meant to have exactly one solution; carving makes puzzles from boards.
solution  a board that agrees with every clue of a puzzle.
conflict  why a digit cannot stand in a cell: a peer in the same row, column and/or box holds it.
"""
from __future__ import annotations

import enum
from functools import lru_cache
from typing import Iterable, Iterator

import numpy as np

from .geometry import DIAGONAL, REGION, ROW, COLUMN, Geometry, geometry
from .inputs import check_cells, check_shape_cells
from .shape import Shape
from .vocabulary import BOX_SIZES, SYMBOLS

DIGIT_DTYPE = np.int8


class Conflict(enum.Flag):
    """Why a digit is invalid in a cell; several reasons can hold at once (``ROW | BOX``)."""

    NONE = 0
    ROW = enum.auto()
    COLUMN = enum.auto()
    BOX = enum.auto()  # a box, or a jigsaw region
    DIAGONAL = enum.auto()

    def describe(self, region: str = "box") -> str:
        """``"row, column and box conflict"`` style text; ``"valid"`` for NONE. ``region``: the word for BOX
        (``region`` on a jigsaw)."""
        names = [name for flag, name in ((Conflict.ROW, "row"), (Conflict.COLUMN, "column"), (Conflict.BOX, region),
                                         (Conflict.DIAGONAL, "diagonal"))
                 if flag in self]
        if not names:
            return "valid"
        text = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return f"{text} conflict"


class LockedCellError(ValueError):
    """Raised when a given (locked) cell is changed."""


class Grid:
    """An n x n grid of digits (0 = blank) with an optional set of givens (locked cells).

    ``cells`` is a flat int8 numpy array of length n*n, row-major; it is the grid's own copy. ``box``: a box size,
    or any :class:`~engine.shape.Shape`: ``shape`` is always the Shape; ``box`` is the box size of square boxes and
    the Shape itself otherwise, so that passing ``grid.box`` on to any engine function passes the shape.
    """

    __slots__ = ("box", "shape", "cells", "givens")

    def __init__(self, cells: Iterable[int] | np.ndarray, box: "int | Shape | None" = None,
                 givens: np.ndarray | None = None):
        # Only integer input (engine.inputs): casting floats or strings would silently truncate 1.5 to 1 or parse "7".
        if isinstance(box, Shape) and box.square_box:
            box = box.square_box
        if isinstance(box, Shape):
            self.cells, self.box, self.shape = check_shape_cells(cells, box), box, box
        else:
            self.cells, self.box = check_cells(cells, box)
            self.shape = _SQUARE[self.box]
        geo = self.geometry
        self.givens = (np.zeros(geo.ncells, dtype=bool) if givens is None
                       else np.array(givens, dtype=bool).reshape(geo.ncells))

    # -- construction -------------------------------------------------------------------------------------------
    @classmethod
    def empty(cls, box: "int | Shape" = 3) -> "Grid":
        return cls(np.zeros(geometry(box).ncells, dtype=DIGIT_DTYPE), box)

    @classmethod
    def puzzle(cls, cells: Iterable[int] | np.ndarray, box: "int | Shape | None" = None) -> "Grid":
        """A grid whose filled cells are all givens (how a puzzle is read from a file)."""
        g = cls(cells, box)
        g.givens = g.cells != 0
        return g

    def copy(self) -> "Grid":
        return Grid(self.cells.copy(), self.box, self.givens.copy())

    # -- shape --------------------------------------------------------------------------------------------------
    @property
    def geometry(self) -> Geometry:
        return geometry(self.box)

    @property
    def size(self) -> int:
        return self.shape.size

    def _cell(self, row: int, column: int) -> int:
        n = self.size
        if not (0 <= row < n and 0 <= column < n):
            raise IndexError(f"cell ({row}, {column}) is outside a {n}x{n} grid")
        return row * n + column

    # -- set / get / clear --------------------------------------------------------------------------------------
    def get(self, row: int, column: int) -> int:
        return int(self.cells[self._cell(row, column)])

    def set(self, row: int, column: int, digit: int, *, given: bool = False) -> None:
        """Place ``digit`` (1..n) in a cell, even when it conflicts (use :meth:`conflicts` to ask first)."""
        c = self._cell(row, column)
        if not 1 <= digit <= self.size:
            raise ValueError(f"digit must be 1..{self.size}, got {digit}")
        if self.givens[c] and self.cells[c] != digit:
            raise LockedCellError(f"r{row + 1}c{column + 1} is a given")
        self.cells[c] = digit
        if given:
            self.givens[c] = True

    def clear(self, row: int, column: int) -> None:
        c = self._cell(row, column)
        if self.givens[c]:
            raise LockedCellError(f"r{row + 1}c{column + 1} is a given")
        self.cells[c] = 0

    def is_given(self, row: int, column: int) -> bool:
        return bool(self.givens[self._cell(row, column)])

    # -- validity -----------------------------------------------------------------------------------------------
    def conflicts(self, row: int, column: int, digit: int) -> Conflict:
        """Why ``digit`` may not stand in this cell (``Conflict.NONE`` when it may).

        The cell's own content is ignored, so asking about a filled cell tells whether its digit clashes.
        """
        c = self._cell(row, column)
        if not 1 <= digit <= self.size:
            raise ValueError(f"digit must be 1..{self.size}, got {digit}")
        geo = self.geometry
        found = Conflict.NONE
        for house in geo.cell_houses[c, :geo.nunits[c]]:
            members = geo.houses[house]
            others = members[members != c]
            if np.any(self.cells[others] == digit):
                found |= _FLAG[int(geo.house_kind[house])]
        return found

    def is_valid_value(self, row: int, column: int, digit: int) -> bool:
        return self.conflicts(row, column, digit) == Conflict.NONE

    def invalid_cells(self) -> list[tuple[int, int, int, Conflict]]:
        """Every filled cell whose digit clashes with a peer: ``(row, column, digit, reasons)``, reading order.

        Counted per house at once (how many times each digit stands in each house), not asked cell by cell: on a
        complete grid with conflicts the per-cell question (:meth:`conflicts`, the twin the tests hold this to)
        made `check` several times slower than solving the same grids."""
        geo, cells, n = self.geometry, self.cells, self.size
        nhouses = geo.houses.shape[0]
        counts = np.zeros((nhouses, n + 1), np.int32)  # counts[h, d]: cells of house h holding d (0: blank)
        np.add.at(counts, (np.repeat(np.arange(nhouses), n), cells[geo.houses].ravel()), 1)
        # each cell's count of its own digit in each of its units: a clash where it is 2 or more (the padding of
        # cell_houses repeats a unit of the cell's own, so it adds no reason)
        clash = counts[geo.cell_houses, cells[:, None]] >= 2
        clash[cells == 0] = False
        flags = _flags(geo)
        out = []
        for c in np.flatnonzero(clash.any(axis=1)).tolist():
            why = Conflict.NONE
            for house, hit in zip(geo.cell_houses[c].tolist(), clash[c].tolist()):
                if hit:
                    why |= flags[house]
            out.append((c // n, c % n, int(cells[c]), why))
        return out

    def invalid_count(self) -> int:
        """How many cells are invalid (the seed 000 demonstration prints this; 0 for a good board)."""
        return len(self.invalid_cells())

    @property
    def clue_count(self) -> int:
        return int(np.count_nonzero(self.cells))

    def is_complete(self) -> bool:
        return bool(np.all(self.cells != 0))

    def is_valid(self) -> bool:
        """No filled cell conflicts with a peer (blanks allowed)."""
        return not self.invalid_cells()

    def is_solved(self) -> bool:
        """Complete and valid: a board."""
        return self.is_complete() and self.is_valid()

    def candidates(self, row: int, column: int) -> list[int]:
        """Digits that could stand in this blank cell without conflict (empty for a filled cell)."""
        if self.get(row, column):
            return []
        return [d for d in range(1, self.size + 1) if not self.conflicts(row, column, d)]

    # -- views --------------------------------------------------------------------------------------------------
    def as_matrix(self) -> np.ndarray:
        return self.cells.reshape(self.size, self.size)

    def rows(self) -> Iterator[list[int]]:
        for r in self.as_matrix():
            yield [int(v) for v in r]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Grid) and self.shape == other.shape and np.array_equal(self.cells, other.cells)

    def __hash__(self) -> int:
        return hash((self.shape, self.cells.tobytes()))

    def __repr__(self) -> str:
        line = "".join(SYMBOLS[int(v)] for v in self.cells)
        if isinstance(self.box, int):
            return f"Grid({line!r}, box={self.box})"
        return f"Grid({line!r}, shape={self.shape.name!r})"


def shared_units(geo: Geometry, a: int, b: int) -> Conflict:
    """Why cells ``a`` and ``b`` of a grid of ``geo`` may not hold the same digit: the units holding both."""
    why = Conflict.NONE
    for house in geo.cell_houses[a, :geo.nunits[a]].tolist():
        if b in geo.houses[house]:
            why |= _FLAG[int(geo.house_kind[house])]
    return why


@lru_cache(maxsize=None)
def _flags(geo: Geometry) -> list[Conflict]:
    """The conflict of each unit of ``geo`` (by identity: a geometry is made once per shape)."""
    return [_FLAG[k] for k in geo.house_kind.tolist()]


#: the shape of each box size, made once (a Grid is made for every grid read)
_SQUARE = {b: Shape.square(b) for b in BOX_SIZES}
#: the conflict each kind of unit gives (engine.geometry's ROW, COLUMN, REGION, DIAGONAL)
_FLAG = {ROW: Conflict.ROW, COLUMN: Conflict.COLUMN, REGION: Conflict.BOX, DIAGONAL: Conflict.DIAGONAL}
