"""The rules a "dynamic forcing chain (+)" may use inside its chains, as Sudoku Explainer's ``Chaining`` level 1 does.

When a dynamic run has nothing left to follow, these rules look at its working grid (the candidates left after the
run's own removals): locked candidates, hidden pairs, naked pairs and X-Wings, tried in that order; the first rule
that finds something *because of the run's removals* adds its eliminations as off states. Their parents are the
removals the pattern rests on (its "rule parents"): the digit's lost places in the locked house, the pair's digits
lost from the house's other cells, the pair cells' lost other candidates, the fish digit's lost places in the base
lines outside the cover lines. A pattern with no such parent was there before the run and is left to the grader.
"""
from __future__ import annotations

import numpy as np

from ...._jit import kernel_with, wide_kernel
from ....bits import digit_of, lowbit_index, popcount
from ..state import _has_regions, _house_in_se_order
from .slots import _add, _has, _parent

LOCKING, HIDDEN_PAIR, NAKED_PAIR, X_WING = 0, 1, 2, 3
ROW, COLUMN, BOX, DIAGONAL1, DIAGONAL2 = 0, 1, 2, 3, 4  # a house's kind: its slot in cell_houses (state.grader_units)
# Sudoku Explainer's orders, which decide what a run meets first and so which parents its states get (a chain's
# complexity, and its rating, counts them): locked candidates from a box onto a column, a box onto a row, a column
# onto a box, a row onto a box (then, on a shape with diagonals, a box onto each diagonal and each diagonal onto a
# box); pairs in boxes, then columns, then rows (then the diagonals: state._house_in_se_order); X-Wings on
# columns, then rows, as bases
LOCKED_FROM = (BOX, BOX, COLUMN, ROW, BOX, BOX, DIAGONAL1, DIAGONAL2)
LOCKED_ONTO = (COLUMN, ROW, BOX, BOX, DIAGONAL1, DIAGONAL2, BOX, BOX)


@wide_kernel(_nrt=False)
def _emit(ws, w, t, parents, nparents, out, count):
    """Add off state ``t`` with the rule's parents unless the slot has it; returns the new count of ``out``."""
    if _has(ws, w, t):
        return count
    _add(ws, w, t, -1)
    for k in range(nparents):
        _parent(ws, w, t, parents[k])
    out[count] = t
    return count + 1


@wide_kernel(_nrt=False)
def _emit_hint(ws, w, cells, masks, k, n, parents, nparents, out, count):
    """Add the eliminations of one pattern: digits ``masks[i]`` from cell ``cells[i]`` for ``i < k``, made in that
    order, given in the order Sudoku Explainer's hint gives them. It keeps them in a Java ``HashMap`` keyed by the
    cell, whose hash is the cell's index: the map yields its cells by ``index mod capacity`` (16, doubled whenever
    it holds more than three quarters of it), cells of one bucket in the order they came, each cell's digits
    upwards. That order is the order the run follows them, and so decides which parents later states get."""
    cap = 16
    while k * 4 > cap * 3:
        cap *= 2
    for i in range(1, k):  # a stable insertion sort by bucket: k is at most a few houses' cells
        c, m = cells[i], masks[i]
        j = i - 1
        while j >= 0 and (cells[j] & (cap - 1)) > (c & (cap - 1)):
            cells[j + 1] = cells[j]
            masks[j + 1] = masks[j]
            j -= 1
        cells[j + 1] = c
        masks[j + 1] = m
    for i in range(k):
        m = masks[i]
        while m:
            low = m & -m
            m ^= low
            count = _emit(ws, w, 2 * (cells[i] * n + digit_of(low) - 1), parents, nparents, out, count)
    return count


@kernel_with(inline="always")
def _off_states(c, digits, n, out, k):
    """Write the off states of cell ``c``'s ``digits`` (a mask) to ``out`` from ``k`` on; returns the new count."""
    while digits:
        low = digits & -digits
        digits ^= low
        out[k] = 2 * (c * n + digit_of(low) - 1)
        k += 1
    return k


@wide_kernel(_nrt=False)
def _empty_cells(orig, houses, h, n):
    """How many cells of house ``h`` the run's grid has not filled (a run only removes candidates, so the cells the
    grid it started from left empty: Sudoku Explainer's ``getEmptyCellCount`` inside a run)."""
    k = 0
    for i in range(n):
        if orig[houses[h, i]]:
            k += 1
    return k


