"""Compiled kernels of the fast solver: candidate masks, propagation, and an explicit-stack search.

State: ``work[c]`` is the candidate mask of cell ``c`` (bit ``d - 1`` = digit ``d``; uint32, 25 bits at most).
A cell whose mask has one bit is solved. Two kinds of forced placement are propagated:

* naked single: a cell down to one candidate; the digit is removed from its peers (a FIFO queue of newly solved
  cells drives this, so each solved cell is propagated exactly once);
* hidden single: a digit with one place left in a house, found per house with the once/twice trick
  (``twice |= once & m; once |= m``: digits in ``once & ~twice`` occur in exactly one cell of the house).

On 16x16 and up, locked candidates join them, and a search that has run long (``PROBE_AFTER`` nodes) probes the
bivalue cells at every node (:func:`_probe`) and branches on the one the probe picks.

When both run dry the search branches on the unsolved cell with the fewest candidates, saving the whole state
(one row of ``stack``) so taking a guess back is one copy; there is no recursion and nothing is allocated in
the loop. Every kernel takes the geometry tables as arguments and keeps no global state, so several threads can
run them at once (they are compiled with ``nogil=True``).

Masks are stored as uint32 but read into int64 locals: numba widens uint32 arithmetic to uint64, and mixing
uint64 with int64 silently gives float64.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..bits import digit_of, popcount
from ._locked import _locked_candidates

# slots of the int64 ``stats`` array every search kernel fills (metric names from engine.solvers.base)
NODES, GUESSES, BACKTRACKS, CHECKS, MAX_DEPTH, GAVE_UP = 0, 1, 2, 3, 4, 5
NSTATS = 6
#: nodes a search on 16x16 and up takes before it starts probing (most searches end sooner, and probing them
#: would cost more than it saves)
PROBE_AFTER = 5000
_I = np.int64


@kernel
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


@kernel
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


@kernel
def _propagate(work, queue, qtail, nsolved, peers, houses, n, box, seg, stats):
    """Apply naked and hidden singles until neither finds anything; ``queue[:qtail]`` are solved, unpropagated cells.

    On 16x16 and larger (``seg`` has rows), locked candidates run too once singles are exhausted.

    Returns ``(ok, qtail, nsolved)``; ``queue[:qtail]`` then lists every cell solved so far in this call, in the
    order it was solved. On a contradiction the emptied mask is not written back, so every queued cell still
    shows the digit it was given (the trace relies on that; the state is thrown away anyway).
    """
    full = (_I(1) << n) - 1
    ncells = work.shape[0]
    npeers = peers.shape[1]
    nhouses = houses.shape[0]
    qhead = 0
    qstart = qtail
    checks = 0
    ok = True
    h = 0  # next house to scan for hidden singles
    quiet = 0  # houses scanned in a row that had none
    while ok:
        while qhead < qtail:
            c = queue[qhead]
            qhead += 1
            bit = _I(work[c])
            checks += npeers
            for k in range(npeers):
                p = peers[c, k]
                m = _I(work[p])
                if m & bit:
                    m ^= bit
                    if m == 0:
                        ok = False
                        break
                    work[p] = m
                    if m & (m - 1) == 0:
                        queue[qtail] = p
                        qtail += 1
                        nsolved += 1
            if not ok:
                break
        if not ok or nsolved == ncells:
            break
        if quiet >= nhouses:
            if seg.shape[1] == 0:
                break
            ok, qtail, nsolved, changed = _locked_candidates(work, queue, qtail, nsolved, n, box, seg)
            checks += 2 * n * n
            if not ok or not changed:
                break
            quiet = 0
            continue
        # Hidden singles, only once naked singles are exhausted: every solved cell is then propagated, so a digit
        # placed in a house shows up in exactly one cell of it and is masked out via ``placed``. Houses are scanned
        # round-robin and naked singles run as soon as one house yields something; the fixpoint is a full quiet
        # round. Measured against full sweeps between naked rounds: 17% fewer mask checks per count-to-2 of a
        # random minimal 9x9 puzzle (3,909 -> 3,264), since fewer sweeps end empty.
        while quiet < nhouses:
            once = _I(0)
            twice = _I(0)
            placed = _I(0)
            for i in range(n):
                m = _I(work[houses[h, i]])
                twice |= once & m
                once |= m
                if m & (m - 1) == 0:
                    placed |= m
            checks += n
            if once != full:  # some digit has no place left in this house
                ok = False
                break
            only = once & ~twice & ~placed
            while only:
                bit = only & -only
                only ^= bit
                cell = -1
                for i in range(n):
                    if work[houses[h, i]] & bit:
                        cell = houses[h, i]
                        break
                if cell < 0:  # the cell was just given another hidden single of this house
                    ok = False
                    break
                work[cell] = bit
                queue[qtail] = cell
                qtail += 1
                nsolved += 1
            if not ok:
                break
            h += 1
            if h == nhouses:
                h = 0
            if qhead < qtail:
                quiet = 0
                break
            quiet += 1
    stats[CHECKS] += checks
    stats[NODES] += qtail - qstart
    return ok, qtail, nsolved


@kernel
def _probe(work, tmp, queue, nsolved, peers, houses, n, box, seg, stats, stop_at_solution):
    """One pass over the bivalue cells of ``work``, probing each; returns ``(ok, nsolved, pick)`` (not ok: the
    state has no solution). ``tmp`` is a scratch row like ``work``.

    Each digit of a bivalue cell is placed in a copy of the state and propagated (singles and locked candidates):
    a digit whose outcome is a contradiction goes, and the other is placed and propagated (a failed literal).
    This is forcing chains from one cell with singles as links. It costs two propagations per bivalue cell at each
    node, and the search probes on 16x16 and up only, once it has run long (``PROBE_AFTER``): the last removal
    tests of a carving take hundreds of thousands of nodes without it (docs/benchmarks.md, "Probing"). Measured
    and not kept: probing again until a pass changes nothing (10 % slower), and also removing what neither live
    outcome keeps (their union; a few % fewer nodes, the same time).

    ``pick`` is the bivalue cell to branch on next (-1: none): the one whose two outcomes solved the most cells,
    scored as the product of the two counts (each with the probed cell), so both branches shrink. Lookahead SAT
    solvers choose so; it is free here.

    With ``stop_at_solution`` (a search for one solution) an outcome that solves the grid is copied to ``work`` and
    returned at once. Counting does not stop there: the search finds that solution again by branching.
    """
    ncells = work.shape[0]
    pick = -1
    top = -1
    for c in range(ncells):
        m = _I(work[c])
        if popcount(m) != 2:
            continue
        alive = 0
        score = 1
        live = _I(0)
        rest = m
        while rest:
            bit = rest & -rest
            rest ^= bit
            tmp[:] = work
            tmp[c] = bit
            queue[0] = c
            ok, _, solved = _propagate(tmp, queue, 1, nsolved + 1, peers, houses, n, box, seg, stats)
            if not ok:
                continue
            if stop_at_solution and solved == ncells:
                work[:] = tmp
                return True, ncells, -1
            alive += 1
            live = bit
            score *= solved - nsolved
        if alive == 0:
            return False, nsolved, -1
        if alive == 2:
            if score > top:
                top = score
                pick = c
            continue
        # one digit died: the other goes in, and its consequences follow
        work[c] = live
        queue[0] = c
        ok, _, nsolved = _propagate(work, queue, 1, nsolved + 1, peers, houses, n, box, seg, stats)
        if not ok:
            return False, nsolved, -1
        if nsolved == ncells:
            return True, nsolved, -1
    if pick >= 0 and popcount(_I(work[pick])) != 2:
        pick = -1  # solved since by a later cell's failed literal
    return True, nsolved, pick


@kernel
def _emit(trace, ntrace, cell, digit):
    """Append one trace event; False once the trace buffer is full."""
    if ntrace[0] >= trace.shape[0]:
        return False
    trace[ntrace[0], 0] = cell
    trace[ntrace[0], 1] = digit
    ntrace[0] += 1
    return True


@kernel
def _emit_placed(work, queue, qtail, trace, ntrace, shown):
    for i in range(qtail):
        c = queue[i]
        d = digit_of(_I(work[c]))
        shown[c] = d
        if not _emit(trace, ntrace, c, d):
            return False
    return True


@kernel
def _emit_taken_back(saved, trace, ntrace, shown):
    for c in range(saved.shape[0]):
        m = _I(saved[c])
        if shown[c] != 0 and m & (m - 1) != 0:
            shown[c] = 0
            if not _emit(trace, ntrace, c, 0):
                return False
    return True


@kernel
def _choose_branch(work, prefer, branch, depth, stats, chosen):
    """Pick the unsolved cell with the fewest candidates and record it in ``branch[:, depth]``: ``branch[0]`` the
    cell, ``branch[1]`` the digits left to try there. Returns ``(cell, digit bit)`` to try first: the digit of
    ``prefer`` (a board) when it has cells and the digit is a candidate, else the smallest. A ``chosen`` cell
    (>= 0) is taken as it is.

    A cell with 2 candidates cannot be beaten, so the scan stops there. (Branching on a digit with two places in a
    house when no cell has two was tried too: it changed 16x16 and 25x25 node counts by nothing to -20% and was
    dropped for simplicity.)
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


