"""Depth-first search on the cell with the fewest candidates (seed 001's extension), in plain Python.

Seed 001 suggests "find the cell with the fewest possible choices of valid values" instead of the next cell in
reading order. This solver does exactly that and nothing more: each row, column and box keeps a bitmask of the
digits it holds (bit d set = digit d used), a blank cell's candidates are the digits none of its three houses
holds, and at every step the search scans all blank cells and branches on the one with the fewest candidates
(the first in reading order on a tie). A cell with no candidate is a dead end. There is no propagation: a cell
with one candidate is still placed one step at a time, as its own node.

The scan keeps looking after finding a single-candidate cell, because a later cell may have none: stopping at
the first single would place it only to discover the dead end one level deeper.

Metrics (see :mod:`engine.solvers.base`): every placement is a node; it is a guess when its cell had two or more
candidates when chosen (one candidate is a forced move); ``max_depth`` counts the guesses outstanding; ``checks``
counts one candidate-mask test per blank cell examined by the scan and one update per house mask changed
(three per placement and three per take-back).
"""
from __future__ import annotations

import time

from ..geometry import geometry
from ._naive_common import Budget, OnEvent, givens_conflict, prepare, result, units_of
from .base import Metrics, SolveResult


def solve(cells, box: int, limit: int = 1, node_limit: int = 0, *, on_event: OnEvent = None) -> SolveResult:
    """Count up to ``limit`` solutions of ``cells``, branching on the most constrained cell; ``cells`` unchanged."""
    started = time.perf_counter()
    values = prepare(cells, box, limit, node_limit)
    metrics = Metrics()
    if givens_conflict(values, box):
        return result(0, None, metrics, False, started)

    geo = geometry(box)
    n = geo.size
    all_digits = ((1 << n) - 1) << 1  # bits 1..n
    units = units_of(box)
    used = [0] * geo.nhouses  # the digits each unit holds
    nunits = [len(u) for u in units]
    # at most three units a cell (boxes, jigsaw, Latin squares): padded to three by repeating one (every update is
    # idempotent) and written out below, which spares a Python loop at every placement and take-back
    # (docs/benchmarks.md, "Solving"); the diagonals' cells take the loop
    three = max(nunits) <= 3
    if three:
        units = [tuple(u + u[:1] * (3 - len(u))) for u in units]
    for cell, digit in enumerate(values):
        if digit:
            for h in units[cell]:
                used[h] |= 1 << digit
    blanks = [cell for cell, digit in enumerate(values) if digit == 0]
    budget = Budget(node_limit)

    # the search stack, one entry per placement standing: its cell, the candidates not yet tried there, and
    # whether the cell was a branch point (two or more candidates when chosen)
    stack_cell: list[int] = []
    stack_left: list[int] = []
    stack_branch: list[bool] = []
    guesses_out = 0  # branch entries on the stack: the depth metric

    def place_next() -> bool:
        """Give the top entry's cell its next untried candidate; False when the node limit stops the search."""
        if not budget.spend():
            return False
        cell, left = stack_cell[-1], stack_left[-1]
        low = left & -left
        stack_left[-1] = left ^ low
        digit = low.bit_length() - 1
        values[cell] = digit
        if three:
            h0, h1, h2 = units[cell]
            used[h0] |= low
            used[h1] |= low
            used[h2] |= low
        else:
            for h in units[cell]:
                used[h] |= low
        metrics.checks += nunits[cell]
        metrics.nodes += 1
        if stack_branch[-1]:
            metrics.guesses += 1
        if on_event is not None:
            on_event(cell, digit)
        return True

    def take_back(cell: int) -> None:
        keep = ~(1 << values[cell])
        if three:
            h0, h1, h2 = units[cell]
            used[h0] &= keep
            used[h1] &= keep
            used[h2] &= keep
        else:
            for h in units[cell]:
                used[h] &= keep
        values[cell] = 0
        metrics.checks += nunits[cell]
        metrics.backtracks += 1
        if on_event is not None:
            on_event(cell, 0)

    count = 0
    first: list[int] | None = None
    gave_up = False
    while True:
        best, best_left, best_count = -1, 0, n + 1
        for cell in blanks:
            if values[cell]:
                continue
            if three:
                h0, h1, h2 = units[cell]
                taken = used[h0] | used[h1] | used[h2]
            else:
                taken = 0
                for h in units[cell]:
                    taken |= used[h]
            left = all_digits & ~taken
            metrics.checks += 1
            k = left.bit_count()
            if k < best_count:
                best, best_left, best_count = cell, left, k
                if k == 0:
                    break

        if best >= 0 and best_count > 0:  # branch on the most constrained cell
            stack_cell.append(best)
            stack_left.append(best_left)
            stack_branch.append(best_count >= 2)
            if best_count >= 2:
                guesses_out += 1
                metrics.max_depth = max(metrics.max_depth, guesses_out)
            if not place_next():
                gave_up = True
                break
            continue

        if best < 0:  # no blank cell left: a solution
            count += 1
            if first is None:
                first = list(values)
            if count >= limit:
                break
        # a dead end (a cell without candidates, or a solution already counted): back up to an untried candidate
        resumed = False
        while stack_cell:
            take_back(stack_cell[-1])
            if stack_left[-1]:
                if not place_next():
                    gave_up = True
                resumed = True
                break
            stack_cell.pop()
            stack_left.pop()
            if stack_branch.pop():
                guesses_out -= 1
        if gave_up or not resumed:
            break
    return result(count, first, metrics, gave_up, started)
