"""Implications between candidates, as Sudoku Explainer's chains follow them: the engine under every forcing chain.

A *potential* is a candidate (cell, digit), ``p = cell * n + digit - 1``; a *state* says it is on (the digit goes
there) or off: ``s = 2 * p + on``. From a state, the rules give the states it forces:

- on -> off: the other candidates of the cell (only with ``ylinks``), the digit's other places in the cell's box,
  row and column (in that order, each cell once);
- off -> on: the cell's last other candidate when it had two (only with ``ylinks``), and the digit's last other
  place in each house of the cell that had two.

A *slot* holds one set of forced states and, for each, the states that forced it (its parents). A chain's
complexity is the number of distinct states among a conclusion's ancestors: Sudoku Explainer adds 0.1 to a chain's
rating each time that number passes a step of its length scale (:func:`_length_tenths`). In a *dynamic* run every
state turned off is also removed from the working candidates, so later rules see the smaller grid, and a state
forced only because of such removals gets them as extra parents (they are part of its reason).
"""
from __future__ import annotations

import numpy as np

from ...._jit import kernel_with, wide_kernel
from ....bits import digit_of, lowbit_index, popcount
from ..state import _house_positions, _places_table, SE_SLOTS
from .plus import _advanced
from .slots import BITS, ONE, _add, _in, _pool_parent

_U = np.uint64

#: no contradiction found
NONE = -1


@wide_kernel(_nrt=False)
def _length_tenths(complexity):
    """Sudoku Explainer's length bonus in tenths: one tenth each time ``complexity - 2`` passes 4, 6, 8, 12, 16,
    24, 32, 48, ... (the steps grow by 3/2 and 4/3 in turn)."""
    added = 0
    ceil = 4
    length = complexity - 2
    odd = False
    while length > ceil:
        added += 1
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return added


@kernel_with(inline="always")
def _worth(cands, t, n):
    """Whether concluding state ``t`` removes a candidate: an off state's candidate is there, an on state's cell has
    others."""
    p = t >> 1
    c = p // n
    bit = np.int64(1) << (p % n)
    if t & 1:
        return cands[c] & ~bit != 0 and cands[c] & bit != 0
    return cands[c] & bit != 0


@wide_kernel(_nrt=False)
def _hidden_cell_parents(members, origin, pool, top, w, s, c, orig, work, n):
    """The candidates of cell ``c`` removed during a dynamic run are parents of ``s`` (the cell's last candidate)."""
    gone = orig[c] & ~work[c]
    while gone:
        low = gone & -gone
        gone ^= low
        q = 2 * (c * n + digit_of(low) - 1)
        if _in(members, w, q):
            _pool_parent(origin, pool, top, w, s, q)


@wide_kernel(_nrt=False)
def _hidden_house_parents(members, origin, pool, top, w, s, h, d, made, places, houses):
    """The places of digit ``d`` in house ``h`` removed during a dynamic run are parents of ``s``: those of the
    run's candidates (``made``) no longer in the working grid's (``places``), as bits by position, so only the
    removed places are visited, in the house's order (the scan of the house's cells it replaces was a measurable
    part of the runs' time on top1465)."""
    n = houses.shape[1]
    gone = made[h, d - 1] & ~places[h, d - 1]
    while gone:
        low = gone & -gone
        gone ^= low
        q = 2 * (houses[h, lowbit_index(low)] * n + d - 1)
        if _in(members, w, q):
            _pool_parent(origin, pool, top, w, s, q)


@wide_kernel(_nrt=False)
def _propagate(ws, w, seed, cands, houses, cell_houses, n, ylinks, dynamic, level):
    """Add ``seed`` to the emptied slot ``w`` and every state it forces, the way Sudoku Explainer's ``doChaining``
    does (on states first, then off states, in the order found; at ``level`` 1, when nothing is left to follow, the
    rules of :mod:`engine.grade.kernels.chains.plus` on the working grid). Returns ``(on, off)``, the two states of one
    candidate forced both ways (a contradiction: the seed is false), or ``(NONE, NONE)``."""
    _start(ws, w, seed, cands, houses, cell_houses)
    while True:
        on, off = _follow(ws, w, cands, houses, cell_houses, n, ylinks, dynamic)
        if on != NONE or level == 0:
            return on, off
        added = _advanced(ws, w, cands, ws[7], houses, cell_houses, n, ws[12], ws[13])
        if added <= 0:
            return NONE, NONE
        _push_off(ws, ws[12], added)


