"""Kernel: the exact full-equivalence key of a complete, valid board (private; use :mod:`engine.keys`).

The key is the smallest image, in reading order, over transpose x band/row orders x stack/column orders x digit
relabellings. Why this search is small:

* Relabelling: for a fixed arrangement of cells the smallest relabelling numbers the digits in order of first
  appearance, so image row 0 of every candidate is ``1 2 ... n``. Choosing the source row ``r0`` for it fixes
  the labels *as a function of the column order*: digit d gets label (image column of d in row r0) + 1.
* Row 1 of the image comes from r0's band (``r1``, b - 1 choices). Its cell c holds the label of the digit at
  (r1, C(c)), i.e. one more than the image column of ``q = column of that digit in r0``. Image row 1 is built
  cell by cell; for each candidate source column the best possible value puts ``q`` at the earliest image
  column still open to it (a bound stack's first free column, or the first column of the first unbound stack).
  That value is exact, so every (t, r0, r1, column order) prefix can be compared as it grows.
* All starts move through row 1 together, one image column at a time (a beam): at each column only the states
  achieving the smallest value survive, so the beam holds exactly the arrangements whose rows 0..1 are minimal.
* After row 1 every column and label is fixed; the remaining rows of r0's band go in ascending order, each other
  band's rows ascending, and the bands ordered by their first row. That is the minimum for the rest, exactly.

Cost: docs/benchmarks.md, Canonical keys (bench/bench_keys.py); 16x16 boards keep fewer ties than 9x9 ones. Boards
with many automorphisms keep more ties, and cost far more (the 25x25 pattern board).
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel


@kernel
def _earliest(beam, k, c, s, q, n, b):
    """The image column ``q`` lands on at best if source column ``s`` goes to image column ``c`` (state ``k``).
    On a valid board ``q`` is never in ``s``'s stack (a box holds each digit once), so -1 is never returned."""
    cm = 3
    ci = 3 + n
    sm = 3 + 2 * n
    si = 3 + 2 * n + b
    if beam[k, ci + q] >= 0:
        return beam[k, ci + q]
    t_img = c // b
    tq = beam[k, si + q // b]
    if tq < 0 and q // b == s // b:
        tq = t_img
    if tq >= 0:
        for j in range(b):
            pos = tq * b + j
            if pos != c and beam[k, cm + pos] < 0:
                return pos
        return -1
    for t2 in range(b):
        if t2 != t_img and beam[k, sm + t2] < 0:
            return t2 * b
    return -1


@kernel
def _place(beam, k, pos, col, n, b):
    """Put source column ``col`` at image column ``pos``, binding the stacks if needed."""
    beam[k, 3 + pos] = col
    beam[k, 3 + n + col] = pos
    if beam[k, 3 + 2 * n + pos // b] < 0:
        beam[k, 3 + 2 * n + pos // b] = col // b
        beam[k, 3 + 2 * n + b + col // b] = pos // b


@kernel
def _row_less(rowimg, a, c, n):
    for k in range(n):
        if rowimg[a, k] != rowimg[c, k]:
            return rowimg[a, k] < rowimg[c, k]
    return False


@kernel
def _sort_rows(rowimg, rows, lo, hi, n):
    """Insertion sort of rows[lo:hi] by their images (boards have no two equal rows)."""
    for k in range(lo + 1, hi):
        r = rows[k]
        j = k - 1
        while j >= lo and _row_less(rowimg, r, rows[j], n):
            rows[j + 1] = rows[j]
            j -= 1
        rows[j + 1] = r


@kernel
def board_key(cells, b, key, perm):
    """Write the full-equivalence key of the valid board ``cells`` to ``key`` and the cell permutation that makes
    it (key == relabelled cells[perm]) to ``perm``."""
    n = b * b
    grids = np.empty((2, n, n), dtype=np.int8)
    pos = np.empty((2, n, n + 1), dtype=np.int32)
    for r in range(n):
        for c in range(n):
            d = cells[r * n + c]
            grids[0, r, c] = d
            grids[1, c, r] = d
    for t in range(2):
        for r in range(n):
            for c in range(n):
                pos[t, r, grids[t, r, c]] = c
    ntrans = 2
    symmetric = True
    for r in range(n):
        for c in range(n):
            if grids[0, r, c] != grids[1, r, c]:
                symmetric = False
    if symmetric:  # transposing gives the same board: half the starts are duplicates
        ntrans = 1
    # a beam state is one int8 row: t, r0, r1, then image column -> source column (n), source column -> image
    # column (n), image stack -> source stack (b), source stack -> image stack (b); -1 = not placed yet
    width = 3 + 2 * n + 2 * b
    # Row 1's first box holds r1's digits of the source stack S0 chosen for image stack 0. Their anchors fall into
    # the other stacks in groups; the best that box can be is the groups in descending size order (b+1.., then
    # 2b+1.., ...), so only the (t, r0, r1, S0) whose sorted group sizes are lexicographically largest can win.
    starts = np.empty((ntrans * n * (b - 1) * b, 4), dtype=np.int32)
    nstarts = 0
    best_pattern = np.zeros(b, dtype=np.int32)
    pattern = np.zeros(b, dtype=np.int32)
    for t in range(ntrans):
        for r0 in range(n):
            for j in range(b):
                r1 = (r0 // b) * b + j
                if r1 == r0:
                    continue
                for s0 in range(b):
                    pattern[:] = 0
                    for k in range(b):
                        pattern[pos[t, r0, grids[t, r1, s0 * b + k]] // b] += 1
                    for x in range(1, b):  # insertion sort: numba's sort costs more per call here
                        v = pattern[x]
                        y = x - 1
                        while y >= 0 and pattern[y] > v:
                            pattern[y + 1] = pattern[y]
                            y -= 1
                        pattern[y + 1] = v
                    cmp = 0
                    for k in range(b - 1, -1, -1):
                        if pattern[k] != best_pattern[k]:
                            cmp = 1 if pattern[k] > best_pattern[k] else -1
                            break
                    if cmp < 0:
                        continue
                    if cmp > 0:
                        best_pattern[:] = pattern
                        nstarts = 0
                    starts[nstarts, 0] = t
                    starts[nstarts, 1] = r0
                    starts[nstarts, 2] = r1
                    starts[nstarts, 3] = s0
                    nstarts += 1
    cap = nstarts * b + 16
    beam = np.full((cap, width), -1, dtype=np.int8)
    nxt = np.full((cap, width), -1, dtype=np.int8)
    for k in range(nstarts):
        beam[k, 0] = starts[k, 0]
        beam[k, 1] = starts[k, 1]
        beam[k, 2] = starts[k, 2]
        beam[k, 3 + 2 * n] = starts[k, 3]
        beam[k, 3 + 2 * n + b + starts[k, 3]] = 0
    size = nstarts
    for c in range(n):
        # one pass: a child is kept while its value ties the best so far; a smaller value drops the kept ones
        best = n + 1
        nsize = 0
        for k in range(size):
            t, r0, r1 = beam[k, 0], beam[k, 1], beam[k, 2]
            fixed = beam[k, 3 + c]
            lo = 0
            hi = n
            if fixed >= 0:
                lo = fixed
                hi = fixed + 1
            else:
                bound = beam[k, 3 + 2 * n + c // b]
                if bound >= 0:
                    lo = bound * b
                    hi = lo + b
            for s in range(lo, hi):
                if fixed < 0:
                    if beam[k, 3 + n + s] >= 0 or (beam[k, 3 + 2 * n + c // b] < 0 and beam[k, 3 + 2 * n + b + s // b] >= 0):
                        continue
                q = pos[t, r0, grids[t, r1, s]]
                at = _earliest(beam, k, c, s, q, n, b)
                if at + 1 > best:
                    continue
                if at + 1 < best:
                    best = at + 1
                    nsize = 0
                if nsize == nxt.shape[0]:  # boards with many automorphisms keep many ties: grow
                    bigger = np.full((2 * nsize, width), -1, dtype=np.int8)
                    bigger[:nsize] = nxt[:nsize]
                    nxt = bigger
                for x in range(width):
                    nxt[nsize, x] = beam[k, x]
                if fixed < 0:
                    _place(nxt, nsize, c, s, n, b)
                if nxt[nsize, 3 + n + q] < 0:
                    _place(nxt, nsize, at, q, n, b)
                nsize += 1
        if nxt.shape[0] > beam.shape[0]:
            beam = np.full(nxt.shape, -1, dtype=np.int8)
        beam, nxt = nxt, beam
        size = nsize
    # every surviving state has the same rows 0 and 1; finish each one and keep the smallest image
    label = np.empty(n + 1, dtype=np.int32)
    rowimg = np.empty((n, n), dtype=np.int8)
    rows = np.empty(n, dtype=np.int32)
    have = False
    best_t = 0
    best_rows = np.empty(n, dtype=np.int32)
    best_cols = np.empty(n, dtype=np.int32)
    for k in range(size):
        st = beam[k]
        t, r0, r1 = st[0], st[1], st[2]
        label[0] = 0
        for d in range(1, n + 1):
            label[d] = st[3 + n + pos[t, r0, d]] + 1
        for r in range(n):
            for c in range(n):
                rowimg[r, c] = label[grids[t, r, st[3 + c]]]
        band0 = r0 // b
        rows[0] = r0
        rows[1] = r1
        m = 2
        for j in range(b):
            r = band0 * b + j
            if r != r0 and r != r1:
                rows[m] = r
                m += 1
        _sort_rows(rowimg, rows, 2, b, n)
        nb = 0
        for band in range(b):
            if band != band0:
                nb += 1
                for j in range(b):
                    rows[nb * b + j] = band * b + j
                _sort_rows(rowimg, rows, nb * b, nb * b + b, n)
        # order the other bands (slots 1..b-1) by their sorted first rows; rows are distinct, so first rows decide
        for x in range(2, b):
            y = x
            while y > 1 and _row_less(rowimg, rows[y * b], rows[(y - 1) * b], n):
                for j in range(b):
                    tmp = rows[y * b + j]
                    rows[y * b + j] = rows[(y - 1) * b + j]
                    rows[(y - 1) * b + j] = tmp
                y -= 1
        better = not have
        if have:
            for i in range(2, n):
                diff = 0
                for c in range(n):
                    a = rowimg[rows[i], c]
                    if a != key[i * n + c]:
                        diff = 1 if a < key[i * n + c] else -1
                        break
                if diff != 0:
                    better = diff > 0
                    break
        if better:
            have = True
            best_t = t
            for i in range(n):
                best_rows[i] = rows[i]
                best_cols[i] = st[3 + i]
                for c in range(n):
                    key[i * n + c] = rowimg[rows[i], c]
    for i in range(n):
        for c in range(n):
            if best_t == 0:
                perm[i * n + c] = best_rows[i] * n + best_cols[c]
            else:
                perm[i * n + c] = best_cols[c] * n + best_rows[i]
