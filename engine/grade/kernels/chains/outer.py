"""Compiled parts of the outer search of nested forcing chains (:class:`engine.grade.finders.chains.nested._Search`):
taking up a run where an earlier row left it, and the conclusions of every run once all are made.

The outer search makes its runs in Python (they call searches inside, which numba cannot compile as recursion), and
looked for conclusions in Python too, candidate by candidate, crossing into numba for each piece: on the hardest
sample that loop, its region chains and their tens of thousands of calls were a twentieth of the time. Here one
call looks at every run in Sudoku Explainer's order (so ties keep the same conclusion).
"""
from __future__ import annotations

import numpy as np

from ...._jit import wide_kernel
from ....bits import lowbit_index, popcount
from ..state import SE_SLOTS
from .forcing import CELL, CONTRADICTION, REGION, _common, _consider, _double
from .implications import NONE, _length_tenths, _start_grid, _worth
from .slots import BITS, _ancestors, _new_conclusion

#: a run's columns in the table :func:`_outer_hint` reads: the slot of the run from the candidate on, its
#: contradiction (on, off; NONE for none), the same for the run from the candidate off
ON_SLOT, ON_ON, ON_OFF, OFF_SLOT, OFF_ON, OFF_OFF = range(6)


@wide_kernel(_nrt=False)
def _resume(ws, w, cands, houses, cell_houses, n):
    """Make the working grid that of the run in slot ``w`` again, stalled as an earlier row left it (every state
    followed: ``cands`` less its off states), with empty queues, so that it can go on (another run may have used
    the workspace since)."""
    _start_grid(ws, cands, houses, cell_houses)  # (the last run's removals put back)
    work, places, position, undo, members, queue, ends = ws[7], ws[19], ws[2], ws[3], ws[18], ws[6], ws[14]
    for k in range(members.shape[1]):
        x = members[w, k]
        while x:
            low = x & -x
            x ^= low
            t = k * BITS + lowbit_index(low)
            if t & 1:
                continue
            p = t >> 1
            c = p // n
            d = p % n
            if not work[c] >> d & 1:
                continue
            work[c] &= ~(np.int64(1) << d)
            for j in range(cell_houses.shape[1]):  # (as _follow removes it; a repeated row slot clears nothing more)
                places[cell_houses[c, j], d] &= ~(np.int64(1) << position[c, j])
            undo[0] += 1
            undo[undo[0]] = p
    last = queue.size - 1
    ends[0] = ends[1] = 0
    ends[2] = ends[3] = last


@wide_kernel(_nrt=False)
def _outer_hint(ws, runs, cands, houses, cell_houses, n, base, hint, found, cell_slots, region_slots):
    """The best conclusion of the runs in ``runs`` (one row per candidate: the columns above) into ``hint``, as the
    dynamic forcing chain search keeps it (engine.grade.kernels.chains.forcing._forcing_digits): for each cell, each
    candidate's contradictions on and off, its double chains (three candidates or more), its region chains from
    the houses where the cell is the digit's first place; then the cell's chain. ``found``: an empty table (the
    best alone is kept); ``cell_slots`` and ``region_slots``: scratch (n each)."""
    for c in range(cands.size):
        m = cands[c]
        card = popcount(m)
        if card < 2:
            continue
        k = 0
        for e in range(n):
            if not m >> e & 1:
                continue
            p = c * n + e
            w, on, off = runs[p, ON_SLOT], runs[p, ON_ON], runs[p, ON_OFF]
            if on != NONE:  # the candidate cannot be on
                _new_conclusion(ws)
                cx = _ancestors(ws, w, on) + _ancestors(ws, w, off)
                _consider(hint, found, base + _length_tenths(cx), cx, CONTRADICTION, 2 * p, 2 * p + 1, c)
            wo, on2, off2 = runs[p, OFF_SLOT], runs[p, OFF_ON], runs[p, OFF_OFF]
            if on2 != NONE and _worth(cands, 2 * p + 1, n):  # the candidate cannot be off
                _new_conclusion(ws)
                cx = _ancestors(ws, wo, on2) + _ancestors(ws, wo, off2)
                _consider(hint, found, base + _length_tenths(cx), cx, CONTRADICTION, 2 * p + 1, 2 * p, c)
            if card >= 3:
                _double(ws, w, wo, p, c, base, cands, n, hint, found)
            for j in range(cell_houses.shape[1]):  # the box, the row, the column, the diagonals
                h = cell_houses[c, SE_SLOTS[j]]
                if j >= 3 and h == cell_houses[c, 0]:
                    continue  # a diagonal the cell is not on: its slot repeats the row
                count = 0
                first = True
                for i in range(houses.shape[1]):
                    c2 = houses[h, i]
                    if not cands[c2] >> e & 1:
                        continue
                    if count == 0 and c2 != c:  # the cell is not the digit's first place: looked at from that one
                        first = False
                        break
                    region_slots[count] = runs[c2 * n + e, ON_SLOT]
                    count += 1
                if first and count >= 2:
                    _common(ws, region_slots, count, REGION, e + 1, h, base, cands, n, hint, found)
            cell_slots[k] = w
            k += 1
        _common(ws, cell_slots, card, CELL, -1, c, base, cands, n, hint, found)
