"""Seed 001's stack-based depth-first search, written out as the seed describes it.

The seed's pieces, one for one:

``find_next_value(cell)``
    tries the digits from the cell's current value + 1 up to n with ``validValue`` (row, then column, then box,
    each comparison counted in ``checks``) and returns the first valid one, or 0 when none is left.
``find_next_cell()``
    goes row by row, column by column to the first cell still 0, and gives it its first valid digit; returns
    None when it has none. Because the stack always holds the first k blanks in reading order (cells are pushed
    in that order and popped from the top), the first cell still 0 is ``blanks[len(stack)]``: the same cell the
    seed's scan finds, reached without rescanning the filled prefix.
``solve``
    the seed's loop: while the stack holds fewer cells than there are blanks, ask ``find_next_cell``; on a dead
    end pop cells, give each its next valid digit, and stop popping at the first one that has one; when the
    stack is empty every option has been tried.

Extended to count solutions: when the stack is full a solution is counted and, if the limit is not reached,
the full board is treated as one more dead end, so popping resumes and the search goes on to the next solution.
Metrics (see :mod:`engine.solvers.base`): every placement is a node and a guess (no propagation); each value
taken back is a backtrack (a popped cell that moves from v to v' counts one backtrack and one node).
"""
from __future__ import annotations

import time

from ._naive_common import Budget, HouseBoard, OnEvent, givens_conflict, prepare, result
from .base import Metrics, SolveResult


class _GaveUp(Exception):
    """The node limit was reached: unwinds the search."""


def solve(cells, box: int, limit: int = 1, node_limit: int = 0, *, on_event: OnEvent = None) -> SolveResult:
    """Count up to ``limit`` solutions of ``cells`` with seed 001's stack search; ``cells`` is not changed."""
    started = time.perf_counter()
    values = prepare(cells, box, limit, node_limit)
    metrics = Metrics()
    if givens_conflict(values, box):
        return result(0, None, metrics, False, started)

    board = HouseBoard(values, box)
    n = board.n
    valid_value = board.valid_value
    blanks = [cell for cell, digit in enumerate(values) if digit == 0]
    budget = Budget(node_limit)
    stack: list[int] = []

    def find_next_value(cell: int) -> int:
        for digit in range(values[cell] + 1, n + 1):
            if valid_value(cell, digit):
                return digit
        return 0

    def place(cell: int, digit: int) -> None:
        if not budget.spend():
            raise _GaveUp
        board.set(cell, digit)
        metrics.nodes += 1
        metrics.guesses += 1
        if on_event is not None:
            on_event(cell, digit)

    def find_next_cell() -> int | None:
        cell = blanks[len(stack)]
        digit = find_next_value(cell)
        if digit == 0:
            return None
        place(cell, digit)
        return cell

    count = 0
    first: list[int] | None = None
    gave_up = False
    try:
        while True:
            if len(stack) == len(blanks):
                count += 1
                if first is None:
                    first = list(values)
                if count >= limit:
                    break
                next_cell = None  # counted: now a dead end, so the search moves on to the next solution
            else:
                next_cell = find_next_cell()
            while next_cell is None and stack:
                cell = stack.pop()
                digit = find_next_value(cell)
                if digit:
                    place(cell, digit)  # replaces the old value: one backtrack and one node
                    next_cell = cell
                else:
                    board.set(cell, 0)
                    if on_event is not None:
                        on_event(cell, 0)
                metrics.backtracks += 1
            if next_cell is None:
                break  # the stack is empty: every option has been tried
            stack.append(next_cell)
            if len(stack) > metrics.max_depth:
                metrics.max_depth = len(stack)
    except _GaveUp:
        gave_up = True
    metrics.checks = board.checks
    return result(count, first, metrics, gave_up, started)