@kernel
def _search(work, queue, qtail, nsolved, peers, houses, n, limit, node_limit, prefer, stack, branch, solution,
            stats, trace, ntrace, shown, tracing):
    """Count solutions of the state in ``work`` (already initialised, ``queue[:qtail]`` pending) up to ``limit``.

    ``stack`` (ncells + 1, ncells) holds saved states, ``branch`` (3, ncells + 1) the branch records (see
    :func:`_choose_branch`) and the solved count in ``branch[2]``; the first solution goes to ``solution``. At each
    branch the digit of ``prefer`` (a board, or no cells) is tried first. With ``tracing`` every placement and
    take-back is appended to ``trace`` and the search stops at the first solution or a full buffer.
    """
    ncells = work.shape[0]
    count = 0
    depth = 0
    box = box_of(n)
    seg = np.empty((2, n if n >= 16 else 0, box), dtype=np.int64)  # locked candidates on 16x16 and up only
    # probing on 16x16 and up, once the search is big (PROBE_AFTER), when it looks for one solution or for a
    # second: not when counting many (it would probe at every node on the way to each of them: counting the
    # 6,864 solutions of a 16x16 grid took 16 times longer), nor when tracing (a trace shows singles and guesses)
    probing = n >= 16 and limit <= 2 and not tracing
    tmp = np.empty(ncells if probing else 0, work.dtype)
    ok, qtail, nsolved = _propagate(work, queue, qtail, nsolved, peers, houses, n, box, seg, stats)
    if tracing and not _emit_placed(work, queue, qtail, trace, ntrace, shown):
        return count
    start = stats[NODES]
    while True:
        pick = -1
        if probing and ok and nsolved < ncells and stats[NODES] - start > PROBE_AFTER:
            ok, nsolved, pick = _probe(work, tmp, queue, nsolved, peers, houses, n, box, seg, stats, limit == 1)
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
            stack[depth, :] = work
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
            work[:] = stack[d]
            nsolved = branch[2, d]
            if branch[1, d] == 0:
                depth -= 1  # the last alternative left here: its saved state is no longer needed
        stats[GUESSES] += 1
        stats[NODES] += 1
        work[best] = bit
        queue[0] = best
        ok, qtail, nsolved = _propagate(work, queue, 1, nsolved + 1, peers, houses, n, box, seg, stats)
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
    return _search(work, queue, qtail, nsolved, peers, houses, n, limit, node_limit, cells[:0], stack, branch,
                   solution, stats, trace, ntrace, shown, tracing)
