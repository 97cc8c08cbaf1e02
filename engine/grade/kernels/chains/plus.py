"""The rules a "dynamic forcing chain (+)" may use inside its chains, as Sudoku Explainer's ``Chaining`` level 1 does.

When a dynamic run has nothing left to follow, these rules look at its working grid (the candidates left after the
run's own removals): locked candidates, hidden pairs, naked pairs and X-Wings, tried in that order; the first rule
that finds something *because of the run's removals* adds its eliminations as off states. Their parents are the
removals the pattern rests on (its "rule parents"): the digit's lost places in the locked house, the pair's digits
lost from the house's other cells, the pair cells' lost other candidates, the fish digit's lost places in the base
lines outside the cover lines. A pattern with no such parent was there before the run and is left to the grader.
"""
from __future__ import annotations

import numpy as np

from ...._jit import wide_kernel
from ....bits import digit_of, popcount
from .slots import _add, _has, _parent

LOCKING, HIDDEN_PAIR, NAKED_PAIR, X_WING = 0, 1, 2, 3



@wide_kernel
def _sees_all(cell, places, h, houses, cell_houses, n):
    """Whether ``cell`` (outside house ``h``) shares a house with every position of ``places`` in ``h``."""
    for i in range(n):
        if places >> i & 1:
            c2 = houses[h, i]
            if not (cell_houses[cell, 0] == cell_houses[c2, 0] or cell_houses[cell, 1] == cell_houses[c2, 1]
                    or cell_houses[cell, 2] == cell_houses[c2, 2]):
                return False
    return True


@wide_kernel
def _emit(ws, w, t, parents, nparents, out, count):
    """Add off state ``t`` with the rule's parents unless the slot has it; returns the new count of ``out``."""
    if _has(ws, w, t):
        return count
    _add(ws, w, t, -1)
    for k in range(nparents):
        _parent(ws, w, t, parents[k])
    out[count] = t
    return count + 1


@wide_kernel
def _advanced(ws, w, orig, work, houses, cell_houses, n, out, parents):
    """Off states the first productive rule adds to slot ``w`` (written to ``out``); returns how many, or -1 when no
    rule is productive. A rule is productive when one of its patterns rests on the run's removals, even if its
    eliminations are known already (and then no later rule is tried: 0). ``orig`` is the grid the run started from
    and ``work`` its working grid, whose places the workspace keeps."""
    ncells = work.size
    # the digit's places in each house of the run's grid and of the grid it started from, as bits of positions
    # (kept by the run: engine/grade/kernels/chains/implications.py, _start)
    now, before = ws[19], ws[20]
    for rule in range(4):
        productive = False
        count = 0
        if rule == LOCKING:
            for k in (2, 0, 1):  # boxes, rows, columns as the locked house
                for d in range(1, n + 1):
                    bit = np.int64(1) << (d - 1)
                    for j in range(n):
                        h = k * n + j
                        places = now[h, d - 1]
                        cnt = popcount(places)
                        # no place lost in the run: the pattern has no rule parent (it was there before), and
                        # scanning the grid for cells it sees would find nothing to add
                        if cnt < 2 or cnt > 6 or not before[h, d - 1] & ~places:
                            continue
                        np_ = 0
                        for i in range(n):
                            c = houses[h, i]
                            if orig[c] & bit and not work[c] & bit:
                                parents[np_] = 2 * (c * n + d - 1)
                                np_ += 1
                        first = houses[h, digit_of(places & -places) - 1]
                        for c in range(ncells):
                            if c == first or not work[c] & bit or cell_houses[c, k] == h:
                                continue
                            if _sees_all(c, places, h, houses, cell_houses, n):
                                productive = True
                                count = _emit(ws, w, 2 * (c * n + d - 1), parents, np_, out, count)
        elif rule == HIDDEN_PAIR or rule == NAKED_PAIR:
            for h in range(3 * n):
                # the digits with exactly two places in the house: a hidden pair's digits are two of them
                twice = np.int64(0)
                if rule == HIDDEN_PAIR:
                    for d in range(n):
                        if popcount(now[h, d]) == 2:
                            twice |= np.int64(1) << d
                    if popcount(twice) < 2:
                        continue
                for i in range(n):
                    a = houses[h, i]
                    for j in range(i + 1, n):
                        b = houses[h, j]
                        if rule == NAKED_PAIR:
                            m = work[a]
                            if popcount(m) != 2 or work[b] != m:
                                continue
                            np_ = 0
                            for c in (a, b):
                                lost = orig[c] & ~m
                                while lost:
                                    low = lost & -lost
                                    lost ^= low
                                    parents[np_] = 2 * (c * n + digit_of(low) - 1)
                                    np_ += 1
                            if np_ == 0:
                                continue
                            for x in range(n):
                                c = houses[h, x]
                                if c != a and c != b and work[c] & m:
                                    productive = True
                                    mm = work[c] & m
                                    while mm:
                                        low = mm & -mm
                                        mm ^= low
                                        count = _emit(ws, w, 2 * (c * n + digit_of(low) - 1), parents, np_, out,
                                                      count)
                        elif popcount(work[a] & work[b] & twice) >= 2:
                            count, productive = _hidden_pair(ws, w, h, i, j, twice, orig, work, houses, n, out,
                                                             parents, count, productive)
        else:
            for base in (0, 1):  # rows, then columns as base lines
                count, productive = _x_wings(ws, w, base, orig, work, houses, n, out, parents, count, productive)
        if productive:
            return count
    return -1


