"""Compiled naked and hidden subsets (pairs, triples, quads), and the combination walks they share.

Naked subset, hidden subset and fish are one pattern: k things (cells, digits, base lines) whose places together
are just k (digits, cells, cover lines). :func:`_next_confined` walks the k-combinations in colex order, Sudoku
Explainer's (its ``Permutations``: the combinations as bitmasks, ascending), as the Python modules
(naked_subset.py, hidden_subset.py, fish.py) do, so every kernel still makes the same first deduction as its twin.
Houses are searched as Sudoku Explainer does: boxes, then columns, then rows.
"""
from __future__ import annotations

import numpy as np

from .._jit import wide_kernel
from ..bits import popcount
from ._fast_state import _house_in_se_order


@wide_kernel
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


@wide_kernel
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
def _naked_subset(cands, houses, row_of, col_of, box_of, n, k):
    """k cells of a house (with at least 2k blank cells) holding just k digits between them: the digits go from the
    house's other cells (that house only, as Sudoku Explainer's hint does)."""
    small = np.empty(n, np.int64)  # the house's cells with 2..k candidates
    masks = np.empty(n, np.int64)  # and their candidates
    idx = np.empty(k, np.int64)
    for kk in range(3 * n):
        h = _house_in_se_order(kk, n)
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
    candidates. ``table``: the places of every digit in every house (engine.grade._fast_state._places_table)."""
    digits = np.empty(n, np.int64)
    places = np.empty(n, np.int64)  # places[j]: where digits[j] may go in the house, over positions 0..n-1
    idx = np.empty(k, np.int64)
    for kk in range(3 * n):
        h = _house_in_se_order(kk, n)
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
