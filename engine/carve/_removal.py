"""The carver's removal test: does the puzzle stay unique with these clues taken out?

A unique puzzle with the clue ``d`` at cell ``c`` removed stays unique exactly when no solution has a digit other
than ``d`` in ``c``, so the test rules ``d`` out at ``c`` and looks for ONE solution (usually a quick
contradiction) with the fast solver's kernels, instead of counting to two. Before any search, a removal that
leaves one of the board's small unavoidable sets without a clue fails at once, and a cell whose peers already rule
out every other digit passes at once (most removals from a nearly full grid).

Everything here runs under the carver's kernels compiled without reference counts (engine/carve/_kernel.py), so
nothing here allocates when it is given its scratch.
"""
from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from .._jit import kernel_with
from ..solvers._bands import STATS, solve9_exists
from ..solvers._bitmask import _init_work, _search, _search_on
from ..solvers._stats import CHECKS, GAVE_UP, NODES
from ._unavoidable import empties_a_set


def _cell_test(puzzle, board, c, bit, n, node_limit, cell_houses, peers, houses, hmask, work, queue, stack, branch,
               solution, stats, trace, ntrace, shown, bands):
    """1 when no solution has a digit other than the board's in cell ``c`` (a blank orbit cell), 0 when one does,
    -1 when the search hit ``node_limit`` nodes. Compiled code chooses when compiling (:func:`_choose_cell_test`);
    this body is what runs as plain Python (``NUMBA_DISABLE_JIT=1``)."""
    test = _band_test if isinstance(bands, np.ndarray) else _cellmask_test
    return test(puzzle, board, c, bit, n, node_limit, cell_houses, peers, houses, hmask, work, queue, stack, branch,
                solution, stats, trace, ntrace, shown, bands)


@overload(_cell_test)
def _choose_cell_test(puzzle, board, c, bit, n, node_limit, cell_houses, peers, houses, hmask, work, queue, stack,
                      branch, solution, stats, trace, ntrace, shown, bands):
    """The band kernel when ``bands`` is its scratch array (9x9), the cell-mask kernel when it is None or that
    kernel's scratch (engine.solvers._bitmask.search_scratch, which the carver passes: see
    engine.carve._kernel._carve_order).

    Decided by the argument's type while compiling, so a 9x9 run compiles only the band kernel and other sizes
    only the cell-mask one (numba compiles both arms of a runtime ``if``, and compiling is most of a first run)."""
    if isinstance(bands, (types.NoneType, types.BaseTuple)):
        return _cellmask_test
    return _band_test


def _band_test(puzzle, board, c, bit, n, node_limit, cell_houses, peers, houses, hmask, work, queue, stack, branch,
               solution, stats, trace, ntrace, shown, bands):
    # board digits first (as below); the band kernel's metrics are per call, so they are added up here
    found = solve9_exists(puzzle, np.int64(c), np.int64(board[c]), node_limit, board, bands, solution)
    stats[NODES] += bands[STATS, NODES]
    stats[CHECKS] += bands[STATS, CHECKS]
    if found:
        return 0
    if bands[STATS, GAVE_UP]:
        stats[GAVE_UP] = 1
        return -1
    return 1


def _cellmask_test(puzzle, board, c, bit, n, node_limit, cell_houses, peers, houses, hmask, work, queue, stack,
                   branch, solution, stats, trace, ntrace, shown, bands):
    stats[GAVE_UP] = 0
    qtail, nsolved = _init_work(puzzle, n, cell_houses, hmask, work, queue, c, bit, stats)
    if qtail < 0:
        return 1
    limit = stats[NODES] + node_limit if node_limit > 0 else 0  # the kernel compares with running totals
    # try the board's digit first at each branch: a second solution usually differs from the board in a few
    # cells only, so this finds it sooner (measured: 16x16 carving faster, and on 25x25 fewer tests hit the node
    # limit)
    if _search_with(work, queue, qtail, nsolved, peers, houses, cell_houses, n, 1, limit, board, stack, branch,
                    solution, stats, trace, ntrace, shown, bands) > 0:
        return 0
    if stats[GAVE_UP]:
        return -1
    return 1


