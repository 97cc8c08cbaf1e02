"""Runs that a search inside nested chains takes from the step's grid instead of making them again.

A nested run stalls on a grid ``work``: the step's grid ``orig`` less the run's removals (R). There it searches for
dynamic forcing chains (:mod:`engine.grade.finders.chains.nested`), hundreds of runs each time, on grids that differ
from ``orig`` by a few candidates. A run from a candidate on ``work`` is the run from it on ``orig``, state for
state and parent for parent, unless its rules read what R changed (:mod:`.implications`), which shows in the run
on ``orig``:

- it holds a state of a candidate of R (on ``work`` there is none: an on state forces it off only on ``orig``);
- a cell that lost a candidate: the run holds all but one of the cell's candidates on ``work`` as off states (on
  ``work`` the last one is then forced on; on ``orig``, with R's candidates never off, it is not);
- a house that lost a place of a digit: the same with the digit's places on ``work``.

Unless a rule fires differently, the two runs follow the same states in the same order, and a rule at a cell or
house that lost nothing reads the same there. So one look at the run's states (:func:`_differs`) says whether it
is the same. The search on ``orig`` is made once per outer search (:func:`_base_off` beside it); the
grader reaches the nested rows only where it concludes nothing, so a run that is the same concludes nothing on
``work`` either, and what it shares with other runs that are the same concludes nothing: the search on ``work``
makes only the other runs (:func:`engine.grade.kernels.chains.forcing._forcing_digits` with ``same``). On the hardest
puzzles (the last of bench/hardest-sample.tsv but one) half the runs on and nine in ten runs off are the same.
"""
from __future__ import annotations

import numpy as np

from ...._jit import kernel_with, wide_kernel
from ....bits import lowbit_index, popcount
from .implications import _propagate, _worth
from .slots import BITS, _reset


@wide_kernel
def _base_off(ws, cands, houses, cell_houses, n):
    """The states of the dynamic run from each candidate off on ``cands`` (a row of member bits each, zeros for a
    cell with one candidate), made in slot ``n`` (a search's off slot)."""
    members = ws[18]
    out = np.zeros((cands.size * n, members.shape[1]), np.int64)
    for c in range(cands.size):
        if popcount(cands[c]) < 2:
            continue
        for e in range(n):
            if cands[c] >> e & 1:
                p = c * n + e
                _reset(ws, n)
                _propagate(ws, n, 2 * p, cands, houses, cell_houses, n, True, True, 0)
                for k in range(members.shape[1]):
                    out[p, k] = members[n, k]
    return out


@wide_kernel
def _forbidden(orig, work, houses, cell_houses, n, words):
    """What makes a run on ``work`` differ from the run on ``orig`` (the module's rules): the states of the
    candidates removed (``bits``, as member bits), and the units that lost one, each a group of the off states of
    the candidates it still has on ``work`` with how many of them a run may hold and stay the same (``room``). A
    state's groups are its cell's (``cell_group``, -1 for none) and its digit's in each of its cell's houses
    (``house_group[h * n + digit - 1]``); ``within`` has every grouped state's bit. A unit with one candidate left
    on ``work`` is no group (its last one is never forced there)."""
    bits = np.zeros(words, np.int64)
    within = np.zeros(words, np.int64)
    cell_group = np.full(orig.size, -1, np.int64)
    house_group = np.full(houses.shape[0] * n, -1, np.int64)
    room = np.empty(orig.size + houses.shape[0] * n, np.int64)
    k = 0
    for c in range(orig.size):
        gone = orig[c] & ~work[c]
        if not gone:
            continue
        if popcount(work[c]) > 1:  # the cell: its last candidate is forced on work once all but one are off
            cell_group[c] = k
            room[k] = popcount(work[c]) - 2
            k += 1
            for e in range(n):
                if work[c] >> e & 1:
                    _set(within, 2 * (c * n + e))
        for e in range(n):
            if not gone >> e & 1:
                continue
            _set(bits, 2 * (c * n + e))
            _set(bits, 2 * (c * n + e) + 1)
            for j in range(cell_houses.shape[1]):  # (a shape's repeated row slot meets the listed row)
                h = cell_houses[c, j]
                places = 0
                for i in range(houses.shape[1]):
                    places += work[houses[h, i]] >> e & 1
                if house_group[h * n + e] >= 0 or places < 2:
                    continue
                house_group[h * n + e] = k
                room[k] = places - 2
                k += 1
                for i in range(houses.shape[1]):
                    c2 = houses[h, i]
                    if work[c2] >> e & 1:
                        _set(within, 2 * (c2 * n + e))
    return bits, within, cell_group, house_group, room[:k]


