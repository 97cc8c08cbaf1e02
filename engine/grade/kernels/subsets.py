"""Compiled naked and hidden subsets (pairs, triples, quads), direct hidden pair and triple, and the combination
walks they share: twins of :mod:`engine.grade.finders.subsets`.

Naked subset, hidden subset and fish are one pattern: k things (cells, digits, base lines) whose places together
are just k (digits, cells, cover lines). :func:`_next_confined` walks the k-combinations in colex order, Sudoku
Explainer's (its ``Permutations``: the combinations as bitmasks, ascending), as the finders
(engine/grade/finders/subsets.py and fish.py) do, so every kernel still makes the same first deduction as its twin.
Houses are searched as Sudoku Explainer does: boxes, then columns, then rows. The direct hidden pair and triple
place the hidden single their set leaves in its house and make none of the set's eliminations (as Sudoku
Explainer's direct hints).
"""
from __future__ import annotations

import numpy as np

from ..._jit import kernel_with, wide_kernel
from ...bits import lowbit_index, popcount
from .state import _house_in_se_order, _place


@wide_kernel(_nrt=False)
def _next_combination(idx, k, m):
    """Advance ``idx`` (k increasing indices below m) to the next combination in lexicographic order, like
    itertools.combinations; False after the last."""
    i = k - 1
    while i >= 0 and idx[i] == m - k + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
    return True


@wide_kernel(_nrt=False)
def _next_colex(idx, k, m):
    """Advance ``idx`` (k increasing indices below m) to the next combination in colex order (SE's Permutations:
    the combinations as bitmasks, ascending); False after the last."""
    for i in range(k):
        limit = idx[i + 1] if i + 1 < k else m
        if idx[i] + 1 < limit:
            idx[i] += 1
            for j in range(i):
                idx[j] = j
            return True
    return False


@wide_kernel
def _next_confined(masks, m, k, idx, first):
    """The union of the next k-combination (colex order) of ``masks[:m]`` whose union has exactly k bits, the
    combination left in ``idx``; 0 when none is left. ``first``: start from the first combination, else from the
    one after ``idx``."""
    if first:
        if m < k:
            return np.int64(0)
        for j in range(k):
            idx[j] = j
    elif not _next_colex(idx, k, m):
        return np.int64(0)
    while True:
        union = np.int64(0)
        for j in range(k):
            union |= masks[idx[j]]
        if popcount(union) == k:
            return union
        if not _next_colex(idx, k, m):
            return np.int64(0)


@wide_kernel
def _blanks(cands, houses, h, n):
    count = 0
    for i in range(n):
        if cands[houses[h, i]] != 0:
            count += 1
    return count


@wide_kernel
def _naked_subset(cands, houses, n, k):
    """k cells of a house (with at least 2k blank cells) holding just k digits between them: the digits go from the
    house's other cells (that house only, as Sudoku Explainer's hint does)."""
    small = np.empty(n, np.int64)  # the house's cells with 2..k candidates
    masks = np.empty(n, np.int64)  # and their candidates
    idx = np.empty(k, np.int64)
    for kk in range(houses.shape[0]):
        h = _house_in_se_order(kk, n, houses.shape[0])
        if _blanks(cands, houses, h, n) < 2 * k:
            continue
        m = 0
        for i in range(n):
            c = houses[h, i]
            if 2 <= popcount(cands[c]) <= k:
                small[m] = c
                masks[m] = cands[c]
                m += 1
        union = _next_confined(masks, m, k, idx, True)
        while union:
            changed = False
            for i in range(n):
                c = houses[h, i]
                if cands[c] & union:
                    member = False
                    for j in range(k):
                        member |= small[idx[j]] == c
                    if not member:
                        cands[c] &= ~union
                        changed = True
            if changed:
                return True
            union = _next_confined(masks, m, k, idx, False)
    return False


@wide_kernel
def _hidden_subset(cands, houses, n, k, table):
    """k digits of a house (with more than 2k blank cells) confined to k cells: those cells lose their other
    candidates. ``table``: the places of every digit in every house (engine.grade.kernels.state._places_table)."""
    digits = np.empty(n, np.int64)
    places = np.empty(n, np.int64)  # places[j]: where digits[j] may go in the house, over positions 0..n-1
    idx = np.empty(k, np.int64)
    for kk in range(houses.shape[0]):
        h = _house_in_se_order(kk, n, houses.shape[0])
        if _blanks(cands, houses, h, n) <= 2 * k:
            continue
        m = 0
        for d in range(1, n + 1):
            mask = table[h, d - 1]
            if 2 <= popcount(mask) <= k:
                digits[m] = d
                places[m] = mask
                m += 1
        union = _next_confined(places, m, k, idx, True)
        while union:
            keep = np.int64(0)
            for j in range(k):
                keep |= np.int64(1) << (digits[idx[j]] - 1)
            changed = False
            for i in range(n):
                c = houses[h, i]
                if union >> i & 1 and cands[c] & ~keep:
                    cands[c] &= keep
                    changed = True
            if changed:
                return True
            union = _next_confined(places, m, k, idx, False)
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
    for kk in range(houses.shape[0]):
        h = _house_in_se_order(kk, n, houses.shape[0])
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
