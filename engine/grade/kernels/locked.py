"""Compiled locked candidates, plain and direct: pointing and claiming, direct pointing and direct claiming, twins
of :mod:`engine.grade.finders.locked`.

Each kernel makes the FIRST step in the search order of its finder (Sudoku Explainer's), in place. The direct
ones place the hidden single the pattern leaves (so the caller counts a placement); the pattern's own
eliminations are not made, as Sudoku Explainer's direct hints do not make them. ``claiming`` (the families'
argument, engine.grade.kernels.families: POINTING 0, CLAIMING 1) says which side the base is on.
"""
from __future__ import annotations

import numpy as np

from ..._jit import kernel_with, wide_kernel
from ...bits import lowbit_index, popcount
from .misses import _changed_digits, _remember
from .state import _has_regions, _in_house, _place

ROW, COLUMN, BOX, DIAGONAL1 = 0, 1, 2, 3  # slots of cell_houses (state.grader_units); DIAGONAL1 + 1: the second


@wide_kernel(_nrt=False)
def _house_of(cell, kind, cell_houses):
    """The house of ``kind`` (ROW, COLUMN, BOX: the slots of engine.geometry's ``cell_houses``) holding ``cell``."""
    return cell_houses[cell, kind]


@kernel_with(_nrt=False)
def _direct_locking(cells, cands, houses, peers, cell_houses, n, claiming, table, memo):
    """Direct pointing (``claiming`` False: box -> column, then box -> row) or direct claiming (column -> box, then
    row -> box): the locked digit leaves the rest of the cover, and its single in another house is placed.
    ``table``: the places of every digit in every house (engine.grade.kernels.state._places_table); ``memo``: the
    technique's row of the misses memo (engine.grade.kernels.misses): only the digits whose places changed since
    its last miss are looked at, the others would miss again. Compiled without reference counts, as all it calls
    is: tried before most steps, a layer that counts them cost more than the digits it skips saved."""
    found = _direct_locking_on(cells, cands, houses, peers, cell_houses, n, claiming, table,
                               _changed_digits(memo, cands))
    _remember(memo, cands, not found)
    return found


@kernel_with(_nrt=False)
def _direct_locking_on(cells, cands, houses, peers, cell_houses, n, claiming, table, digits):
    """:func:`_direct_locking` on the digits set in ``digits`` (a bit each; -1 for all), in the order of the search.

    Only the houses of the base's kind that meet the cover can be left with one place (the others keep all theirs),
    and a base whose digit has more places than ``side`` (the most cells a box and a line share:
    :func:`box_line_side`, which the caller keeps in the first entry of ``table``'s extra last row) cannot lie in
    one line of a box, or one box of a line: both are skipped before any place is looked at (SE's order is kept:
    the houses are tried in order). A shape without regions (a Latin square, side 0) has no locked candidates. On a
    shape with diagonals, direct pointing also looks from a box onto each diagonal, after SE's two (direct
    claiming has no other diagonal of a base's kind to leave a single in)."""
    side = table[table.shape[0] - 1, 0]
    if side == 0:  # no regions: no bases of that kind to read (their rows are not in the table)
        return False
    for pair in range(2 if claiming or cell_houses.shape[1] == 3 else 4):
        if claiming:
            kind1, kind2 = (COLUMN if pair == 0 else ROW), BOX
        else:
            kind1, kind2 = BOX, (COLUMN if pair == 0 else (ROW if pair == 1 else DIAGONAL1 + pair - 2))
        for d in range(1, n + 1):
            if not digits >> (d - 1) & 1:
                continue
            for i1 in range(n):
                base = kind1 * n + i1
                at = table[base, d - 1]
                size = popcount(at)
                if size < 2 or size > side:
                    continue
                cover = -1
                while at:
                    low = at & -at
                    at ^= low
                    h = _house_of(houses[base, lowbit_index(low)], kind2, cell_houses)
                    if cover == -1:
                        cover = h
                    elif h != cover:
                        cover = -1
                        break
                if cover < 0 or (kind2 >= DIAGONAL1 and cover < 3 * n):
                    continue  # (a cell off a diagonal: its slot repeats its row)
                meets = np.int64(0)  # the houses of the base's kind that meet the cover, as bits
                for i in range(n):
                    meets |= np.int64(1) << (_house_of(houses[cover, i], kind1, cell_houses) - kind1 * n)
                meets &= ~(np.int64(1) << i1)
                while meets:
                    low3 = meets & -meets
                    meets ^= low3
                    other = kind1 * n + lowbit_index(low3)
                    at = table[other, d - 1]
                    if popcount(at) < 2:
                        continue
                    rest, single = 0, -1
                    while at:
                        low = at & -at
                        at ^= low
                        c = houses[other, lowbit_index(low)]
                        if not _in_house(c, cover, cell_houses):
                            rest += 1
                            single = c
                    if rest != 1:
                        continue
                    _place(cells, cands, peers, single, d)
                    return True
    return False


