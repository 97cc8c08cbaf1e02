"""Compiled kernels of the fast solver: candidate masks and an explicit-stack search.

State: ``work[c]`` is the candidate mask of cell ``c`` (bit ``d - 1`` = digit ``d``; uint32, 25 bits at most).
A cell whose mask has one bit is solved. What a state forces (singles; on 16x16 and up locked candidates, and
probing the bivalue cells) lives in :mod:`engine.solvers._propagate`. A search that has run long (``PROBE_AFTER``
nodes, 16x16 and up) probes at every node and branches on the cell the probe picks.

When propagation runs dry the search branches on the unsolved cell with the fewest candidates, saving the whole
state (one row of ``stack``) so taking a guess back is one copy; there is no recursion and nothing is allocated in
the loop. Every kernel takes the geometry tables as arguments and keeps no global state, so several threads can
run them at once (they are compiled with ``nogil=True``).

Masks are stored as uint32 but read into int64 locals: numba widens uint32 arithmetic to uint64, and mixing
uint64 with int64 silently gives float64.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel, kernel_with
from ..bits import digit_of, popcount
from ._propagate import _probe, _propagate
from ._stats import BACKTRACKS, CHECKS, GAVE_UP, GUESSES, MAX_DEPTH, NODES

#: nodes a search on 16x16 and up takes before it starts probing (most searches end sooner, and probing them
#: would cost more than it saves)
PROBE_AFTER = 5000
_I = np.int64


@kernel_with(_nrt=False)
def box_of(n):
    """The box size of an n x n grid (n = box * box), inside compiled code."""
    box = 2
    while box * box < n:
        box += 1
    return box


@kernel
def _house_masks(cells, cell_houses, hmask):
    """Digits placed in each house; False when two clues of one house share a digit (conflicting givens)."""
    hmask[:] = 0
    for c in range(cells.shape[0]):
        d = cells[c]
        if d != 0:
            bit = _I(1) << (d - 1)
            h0, h1, h2 = cell_houses[c, 0], cell_houses[c, 1], cell_houses[c, 2]
            if (hmask[h0] | hmask[h1] | hmask[h2]) & bit:
                return False
            hmask[h0] |= bit
            hmask[h1] |= bit
            hmask[h2] |= bit
    return True


@kernel_with(_nrt=False)
def _init_work(cells, n, cell_houses, hmask, work, queue, forbid_cell, forbid_bit, stats):
    """Fill ``work`` from the clues and their house masks, with ``forbid_bit`` removed at ``forbid_cell`` (-1: none).

    Returns ``(qtail, nsolved)``: blank cells already down to one candidate are queued for propagation (they
    count as forced placements); ``qtail == -1`` when a blank cell has no candidate at all.
    """
    full = (_I(1) << n) - 1
    qtail = 0
    nsolved = 0
    for c in range(cells.shape[0]):
        d = cells[c]
        if d != 0:
            work[c] = _I(1) << (d - 1)
            nsolved += 1
            continue
        m = full & ~(hmask[cell_houses[c, 0]] | hmask[cell_houses[c, 1]] | hmask[cell_houses[c, 2]])
        if c == forbid_cell:
            m &= ~forbid_bit
        stats[CHECKS] += 1
        if m == 0:
            return -1, nsolved
        work[c] = m
        if m & (m - 1) == 0:
            queue[qtail] = c
            qtail += 1
            nsolved += 1
    stats[NODES] += qtail
    return qtail, nsolved


@kernel_with(_nrt=False)
def _emit(trace, ntrace, cell, digit):
    """Append one trace event; False once the trace buffer is full."""
    if ntrace[0] >= trace.shape[0]:
        return False
    trace[ntrace[0], 0] = cell
    trace[ntrace[0], 1] = digit
    ntrace[0] += 1
    return True


@kernel_with(_nrt=False)
def _emit_placed(work, queue, qtail, trace, ntrace, shown):
    for i in range(qtail):
        c = queue[i]
        d = digit_of(_I(work[c]))
        shown[c] = d
        if not _emit(trace, ntrace, c, d):
            return False
    return True


@kernel_with(_nrt=False)
def _emit_taken_back(saved, trace, ntrace, shown):
    for c in range(saved.shape[0]):
        m = _I(saved[c])
        if shown[c] != 0 and m & (m - 1) != 0:
            shown[c] = 0
            if not _emit(trace, ntrace, c, 0):
                return False
    return True


@kernel_with(_nrt=False)
def _choose_branch(work, prefer, branch, depth, stats, chosen):
    """Pick the unsolved cell with the fewest candidates and record it in ``branch[:, depth]``: ``branch[0]`` the
    cell, ``branch[1]`` the digits left to try there. Returns ``(cell, digit bit)`` to try first: the digit of
    ``prefer`` (a board) when it has cells and the digit is a candidate, else the smallest. A ``chosen`` cell
    (>= 0) is taken as it is.

    A cell with 2 candidates cannot be beaten, so the scan stops there. (Branching on a digit with two places in a
    house when no cell has two was tried too: it saved few nodes or none on 16x16 and 25x25 and was dropped for
    simplicity.)
    """
    best = chosen  # a cell the caller chose (the probe's pick), or -1
    if best < 0:
        best_count = 99
        for c in range(work.shape[0]):
            k = popcount(_I(work[c]))
            if 1 < k < best_count:
                best = c
                best_count = k
                if k == 2:
                    break
        stats[CHECKS] += work.shape[0]
    m = _I(work[best])
    bit = m & -m
    if prefer.shape[0] > 0 and m & (_I(1) << (prefer[best] - 1)):
        bit = _I(1) << (prefer[best] - 1)
    branch[0, depth] = best
    branch[1, depth] = m ^ bit
    return best, bit


@kernel_with(_nrt=True)  # it allocates its scratch: never compiled under an nrt-free caller's flags
def _search(work, queue, qtail, nsolved, peers, houses, cell_houses, n, limit, node_limit, prefer, stack, branch,
            solution, stats, trace, ntrace, shown, tracing):
    """Count solutions of the state in ``work`` (already initialised, ``queue[:qtail]`` pending) up to ``limit``.

    ``stack`` (ncells + 1, ncells) holds saved states, ``branch`` (3, ncells + 1) the branch records (see
    :func:`_choose_branch`) and the solved count in ``branch[2]``; the first solution goes to ``solution``. At each
    branch the digit of ``prefer`` (a board, or no cells) is tried first. With ``tracing`` every placement and
    take-back is appended to ``trace`` and the search stops at the first solution or a full buffer.
    """
    seg, dirty, tmp = search_scratch(work, houses, n)
    return _search_on(work, queue, qtail, nsolved, peers, houses, cell_houses, n, limit, node_limit, prefer, stack,
                      branch, solution, stats, trace, ntrace, shown, tracing, seg, dirty, tmp)


@kernel_with(_nrt=True)  # allocates (see _search)
def search_scratch(work, houses, n):
    """The scratch of :func:`_search_on` for grids like ``work`` (cells) of ``n`` digits with these ``houses``:
    ``(seg, dirty, tmp)``, the locked candidates' segments (16x16 and up), the houses to scan for hidden singles
    (see _propagate) and the state a probe tries (16x16 and up)."""
    box = box_of(n)
    return (np.empty((2, n if n >= 16 else 0, box + 2), dtype=np.int64), np.empty(houses.shape[0], dtype=np.uint8),
            np.empty(work.shape[0] if n >= 16 else 0, work.dtype))


@kernel_with(_nrt=False)
def _search_on(work, queue, qtail, nsolved, peers, houses, cell_houses, n, limit, node_limit, prefer, stack, branch,
               solution, stats, trace, ntrace, shown, tracing, seg, dirty, tmp):
    """:func:`_search` on its scratch (:func:`search_scratch`). It allocates nothing, so a caller compiled without
    the runtime's reference counts (the carver's removal tests, engine/carve/_removal.py) can run it; copies of
    states are loops for that reason."""
    ncells = work.shape[0]
    count = 0
    depth = 0
    box = box_of(n)
    # probing on 16x16 and up, once the search is big (PROBE_AFTER), when it looks for one solution or for a
    # second: not when counting many (it would probe at every node on the way to each of them: counting the
    # 6,864 solutions of a 16x16 grid took many times longer), nor when tracing (a trace shows singles and guesses)
    probing = n >= 16 and limit <= 2 and not tracing
    ok, qtail, nsolved = _propagate(work, queue, qtail, nsolved, peers, houses, cell_houses, n, box, seg, dirty,
                                    False, stats)
    if tracing and not _emit_placed(work, queue, qtail, trace, ntrace, shown):
        return count
    start = stats[NODES]
    while True:
        pick = -1
        if probing and ok and nsolved < ncells and stats[NODES] - start > PROBE_AFTER:
            ok, nsolved, pick = _probe(work, tmp, queue, nsolved, peers, houses, cell_houses, n, box, seg, dirty,
                                       stats, limit == 1)
        if ok and nsolved == ncells:
            count += 1
            if count == 1:
                for c in range(ncells):
                    solution[c] = digit_of(_I(work[c]))
            if count >= limit or tracing:
                break
            ok = False  # look for the next solution: take the last guess back
        if node_limit > 0 and stats[NODES] >= node_limit:
            stats[GAVE_UP] = 1
            break
        if ok:
            best, bit = _choose_branch(work, prefer, branch, depth, stats, pick)
            for c in range(ncells):
                stack[depth, c] = work[c]
            branch[2, depth] = nsolved
            depth += 1
            if depth > stats[MAX_DEPTH]:
                stats[MAX_DEPTH] = depth
        else:
            if depth == 0:
                break
            d = depth - 1
            # every placement made since this branch point is taken back: the guess and the moves it forced
            # (engine/solvers/base.py defines backtracks so, the same for every solver)
            stats[BACKTRACKS] += max(1, nsolved - branch[2, d])
            if tracing and not _emit_taken_back(stack[d], trace, ntrace, shown):
                break
            best = branch[0, d]
            rest = branch[1, d]
            bit = rest & -rest
            branch[1, d] = rest ^ bit
            for c in range(ncells):
                work[c] = stack[d, c]
            nsolved = branch[2, d]
            if branch[1, d] == 0:
                depth -= 1  # the last alternative left here: its saved state is no longer needed
        stats[GUESSES] += 1
        stats[NODES] += 1
        work[best] = bit
        queue[0] = best
        ok, qtail, nsolved = _propagate(work, queue, 1, nsolved + 1, peers, houses, cell_houses, n, box, seg, dirty,
                                        True, stats)
        if tracing and not _emit_placed(work, queue, qtail, trace, ntrace, shown):
            break
    return count


@kernel
def _solve_cells(cells, n, cell_houses, peers, houses, limit, node_limit, forbid_cell, forbid_bit, hmask, work,
                 queue, stack, branch, solution, stats, trace, ntrace, shown, tracing):
    """Count the solutions of ``cells`` (with ``forbid_bit`` ruled out at ``forbid_cell``) up to ``limit``."""
    if not _house_masks(cells, cell_houses, hmask):
        return 0
    qtail, nsolved = _init_work(cells, n, cell_houses, hmask, work, queue, forbid_cell, forbid_bit, stats)
    if qtail < 0:
        return 0
    return _search(work, queue, qtail, nsolved, peers, houses, cell_houses, n, limit, node_limit, cells[:0], stack,
                   branch, solution, stats, trace, ntrace, shown, tracing)
