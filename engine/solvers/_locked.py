"""Locked candidates (pointing and claiming) for the fast solver's propagation on 16x16 and 25x25 grids.

Where a row (or column) crosses a box, the b cells they share form a segment. If a digit's candidates in a box all
lie in one segment, the digit goes in that segment, so it leaves the rest of the segment's row ("pointing"); if
its candidates in a row all lie in one segment, it leaves the rest of the segment's box ("claiming").

Why only on large grids (measured while tuning; docs/benchmarks.md, Carving): on 25x25 carving's last removal
tests, proofs that no second solution exists took far fewer guesses, and much less time, with this pass than
with singles alone. On 16x16 it saves nodes, which paid for the pass only once the pass became incremental
(before, the same time either way); on 9x9, where singles nearly always suffice, it only slowed carving. The
search turns it on from 16x16 up.

A pass reads every segment of the bands and stacks where a cell changed since the last pass: the pointing and
claiming of a row depend on its band's cells only (a column's on its stack's), so elsewhere the last pass's
"nothing" still holds.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel_with

_I = np.int64
_U = np.uint64  # an unsigned index skips the negative-index test of every read


#: the flags of ``dirty`` (one per house, see engine/solvers/_propagate.py): a house to scan for hidden singles,
#: and (on boxes) a box with a cell changed since the last pass of locked candidates. Every change of a cell marks
#: its row and column SCAN and its box SCAN | LOCK; the three stores are written out where cells change, not a
#: helper's call, since a call that takes arrays counts references to them (docs/development.md)
SCAN, LOCK = 1, 2


@kernel_with(_nrt=False)
def _locked_candidates(work, queue, qtail, nsolved, n, box, seg, dirty, cell_houses):
    """One pass of pointing and claiming over the rows of the bands and the columns of the stacks that changed
    since the last pass; newly solved cells are queued.

    ``seg`` (2, n, box + 2) int64 scratch: ``seg[0, r, s]`` the candidates of row r within stack s, ``seg[1, c,
    b]`` those of column c within band b; the two last slots of row ``band * box + s`` hold the digits of the box
    of that band and segment in at least one / two of its segments. ``dirty``: the houses' flags (:data:`LOCK` on
    a box: a cell of it changed since the last pass; the pass clears them and marks the cells it changes).

    A row's pointing and claiming depend on its band's cells only, and a column's on its stack's: where none
    changed, the last pass found nothing there and this one would not either, so the eliminations are those of a
    full pass, in the same order (the segments are read once, before any elimination, as a full pass reads them).

    Returns ``(ok, qtail, nsolved, changed, reads)``: ``reads`` the mask reads made, for the checks metric.
    """
    boxes = 2 * n  # the house index of box 0 (rows, then columns, then boxes)
    bands = 0  # a bit per band with a changed box, and per stack
    stacks = 0
    for b in range(n):
        if dirty[boxes + b] & LOCK:
            bands |= 1 << (b // box)
            stacks |= 1 << (b % box)
            dirty[boxes + b] &= SCAN  # (LOCK cleared)
    reads = 0
    # the segments of the changed bands' rows and of the changed stacks' columns, before any elimination
    for r in range(n):
        b = r // box
        row_band = bands >> b & 1
        for s in range(box):
            col_stack = stacks >> s & 1
            if not row_band and not col_stack:
                continue
            u = _I(0)
            for j in range(box):
                c = s * box + j
                m = _I(work[_U(r * n + c)])
                u |= m
                if col_stack:
                    if r == b * box:
                        seg[1, c, b] = m
                    else:
                        seg[1, c, b] |= m
            seg[0, r, s] = u
            reads += box
    # each box's digits in at least one and in at least two of its segments along each axis, once per box: the
    # loop below asks each box once per line of it, and would redo this box's work at each line
    # (docs/benchmarks.md, "Cost against size")
    for axis in range(2):
        todo = bands if axis == 0 else stacks
        for band in range(box):
            if not todo >> band & 1:
                continue
            for s in range(box):
                once = _I(0)
                twice = _I(0)
                for k in range(box):
                    m = seg[axis, band * box + k, s]
                    twice |= once & m
                    once |= m
                seg[axis, band * box + s, box] = once
                seg[axis, band * box + s, box + 1] = twice
    changed = False
    for axis in range(2):  # 0: rows and the boxes of their band; 1: columns and the boxes of their stack
        todo = bands if axis == 0 else stacks
        for line in range(n):
            band = line // box
            if not todo >> band & 1:
                continue
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
                once_b = seg[axis, band * box + s, box]
                twice_b = seg[axis, band * box + s, box + 1]
                in_line = twice_l | (once_l & ~here)  # the line outside this box
                in_box = twice_b | (once_b & ~here)  # the box outside this line
                pointing = here & ~in_box & in_line
                claiming = here & ~in_line & in_box
                # pointing leaves the rest of the line (the other boxes' segments), claiming the rest of the box
                # (its other lines' segments); written out, not a call per cell (a call that takes arrays counts
                # references to each of them: docs/development.md)
                for kind in range(2):
                    digits = pointing if kind == 0 else claiming
                    if not digits:
                        continue
                    for a in range(box):
                        if kind == 0:
                            if a == s:
                                continue
                            other, first = line, a * box
                        else:
                            other, first = band * box + a, s * box
                            if other == line:
                                continue
                        for j in range(box):
                            cell = other * n + first + j if axis == 0 else (first + j) * n + other
                            m = _I(work[cell])
                            if m & digits == 0:
                                continue
                            m &= ~digits
                            changed = True
                            if m == 0:
                                return False, qtail, nsolved, changed, reads
                            work[cell] = m
                            dirty[cell_houses[cell, 0]] = SCAN
                            dirty[cell_houses[cell, 1]] = SCAN
                            dirty[cell_houses[cell, 2]] = SCAN | LOCK
                            if m & (m - 1) == 0:
                                queue[qtail] = cell
                                qtail += 1
                                nsolved += 1
    return True, qtail, nsolved, changed, reads