@wide_kernel(_nrt=False)
def _advanced(ws, w, orig, work, houses, cell_houses, n, out, parents):
    """Off states the first productive rule adds to slot ``w`` (written to ``out``); returns how many, or -1 when no
    rule is productive. A rule is productive when one of its patterns rests on the run's removals, even if its
    eliminations are known already (and then no later rule is tried: 0). ``orig`` is the grid the run started from
    and ``work`` its working grid, whose places the workspace keeps. Each rule finds its patterns in Sudoku
    Explainer's order and with its conditions (see the rules)."""
    # a pattern's eliminations (cells, and digits as masks) in the room after its parents (at most 2n - 4): the
    # forcing search runs without numba's runtime, so nothing here may allocate
    cells = parents[2 * n:4 * n + 4]
    masks = parents[4 * n + 4:6 * n + 8]
    for rule in range(4):
        if rule == LOCKING:
            count, productive = _locking(ws, w, orig, work, houses, cell_houses, n, out, parents, cells, masks)
        elif rule == HIDDEN_PAIR:
            count, productive = _hidden_pairs(ws, w, orig, work, houses, n, out, parents, cells, masks)
        elif rule == NAKED_PAIR:
            count, productive = _naked_pairs(ws, w, orig, work, houses, n, out, parents, cells, masks)
        else:
            count, productive = _x_wings(ws, w, orig, work, houses, n, out, parents, cells, masks)
        if productive:
            return count
    return -1


@wide_kernel(_nrt=False)
def _locking(ws, w, orig, work, houses, cell_houses, n, out, parents, cells, masks):
    """Locked candidates: a digit whose places in house ``h1`` all lie in one house ``h2`` of the other kind leaves
    the rest of ``h2``. Its parents: the digit's places ``h1`` lost in the run outside ``h2`` (a place lost inside
    ``h2`` changes nothing: the pattern was there before)."""
    now, before = ws[19], ws[20]
    count = 0
    productive = False
    if not _has_regions(houses, n):  # a Latin square: two lines meet in one cell
        return count, productive
    first_diagonal = 3 * n
    for kind in range(4 if cell_houses.shape[1] == 3 else 8):
        k1, k2 = LOCKED_FROM[kind], LOCKED_ONTO[kind]
        for d in range(1, n + 1):
            bit = np.int64(1) << (d - 1)
            for j in range(n if k1 < DIAGONAL1 else 1):
                h1 = k1 * n + j if k1 < DIAGONAL1 else first_diagonal + k1 - DIAGONAL1
                places = now[h1, d - 1]
                if places == before[h1, d - 1] or popcount(places) < 2:
                    continue  # (h1 lost no place of the digit: no parent, the pattern was there before)
                h2 = cell_houses[houses[h1, lowbit_index(places)], k2]
                if k2 >= DIAGONAL1 and h2 < first_diagonal:
                    continue  # a cell off the diagonal: its slot repeats its row
                inside = True
                rest = places
                while rest:
                    low = rest & -rest
                    rest ^= low
                    if cell_houses[houses[h1, lowbit_index(low)], k2] != h2:
                        inside = False
                        break
                if not inside:
                    continue
                k = 0
                for i in range(n):
                    c = houses[h2, i]
                    if work[c] & bit and cell_houses[c, k1] != h1:
                        cells[k] = c
                        masks[k] = bit
                        k += 1
                if k == 0:
                    continue
                np_ = 0
                for i in range(n):
                    c = houses[h1, i]
                    if orig[c] & bit and not work[c] & bit and cell_houses[c, k2] != h2:
                        parents[np_] = 2 * (c * n + d - 1)
                        np_ += 1
                if np_ == 0:
                    continue
                productive = True
                count = _emit_hint(ws, w, cells, masks, k, n, parents, np_, out, count)
    return count, productive


