"""The recursive backtracking of seeds 002 and 004.

Seed 002's outline, one for one: find an unassigned location (the next blank in reading order); if there is
none, the grid is solved; otherwise for each digit 1..n, if ``validToPlace`` (``usedInRow``, ``usedInColumn``,
``usedInSubGrid``, each comparison counted in ``checks``) allows it, assign it and recursively fill the rest;
on failure remove it and try the next digit; when every digit failed, return false. Seed 004's ``solve(grid,
cell)`` is the same recursion.

Extended to count solutions: reaching the end of the grid counts a solution, and the recursion reports failure
unless the limit is reached, so it backtracks on to the next solution.

Depth: one Python frame per blank cell, so 625 on an empty 25x25 grid, beyond CPython's default limit of 1000
once the caller's own frames are added. :func:`_ensure_recursion_limit` raises the interpreter's limit to what
this grid needs (current depth + blanks + margin). It only ever raises it, never lowers it back: lowering from
one thread while another thread is deep in a solve would break that other solve. Python 3.11 runs
Python-to-Python calls without growing the C stack, so a limit of a few thousand frames is safe.

Visits the same nodes in the same order as :mod:`engine.solvers.stack` (both try digits upward from the last one
tried, in the same cell order), so the two report identical metrics apart from ``seconds``; the tests rely on it.
"""
from __future__ import annotations

import sys
import time

from ._naive_common import Budget, HouseBoard, OnEvent, givens_conflict, prepare, result
from .base import Metrics, SolveResult

_MARGIN = 100  # frames kept free above the search for callbacks, tracing and the caller's own calls


class _GaveUp(Exception):
    """The node limit was reached: unwinds the recursion."""


def _ensure_recursion_limit(depth: int) -> None:
    frame, current = sys._getframe(), 0
    while frame is not None:
        current += 1
        frame = frame.f_back
    needed = current + depth + _MARGIN
    if sys.getrecursionlimit() < needed:
        sys.setrecursionlimit(needed)


def solve(cells, box: int, limit: int = 1, node_limit: int = 0, *, on_event: OnEvent = None) -> SolveResult:
    """Count up to ``limit`` solutions of ``cells`` by recursive backtracking; ``cells`` is not changed."""
    started = time.perf_counter()
    values = prepare(cells, box, limit, node_limit)
    metrics = Metrics()
    if givens_conflict(values, box):
        return result(0, None, metrics, False, started)

    board = HouseBoard(values, box)
    n = board.n
    valid_to_place = board.valid_value
    blanks = [cell for cell, digit in enumerate(values) if digit == 0]
    budget = Budget(node_limit)
    count = 0
    first: list[int] | None = None

    def fill(k: int) -> bool:
        """Fill ``blanks[k:]``; True when the search should stop (the solution limit is reached)."""
        nonlocal count, first
        if k == len(blanks):  # no unassigned location left: a solution
            count += 1
            if first is None:
                first = list(values)
            return count >= limit
        cell = blanks[k]
        for digit in range(1, n + 1):
            if not valid_to_place(cell, digit):
                continue
            if not budget.spend():
                raise _GaveUp
            board.set(cell, digit)
            metrics.nodes += 1
            metrics.guesses += 1
            if k + 1 > metrics.max_depth:
                metrics.max_depth = k + 1
            if on_event is not None:
                on_event(cell, digit)
            if fill(k + 1):
                return True
            board.set(cell, 0)
            metrics.backtracks += 1
            if on_event is not None:
                on_event(cell, 0)
        return False

    _ensure_recursion_limit(len(blanks))
    gave_up = False
    try:
        fill(0)
    except _GaveUp:
        gave_up = True
    metrics.checks = board.checks
    return result(count, first, metrics, gave_up, started)
