"""Compiled singles and locked candidates: hidden single, naked single, pointing, claiming.

Each kernel makes the FIRST deduction in the search order of its Python module (hidden_single.py,
naked_single.py, pointing.py, claiming.py), in place, and says whether it made one.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ._fast_state import _digit_of, _in_house, _place


@kernel
def _hidden_single(cells, cands, houses, peers, n):
    """0 if none, else the counter: 0 for a box, 1 for a row or column (boxes searched first)."""
    for k in range(3 * n):
        h = 2 * n + k if k < n else k - n
        once = np.int64(0)
        more = np.int64(0)
        for i in range(n):
            m = cands[houses[h, i]]
            more |= once & m
            once |= m
        once &= ~more
        if once:
            bit = once & -once
            for i in range(n):
                c = houses[h, i]
                if cands[c] & bit:
                    _place(cells, cands, peers, c, _digit_of(bit))
                    return 1 if h >= 2 * n else 2
    return 0


@kernel
def _naked_single(cells, cands, peers):
    for c in range(cells.size):
        m = cands[c]
        if m and not m & (m - 1):
            _place(cells, cands, peers, c, _digit_of(m))
            return True
    return False


@kernel
def _pointing(cands, houses, row_of, col_of, box_of, n):
    for b in range(n):
        h = 2 * n + b
        for d in range(1, n + 1):
            bit = np.int64(1) << (d - 1)
            count, r0, c0, same_row, same_col = 0, -1, -1, True, True
            for i in range(n):
                c = houses[h, i]
                if cands[c] & bit:
                    if count == 0:
                        r0, c0 = row_of[c], col_of[c]
                    else:
                        same_row &= row_of[c] == r0
                        same_col &= col_of[c] == c0
                    count += 1
            if count < 2:
                continue
            line = r0 if same_row else (n + c0 if same_col else -1)
            if line < 0:
                continue
            changed = False
            for i in range(n):
                c = houses[line, i]
                if cands[c] & bit and box_of[c] != b:
                    cands[c] &= ~bit
                    changed = True
            if changed:
                return True
    return False


@kernel
def _claiming(cands, houses, box_of, n):
    for line in range(2 * n):
        for d in range(1, n + 1):
            bit = np.int64(1) << (d - 1)
            count, b, same = 0, -1, True
            for i in range(n):
                c = houses[line, i]
                if cands[c] & bit:
                    if count == 0:
                        b = box_of[c]
                    else:
                        same &= box_of[c] == b
                    count += 1
            if count < 2 or not same:
                continue
            changed = False
            for i in range(n):
                c = houses[2 * n + b, i]
                if cands[c] & bit and not _in_house(c, houses, line, n):
                    cands[c] &= ~bit
                    changed = True
            if changed:
                return True
    return False
