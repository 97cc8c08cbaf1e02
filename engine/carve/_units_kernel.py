"""The compiled removal loop of carving on shapes: one attempt's orbits, each tested over the units kernels.

Driven from Python per attempt (engine/carve/units.py draws the order), so the results are those of the plain loop
in tests/naive/shapes.py, call for call; here the loop's hundreds of kernel calls a board cost no Python each.

The removal test answers what counting the puzzle to two would, for less (the square carver's rules,
engine/carve/_removal.py, over any shape's units):

* a removal that leaves one of the board's small unavoidable sets (engine/carve/_unit_sets.py) without a clue has a
  second solution: no search;
* otherwise a second solution differs from the board in one of the orbit's cells (the puzzle was unique before),
  so each orbit cell gets one search for ONE solution with the board's digit ruled out there. Counting to two
  first proved the old puzzle unique again (the whole subtree of the board's digit) and only then looked past it;
* a cell whose units' clues rule out every other digit, or whose digit has no other place in one of its units by
  the clues alone, needs no search.

The search is the shape's kernel (engine/solvers/units.py): the bitboard one on jigsaw layouts up to 11x11, the
cell-mask one elsewhere. Measured on every shape: docs/benchmarks.md, "Shapes".
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..solvers._stats import GAVE_UP
from ..solvers import _bitboard as bb
from ..solvers._units import LOCKED_AFTER, _propagate, search_units
from ._unavoidable import empties_a_set


@kernel
def _clue_digits(c, cell_houses, nunits, umask):
    """The digits the clues of cell ``c``'s units hold, as bits (``umask``: the clues of each unit)."""
    seen = np.int64(0)
    for j in range(nunits[c]):
        seen |= umask[cell_houses[c, j]]
    return seen


@kernel
def _only_place(puzzle, c, bit, houses, cell_houses, nunits, umask):
    """Whether the digit ``bit`` has no place but the blank cell ``c`` in one of ``c``'s units by the clues alone
    (every other cell of the unit holds a clue or sees a clue of that digit): every solution then has it in ``c``."""
    for j in range(nunits[c]):
        u = cell_houses[c, j]
        alone = True
        for i in range(houses.shape[1]):
            x = houses[u, i]
            if x == c or puzzle[x] != 0:
                continue
            if _clue_digits(x, cell_houses, nunits, umask) & bit == 0:
                alone = False
                break
        if alone:
            return True
    return False


@kernel
def _other_solution(puzzle, board, c, bit, n, node_limit, peers, npeers_of, houses, cell_houses, nunits, member,
                    umask, work, queue, stack, branch, solution, stats):
    """1 when a solution of ``puzzle`` has a digit other than the board's in blank cell ``c``, 0 when none has, -1
    when the search hit ``node_limit`` nodes (0 = none) first. The search starts from the clues' candidates (each
    blank cell without its units' clue digits), ``c`` without the board's digit, and tries the board's digits
    first."""
    full = (np.int64(1) << n) - 1
    qtail = 0
    for x in range(puzzle.shape[0]):
        if puzzle[x] != 0:
            work[x] = np.int64(1) << (puzzle[x] - 1)
            continue
        m = full & ~_clue_digits(x, cell_houses, nunits, umask)
        if x == c:
            m &= ~bit
        if m == 0:
            return 0
        work[x] = m
        if m & (m - 1) == 0:
            queue[qtail] = x
            qtail += 1
    ok, nsolved = _propagate(work, queue, qtail, peers, npeers_of, houses, cell_houses, nunits, member, n, False,
                             stats)
    if not ok:
        return 0
    found = search_units(work, ok, nsolved, n, peers, npeers_of, houses, cell_houses, nunits, member, 1, node_limit,
                         LOCKED_AFTER, board, queue, stack, branch, solution, stats)
    if found:
        return 1
    return -1 if stats[GAVE_UP] else 0


