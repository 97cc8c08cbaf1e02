"""Compiled carving: remove clues from boards in random order while the puzzle stays unique.

Each removal is tested by :func:`engine.carve._removal._removal_keeps_unique` (the fast solver's kernels looking
for a solution without the removed digit); this module chooses the order of the removals, carves batches of boards
and checks given puzzles for minimality.

Randomness is a xorshift32 stream seeded from an argument, identical compiled or not (``NUMBA_DISABLE_JIT=1``):
numba's own ``np.random`` state is per thread and differs from numpy's.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel, kernel_with
from ..solvers._bitmask import box_of
from ..solvers._stats import CHECKS
from ._removal import _removal_keeps_unique
from ._unavoidable import MAX_CYCLE, MAX_SETS, board_sets

_M32 = 0xFFFFFFFF


@kernel
def _next_random(state):
    """The next 32-bit value of the xorshift32 stream kept in ``state[0]`` (never 0)."""
    x = state[0]
    x = (x ^ (x << 13)) & _M32
    x ^= x >> 17
    x = (x ^ (x << 5)) & _M32
    state[0] = x
    return x


@kernel
def _shuffle(order, state):
    """Fisher-Yates shuffle of ``order`` (``order[i] = i`` first, so the result depends on the stream only).

    The modulo bias of ``random % (i + 1)`` is below 625 / 2**32 and does not matter here.
    """
    for i in range(order.shape[0]):
        order[i] = i
    for i in range(order.shape[0] - 1, 0, -1):
        j = _next_random(state) % (i + 1)
        order[i], order[j] = order[j], order[i]


@kernel_with(_nrt=False)
def _spread_pick(order, orbits, osizes, seen, tried):
    """The untried orbit whose cells see the most clues on average (``seen``: clue peers a cell); ties go to the
    first in ``order``. Marks it tried."""
    best = -1
    best_seen = 0
    best_size = 1
    for i in range(order.shape[0]):
        o = order[i]
        if tried[o]:
            continue
        total = 0
        for t in range(osizes[o]):
            total += seen[orbits[o, t]]
        # total / size > best_seen / best_size, without division
        if best < 0 or total * best_size > best_seen * osizes[o]:
            best = o
            best_seen = total
            best_size = osizes[o]
    tried[best] = 1
    return best


@kernel_with(_nrt=False)
def _try_removal(board, o, orbits, osizes, n, limit, spread, cell_houses, peers, houses, puzzle, hmask, work, queue,
                 stack, branch, solution, stats, trace, ntrace, shown, bands, sets, sizes, cell_sets, seen):
    """Blank orbit ``o`` and test the puzzle (:func:`_removal_keeps_unique` with ``limit`` nodes); put its clues back
    unless it stays unique. Returns the verdict (1 removed, 0 kept, -1 kept undecided). With ``spread`` a removal
    updates ``seen`` (clue peers a cell)."""
    size = osizes[o]
    for t in range(size):
        c = orbits[o, t]
        bit = np.int64(1) << (board[c] - 1)
        puzzle[c] = 0
        for k in range(3):
            hmask[cell_houses[c, k]] ^= bit
    verdict = _removal_keeps_unique(puzzle, board, orbits[o], size, n, limit, cell_houses, peers, houses, hmask,
                                    work, queue, stack, branch, solution, stats, trace, ntrace, shown, bands, sets,
                                    sizes, cell_sets)
    if verdict == 1:
        if spread:
            for t in range(size):
                for q in peers[orbits[o, t]]:
                    seen[q] -= 1
    else:
        for t in range(size):
            c = orbits[o, t]
            bit = np.int64(1) << (board[c] - 1)
            puzzle[c] = board[c]
            for k in range(3):
                hmask[cell_houses[c, k]] ^= bit
    return verdict


@kernel_with(_nrt=False)
def _carve_order(board, order, spread, postpone, orbits, osizes, n, clues_wanted, node_limit, cell_houses, peers,
                 houses, puzzle, hmask, work, queue, stack, branch, solution, stats, trace, ntrace, shown, bands, sets,
                 sizes, cell_sets, seen, tried, later):
    """Carve ``board`` into ``puzzle`` trying the orbits in ``order``; returns ``(clues, tests, undecided)``.

    With ``spread``, the next orbit tried is instead the untried one whose cells see the most clues (their peers'
    clues, an average over the orbit), ties in ``order`` (:func:`_spread_pick`; ``seen`` and ``tried`` are its
    scratch): clues go where they are densest, so those left are spread evenly. On 16x16 and 25x25 that makes the
    removal tests far cheaper (measured: far fewer nodes on 16x16; docs/benchmarks.md, Carving).

    With ``postpone`` > 0 (below ``node_limit``, or with none), a test first gets ``postpone`` nodes; one that needs
    more keeps its clue for now and is tried again, in turn, after every orbit has been tried once (``later`` is
    their list), with ``node_limit``. By then the puzzle has fewer clues, so a second solution, if there is one, is
    easier to find (measured on 16x16 at 500 nodes: fewer nodes, and fewer clues).

    Stops at ``clues_wanted`` clues when that is >= 0 (orbits that would go below it are skipped); otherwise
    every orbit is tried, which leaves a minimal puzzle: a removal that failed once fails for good, since removing
    more clues only adds solutions. A test that hits ``node_limit`` keeps its clue (``undecided``): the puzzle
    stays unique, but is then not proven minimal.

    Compiled without the runtime's reference counts (so is everything it calls): each removal test passes some
    twenty arrays down three calls, and numba counted a reference to each on the way in and out of every call,
    with atomic operations. perf put a large share of 9x9 carving's samples in those counts, and a 9x9 board
    carves much faster without them (docs/benchmarks.md, Against tdoku). Nothing below may allocate: the cell-mask
    search
    takes its scratch from the caller (``bands`` is then engine.solvers._bitmask.search_scratch's tuple), and
    copies are loops.
    """
    ncells = board.shape[0]
    full = (np.int64(1) << n) - 1
    # loops, not slice writes: this search runs without the runtime's reference counts, which cannot copy a slice
    for c in range(ncells):
        puzzle[c] = board[c]
    for h in range(hmask.size):
        hmask[h] = full
    clues = ncells
    tests = 0
    undecided = 0
    if spread:
        for c in range(ncells):
            seen[c] = peers.shape[1]  # the full board: every peer is a clue
        for o in range(tried.size):
            tried[o] = 0
    first = node_limit
    if postpone > 0 and (node_limit == 0 or postpone < node_limit):
        first = postpone
    postponed = 0
    for j in range(order.shape[0] * 2):
        if clues == clues_wanted:
            break
        if j < order.shape[0]:
            o = _spread_pick(order, orbits, osizes, seen, tried) if spread else order[j]
            limit = first
        elif j - order.shape[0] < postponed:
            o = later[j - order.shape[0]]
            limit = node_limit
        else:
            break
        size = osizes[o]
        if clues_wanted >= 0 and clues - size < clues_wanted:
            continue
        tests += 1
        verdict = _try_removal(board, o, orbits, osizes, n, limit, spread, cell_houses, peers, houses, puzzle, hmask,
                               work, queue, stack, branch, solution, stats, trace, ntrace, shown, bands, sets, sizes,
                               cell_sets, seen)
        if verdict == 1:
            clues -= size
        elif verdict < 0:
            if limit != node_limit:
                later[postponed] = o
                postponed += 1
            else:
                undecided += 1
    return clues, tests, undecided


@kernel
def _carve_batch(boards, states, attempts, clues_wanted, target, node_limit, spread, postpone, orbits, osizes, n,
                 cell_houses, peers, houses, puzzles, results, order, puzzle, hmask, work, queue, stack, branch,
                 solution, stats, trace, ntrace, shown, bands):
    """Carve every row of ``boards``, up to ``attempts`` random orders each, keeping the fewest clues.

    Board ``i`` uses the random stream seeded by ``states[i]``; with ``spread`` the order is the clues' density's,
    ties in the random order, and tests past ``postpone`` nodes wait for a second round (:func:`_carve_order`). An attempt that reaches ``clues_wanted`` (>= 0)
    or ``target`` (>= 0) clues ends the board's attempts early. ``results[i]`` gets the clues, the removal tests
    made, the attempts used, the mask checks spent (a measure of the board's share of the batch time) and the
    undecided tests of the kept puzzle.
    """
    state = np.zeros(1, dtype=np.int64)
    box = box_of(n)
    sets = np.empty((MAX_SETS, 2 * MAX_CYCLE), dtype=np.int64)
    sizes = np.empty(MAX_SETS, dtype=np.int64)
    cell_sets = np.empty(boards.shape[1], dtype=np.int64)
    position = np.empty(n + 1, dtype=np.int64)
    seen = np.empty(boards.shape[1], dtype=np.int64)
    tried = np.empty(order.shape[0], dtype=np.int8)
    later = np.empty(order.shape[0], dtype=np.int64)
    for i in range(boards.shape[0]):
        board_sets(boards[i], n, box, sets, sizes, cell_sets, position)
        state[0] = states[i]
        stats[:] = 0
        tests = 0
        best = boards.shape[1] + 1
        used = 0
        undecided = 0
        for a in range(attempts):
            _shuffle(order, state)
            clues, t, u = _carve_order(boards[i], order, spread, postpone, orbits, osizes, n, clues_wanted,
                                       node_limit, cell_houses, peers, houses, puzzle, hmask, work, queue, stack,
                                       branch, solution, stats, trace, ntrace, shown, bands, sets, sizes, cell_sets,
                                       seen, tried, later)
            tests += t
            used = a + 1
            if clues < best:
                best = clues
                undecided = u
                puzzles[i, :] = puzzle
            if clues == clues_wanted or clues <= target:
                break
        results[i, 0] = best
        results[i, 1] = tests
        results[i, 2] = used
        results[i, 3] = stats[CHECKS]
        results[i, 4] = undecided


@kernel
def _minimal_batch(puzzles, boards, node_limit, n, cell_houses, peers, houses, results, puzzle, orbit, hmask, work,
                   queue, stack, branch, solution, stats, trace, ntrace, shown, bands):
    """Whether each unique puzzle ``puzzles[i]`` (solution ``boards[i]``) is minimal: every clue is removed alone,
    in reading order, and :func:`_removal_keeps_unique` tells whether the puzzle stays unique without it.

    ``results[i]`` gets (1 when no clue can go and every test was decided, else 0; removal tests made; tests that
    hit ``node_limit``). The first clue that can go ends the puzzle's tests: it is not minimal.
    """
    ncells = boards.shape[1]
    box = box_of(n)
    sets = np.empty((MAX_SETS, 2 * MAX_CYCLE), dtype=np.int64)
    sizes = np.empty(MAX_SETS, dtype=np.int64)
    cell_sets = np.empty(ncells, dtype=np.int64)
    position = np.empty(n + 1, dtype=np.int64)
    for i in range(puzzles.shape[0]):
        board_sets(boards[i], n, box, sets, sizes, cell_sets, position)
        results[i, 0], results[i, 1], results[i, 2] = _minimal_one(
            puzzles[i], boards[i], node_limit, n, cell_houses, peers, houses, puzzle, orbit, hmask, work, queue,
            stack, branch, solution, stats, trace, ntrace, shown, bands, sets, sizes, cell_sets)


@kernel_with(_nrt=False)
def _minimal_one(given, board, node_limit, n, cell_houses, peers, houses, puzzle, orbit, hmask, work, queue, stack,
                 branch, solution, stats, trace, ntrace, shown, bands, sets, sizes, cell_sets):
    """:func:`_minimal_batch` for one puzzle (``given``, its solution ``board``, the board's unavoidable sets
    already made): ``(minimal, tests, undecided)``. Compiled without reference counts, as :func:`_carve_order`
    is, for the same reason: the removal test's call takes some twenty arrays."""
    ncells = board.shape[0]
    for c in range(ncells):
        puzzle[c] = given[c]
    for h in range(hmask.size):
        hmask[h] = 0
    for c in range(ncells):
        d = puzzle[c]
        if d > 0:
            bit = np.int64(1) << (d - 1)
            for k in range(3):
                hmask[cell_houses[c, k]] |= bit
    for k in range(stats.size):
        stats[k] = 0
    removable = False
    tests = 0
    undecided = 0
    for c in range(ncells):
        d = puzzle[c]
        if d == 0:
            continue
        bit = np.int64(1) << (d - 1)
        puzzle[c] = 0
        for k in range(3):
            hmask[cell_houses[c, k]] ^= bit
        orbit[0] = c
        tests += 1
        verdict = _removal_keeps_unique(puzzle, board, orbit, 1, n, node_limit, cell_houses, peers, houses, hmask,
                                        work, queue, stack, branch, solution, stats, trace, ntrace, shown, bands, sets,
                                        sizes, cell_sets)
        puzzle[c] = d
        for k in range(3):
            hmask[cell_houses[c, k]] ^= bit
        if verdict == 1:
            removable = True
            break
        if verdict < 0:
            undecided += 1
    return 0 if removable or undecided > 0 else 1, tests, undecided