@wide_kernel(_nrt=False)
def _set(bits, s):
    bits[s // BITS] |= np.int64(1) << (s % BITS)


@wide_kernel(_nrt=False)
def _differs(rows, r, bits, within, cell_group, house_group, room, held, cell_houses, n):
    """Whether the run whose states are the member bits ``rows[r]`` differs on the smaller grid (:func:`_forbidden`'s
    tables; ``held``: zeros, one a group, left zeros). Without reference counts (it allocates nothing; the row is
    passed by its index, as a view would be counted): it runs twice per candidate of each search inside."""
    out = False
    for k in range(bits.size):
        if rows[r, k] & bits[k]:
            return True
    for k in range(bits.size):
        x = rows[r, k] & within[k]
        while x and not out:
            low = x & -x
            x ^= low
            p = (k * BITS + lowbit_index(low)) >> 1
            c = p // n
            g = cell_group[c]
            if g >= 0:
                held[g] += 1
                out |= held[g] > room[g]
            for j in range(cell_houses.shape[1]):
                g = house_group[cell_houses[c, j] * n + p % n]
                if g >= 0 and not (j >= 3 and cell_houses[c, j] == cell_houses[c, 0]):
                    held[g] += 1
                    out |= held[g] > room[g]
    for g in range(held.size):  # (a loop: a slice assignment may allocate)
        held[g] = 0
    return out


@wide_kernel
def _reuse(ws, memo, base_memo, gens, base_off, orig, work, houses, cell_houses, n, same):
    """Prepare the search on ``work`` in ``ws`` and ``memo`` (made for it: space._search_space_in) to take the runs
    of the search on ``orig`` left in the same workspace (``base_memo``, its slots' generations ``gens``, its runs
    off ``base_off``): fill ``same`` (for each candidate, bit 1: the run on is the same, and ``memo`` now points at
    it; bit 2: the run off; then 1 for each cell, and for each digit in each house, whose cell or region chain is
    made of runs on that are all the same, from the same candidates as on ``orig``: it concludes nothing there, so
    nothing here) and move the search's own runs past those slots. False, with nothing changed, when the workspace no longer
    holds those runs or has no room past them (the caller then searches without)."""
    first = 2 * n + 1
    end = base_memo[3, 0]
    gen = ws[1]
    if end > gen.size:
        return False
    for k in range(first, end):
        if gen[k] != gens[k - first]:
            return False
    members = ws[18]
    bits, within, cell_group, house_group, room = _forbidden(orig, work, houses, cell_houses, n, members.shape[1])
    held = np.zeros(room.size, np.int64)
    own = 0
    for c in range(work.size):
        own += popcount(work[c])
    memo[3, 0] = end
    memo[3, 1] = min(end + own, gen.size)
    same[:] = 0
    for c in range(work.size):
        for e in range(n):
            if not work[c] >> e & 1:
                continue
            p = c * n + e
            b = base_memo[0, p]
            if b >= 0 and not _differs(members, b, bits, within, cell_group, house_group, room, held, cell_houses, n):
                same[p] = 1
                memo[0, p] = b
                memo[1, p] = base_memo[1, p]
                memo[2, p] = base_memo[2, p]
            if popcount(orig[c]) > 1 and not _differs(base_off, p, bits, within, cell_group, house_group, room, held,
                                                      cell_houses, n):
                same[p] |= 2
    npot = work.size * n
    for c in range(work.size):  # the cells' chains
        alike = orig[c] == work[c] and popcount(work[c]) > 1
        for e in range(n):
            if alike and work[c] >> e & 1 and not same[c * n + e] & 1:
                alike = False
        same[npot + c] = alike
    for h in range(houses.shape[0]):  # the regions'
        for e in range(n):
            alike = True
            for i in range(houses.shape[1]):
                c = houses[h, i]
                if (orig[c] ^ work[c]) >> e & 1 or (work[c] >> e & 1 and not same[c * n + e] & 1):
                    alike = False
            same[npot + work.size + h * n + e] = alike
    return True


@kernel_with(inline="always")
def _off_needed(same, base_off, members, w, p, double, cands, n):
    """Whether a search given ``same`` (engine.grade.kernels.chains.forcing._forcing_digits) must make the run from candidate ``p`` off (the run
    on is in slot ``w``). A run off that is the same as on the base grid contradicts nothing (the base grid has no
    conclusion); what it shares with a run on that is also the same was shared there, so no double either; a double
    of it with a new run on needs it only for a state of theirs worth concluding, found here from its states on the
    base grid."""
    if not same[p] & 2:
        return True
    if not double or same[p] & 1:
        return False
    for k in range(members.shape[1]):
        x = members[w, k] & base_off[p, k]
        while x:
            low = x & -x
            x ^= low
            if _worth(cands, k * BITS + lowbit_index(low), n):
                return True
    return False