@wide_kernel
def _hidden_pair(ws, w, h, i, j, twice, orig, work, houses, n, out, parents, count, productive):
    """Hidden pairs of house ``h`` in its positions ``i`` and ``j``: every digit pair found only there. ``twice``:
    the digits with exactly two places in the house (one of them in both cells has no other place)."""
    a = houses[h, i]
    b = houses[h, j]
    common = work[a] & work[b] & twice
    pos = (np.int64(1) << i) | (np.int64(1) << j)
    while common:
        low = common & -common
        common ^= low
        rest = common
        while rest:
            low2 = rest & -rest
            rest ^= low2
            pair = low | low2
            np_ = 0
            for x in range(n):
                c = houses[h, x]
                if not pos >> x & 1:
                    lost = orig[c] & pair
                    while lost:
                        lw = lost & -lost
                        lost ^= lw
                        parents[np_] = 2 * (c * n + digit_of(lw) - 1)
                        np_ += 1
            if np_ == 0:
                continue
            for c in (a, b):
                extra = work[c] & ~pair
                if extra:
                    productive = True
                while extra:
                    lw = extra & -extra
                    extra ^= lw
                    count = _emit(ws, w, 2 * (c * n + digit_of(lw) - 1), parents, np_, out, count)
    return count, productive


@wide_kernel
def _x_wings(ws, w, base, orig, work, houses, n, out, parents, count, productive):
    """X-Wings with rows (``base`` 0) or columns (1) as base lines (the digit's places in a line: the run's bits)."""
    now = ws[19]
    for d in range(1, n + 1):
        bit = np.int64(1) << (d - 1)
        for l1 in range(n):
            h1 = base * n + l1
            p1 = now[h1, d - 1]
            if popcount(p1) != 2:
                continue
            for l2 in range(l1 + 1, n):
                h2 = base * n + l2
                if now[h2, d - 1] != p1:
                    continue
                np_ = 0
                for hb in (h1, h2):
                    for i in range(n):
                        c = houses[hb, i]
                        if orig[c] & bit and not work[c] & bit and not p1 >> i & 1:
                            parents[np_] = 2 * (c * n + d - 1)
                            np_ += 1
                if np_ == 0:
                    continue
                cover = 1 - base
                for i in range(n):
                    if not p1 >> i & 1:
                        continue
                    hc = cover * n + i
                    for x in range(n):
                        c = houses[hc, x]
                        if x != l1 and x != l2 and work[c] & bit:
                            productive = True
                            count = _emit(ws, w, 2 * (c * n + d - 1), parents, np_, out, count)
    return count, productive
