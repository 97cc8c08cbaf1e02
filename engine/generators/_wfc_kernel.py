"""The compiled Wave Function Collapse of seed 000 (see :mod:`engine.generators.wfc` for the algorithm).

State of one attempt, all flat arrays indexed by cell:

``cells``  the digit placed (0 = not collapsed yet);
``cand``   the candidate mask of an open cell (bit d-1 set = digit d still possible), 0 once collapsed;
``count``  popcount of ``cand`` for an open cell, ``COLLAPSED`` for a collapsed one, so the fewest-candidates
           scan needs no second test to skip collapsed cells.

Counts are kept up to date on every elimination instead of recounted: the scan then reads one small integer
per cell, which is what makes one 9x9 board cost tens of microseconds.

A contradiction is recorded in ``events[board, k] = (kind, where, digit, filled)`` for the first few
contradictions of a board (as many as ``events.shape[1]``; 0 records nothing): ``kind`` 0 = cell ``where`` has no
candidate left after ``digit`` was placed in a peer; ``kind`` 1 = house ``where`` has no place left for ``digit``
(found only with propagation); ``filled`` = cells collapsed when it happened.

Locked candidates (jigsaw layouts, see :mod:`engine.generators.wfc`) read ``meets``: one row per two units that share
two cells or more, ``meets[k, 0]`` the shared cells, ``meets[k, 1]`` the first unit's others, ``meets[k, 2]`` the
second's, each padded with -1. A digit whose places in one unit all lie in the shared cells goes from the other
unit's others: three ORs of candidate masks a row, so one pass over a 9x9 jigsaw costs about what a singles scan
does. An empty ``meets`` turns the rule off.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel, wide_kernel
from ..bits import digit_of, kth_bit
from ._rng import rand_below, seed_state

COLLAPSED = 1 << 20  # count of a collapsed cell: larger than any real count, so never the fewest
NO_CELL = -1
CELL_EMPTY, HOUSE_EMPTY = 0, 1


@kernel
def _collapse(cells, cand, count, peers, cell, digit, queue, qlen, propagate):
    """Place ``digit`` in ``cell`` and remove it from the cell's peers.

    Returns ``(first peer left with no candidate or NO_CELL, new queue length)``. With ``propagate``, peers
    left with exactly one candidate are pushed on ``queue`` (counts only go down, so each cell is pushed at most
    once per attempt and ``queue`` needs ``ncells`` slots).
    """
    bit = np.int64(1) << (digit - 1)
    cells[cell] = digit
    cand[cell] = 0
    count[cell] = COLLAPSED
    empty = NO_CELL
    for j in range(peers.shape[1]):
        p = peers[cell, j]
        if cand[p] & bit:
            cand[p] = cand[p] ^ bit
            left = count[p] - 1
            count[p] = left
            if left == 0:
                if empty == NO_CELL:
                    empty = p
            elif left == 1 and propagate:
                queue[qlen] = p
                qlen += 1
    return empty, qlen


@kernel
def _propagate(cells, cand, count, peers, houses, size, queue, qlen):
    """Collapse forced cells until none is left: naked singles, then hidden singles, repeated.

    Returns ``(cells collapsed, kind, where, digit)``; ``kind`` is -1 when no contradiction was met. The order
    of forced moves does not change the result: every forced move stays forced after any other (singles
    propagation is confluent), so the twin in the tests may use any order and still agree.
    """
    full = (np.int64(1) << size) - 1
    added = 0
    while True:
        while qlen > 0:
            qlen -= 1
            c = queue[qlen]
            if cells[c] != 0:
                continue
            d = digit_of(np.int64(cand[c]))
            empty, qlen = _collapse(cells, cand, count, peers, c, d, queue, qlen, True)
            added += 1
            if empty != NO_CELL:
                return added, CELL_EMPTY, empty, d
        found = False
        for h in range(houses.shape[0]):
            once = np.int64(0)
            twice = np.int64(0)
            placed = np.int64(0)
            for j in range(size):
                c = houses[h, j]
                if cells[c] != 0:
                    placed |= np.int64(1) << (cells[c] - 1)
                else:
                    m = np.int64(cand[c])
                    twice |= once & m
                    once |= m
            missing = full & ~(placed | once)
            if missing:
                return added, HOUSE_EMPTY, h, digit_of(missing)
            single = once & ~twice
            while single:
                bit = single & -single
                single ^= bit
                target = NO_CELL
                for j in range(size):
                    c = houses[h, j]
                    if cells[c] == 0 and cand[c] & bit:
                        target = c
                        break
                d = digit_of(bit)
                if target == NO_CELL:  # its only place was just taken by another hidden single of this house
                    return added, HOUSE_EMPTY, h, d
                empty, qlen = _collapse(cells, cand, count, peers, target, d, queue, qlen, True)
                added += 1
                found = True
                if empty != NO_CELL:
                    return added, CELL_EMPTY, empty, d
        if not found and qlen == 0:
            return added, -1, NO_CELL, 0


@wide_kernel  # one compile whatever constants its callers pass (engine._jit)
def _remove(cand, count, meets, k, part, mask, queue, qlen):
    """Remove the digits of ``mask`` from the cells ``meets[k, part]``: ``(first cell left empty or NO_CELL, new
    queue length)``; a cell left with one candidate is pushed on ``queue``, as in :func:`_collapse`. (Rows of
    ``meets`` are read by index, not sliced: a slice is an array whose references are counted at every call.)"""
    for j in range(meets.shape[2]):
        c = meets[k, part, j]
        if c < 0:
            break
        hit = cand[c] & mask
        if hit:
            cand[c] ^= hit
            left = count[c]
            while hit:
                hit &= hit - 1
                left -= 1
            count[c] = left
            if left == 0:
                return c, qlen
            if left == 1:
                queue[qlen] = c
                qlen += 1
    return NO_CELL, qlen


@wide_kernel
def _locked(cand, count, meets, queue, qlen):
    """One pass of locked candidates over ``meets``: ``(whether any candidate went, first cell left empty or
    NO_CELL, new queue length)``."""
    removed = False
    for k in range(meets.shape[0]):
        # the candidates of the shared cells, the first unit's others, the second's (a collapsed cell has none);
        # one loop, written out: a helper called three times a row measured nine times slower
        shared = first = second = np.int32(0)
        for j in range(meets.shape[2]):
            a, b, c = meets[k, 0, j], meets[k, 1, j], meets[k, 2, j]
            if a >= 0:
                shared |= cand[a]
            if b >= 0:
                first |= cand[b]
            if c >= 0:
                second |= cand[c]
        # digits whose places in one unit are all shared go from the other unit's others (part 2, then 1)
        for part in (2, 1):
            mask = shared & ~first & second if part == 2 else shared & ~second & first
            if mask:
                removed = True
                empty, qlen = _remove(cand, count, meets, k, part, mask, queue, qlen)
                if empty != NO_CELL:
                    return removed, empty, qlen
    return removed, NO_CELL, qlen


@kernel
def wfc_boards(size, seeds, propagate, max_restarts, peers, houses, meets, out_boards, out_restarts, events):
    """Fill ``out_boards[i]`` with the WFC board of ``seeds[i]`` and ``out_restarts[i]`` with its restarts.

    ``max_restarts`` > 0 stops a board after that many restarts, leaving its row all zeros (the caller
    reports it); 0 means no limit. With ``propagate``, a non-empty ``meets`` adds locked candidates to it.
    """
    ncells = size * size
    full = (1 << size) - 1
    cells = np.zeros(ncells, dtype=np.int8)
    cand = np.zeros(ncells, dtype=np.int32)
    count = np.zeros(ncells, dtype=np.int32)
    ties = np.zeros(ncells, dtype=np.int32)
    queue = np.zeros(ncells, dtype=np.int32)
    state = np.zeros(1, dtype=np.uint64)
    nevents = events.shape[1]
    for i in range(seeds.shape[0]):
        seed_state(state, seeds[i])
        restarts = 0
        while True:
            cells[:] = 0
            cand[:] = full
            count[:] = size
            filled = 0
            kind = -1
            where = NO_CELL
            digit = 0
            while filled < ncells:
                # fewest candidates: collect every open cell with the smallest count, then draw one of them
                best = COLLAPSED + 1
                nties = 0
                for c in range(ncells):
                    k = count[c]
                    if k < best:
                        best = k
                        ties[0] = c
                        nties = 1
                    elif k == best:
                        ties[nties] = c
                        nties += 1
                cell = ties[rand_below(state, nties)]
                digit = kth_bit(np.int64(cand[cell]), rand_below(state, best)) + 1
                where, qlen = _collapse(cells, cand, count, peers, cell, digit, queue, 0, propagate)
                filled += 1
                if where != NO_CELL:
                    kind = CELL_EMPTY
                    break
                while propagate:
                    added, kind, where, pdigit = _propagate(cells, cand, count, peers, houses, size, queue, qlen)
                    filled += added
                    if kind != -1:
                        digit = pdigit
                        break
                    if meets.shape[0] == 0 or filled >= ncells:
                        break
                    removed, where, qlen = _locked(cand, count, meets, queue, 0)
                    if where != NO_CELL:
                        kind = CELL_EMPTY
                        break
                    if not removed:
                        break
                if kind != -1:
                    break
            if kind == -1:
                out_boards[i, :] = cells
                break
            if restarts < nevents:
                events[i, restarts, 0] = kind
                events[i, restarts, 1] = where
                events[i, restarts, 2] = digit
                events[i, restarts, 3] = filled
            restarts += 1
            if max_restarts > 0 and restarts >= max_restarts:
                out_boards[i, :] = 0
                break
        out_restarts[i] = restarts
