"""Compiled type 3 of unique loops (naked and hidden sets with the two cells that hold extras), in the order of
unique_walk.type3; and the house lookup in Sudoku Explainer's order (box, row, column) the walk shares."""
from __future__ import annotations

import numpy as np

from .._jit import kernel_with, wide_kernel
from ..bits import popcount
from ._fast_state import _in_house
from ._fast_subsets import _next_combination

#: the largest naked or hidden set (unique_walk.MAX_DEGREE)
MAX_DEGREE = 4


@kernel_with(inline="always")
def _house_of(cell, kind, row_of, col_of, box_of, n):
    """The house of ``cell`` of kind 0 (box), 1 (row) or 2 (column)."""
    if kind == 0:
        return 2 * n + box_of[cell]
    if kind == 1:
        return row_of[cell]
    return n + col_of[cell]


@wide_kernel
def type3_scratch(n):
    """The scratch of :func:`_type3` for ``n`` digits: the other cells of a house, their candidates, the digits
    left, and a combination's indices (one row each)."""
    return np.empty((4, max(n, MAX_DEGREE)), np.int64)


@wide_kernel
def _type3(cells, cands, houses, row_of, col_of, box_of, n, c1, c2, both, base, best, tmp, best_rem, scratch):
    """Type 3 steps better than ``best`` (a key, rating tenths * 8 + 3), kept in ``best_rem``; the best key.
    ``scratch``: :func:`type3_scratch` (it allocates nothing: its caller runs without reference counts)."""
    extra = (cands[c1] | cands[c2]) & ~both
    shared = extra & cands[c1] & cands[c2]
    others = scratch[0]
    masks = scratch[1]
    rest = scratch[2]
    idx = scratch[3]
    for degree in range(popcount(extra), MAX_DEGREE + 1):
        if (base + degree - 2) * 8 + 3 >= best:
            return best
        for k in range(3):
            h = _house_of(c1, k, row_of, col_of, box_of, n)
            if not _in_house(c2, h, row_of, col_of, box_of, n):
                continue
            empty = 0
            for i in range(n):
                if cells[houses[h, i]] == 0:
                    empty += 1
            key = (base + degree - 1) * 8 + 3
            if degree * 2 <= empty and key < best:
                m = 0
                for i in range(n):
                    c = houses[h, i]
                    if c != c1 and c != c2 and popcount(cands[c]) >= 2:
                        others[m] = c
                        masks[m] = cands[c]
                        m += 1
                r = degree - 1
                if m >= r:
                    for j in range(r):
                        idx[j] = j
                    while True:
                        union = np.int64(0)
                        for j in range(r):
                            union |= masks[idx[j]]
                        if popcount(union | shared) == degree and popcount(union | extra) == degree:
                            union |= extra
                            for i in range(n):
                                c = houses[h, i]
                                if c == c1 or c == c2 or not cands[c] & union:
                                    continue
                                chosen = False
                                for j in range(r):
                                    chosen |= others[idx[j]] == c
                                if not chosen:
                                    tmp[c] = cands[c] & union
                            if _keep3(tmp, best_rem, cands.size):
                                best = key
                                break
                        if not _next_combination(idx, r, m):
                            break
            key = (base + degree - 2) * 8 + 3
            if degree * 2 < empty and key < best:
                m = 0
                for d in range(1, n + 1):
                    if not (both | extra) >> (d - 1) & 1:
                        rest[m] = d
                        m += 1
                r = degree - 2
                if m >= r:
                    for j in range(r):
                        idx[j] = j
                    while True:
                        hidden = both
                        for j in range(r):
                            hidden |= np.int64(1) << (rest[idx[j]] - 1)
                        places = np.int64(0)
                        ok = True
                        for d in range(n):
                            if hidden >> d & 1:
                                at = np.int64(0)
                                for i in range(n):
                                    c = houses[h, i]
                                    if c != c2 and cands[c] >> d & 1:
                                        at |= np.int64(1) << i
                                ok &= at != 0
                                places |= at
                        if ok and popcount(places) == degree:
                            for i in range(n):
                                c = houses[h, i]
                                if places >> i & 1 and c != c1 and cands[c] & ~hidden:
                                    tmp[c] = cands[c] & ~hidden
                            if _keep3(tmp, best_rem, cands.size):
                                best = key
                                break
                        if not _next_combination(idx, r, m):
                            break
    return best


@wide_kernel
def _keep3(tmp, best_rem, ncells):
    """Copy ``tmp`` to ``best_rem`` when it removes something (and clear it); whether it did."""
    found = False
    for c in range(ncells):
        if tmp[c]:
            found = True
            break
    if found:
        for c in range(ncells):
            best_rem[c] = tmp[c]
            tmp[c] = 0
    return found
