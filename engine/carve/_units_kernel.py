"""The compiled removal loop of carving on shapes: one attempt's orbits, each tested by the units kernel.

Driven from Python per attempt (engine/carve/units.py draws the order), so the results are those of the plain loop
in tests/naive/shapes.py, call for call; here the loop's hundreds of kernel calls a board cost no Python each.
"""
from __future__ import annotations

from .._jit import kernel
from ..solvers._stats import GAVE_UP
from ..solvers._units import LOCKED_AFTER, count_units


@kernel
def carve_attempt(board, puzzle, order, table, sizes, wanted, node_limit, n, peers, npeers_of, houses, cell_houses,
                  nunits, member, work, queue, stack, branch, solution, stats, out):
    """Remove the orbits of ``table`` in ``order`` from ``puzzle`` (a copy of ``board``), keeping each removal that
    leaves one solution; stop at ``wanted`` clues (-1: minimal). ``out``: clues left, tests made, tests undecided
    (the node limit)."""
    left = puzzle.shape[0]
    tests = 0
    undecided = 0
    for i in range(order.shape[0]):
        k = order[i]
        size = sizes[k]
        if wanted >= 0 and left - size < wanted:
            continue  # would jump below the count asked for
        for j in range(size):
            puzzle[table[k, j]] = 0
        tests += 1
        for s in range(stats.shape[0]):
            stats[s] = 0
        count = count_units(puzzle, n, peers, npeers_of, houses, cell_houses, nunits, member, 2, node_limit,
                            LOCKED_AFTER, work, queue, stack, branch, solution, stats)
        if count == 1 and stats[GAVE_UP] == 0:
            left -= size
            if wanted >= 0 and left == wanted:
                break
        else:
            for j in range(size):
                c = table[k, j]
                puzzle[c] = board[c]
            if stats[GAVE_UP] != 0:
                undecided += 1
    out[0] = left
    out[1] = tests
    out[2] = undecided