@wide_kernel(_nrt=False)
def _start(ws, w, seed, cands, houses, cell_houses):
    """Begin a run in slot ``w`` from ``seed``: the working grid is ``cands``, the queues hold the seed alone.
    (One array holds both queues: on states grow up from the front, off states down from the back.) The places
    of each digit in each house start as those of ``cands``, made once for all the runs on the same candidates."""
    _start_grid(ws, cands, houses, cell_houses)
    _add(ws, w, seed, NONE)
    queue, ends = ws[6], ws[14]
    last = queue.size - 1
    ends[0] = ends[1] = 0
    ends[2] = ends[3] = last
    if seed & 1:
        queue[0] = seed
        ends[1] = 1
    else:
        queue[last] = seed
        ends[3] = last - 1


@wide_kernel(_nrt=False)
def _start_grid(ws, cands, houses, cell_houses):
    """The working grid (``ws[7]``) and its places (``ws[19]``) as those of ``cands``. On the candidates the last
    run started from (``ws[11]``), only what that run removed is put back (its removals are logged in ``ws[3]``):
    a run removes a few dozen candidates, and copying the whole grid and its places (324 words on 9x9) before each
    of a search's hundreds of runs cost more than the undo; a static run removes none. On other candidates, the
    places (``ws[20]``) and the cells' positions (``ws[2]``) are made again and copied. (Loops, not slice copies:
    those may allocate, and the forcing search has no NRT.)"""
    basis, work, places, made, position, undo = ws[11], ws[7], ws[19], ws[20], ws[2], ws[3]
    n = houses.shape[1]
    same = True
    for c in range(cands.size):
        if basis[c] != cands[c]:
            same = False
            break
    if same:
        for i in range(1, undo[0] + 1):
            p = undo[i]
            c = p // n
            d = p % n
            work[c] |= np.int64(1) << d
            for k in range(3):  # (a constant bound: unrolled)
                places[cell_houses[c, k], d] |= np.int64(1) << position[c, k]
            for k in range(3, cell_houses.shape[1]):
                places[cell_houses[c, k], d] |= np.int64(1) << position[c, k]
        undo[0] = 0
        return
    for c in range(cands.size):
        basis[c] = cands[c]
        work[c] = cands[c]
    _places_table(cands, houses, n, made)
    _house_positions(houses, cell_houses, n, position)
    for h in range(houses.shape[0]):
        for d in range(n):
            places[h, d] = made[h, d]
    undo[0] = 0


@wide_kernel(_nrt=False)
def _push_off(ws, states, k):
    """Queue the off states ``states[:k]`` (already in the slot) to be followed."""
    queue, ends = ws[6], ws[14]
    for i in range(k):
        queue[ends[3]] = states[i]
        ends[3] -= 1


