"""Compiled basic fish: X-Wing (k = 2), Swordfish (3), Jellyfish (4), in the search order of fish.py."""
from __future__ import annotations

import numpy as np

from .._jit import wide_kernel
from ..bits import popcount
from ._fast_state import _places
from ._fast_subsets import _next_confined


@wide_kernel
def _fish(cands, houses, n, k):
    lines = np.empty(n, np.int64)
    places = np.empty(n, np.int64)  # places[j]: where the digit may go in base line lines[j], over cross lines
    idx = np.empty(k, np.int64)
    for d in range(1, n + 1):
        bit = np.int64(1) << (d - 1)
        for kind in range(2):  # rows as base (covers are columns), then columns as base
            m = 0
            for i in range(n):
                mask = _places(cands, houses, kind * n + i, bit, n)
                if 2 <= popcount(mask) <= k:
                    lines[m] = i
                    places[m] = mask
                    m += 1
            cover = _next_confined(places, m, k, idx, True)
            while cover:
                base = np.int64(0)
                for j in range(k):
                    base |= np.int64(1) << lines[idx[j]]
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
                cover = _next_confined(places, m, k, idx, False)
    return False