@kernel
def _other_solution_bb(puzzle, board, c, n, node_limit, umask, units, peers, full, cell_houses, nunits, cand, solved,
                       dirty, stack, branch, solution, stats):
    """:func:`_other_solution` on the bitboard search (engine/solvers/_bitboard.py), for shapes of up to 126 cells:
    each digit's places are the cells of its clues and the blank cells of the units without it (from ``umask``, the
    clues of each unit: no clue placed one by one), the board's digit is taken from ``c``, and one solution is
    looked for (the board's digits first)."""
    solved[0] = solved[1] = 0
    for e in range(n):
        cand[e, 0] = cand[e, 1] = 0
    for x in range(puzzle.shape[0]):
        if puzzle[x] != 0:
            w = x // bb.BITS
            b = np.int64(1) << (x % bb.BITS)
            solved[w] |= b
            cand[puzzle[x] - 1, w] |= b
    for e in range(n):
        bit = np.int64(1) << e
        out0 = solved[0]
        out1 = solved[1]
        for u in range(units.shape[0]):
            if umask[u] & bit:
                out0 |= units[u, 0]
                out1 |= units[u, 1]
        cand[e, 0] |= full[0] & ~out0
        cand[e, 1] |= full[1] & ~out1
    d = board[c] - 1
    w = c // bb.BITS
    b = np.int64(1) << (c % bb.BITS)
    cand[d, w] &= ~b
    dirty[0] = full[0] & ~solved[0]
    dirty[1] = full[1] & ~solved[1]
    dirty[2] = (np.int64(1) << n) - 1
    if bb.search(cand, solved, dirty, True, n, units, peers, full, cell_houses, nunits, 1, node_limit, board, stack,
                 branch, solution, stats):
        return 1
    return -1 if stats[GAVE_UP] else 0


@kernel
def _keeps_unique(puzzle, board, orbit, size, n, node_limit, peers, npeers_of, houses, cell_houses, nunits, member,
                  umask, sets, set_sizes, cell_sets, work, queue, stack, branch, solution, stats, boards):
    """1 when the puzzle (the orbit's cells already blank) has no solution but ``board``, 0 when it has another, -1
    when a search hit ``node_limit`` first (see the module docstring). ``boards``: the bitboard search's tables and
    scratch (engine.solvers.units' ``carving_boards``), its first array empty where the cell-mask search is used."""
    units, bpeers, bfull, cand, solved, dirty, bstack, bbranch = boards
    if empties_a_set(puzzle, orbit, size, sets, set_sizes, cell_sets):
        return 0
    full = (np.int64(1) << n) - 1
    verdict = 1
    for t in range(size):
        c = orbit[t]
        bit = np.int64(1) << (board[c] - 1)
        if full & ~_clue_digits(c, cell_houses, nunits, umask) & ~bit == 0:
            continue
        if _only_place(puzzle, c, bit, houses, cell_houses, nunits, umask):
            continue
        for s in range(stats.shape[0]):
            stats[s] = 0
        if units.shape[0]:
            other = _other_solution_bb(puzzle, board, c, n, node_limit, umask, units, bpeers, bfull, cell_houses,
                                       nunits, cand, solved, dirty, bstack, bbranch, solution, stats)
        else:
            other = _other_solution(puzzle, board, c, bit, n, node_limit, peers, npeers_of, houses, cell_houses,
                                    nunits, member, umask, work, queue, stack, branch, solution, stats)
        if other == 1:
            return 0
        if other == -1:
            verdict = -1
    return verdict


@kernel
def _flip(c, bit, cell_houses, nunits, umask):
    for j in range(nunits[c]):
        umask[cell_houses[c, j]] ^= bit


@kernel
def carve_attempt(board, puzzle, order, table, sizes, wanted, node_limit, n, peers, npeers_of, houses, cell_houses,
                  nunits, member, sets, set_sizes, cell_sets, umask, work, queue, stack, branch, solution, stats,
                  boards, out):
    """Remove the orbits of ``table`` in ``order`` from ``puzzle`` (a copy of ``board``), keeping each removal that
    leaves one solution; stop at ``wanted`` clues (-1: minimal). ``sets``, ``set_sizes``, ``cell_sets``: the
    board's unavoidable sets (:func:`engine.carve._unit_sets.unit_sets`); ``umask``: scratch, a mask a unit.
    ``out``: clues left, tests made, tests undecided (the node limit)."""
    full = (np.int64(1) << n) - 1
    for u in range(umask.shape[0]):
        umask[u] = full
    left = puzzle.shape[0]
    tests = 0
    undecided = 0
    for i in range(order.shape[0]):
        k = order[i]
        size = sizes[k]
        if wanted >= 0 and left - size < wanted:
            continue  # would jump below the count asked for
        for j in range(size):
            c = table[k, j]
            puzzle[c] = 0
            _flip(c, np.int64(1) << (board[c] - 1), cell_houses, nunits, umask)
        tests += 1
        verdict = _keeps_unique(puzzle, board, table[k], size, n, node_limit, peers, npeers_of, houses, cell_houses,
                                nunits, member, umask, sets, set_sizes, cell_sets, work, queue, stack, branch,
                                solution, stats, boards)
        if verdict == 1:
            left -= size
            if wanted >= 0 and left == wanted:
                break
        else:
            for j in range(size):
                c = table[k, j]
                puzzle[c] = board[c]
                _flip(c, np.int64(1) << (board[c] - 1), cell_houses, nunits, umask)
            if verdict == -1:
                undecided += 1
    out[0] = left
    out[1] = tests
    out[2] = undecided