@wide_kernel(_nrt=False)
def _hidden_pairs(ws, w, orig, work, houses, n, out, parents, cells, masks):
    """Hidden pairs: two digits with the same two places in a house leave those cells' other candidates. Sudoku
    Explainer looks only in houses of more than four empty cells, at digit pairs in its ``Permutations`` order (by
    the higher digit, then the lower). Parents: the pair's digits lost from the house's other cells."""
    now, before = ws[19], ws[20]
    count = 0
    productive = False
    for kk in range(houses.shape[0]):
        h = _house_in_se_order(kk, n, houses.shape[0])
        if _empty_cells(orig, houses, h, n) <= 4:
            continue
        for d2 in range(1, n):
            pos = now[h, d2]
            if popcount(pos) != 2:
                continue
            for d1 in range(d2):
                if now[h, d1] != pos or (before[h, d1] == pos and before[h, d2] == pos):
                    continue  # (no pair, or one the house had before the run: no parent)
                pair = (np.int64(1) << d1) | (np.int64(1) << d2)
                k = 0
                for i in range(n):
                    if pos >> i & 1:
                        c = houses[h, i]
                        if work[c] & ~pair:
                            cells[k] = c
                            masks[k] = work[c] & ~pair
                            k += 1
                if k == 0:
                    continue
                np_ = 0
                for i in range(n):
                    if not pos >> i & 1:
                        np_ = _off_states(houses[h, i], orig[houses[h, i]] & pair, n, parents, np_)
                if np_ == 0:
                    continue
                productive = True
                count = _emit_hint(ws, w, cells, masks, k, n, parents, np_, out, count)
    return count, productive


@wide_kernel(_nrt=False)
def _naked_pairs(ws, w, orig, work, houses, n, out, parents, cells, masks):
    """Naked pairs: two cells of a house with the same two candidates take them from the house's other cells.
    Sudoku Explainer looks only in houses of at least four empty cells, at cell pairs in its ``Permutations``
    order. Parents: the pair cells' other candidates lost in the run."""
    count = 0
    productive = False
    for kk in range(houses.shape[0]):
        h = _house_in_se_order(kk, n, houses.shape[0])
        if _empty_cells(orig, houses, h, n) < 4:
            continue
        for ib in range(1, n):
            b = houses[h, ib]
            m = work[b]
            if popcount(m) != 2:
                continue
            for ia in range(ib):
                a = houses[h, ia]
                if work[a] != m or (orig[a] == m and orig[b] == m):
                    continue  # (no pair, or one the cells had before the run: no parent)
                k = 0
                for x in range(n):
                    c = houses[h, x]
                    if c != a and c != b and work[c] & m:
                        cells[k] = c
                        masks[k] = work[c] & m
                        k += 1
                if k == 0:
                    continue
                np_ = _off_states(a, orig[a] & ~m, n, parents, 0)
                np_ = _off_states(b, orig[b] & ~m, n, parents, np_)
                if np_ == 0:
                    continue
                productive = True
                count = _emit_hint(ws, w, cells, masks, k, n, parents, np_, out, count)
    return count, productive


@wide_kernel(_nrt=False)
def _x_wings(ws, w, orig, work, houses, n, out, parents, cells, masks):
    """X-Wings: a digit with the same two places in two base lines leaves the two cover lines elsewhere. Sudoku
    Explainer takes columns as base lines first, then rows, line pairs in its ``Permutations`` order and digits
    upwards for each pair, and only digits placed at most n - 4 times (the grid the run started from: a run places
    none). Parents: the digit's places lost from the base lines outside the cover lines."""
    now, before = ws[19], ws[20]
    count = 0
    productive = False
    for base in (COLUMN, ROW):
        cover = COLUMN if base == ROW else ROW
        for l2 in range(1, n):
            h2 = base * n + l2
            for l1 in range(l2):
                h1 = base * n + l1
                for d in range(1, n + 1):
                    p1 = now[h1, d - 1]
                    if popcount(p1) != 2 or now[h2, d - 1] != p1 or (before[h1, d - 1] == p1 and
                                                                    before[h2, d - 1] == p1):
                        continue  # (no X-Wing, or one the base lines had before the run: no parent)
                    placed = 0  # the digit's placements: the rows with no place for it
                    for r in range(n):
                        if not before[ROW * n + r, d - 1]:
                            placed += 1
                    if placed + 4 > n:
                        continue
                    bit = np.int64(1) << (d - 1)
                    k = 0
                    for i in range(n):
                        if not p1 >> i & 1:
                            continue
                        hc = cover * n + i
                        for x in range(n):
                            c = houses[hc, x]
                            if x != l1 and x != l2 and work[c] & bit:
                                cells[k] = c
                                masks[k] = bit
                                k += 1
                    if k == 0:
                        continue
                    np_ = 0
                    for hb in (h1, h2):
                        for i in range(n):
                            c = houses[hb, i]
                            if orig[c] & bit and not work[c] & bit and not p1 >> i & 1:
                                parents[np_] = 2 * (c * n + d - 1)
                                np_ += 1
                    if np_ == 0:
                        continue
                    productive = True
                    count = _emit_hint(ws, w, cells, masks, k, n, parents, np_, out, count)
    return count, productive
