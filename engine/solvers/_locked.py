"""Locked candidates (pointing and claiming) for the fast solver's propagation on 16x16 and 25x25 grids.

Where a row (or column) crosses a box, the b cells they share form a segment. If a digit's candidates in a box all
lie in one segment, the digit goes in that segment, so it leaves the rest of the segment's row ("pointing"); if
its candidates in a row all lie in one segment, it leaves the rest of the segment's box ("claiming").

Why only on large grids (measured while tuning): on 25x25 carving's last removal tests, proofs that no second
solution exists took 3 million guesses with singles alone and 6 times fewer with this pass (2.5 times less
time). On 16x16 it made no difference, and on 9x9, where singles nearly always suffice, it only added cost
(carving 4,800 -> 3,300 boards per CPU second). The search turns it on from 16x16 up.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel

_I = np.int64


@kernel
def _eliminate(work, cell, digits, queue, qtail, nsolved):
    """Remove ``digits`` from ``cell``; returns ``(ok, qtail, nsolved, changed)`` (not ok: no candidate left)."""
    m = _I(work[cell])
    if m & digits == 0:
        return True, qtail, nsolved, False
    m &= ~digits
    if m == 0:
        return False, qtail, nsolved, True
    work[cell] = m
    if m & (m - 1) == 0:
        queue[qtail] = cell
        qtail += 1
        nsolved += 1
    return True, qtail, nsolved, True


@kernel
def _locked_candidates(work, queue, qtail, nsolved, n, box, seg):
    """One pass of pointing and claiming over every row and column; newly solved cells are queued.

    ``seg`` (2, n, box) int64 scratch: ``seg[0, r, s]`` the candidates of row r within stack s, ``seg[1, c, b]``
    those of column c within band b. Returns ``(ok, qtail, nsolved, changed)``; the caller counts the
    ``2 * n * n`` mask reads as checks.
    """
    # both kinds of segment in one pass over the cells (row r lies in band r // box)
    seg[1, :, :] = 0
    for r in range(n):
        b = r // box
        for s in range(box):
            u = _I(0)
            for j in range(box):
                c = s * box + j
                m = _I(work[r * n + c])
                u |= m
                seg[1, c, b] |= m
            seg[0, r, s] = u
    changed = False
    ok = True
    for axis in range(2):  # 0: rows and the boxes of their band; 1: columns and the boxes of their stack
        for line in range(n):
            band = line // box
            # the digits in at least one / two segments of the line: a digit is in the line outside segment s
            # when it is in two segments, or in one that is not s (the same for the box's other lines below)
            once_l = _I(0)
            twice_l = _I(0)
            for t in range(box):
                m = seg[axis, line, t]
                twice_l |= once_l & m
                once_l |= m
            for s in range(box):
                here = seg[axis, line, s]
                once_b = _I(0)
                twice_b = _I(0)
                for k in range(box):
                    m = seg[axis, band * box + k, s]
                    twice_b |= once_b & m
                    once_b |= m
                in_line = twice_l | (once_l & ~here)  # the line outside this box
                in_box = twice_b | (once_b & ~here)  # the box outside this line
                pointing = here & ~in_box & in_line
                claiming = here & ~in_line & in_box
                if pointing:
                    for t in range(box):
                        if t == s:
                            continue
                        for j in range(box):
                            pos = t * box + j
                            cell = line * n + pos if axis == 0 else pos * n + line
                            ok, qtail, nsolved, hit = _eliminate(work, cell, pointing, queue, qtail, nsolved)
                            changed |= hit
                            if not ok:
                                return ok, qtail, nsolved, changed
                if claiming:
                    for k in range(box):
                        other = band * box + k
                        if other == line:
                            continue
                        for j in range(box):
                            pos = s * box + j
                            cell = other * n + pos if axis == 0 else pos * n + other
                            ok, qtail, nsolved, hit = _eliminate(work, cell, claiming, queue, qtail, nsolved)
                            changed |= hit
                            if not ok:
                                return ok, qtail, nsolved, changed
    return ok, qtail, nsolved, changed