def _search_with(work, queue, qtail, nsolved, peers, houses, cell_houses, n, limit, node_limit, prefer, stack,
                 branch, solution, stats, trace, ntrace, shown, scratch):
    """The cell-mask search for one solution, on ``scratch`` (engine.solvers._bitmask.search_scratch), or on its
    own when that is None (a removal test called alone, as the bench scripts do). Compiled code chooses when
    compiling (:func:`_choose_search`); this body is what runs as plain Python."""
    if scratch is None:
        return _search(work, queue, qtail, nsolved, peers, houses, cell_houses, n, limit, node_limit, prefer, stack,
                       branch, solution, stats, trace, ntrace, shown, False)
    seg, dirty, tmp = scratch
    return _search_on(work, queue, qtail, nsolved, peers, houses, cell_houses, n, limit, node_limit, prefer, stack,
                      branch, solution, stats, trace, ntrace, shown, False, seg, dirty, tmp)


@overload(_search_with)
def _choose_search(work, queue, qtail, nsolved, peers, houses, cell_houses, n, limit, node_limit, prefer, stack,
                   branch, solution, stats, trace, ntrace, shown, scratch):
    """:func:`_search_with`'s two cases, told apart by the scratch's type while compiling: the one without scratch
    allocates, which a caller compiled without reference counts cannot do."""
    if isinstance(scratch, types.NoneType):
        def alone(work, queue, qtail, nsolved, peers, houses, cell_houses, n, limit, node_limit, prefer, stack,
                  branch, solution, stats, trace, ntrace, shown, scratch):
            return _search(work, queue, qtail, nsolved, peers, houses, cell_houses, n, limit, node_limit, prefer,
                           stack, branch, solution, stats, trace, ntrace, shown, False)
        return alone

    def on_scratch(work, queue, qtail, nsolved, peers, houses, cell_houses, n, limit, node_limit, prefer, stack,
                   branch, solution, stats, trace, ntrace, shown, scratch):
        return _search_on(work, queue, qtail, nsolved, peers, houses, cell_houses, n, limit, node_limit, prefer,
                          stack, branch, solution, stats, trace, ntrace, shown, False, scratch[0], scratch[1],
                          scratch[2])
    return on_scratch


@kernel_with(_nrt=False)
def _only_place(puzzle, c, bit, cell_houses, houses, hmask):
    """Whether the digit ``bit`` has no place but the blank cell ``c`` in one of its houses, by the clues alone
    (every other cell of the house holds a clue or sees a clue of that digit): then every solution has it in
    ``c``, and the removal test passes without a search (a few dozen mask reads instead of a search; 9x9 carving a
    little faster, measured under load)."""
    for k in range(3):
        h = cell_houses[c, k]
        alone = True
        for i in range(houses.shape[1]):
            x = houses[h, i]
            if x == c or puzzle[x] != 0:
                continue
            if (hmask[cell_houses[x, 0]] | hmask[cell_houses[x, 1]] | hmask[cell_houses[x, 2]]) & bit == 0:
                alone = False
                break
        if alone:
            return True
    return False


@kernel_with(_nrt=False)
def _removal_keeps_unique(puzzle, board, orbit, size, n, node_limit, cell_houses, peers, houses, hmask, work,
                          queue, stack, branch, solution, stats, trace, ntrace, shown, bands, sets, sizes,
                          cell_sets):
    """1 when the puzzle (orbit cells already blank) has no solution other than ``board``, 0 when it has one,
    -1 when a search hit ``node_limit`` nodes (0 = none) before deciding.

    A removal that leaves one of the board's small unavoidable sets (``sets``, ``sizes``, ``cell_sets``: see
    engine/carve/_unavoidable.py) without a clue has a second solution: 0 without a search. Otherwise a second
    solution must differ from the board in at least one orbit cell, so one forbidden-digit search per orbit cell
    answers it; each stops at the first solution it finds.
    """
    if empties_a_set(puzzle, orbit, size, sets, sizes, cell_sets):
        return 0
    full = (np.int64(1) << n) - 1
    for t in range(size):
        c = orbit[t]
        bit = np.int64(1) << (board[c] - 1)
        others = full & ~(hmask[cell_houses[c, 0]] | hmask[cell_houses[c, 1]] | hmask[cell_houses[c, 2]]) & ~bit
        stats[CHECKS] += 1
        if others == 0:  # the peers' clues leave only the board's digit: no search needed
            continue
        if _only_place(puzzle, c, bit, cell_houses, houses, hmask):  # a hidden single on the clues alone
            continue
        verdict = _cell_test(puzzle, board, c, bit, n, node_limit, cell_houses, peers, houses, hmask, work, queue,
                             stack, branch, solution, stats, trace, ntrace, shown, bands)
        if verdict < 1:
            return verdict
    return 1
