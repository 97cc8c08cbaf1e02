"""Compiled singles and locked candidates: hidden single, naked single, pointing and claiming.

Each kernel makes the FIRST deduction in the search order of its Python module (hidden_single.py,
naked_single.py, locked_candidates.py), in place, and says whether it made one.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel_with, wide_kernel
from ..bits import digit_of, lowbit_index, popcount
from ._fast_state import _house_in_se_order, _in_house, _place


@kernel_with(_nrt=False)
def _hidden_single(cells, cands, houses, peers, n):
    """The house where a hidden single was placed, plus ``3 * n`` when it was the house's last blank cell (a full
    house), or -1 when there is none. Sudoku Explainer's order: full houses first, then any hidden single, each
    pass over boxes, columns, rows (hidden_single.py)."""
    for full in range(2):
        for k in range(3 * n):
            h = _house_in_se_order(k, n)
            if full == 0:
                blank = 0
                for i in range(n):
                    if cells[houses[h, i]] == 0:
                        blank += 1
                if blank != 1:
                    continue
            # the once/more scan of engine.bits.house_once_more, written out: calling it here made easy puzzles
            # measurably slower to grade (bench/bench_grade.py, easy level), and hidden singles are most of their
            # steps
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
                        _place(cells, cands, peers, c, digit_of(bit))
                        return h + 3 * n if full == 0 else h
    return -1


@kernel_with(_nrt=False)
def _naked_single(cells, cands, peers):
    for c in range(cells.size):
        m = cands[c]
        if m and not m & (m - 1):
            _place(cells, cands, peers, c, digit_of(m))
            return True
    return False


@wide_kernel
def _locked_candidates(cands, houses, row_of, col_of, box_of, n, claiming, table, digits):
    """Pointing (``claiming`` False: a box's places for a digit in one row or column) or claiming (True: a row's
    or column's places in one box): remove the digit from the rest of that second house. Sudoku Explainer's order,
    as locked_candidates.py: (base kind, cover kind) pairs, then digits, then bases. ``table``: the places of
    every digit in every house (engine.grade._fast_state._places_table); only the digits set in ``digits`` (a bit
    each, -1 for all) are looked at (engine.grade._fast_misses: a digit whose places did not change misses again)."""
    for pair in range(2):
        if claiming:  # columns, then rows, into boxes
            first = n if pair == 0 else 0
        else:  # boxes, along columns, then along rows
            first = 2 * n
        for d in range(1, n + 1):
            if not digits >> (d - 1) & 1:
                continue
            bit = np.int64(1) << (d - 1)
            for base in range(first, first + n):
                at = table[base, d - 1]
                if popcount(at) < 2:
                    continue
                c0, same = -1, True
                while at:
                    low = at & -at
                    at ^= low
                    c = houses[base, lowbit_index(low)]
                    if c0 < 0:
                        c0 = c
                    elif claiming:
                        same &= box_of[c] == box_of[c0]
                    elif pair == 0:
                        same &= col_of[c] == col_of[c0]
                    else:
                        same &= row_of[c] == row_of[c0]
                if not same:
                    continue
                if claiming:
                    cover = 2 * n + box_of[c0]
                else:
                    cover = n + col_of[c0] if pair == 0 else row_of[c0]
                changed = False
                for i in range(n):
                    c = houses[cover, i]
                    if cands[c] & bit and not _in_house(c, base, row_of, col_of, box_of, n):
                        cands[c] &= ~bit
                        changed = True
                if changed:
                    return True
    return False