@wide_kernel(_nrt=False)
def _follow(ws, w, cands, houses, cell_houses, n, ylinks, dynamic):
    """Follow the queued states of the run in slot ``w`` until none is left: ``(NONE, NONE)``, after which more
    may be queued and followed (:func:`_push_off`), or a candidate forced both ways, ``(on, off)``."""
    queue, work, ends, places, made, position, undo = ws[6], ws[7], ws[14], ws[19], ws[20], ws[2], ws[3]
    nkinds = cell_houses.shape[1]  # a cell's units: 3, or 5 with the diagonals (state.grader_units)
    # the slot's arrays, taken out of the workspace once (see engine/grade/kernels/chains/slots.py on why)
    origin, pool, top, nest, members = ws[0], ws[4], ws[5], ws[15], ws[18]
    qon_head, qon_tail, qoff_head, qoff_tail = ends[0], ends[1], ends[2], ends[3]
    uw = _U(w)  # unsigned indices below: numba tests every signed index for a negative value
    room = pool.shape[1]
    nested = nest.shape[0] > 0
    while True:
        if qon_head >= qon_tail and qoff_head <= qoff_tail:
            break
        if qon_head < qon_tail:
            s = queue[qon_head]
            qon_head += 1
            p = s >> 1
            c = p // n
            d = p % n + 1
            bit = np.int64(1) << (d - 1)
            # the off states it forces: the cell's other candidates (Y links), then the digit's other places in the
            # box, the row and the column (and the diagonals the cell is on), each cell once (a place in the cell's
            # box came with the box; a diagonal meets the cell's row and column only in the cell), each house's in
            # the order of its cells
            others = work[c] & ~bit if ylinks else np.int64(0)
            box = cell_houses[c, 2]
            h = box
            rest = places[box, d - 1] & ~(np.int64(1) << position[c, 2])
            k = 0
            while True:
                if others:
                    low = others & -others
                    others ^= low
                    t = 2 * (c * n + digit_of(low) - 1)
                else:
                    t = NONE
                    while True:
                        if rest:
                            low = rest & -rest
                            rest ^= low
                            c2 = houses[h, lowbit_index(low)]
                            if k and cell_houses[c2, 2] == box:
                                continue
                            t = 2 * (c2 * n + d - 1)
                            break
                        k += 1
                        if k == nkinds:
                            break
                        if k < 3:
                            h = cell_houses[c, k - 1]  # the row (k = 1), then the column (k = 2)
                            rest = places[h, d - 1] & ~(np.int64(1) << position[c, k - 1])
                        else:  # the diagonals (3, 4), but one the cell is not on: its slot repeats the row
                            h = cell_houses[c, k]
                            rest = places[h, d - 1] & ~(np.int64(1) << position[c, k])
                            if h == cell_houses[c, 0]:
                                rest = 0
                    if t == NONE:
                        break
                # t joins the slot (parent s) unless it is there, and is queued; its candidate on already: the run
                # is contradicted (_add written out, as below: see the module's note)
                ut = _U(t)
                contradicted = members[uw, (t + 1) // BITS] >> ((t + 1) % BITS) & 1
                if contradicted or not members[uw, t // BITS] >> (t % BITS) & 1:
                    members[uw, t // BITS] |= np.int64(1) << (t % BITS)
                    origin[uw, ut] = top[uw]
                    if nested:
                        nest[uw, ut] = 0
                    if top[uw] < room:
                        pool[uw, _U(top[uw])] = s
                        top[uw] += 1
                        origin[uw, ut] += ONE
                    if contradicted:
                        return t + 1, t
                    queue[qoff_tail] = t
                    qoff_tail -= 1
            continue
        s = queue[qoff_head]
        qoff_head -= 1
        p = s >> 1
        c = p // n
        d = p % n + 1
        bit = np.int64(1) << (d - 1)
        # what the off state forces, found before it is removed from the working grid (as Sudoku Explainer does)
        found0 = found1 = found2 = found3 = found4 = found5 = NONE
        if ylinks and popcount(work[c]) == 2 and work[c] & bit:
            t = 2 * (c * n + digit_of(work[c] & ~bit) - 1) + 1
            if not members[uw, t // BITS] >> (t % BITS) & 1:
                found0 = t
        for k in (2, 0, 1):
            rest = places[cell_houses[c, k], d - 1] & ~(np.int64(1) << position[c, k])
            if rest and not rest & (rest - 1):  # the digit's one other place in the house
                t = 2 * (houses[cell_houses[c, k], lowbit_index(rest)] * n + d - 1) + 1
                if k == 2:
                    found1 = t
                elif k == 0:
                    found2 = t
                else:
                    found3 = t
        if nkinds > 3:  # the diagonals the cell is on (a slot that repeats the row: one it is not on)
            for k in range(3, nkinds):
                if cell_houses[c, k] == cell_houses[c, 0]:
                    continue
                rest = places[cell_houses[c, k], d - 1] & ~(np.int64(1) << position[c, k])
                if rest and not rest & (rest - 1):
                    t = 2 * (houses[cell_houses[c, k], lowbit_index(rest)] * n + d - 1) + 1
                    if k == 3:
                        found4 = t
                    else:
                        found5 = t
        if dynamic and work[c] & bit:
            work[c] &= ~bit
            for k in range(3):  # (a constant bound: unrolled, on the dynamic runs' hottest path)
                places[cell_houses[c, k], d - 1] &= ~(np.int64(1) << position[c, k])
            for k in range(3, nkinds):
                places[cell_houses[c, k], d - 1] &= ~(np.int64(1) << position[c, k])
            undo[0] += 1  # put back when the next run starts (_start_grid)
            undo[undo[0]] = p
        for j in range(6):  # (a constant bound: unrolled; the diagonals' two stay NONE on other shapes)
            t = (found0, found1, found2, found3, found4, found5)[j]
            if t < 0 or (j > 0 and t == found0) or (j > 1 and t == found1) or (j > 2 and t == found2) or (
                    j > 3 and t == found3) or (j > 4 and t == found4):
                continue
            conj = t - 1
            ut = _U(t)
            fresh = not members[uw, t // BITS] >> (t % BITS) & 1
            if fresh:
                members[uw, t // BITS] |= np.int64(1) << (t % BITS)
                origin[uw, ut] = top[uw]
                if nested:
                    nest[uw, ut] = 0
                if top[uw] < room:
                    pool[uw, _U(top[uw])] = s
                    top[uw] += 1
                    origin[uw, ut] += ONE
                if dynamic:
                    c2 = (t >> 1) // n
                    if j == 0:
                        _hidden_cell_parents(members, origin, pool, top, w, t, c2, cands, work, n)
                    else:
                        # the house of link j: the box, the row, the column, the diagonals (state.SE_SLOTS)
                        _hidden_house_parents(members, origin, pool, top, w, t, cell_houses[c, SE_SLOTS[j - 1]], d,
                                              made, places, houses)
            if members[uw, conj // BITS] >> (conj % BITS) & 1:
                return t, conj
            if fresh:
                queue[qon_tail] = t
                qon_tail += 1
    ends[0], ends[1], ends[2], ends[3] = qon_head, qon_tail, qoff_head, qoff_tail
    return NONE, NONE
