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

The beam's helpers and the finish are shared with the rectangles' search (:mod:`engine.keys._beam`).

Cost: docs/benchmarks.md, Canonical keys (bench/bench_keys.py); 16x16 boards keep fewer ties than 9x9 ones. Boards
with many automorphisms keep more ties, and cost far more (the 25x25 pattern board).
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ._beam import _CM, _earliest, _finish, _place


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
    # a beam state is one int8 row laid out as engine/keys/_beam.py says (b stacks), then t
    sm = _CM + 2 * n
    si = sm + b
    tc = si + b
    width = tc + 1
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
        beam[k, tc] = starts[k, 0]
        beam[k, 0] = starts[k, 1]
        beam[k, 1] = starts[k, 2]
        beam[k, sm] = starts[k, 3]
        beam[k, si + starts[k, 3]] = 0
    size = nstarts
    for c in range(n):
        # one pass: a child is kept while its value ties the best so far; a smaller value drops the kept ones
        best = n + 1
        nsize = 0
        for k in range(size):
            t, r0, r1 = beam[k, tc], beam[k, 0], beam[k, 1]
            fixed = beam[k, _CM + c]
            lo = 0
            hi = n
            if fixed >= 0:
                lo = fixed
                hi = fixed + 1
            else:
                bound = beam[k, sm + c // b]
                if bound >= 0:
                    lo = bound * b
                    hi = lo + b
            for s in range(lo, hi):
                if fixed < 0:
                    if beam[k, _CM + n + s] >= 0 or (beam[k, sm + c // b] < 0 and beam[k, si + s // b] >= 0):
                        continue
                q = pos[t, r0, grids[t, r1, s]]
                at = _earliest(beam, k, c, s, q, n, b, b)
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
                    _place(nxt, nsize, c, s, n, b, b)
                if nxt[nsize, _CM + n + q] < 0:
                    _place(nxt, nsize, at, q, n, b, b)
                nsize += 1
        if nxt.shape[0] > beam.shape[0]:
            beam = np.full(nxt.shape, -1, dtype=np.int8)
        beam, nxt = nxt, beam
        size = nsize
    # every surviving state has the same rows 0 and 1; the plain half's states come first (the starts do, and the
    # beam keeps their order): each half is finished on its own board, a later state winning only when smaller
    have = False
    won = 0
    lo = 0
    for t in range(2):
        hi = lo
        while hi < size and beam[hi, tc] == t:
            hi += 1
        if hi > lo and _finish(grids[t], pos[t], n, b, beam, lo, hi, have, key, perm):
            have = True
            won = t
        lo = hi
    if won == 1:  # perm is of the transposed board: its cell (r, c) is (c, r) of the board
        for i in range(n * n):
            p = perm[i]
            perm[i] = (p % n) * n + p // n
