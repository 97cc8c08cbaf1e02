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
from ..inputs import check_cells, check_limits, check_shape_cells
from ..shape import Shape
from .base import Metrics, SolveResult

#: the live view's hook: called with (cell, digit) after each change; digit 0 means the cell was emptied again
OnEvent = Optional[Callable[[int, int], None]]


def prepare(cells, box, limit: int, node_limit: int) -> list[int]:
    """The grid as a fresh list of ints (so the caller's array is never touched), after checking the arguments.
    ``box``: a box size or a :class:`~engine.shape.Shape`."""
    if isinstance(box, Shape) and not box.square_box:
        arr = check_shape_cells(cells, box)
    else:
        arr, _ = check_cells(cells, box.square_box if isinstance(box, Shape) else box)
    check_limits(limit, node_limit)
    return arr.tolist()


def units_of(box) -> list[list[int]]:
    """Each cell's units (house numbers of :func:`engine.geometry.geometry`: row, column, region, diagonals)."""
    geo = geometry(box)
    return [geo.cell_houses[c, :geo.nunits[c]].tolist() for c in range(geo.ncells)]


def givens_conflict(values: list[int], box) -> bool:
    """True when two clues in one unit hold the same digit (then the grid has no solution)."""
    units = units_of(box)
    used = [0] * geometry(box).nhouses
    for cell, digit in enumerate(values):
        if not digit:
            continue
        bit = 1 << digit
        for h in units[cell]:
            if used[h] & bit:
                return True
            used[h] |= bit
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

    Besides the flat ``values`` it keeps each unit (row, column, box or region, diagonal) as a list of digits in
    reading order, so the comparison scan of one unit runs as ``list.index`` (C speed) while ``checks`` still counts
    exactly the comparisons a loop over the unit's other cells, stopping at the first clash, would make.
    """

    __slots__ = ("n", "values", "checks", "_units", "_of_cell")

    def __init__(self, values: list[int], box):
        geo = geometry(box)
        self.n = geo.size
        self.values = values
        self.checks = 0
        houses = geo.houses.tolist()
        self._units = [[values[cell] for cell in cells] for cells in houses]
        # each cell's units in the seed's order (row, column, box; then the diagonals), with its position in each
        self._of_cell = [[(self._units[h], houses[h].index(c)) for h in geo.cell_houses[c, :geo.nunits[c]].tolist()]
                         for c in range(geo.ncells)]

    def set(self, cell: int, digit: int) -> None:
        """Write ``digit`` (0 = blank) into ``cell``, keeping the unit lists in step."""
        self.values[cell] = digit
        for unit, pos in self._of_cell[cell]:
            unit[pos] = digit

    def _scan(self, house: list[int], own: int, digit: int) -> bool:
        """Compare ``digit`` with the unit's other cells (``own`` is this cell's position); True on a clash.

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

    def valid_value(self, cell: int, digit: int) -> bool:
        """Seed 001's ``validValue`` (seed 002's ``validToPlace``): row, then column, then box (then the
        diagonals); the first clash stops."""
        for unit, pos in self._of_cell[cell]:
            if self._scan(unit, pos, digit):
                return False
        return True
