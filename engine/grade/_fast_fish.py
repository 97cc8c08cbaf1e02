"""Compiled basic fish: X-Wing (k = 2), Swordfish (3), Jellyfish (4), in the search order of fish.py."""
from __future__ import annotations

import numpy as np

from .._jit import wide_kernel
from ..bits import popcount
from ._fast_subsets import _next_colex


@wide_kernel
def _fish(cands, houses, n, k, table):
    """Sudoku Explainer's order: columns as base (rows as cover), then rows as base; in each, the k-combinations of
    base lines in colex order, then the digits ascending, each only while it has at least 2k lines left to go in
    (Sudoku Explainer: placed + 2k <= n). ``table``: the places of every digit in every house
    (engine.grade._fast_state._places_table)."""
    places = np.empty((n, n), np.int64)  # places[d - 1, i]: where d may go in base line i, over cross lines
    free = np.empty(n, np.int64)  # base lines where each digit is not placed yet
    idx = np.empty(k, np.int64)
    for order in range(2):
        kind = 1 - order  # columns as base first, then rows
        for d in range(1, n + 1):
            bit = np.int64(1) << (d - 1)
            free[d - 1] = 0
            for i in range(n):
                places[d - 1, i] = table[kind * n + i, d - 1]
                if places[d - 1, i]:
                    free[d - 1] += 1
        for j in range(k):
            idx[j] = j
        while True:
            for d in range(1, n + 1):
                if free[d - 1] < 2 * k:
                    continue
                cover = np.int64(0)
                ok = True
                for j in range(k):
                    mask = places[d - 1, idx[j]]
                    if popcount(mask) < 2:
                        ok = False
                        break
                    cover |= mask
                if not ok or popcount(cover) != k:
                    continue
                base = np.int64(0)
                for j in range(k):
                    base |= np.int64(1) << idx[j]
                bit = np.int64(1) << (d - 1)
                changed = False
                for j in range(n):
                    if cover >> j & 1:
                        for i in range(n):  # cell i of cross line j lies in base-kind line i
                            c = houses[(1 - kind) * n + j, i]
                            if cands[c] & bit and not base >> i & 1:
                                cands[c] &= ~bit
                                changed = True
                if changed:
                    return True
            if not _next_colex(idx, k, n):
                break
    return False
