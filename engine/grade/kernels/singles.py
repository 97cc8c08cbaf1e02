"""Compiled singles: hidden single (and full house) and naked single, twins of :mod:`engine.grade.finders.singles`.

Each kernel makes the FIRST deduction in the search order of its finder, in place, and says whether it made one.
The driver (:mod:`engine.grade.kernels.driver`) calls them from its step loop without a family branch of its own
for each try: they make most steps.
"""
from __future__ import annotations

import numpy as np

from ..._jit import kernel_with
from ...bits import digit_of
from .state import _house_in_se_order, _place


@kernel_with(_nrt=False)
def _hidden_single(cells, cands, houses, peers, n):
    """The house where a hidden single was placed, plus the number of houses when it was the house's last
    blank cell (a full house), or -1 when there is none. Sudoku Explainer's order: full houses first, then any
    hidden single, each pass over boxes, columns, rows (engine.grade.finders.singles)."""
    for full in range(2):
        for k in range(houses.shape[0]):
            h = _house_in_se_order(k, n, houses.shape[0])
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
                        return h + houses.shape[0] if full == 0 else h
    return -1


@kernel_with(_nrt=False)
def _naked_single(cells, cands, peers):
    for c in range(cells.size):
        m = cands[c]
        if m and not m & (m - 1):
            _place(cells, cands, peers, c, digit_of(m))
            return True
    return False
