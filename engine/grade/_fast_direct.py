"""Compiled direct techniques: direct pointing and claiming, direct hidden pair and triple.

Each kernel makes the FIRST step in the search order of :mod:`engine.grade.direct` (Sudoku Explainer's), in
place: the hidden single the pattern leaves is placed (so the caller counts a placement); the pattern's own
eliminations are not made, as Sudoku Explainer's direct hints do not make them.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel_with, wide_kernel
from ..bits import lowbit_index, popcount
from ._fast_misses import _changed_digits, _remember
from ._fast_state import _house_in_se_order, _in_house, _place
from ._fast_subsets import _next_colex

ROW, COLUMN, BOX = 0, 1, 2


@wide_kernel
def _house_of(cell, kind, row_of, col_of, box_of, n):
    """The house of ``kind`` (ROW, COLUMN, BOX) holding ``cell``."""
    if kind == ROW:
        return row_of[cell]
    if kind == COLUMN:
        return n + col_of[cell]
    return 2 * n + box_of[cell]


@kernel_with(_nrt=False)
def _direct_locking(cells, cands, houses, peers, row_of, col_of, box_of, n, claiming, table, memo):
    """Direct pointing (``claiming`` False: box -> column, then box -> row) or direct claiming (column -> box, then
    row -> box): the locked digit leaves the rest of the cover, and its single in another house is placed.
    ``table``: the places of every digit in every house (engine.grade._fast_state._places_table); ``memo``: the
    technique's row of the misses memo (engine.grade._fast_misses): only the digits whose places changed since
    its last miss are looked at, the others would miss again. Compiled without reference counts, as all it calls
    is: tried before most steps, a layer that counts them cost more than the digits it skips saved."""
    found = _direct_locking_on(cells, cands, houses, peers, row_of, col_of, box_of, n, claiming, table,
                               _changed_digits(memo, cands))
    _remember(memo, cands, not found)
    return found


@kernel_with(_nrt=False)
def _direct_locking_on(cells, cands, houses, peers, row_of, col_of, box_of, n, claiming, table, digits):
    """:func:`_direct_locking` on the digits set in ``digits`` (a bit each; -1 for all), in the order of the search.

    Only the houses of the base's kind that meet the cover can be left with one place (the others keep all theirs),
    and a base whose digit has more places than a box side cannot lie in one line of a box, or one box of a line:
    both are skipped before any place is looked at (SE's order is kept: the houses are tried in order)."""
    side = 1
    while side * side < n:
        side += 1
    for pair in range(2):
        if claiming:
            kind1, kind2 = (COLUMN if pair == 0 else ROW), BOX
        else:
            kind1, kind2 = BOX, (COLUMN if pair == 0 else ROW)
        for d in range(1, n + 1):
            if not digits >> (d - 1) & 1:
                continue
            for i1 in range(n):
                base = kind1 * n + i1
                at = table[base, d - 1]
                size = popcount(at)
                if size < 2 or size > side:
                    continue
                cover = -1
                while at:
                    low = at & -at
                    at ^= low
                    h = _house_of(houses[base, lowbit_index(low)], kind2, row_of, col_of, box_of, n)
                    if cover == -1:
                        cover = h
                    elif h != cover:
                        cover = -1
                        break
                if cover < 0:
                    continue
                meets = np.int64(0)  # the houses of the base's kind that meet the cover, as bits
                for i in range(n):
                    meets |= np.int64(1) << (_house_of(houses[cover, i], kind1, row_of, col_of, box_of, n) - kind1 * n)
                meets &= ~(np.int64(1) << i1)
                while meets:
                    low3 = meets & -meets
                    meets ^= low3
                    other = kind1 * n + lowbit_index(low3)
                    at = table[other, d - 1]
                    if popcount(at) < 2:
                        continue
                    rest, single = 0, -1
                    while at:
                        low = at & -at
                        at ^= low
                        c = houses[other, lowbit_index(low)]
                        if not _in_house(c, cover, row_of, col_of, box_of, n):
                            rest += 1
                            single = c
                    if rest != 1:
                        continue
                    _place(cells, cands, peers, single, d)
                    return True
    return False


@wide_kernel
def _direct_hidden(cells, cands, houses, peers, n, k, table):
    """Direct hidden pair (k = 2) or triple (k = 3): boxes, columns, rows; digit combinations in colex order."""
    scratch = np.empty((3, n), np.int64)
    return _direct_hidden_on(cells, cands, houses, peers, n, k, table, scratch)


@kernel_with(_nrt=False)
def _direct_hidden_on(cells, cands, houses, peers, n, k, table, scratch):
    """:func:`_direct_hidden` on its scratch (three rows of ``n``). This kernel and :func:`_direct_locking_on` are
    compiled without reference counts: tried before every step of a hard puzzle, their calls of ``_place`` and
    loops over peers counted some at each try (perf saw them in grading's samples)."""
    places = scratch[0]  # places[d - 1]: where digit d may go, over the house's positions 0..n-1
    sel = scratch[1]  # the digits with 2..k places
    idx = scratch[2]  # a combination of k of them
    for kk in range(3 * n):
        h = _house_in_se_order(kk, n)
        blanks = 0
        for i in range(n):
            if cells[houses[h, i]] == 0:
                blanks += 1
        if blanks <= k:
            continue
        m = 0
        for d in range(1, n + 1):
            places[d - 1] = table[h, d - 1]
            if 2 <= popcount(places[d - 1]) <= k:
                sel[m] = d
                m += 1
        if m < k:
            continue
        for j in range(k):
            idx[j] = j
        while True:
            union = np.int64(0)
            keep = np.int64(0)
            for j in range(k):
                union |= places[sel[idx[j]] - 1]
                keep |= np.int64(1) << (sel[idx[j]] - 1)
            if popcount(union) == k:
                for d in range(1, n + 1):
                    if keep >> (d - 1) & 1 or popcount(places[d - 1]) < 2:
                        continue
                    rest = places[d - 1] & ~union
                    if popcount(rest) != 1:
                        continue
                    _place(cells, cands, peers, houses[h, lowbit_index(rest)], d)
                    return True
            if not _next_colex(idx, k, m):
                break
    return False
