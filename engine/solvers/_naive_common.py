"""Plain-Python pieces shared by the teaching solvers (``stack``, ``backtrack``, ``mrv``).

These solvers are the seeds' algorithms written out in plain Python so that they can be read, watched and
counted. They are slow (no numba, on purpose: they are the readable references), and ``node_limit`` keeps them
from running away on big or hard grids.

What lives here:

* :func:`prepare` validates the public arguments once and turns the grid into a list of ints.
* :func:`givens_conflict` answers "do the clues already clash?" with house bitmasks (not counted in any metric:
  it is a precondition, not part of the search).
* :class:`HouseBoard` is seed 001's ``Board.validValue`` / seed 002's ``validToPlace``: it compares a digit with
  the other cells of the row, then the column, then the box, stops at the first clash, and counts every
  comparison in ``checks`` (the metric's meaning for the naive solvers, see :mod:`engine.solvers.base`).
* :class:`Budget` is the node limit, checked before every placement so a solver never exceeds it.
"""
from __future__ import annotations

import time
from typing import Callable, Optional

import numpy as np

from ..geometry import geometry
from ..inputs import check_cells, check_limits
from .base import Metrics, SolveResult

#: the live view's hook: called with (cell, digit) after each change; digit 0 means the cell was emptied again
OnEvent = Optional[Callable[[int, int], None]]


def prepare(cells, box: int, limit: int, node_limit: int) -> list[int]:
    """The grid as a fresh list of ints (so the caller's array is never touched), after checking the arguments."""
    arr, _ = check_cells(cells, box)
    check_limits(limit, node_limit)
    return arr.tolist()


def givens_conflict(values: list[int], box: int) -> bool:
    """True when two clues in one house hold the same digit (then the grid has no solution)."""
    n = box * box
    rows, cols, boxes = [0] * n, [0] * n, [0] * n
    for cell, digit in enumerate(values):
        if not digit:
            continue
        r, c = divmod(cell, n)
        b = (r // box) * box + c // box
        bit = 1 << digit
        if (rows[r] | cols[c] | boxes[b]) & bit:
            return True
        rows[r] |= bit
        cols[c] |= bit
        boxes[b] |= bit
    return False


def result(count: int, solution: list[int] | None, metrics: Metrics, gave_up: bool, started: float) -> SolveResult:
    metrics.seconds = time.perf_counter() - started
    sol = None if solution is None else np.array(solution, dtype=np.int8)
    return SolveResult(count=count, solution=sol, metrics=metrics, gave_up=gave_up)


class Budget:
    """The node limit: ``spend()`` before each placement; False means the limit is reached and the solver gives up.

    Checking *before* placing means a solver makes at most ``node_limit`` placements, whichever solver it is.
    """

    __slots__ = ("left",)

    def __init__(self, node_limit: int):
        self.left = node_limit if node_limit > 0 else -1  # -1: unlimited, never reaches 0 by decrementing

    def spend(self) -> bool:
        if self.left == 0:
            return False
        self.left -= 1
        return True


class HouseBoard:
    """The grid as seed 001's Board sees it, with a ``valid_value`` that counts its comparisons.

    Besides the flat ``values`` it keeps each row, column and box as a list of digits in reading order, so the
    comparison scan of one house runs as ``list.index`` (C speed) while ``checks`` still counts exactly the
    comparisons a loop over the house's other cells, stopping at the first clash, would make.
    """

    __slots__ = ("n", "values", "checks", "_rows", "_cols", "_boxes", "_row_of", "_col_of", "_box_of", "_pos_in_box")

    def __init__(self, values: list[int], box: int):
        geo = geometry(box)
        n = self.n = geo.size
        self.values = values
        self.checks = 0
        self._row_of = geo.row_of.tolist()
        self._col_of = geo.col_of.tolist()
        self._box_of = geo.box_of.tolist()
        # position of each cell inside its box's list (houses[2n + b] lists the box's cells in reading order)
        self._pos_in_box = [0] * geo.ncells
        for b in range(n):
            for k, cell in enumerate(geo.houses[2 * n + b].tolist()):
                self._pos_in_box[cell] = k
        self._rows = [[values[cell] for cell in geo.houses[h].tolist()] for h in range(n)]
        self._cols = [[values[cell] for cell in geo.houses[n + h].tolist()] for h in range(n)]
        self._boxes = [[values[cell] for cell in geo.houses[2 * n + h].tolist()] for h in range(n)]

    def set(self, cell: int, digit: int) -> None:
        """Write ``digit`` (0 = blank) into ``cell``, keeping the house lists in step."""
        self.values[cell] = digit
        r, c = self._row_of[cell], self._col_of[cell]
        self._rows[r][c] = digit
        self._cols[c][r] = digit
        self._boxes[self._box_of[cell]][self._pos_in_box[cell]] = digit

    def _scan(self, house: list[int], own: int, digit: int) -> bool:
        """Compare ``digit`` with the house's other cells (``own`` is this cell's position); True on a clash.

        The cell itself is skipped: it is blank or holds a smaller digit than the one being tried, so it can
        never clash, and a comparison with itself is not a validity test.
        """
        if digit in house:
            k = house.index(digit)
            # comparisons made up to and including position k, the cell's own position not being one of them
            self.checks += k if k > own else k + 1
            return True
        self.checks += self.n - 1
        return False

    def used_in_row(self, cell: int, digit: int) -> bool:
        return self._scan(self._rows[self._row_of[cell]], self._col_of[cell], digit)

    def used_in_column(self, cell: int, digit: int) -> bool:
        return self._scan(self._cols[self._col_of[cell]], self._row_of[cell], digit)

    def used_in_box(self, cell: int, digit: int) -> bool:
        return self._scan(self._boxes[self._box_of[cell]], self._pos_in_box[cell], digit)

    def valid_value(self, cell: int, digit: int) -> bool:
        """Seed 001's ``validValue`` (seed 002's ``validToPlace``): row, then column, then box; first clash stops."""
        return not (self.used_in_row(cell, digit) or self.used_in_column(cell, digit)
                    or self.used_in_box(cell, digit))
