"""What a state of the fast solver forces: singles, locked candidates, and probing bivalue cells.

State (see :mod:`engine.solvers._bitmask`): ``work[c]`` is the candidate mask of cell ``c``. Two kinds of forced
placement are propagated:

* naked single: a cell down to one candidate; the digit is removed from its peers (a FIFO queue of newly solved
  cells drives this, so each solved cell is propagated exactly once);
* hidden single: a digit with one place left in a house, found per house with the once/twice trick
  (``twice |= once & m; once |= m``: digits in ``once & ~twice`` occur in exactly one cell of the house).

On 16x16 and up, locked candidates join them (``engine/solvers/_locked.py``), and the search may also probe the
bivalue cells (:func:`_probe`), which tries each of their digits with the propagation above.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel_with
from ..bits import popcount
from ._locked import LOCK, SCAN, _locked_candidates
from ._stats import CHECKS, NODES

_I = np.int64
_U = np.uint64


@kernel_with(_nrt=False)
def _propagate(work, queue, qtail, nsolved, peers, houses, cell_houses, n, box, seg, dirty, settled, stats):
    """Apply naked and hidden singles until neither finds anything; ``queue[:qtail]`` are solved, unpropagated cells.

    On 16x16 and larger (``seg`` has rows), locked candidates run too once singles are exhausted.

    ``dirty`` (flags per house, scratch) marks the houses changed since they were last scanned for hidden singles
    (``SCAN``); only those are scanned, in the same round-robin order, so the singles found and their order are
    those of scanning every house (a house that had none and has not changed has none). Boxes also carry ``LOCK``
    for locked candidates, which look again only at the bands and stacks that changed (engine/solvers/_locked.py).
    ``settled``: the state was a fixpoint of this function before the cells of ``queue[:qtail]`` were set (after
    a branch or in a probe), so only their houses start dirty; otherwise every house does.

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
    if settled:
        for i in range(nhouses):  # loops, not slice writes: callers without reference counting run this too
            dirty[i] = 0
        for i in range(qtail):
            c = queue[i]
            dirty[cell_houses[c, 0]] = SCAN
            dirty[cell_houses[c, 1]] = SCAN
            dirty[cell_houses[c, 2]] = SCAN | LOCK
    else:
        for i in range(nhouses):
            dirty[i] = SCAN | LOCK
    while ok:
        while qhead < qtail:
            c = queue[qhead]
            qhead += 1
            bit = _I(work[c])
            checks += npeers
            for k in range(npeers):
                p = _U(peers[c, k])  # unsigned: no negative-index test on every read (a tenth of this loop)
                m = _I(work[p])
                if m & bit:
                    m ^= bit
                    if m == 0:
                        ok = False
                        break
                    work[p] = m
                    dirty[_U(cell_houses[p, 0])] = SCAN
                    dirty[_U(cell_houses[p, 1])] = SCAN
                    dirty[_U(cell_houses[p, 2])] = SCAN | LOCK
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
            ok, qtail, nsolved, changed, reads = _locked_candidates(work, queue, qtail, nsolved, n, box, seg, dirty,
                                                                    cell_houses)
            checks += reads
            if not ok or not changed:
                break
            quiet = 0
            continue
        # Hidden singles, only once naked singles are exhausted: every solved cell is then propagated, so a digit
        # placed in a house shows up in exactly one cell of it and is masked out via ``placed``. Houses are scanned
        # round-robin and naked singles run as soon as one house yields something; the fixpoint is a full quiet
        # round. Measured against full sweeps between naked rounds: fewer mask checks per count-to-2 of a
        # random minimal 9x9 puzzle, since fewer sweeps end empty.
        while quiet < nhouses:
            if not dirty[h] & SCAN:  # quiet when last scanned, and unchanged since
                h += 1
                if h == nhouses:
                    h = 0
                quiet += 1
                continue
            dirty[h] &= LOCK
            once = _I(0)
            twice = _I(0)
            placed = _I(0)
            for i in range(n):
                m = _I(work[_U(houses[h, i])])
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
                    if work[_U(houses[h, i])] & bit:
                        cell = houses[h, i]
                        break
                if cell < 0:  # the cell was just given another hidden single of this house
                    ok = False
                    break
                work[cell] = bit
                dirty[cell_houses[cell, 0]] = SCAN
                dirty[cell_houses[cell, 1]] = SCAN
                dirty[cell_houses[cell, 2]] = SCAN | LOCK
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


@kernel_with(_nrt=False)
def _probe(work, tmp, queue, nsolved, peers, houses, cell_houses, n, box, seg, dirty, stats, stop_at_solution):
    """One pass over the bivalue cells of ``work``, probing each; returns ``(ok, nsolved, pick)`` (not ok: the
    state has no solution). ``tmp`` is a scratch row like ``work``.

    Each digit of a bivalue cell is placed in a copy of the state and propagated (singles and locked candidates):
    a digit whose outcome is a contradiction goes, and the other is placed and propagated (a failed literal).
    This is forcing chains from one cell with singles as links. It costs two propagations per bivalue cell at each
    node, and the search probes on 16x16 and up only, once it has run long (``PROBE_AFTER``): the last removal
    tests of a carving take hundreds of thousands of nodes without it (docs/benchmarks.md, Carving). Measured
    and not kept: probing again until a pass changes nothing (slower), and also removing what neither live
    outcome keeps (their union; slightly fewer nodes, the same time).

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
            for q in range(ncells):
                tmp[q] = work[q]
            tmp[c] = bit
            queue[0] = c
            ok, _, solved = _propagate(tmp, queue, 1, nsolved + 1, peers, houses, cell_houses, n, box, seg, dirty,
                                       True, stats)
            if not ok:
                continue
            if stop_at_solution and solved == ncells:
                for q in range(ncells):
                    work[q] = tmp[q]
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
        ok, _, nsolved = _propagate(work, queue, 1, nsolved + 1, peers, houses, cell_houses, n, box, seg, dirty, True,
                                    stats)
        if not ok:
            return False, nsolved, -1
        if nsolved == ncells:
            return True, nsolved, -1
    if pick >= 0 and popcount(_I(work[pick])) != 2:
        pick = -1  # solved since by a later cell's failed literal
    return True, nsolved, pick