@wide_kernel
def box_line_side(houses, cell_houses, n):
    """The most cells a box (a region) and a row, column or diagonal share: b on square boxes, max(r, c) on boxes
    of r x c, up to n - 1 on a jigsaw, 0 without regions. What :func:`_direct_locking_on` may skip by."""
    if not _has_regions(houses, n):
        return 0
    shared = np.zeros((n, houses.shape[0]), np.int64)
    for c in range(cell_houses.shape[0]):
        for k in range(cell_houses.shape[1]):
            if k != BOX and (k < DIAGONAL1 or cell_houses[c, k] != cell_houses[c, ROW]):
                shared[cell_houses[c, BOX] - 2 * n, cell_houses[c, k]] += 1
    return shared.max()


@wide_kernel
def _locked_candidates(cands, houses, cell_houses, n, claiming, table, digits):
    """Pointing (``claiming`` False: a box's places for a digit in one row or column) or claiming (True: a row's
    or column's places in one box): remove the digit from the rest of that second house. Sudoku Explainer's order,
    as engine.grade.finders.locked: (base kind, cover kind) pairs, then digits, then bases. ``table``: the places of
    every digit in every house (engine.grade.kernels.state._places_table); only the digits set in ``digits`` (a bit
    each, -1 for all) are looked at (engine.grade.kernels.misses: a digit whose places did not change misses again).
    A shape without regions (a Latin square) has none: two lines meet in one cell. On a shape with diagonals, the
    diagonals come after SE's pairs: pointing from a box onto each diagonal, claiming from each diagonal into a
    box."""
    if not _has_regions(houses, n):
        return False
    for pair in range(2 if cell_houses.shape[1] == 3 else 4):
        count = n
        if pair >= 2:  # a diagonal (houses 3n, 3n + 1)
            first = 3 * n + pair - 2 if claiming else 2 * n
            count = 1 if claiming else n
            kind2 = BOX if claiming else DIAGONAL1 + pair - 2
        elif claiming:  # columns, then rows, into boxes
            first = n if pair == 0 else 0
            kind2 = BOX
        else:  # boxes, along columns, then along rows
            first = 2 * n
            kind2 = COLUMN if pair == 0 else ROW
        for d in range(1, n + 1):
            if not digits >> (d - 1) & 1:
                continue
            bit = np.int64(1) << (d - 1)
            for base in range(first, first + count):
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
                    else:
                        same &= cell_houses[c, kind2] == cell_houses[c0, kind2]
                if not same:
                    continue
                cover = cell_houses[c0, kind2]
                if kind2 >= DIAGONAL1 and cover < 3 * n:
                    continue  # off the diagonal: the slot repeats the row
                changed = False
                for i in range(n):
                    c = houses[cover, i]
                    if cands[c] & bit and not _in_house(c, base, cell_houses):
                        cands[c] &= ~bit
                        changed = True
                if changed:
                    return True
    return False
