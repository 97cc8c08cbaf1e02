"""Compiled basic fish: X-Wing (k = 2), Swordfish (3), Jellyfish (4), in the search order of
engine/grade/finders/fish.py."""
from __future__ import annotations

import numpy as np

from ..._jit import wide_kernel
from ...bits import popcount
from .subsets import _next_colex


@wide_kernel
def _fish(cands, houses, n, k, table, digits):
    """Sudoku Explainer's order: columns as base (rows as cover), then rows as base; in each, the k-combinations of
    base lines in colex order, then the digits ascending, each only while it has at least 2k lines left to go in
    (Sudoku Explainer: placed + 2k <= n). ``table``: the places of every digit in every house
    (engine.grade.kernels.state._places_table). Only the digits set in ``digits`` (a bit each, -1 for all) are looked
    at: a fish is one digit's pattern, so a digit whose places did not change since the last miss misses again
    (engine.grade.kernels.misses).

    The search goes digit by digit, over the lines where the digit has 2..k places only (a fish's base lines; the
    others cannot be one), and keeps the first fish in that order: colex order is the order of the base lines as
    bitmasks, so each digit's first fish is its smallest mask, and the first over all is the smallest mask, the
    lowest digit on a tie. Walking every combination of all n lines for every digit cost many times more."""
    lines = np.empty(n, np.int64)
    idx = np.empty(k, np.int64)
    for order in range(2):
        kind = 1 - order  # columns as base first, then rows
        cross = (1 - kind) * n
        best = np.int64(-1)  # the base lines of the first fish, as a mask
        best_d = 0
        best_cover = np.int64(0)
        for d in range(1, n + 1):
            if not digits >> (d - 1) & 1:
                continue
            m = 0
            free = 0
            for i in range(n):
                pc = popcount(table[kind * n + i, d - 1])
                if pc:
                    free += 1
                if 2 <= pc <= k:
                    lines[m] = i
                    m += 1
            if free < 2 * k or m < k:
                continue
            for j in range(k):
                idx[j] = j
            while True:
                base = np.int64(0)
                for j in range(k):
                    base |= np.int64(1) << lines[idx[j]]
                if best >= 0 and base >= best:
                    break  # no earlier fish for this digit
                cover = np.int64(0)
                for j in range(k):
                    cover |= table[kind * n + lines[idx[j]], d - 1]
                if popcount(cover) == k:
                    # cell i of cross line j lies in base line i: the digit goes from the cover lines off the base
                    gone = np.int64(0)
                    for j in range(n):
                        if cover >> j & 1:
                            gone |= table[cross + j, d - 1] & ~base
                    if gone:
                        best = base
                        best_d = d
                        best_cover = cover
                        break
                if not _next_colex(idx, k, m):
                    break
        if best < 0:
            continue
        bit = np.int64(1) << (best_d - 1)
        for j in range(n):
            if best_cover >> j & 1:
                for i in range(n):
                    c = houses[cross + j, i]
                    if cands[c] & bit and not best >> i & 1:
                        cands[c] &= ~bit
        return True
    return False
