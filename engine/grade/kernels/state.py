"""The compiled grader's candidate state: placing a digit, the questions every technique kernel asks.

Candidates are int64 bitmasks (bit d-1 = digit d), so boxes up to 5 (25 digits) fit; the bit tricks on them
live in :mod:`engine.bits`. ``cells`` holds the placed digits (0 blank); ``cands`` the candidates of each blank
cell (0 once the cell is filled).
"""
from __future__ import annotations

import numpy as np

from ..._jit import kernel_with, wide_kernel
from ...bits import lowbit_index


@kernel_with(inline="always")
def _sees(a, b, row_of, col_of, box_of):
    return a != b and (row_of[a] == row_of[b] or col_of[a] == col_of[b] or box_of[a] == box_of[b])


@wide_kernel
def _place(cells, cands, peers, cell, digit):
    cells[cell] = digit
    cands[cell] = 0
    clear = ~(np.int64(1) << (digit - 1))
    for p in peers[cell]:
        cands[p] &= clear


@wide_kernel
def _conclude(cells, cands, peers, t, n):
    """Apply a chain's conclusion, a state ``t`` (``2 * (cell * n + digit - 1) + on``): on places the digit (True),
    off removes the candidate (False)."""
    p = t >> 1
    c = p // n
    d = p % n + 1
    if t & 1:
        _place(cells, cands, peers, c, d)
        return True
    cands[c] &= ~(np.int64(1) << (d - 1))
    return False


@wide_kernel
def _in_house(cell, h, row_of, col_of, box_of, n):
    """Whether ``cell`` lies in house ``h`` (rows 0..n-1, columns n..2n-1, boxes 2n..3n-1)."""
    if h < n:
        return row_of[cell] == h
    if h < 2 * n:
        return col_of[cell] == h - n
    return box_of[cell] == h - 2 * n


@wide_kernel
def _house_in_se_order(kk, n):
    """The ``kk``-th house in Sudoku Explainer's order: boxes (2n..3n-1), columns (n..2n-1), rows (0..n-1)."""
    return 2 * n + kk if kk < n else (kk if kk < 2 * n else kk - 2 * n)


@wide_kernel
def _places_table(cands, houses, n, table):
    """``table[h, d - 1]``: :func:`_places` of digit d in house h, for every house and digit. The grader fills it
    once per step, before the first technique past the singles, and the techniques that read places (the direct
    ones, locked candidates, hidden subsets, fish) read it instead of scanning the houses again: the candidates
    change only when a step is made."""
    for h in range(houses.shape[0]):
        for d in range(n):
            table[h, d] = 0
        for i in range(n):
            m = cands[houses[h, i]]
            while m:
                low = m & -m
                m ^= low
                table[h, lowbit_index(low)] |= np.int64(1) << i


@wide_kernel
def _house_positions(houses, n, position):
    """``position[c, k]``: cell c's position in its row (k = 0), column (1) and box (2), the positions the bits of
    :func:`_places_table` count (houses: the rows, then the columns, then the boxes, as cell_houses' columns)."""
    for h in range(houses.shape[0]):
        for i in range(n):
            position[houses[h, i], h // n] = i


@wide_kernel
def _places(cands, houses, h, bit, n):
    """Bitmask over the positions 0..n-1 of house ``h`` whose cell may hold ``bit``."""
    mask = np.int64(0)
    for i in range(n):
        if cands[houses[h, i]] & bit:
            mask |= np.int64(1) << i
    return mask


@wide_kernel
def _contradiction(cells, cands, houses, n):
    """A blank cell without candidates, or a house where some digit can no longer go."""
    full = (np.int64(1) << n) - 1
    for c in range(cells.size):
        if cells[c] == 0 and cands[c] == 0:
            return True
    for h in range(3 * n):
        covered = np.int64(0)
        for i in range(n):
            c = houses[h, i]
            covered |= cands[c]
            if cells[c]:
                covered |= np.int64(1) << (cells[c] - 1)
        if covered != full:
            return True
    return False


@wide_kernel
def cell_houses_of(row_of, col_of, box_of, n):
    """Each cell's row, column and box as house numbers (the layout the chain kernels read)."""
    out = np.empty((row_of.size, 3), np.int64)
    for c in range(row_of.size):
        out[c, 0] = row_of[c]
        out[c, 1] = n + col_of[c]
        out[c, 2] = 2 * n + box_of[c]
    return out
