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
def _sees(a, b, cell_houses):
    """Whether cells ``a`` and ``b`` share a unit. ``cell_houses`` (engine.geometry) holds each cell's units in
    slots of one kind each (row, column, region, diagonals), so the units to compare sit in the same slot."""
    if a == b:
        return False
    # the three slots every shape has, written out (9x9 grading calls this in its hot loops), then the diagonals
    if cell_houses[a, 0] == cell_houses[b, 0] or cell_houses[a, 1] == cell_houses[b, 1] or (
            cell_houses[a, 2] == cell_houses[b, 2]):
        return True
    for k in range(3, cell_houses.shape[1]):
        if cell_houses[a, k] == cell_houses[b, k]:
            return True
    return False


@wide_kernel(_nrt=False)
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


@wide_kernel(_nrt=False)
def _in_house(cell, h, cell_houses):
    """Whether ``cell`` lies in house ``h``."""
    if cell_houses[cell, 0] == h or cell_houses[cell, 1] == h or cell_houses[cell, 2] == h:
        return True
    for k in range(3, cell_houses.shape[1]):
        if cell_houses[cell, k] == h:
            return True
    return False


@kernel_with(inline="always")
def _has_regions(houses, n):
    """Whether the shape has regions (boxes or jigsaw regions: houses 2n..3n-1); a Latin square has rows and
    columns only (and the two diagonals when asked for, 2n + 2 houses, fewer than 3n from n = 3 on)."""
    return houses.shape[0] >= 3 * n


#: a cell's units in Sudoku Explainer's order, as slots of :func:`grader_units`: the box, the row, the column, then
#: the two diagonals
SE_SLOTS = (2, 0, 1, 3, 4)


@kernel_with(inline="always")
def _se_slot(kind, regions):
    """The slot of ``cell_houses`` that holds a cell's unit of ``kind`` in Sudoku Explainer's order of region
    types: box (0), row (1), column (2), then the diagonals (3, 4); without regions (``regions`` False: a Latin
    square) row (0), column (1), then the diagonals (2, 3): one kind fewer (:func:`_nkinds`)."""
    if not regions:
        return kind if kind < 2 else kind + 1
    return SE_SLOTS[kind]


@kernel_with(inline="always")
def _nkinds(cell_houses, regions):
    """How many kinds of unit :func:`_se_slot` numbers: the slots, less a Latin square's region slot."""
    return cell_houses.shape[1] - (0 if regions else 1)


@kernel_with(inline="always")
def _house_in_bug_order(k, n, regions):
    """The ``k``-th house in the order of Sudoku Explainer's region types (_se_slot): boxes, rows, columns, then
    the diagonals (rows, columns, diagonals without regions: the houses' own order)."""
    if not regions:
        return k
    if k < n:
        return 2 * n + k
    return k - n if k < 3 * n else k


@kernel_with(inline="always")
def _house_in_se_order(kk, n, nhouses):
    """The ``kk``-th of ``nhouses`` houses in Sudoku Explainer's order: boxes (2n..3n-1; none on a Latin square),
    columns (n..2n-1), rows (0..n-1), then the diagonals."""
    regions = n if nhouses >= 3 * n else 0
    if kk < regions:
        return 2 * n + kk
    kk -= regions
    if kk < n:
        return n + kk
    if kk < 2 * n:
        return kk - n
    return kk + regions


@wide_kernel(_nrt=False)
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


@wide_kernel(_nrt=False)
def _house_positions(houses, cell_houses, n, position):
    """``position[c, k]``: cell c's position in its unit of slot k (:func:`grader_units`: row, column, region),
    the positions the bits of :func:`_places_table` count. Made again for each new grid a chain search starts
    from (Nishio's runs, many a step): rows, columns and regions by their index, as before shapes."""
    regions = _has_regions(houses, n)
    for h in range(houses.shape[0]):
        k = h // n  # rows, columns and regions are slots 0, 1, 2
        if k >= (3 if regions else 2):  # a diagonal: its slot looked up
            k = 0
            while cell_houses[houses[h, 0], k] != h:
                k += 1
        for i in range(n):
            position[houses[h, i], k] = i
    if not regions or cell_houses.shape[1] > 3:  # a slot that repeats the row: the row's positions
        for c in range(cell_houses.shape[0]):
            for k in range(2, cell_houses.shape[1]):
                if cell_houses[c, k] == cell_houses[c, 0]:
                    position[c, k] = position[c, 0]


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
    for h in range(houses.shape[0]):
        covered = np.int64(0)
        for i in range(n):
            c = houses[h, i]
            covered |= cands[c]
            if cells[c]:
                covered |= np.int64(1) << (cells[c] - 1)
        if covered != full:
            return True
    return False


def grader_units(geo) -> np.ndarray:
    """Each cell's units as the grader's kernels read them: an int64 (ncells, 3) table of slots, row, column and
    region, and two slots more on a shape with diagonals, the first diagonal and the second. A slot a cell has no
    unit for (the region of a Latin square, a diagonal the cell is not on) repeats the cell's row, so the kernels
    that walk a cell's units (the chains' links) walk the row once more and add nothing (each skips a place it has
    already taken), a comparison slot by slot (:func:`_sees`) stays right, and the ones about regions ask
    :func:`_has_regions` first. Made once per shape; not to be written to (writable, as the tables the kernels
    make for themselves are, so each kernel is compiled for one type)."""
    units = _units_made.get(geo.shape)
    if units is None:
        n, rows = geo.size, geo.row_of.astype(np.int64)
        units = np.empty((geo.ncells, 5 if geo.shape.diagonals else 3), np.int64)
        units[:, 0] = rows
        units[:, 1] = n + geo.col_of
        units[:, 2] = 2 * n + geo.box_of if geo.shape.has_regions else rows
        if geo.shape.diagonals:
            first = n * (3 if geo.shape.has_regions else 2)  # the diagonals' houses come after the others
            units[:, 3] = np.where(geo.row_of == geo.col_of, first, rows)
            units[:, 4] = np.where(geo.row_of + geo.col_of == n - 1, first + 1, rows)
        _units_made[geo.shape] = units
    return units


_units_made: dict = {}


def se_units(cell_houses, c: int) -> list[int]:
    """Cell ``c``'s units in Sudoku Explainer's order (:data:`SE_SLOTS`): box, row, column, then the diagonals it is
    on (a Latin square's region slot, the row, stays: the kernels walk it too)."""
    return [int(cell_houses[c, kind]) for k, kind in enumerate(SE_SLOTS[:cell_houses.shape[1]])
            if k < 3 or cell_houses[c, kind] != cell_houses[c, 0]]
