"""Kernel: the exact ``full`` key of a complete board with boxes of rb x cb, rb != cb (private; use
:func:`engine.keys.rect_full.rect_full_keys`, which orients the board first and says which rb and cb).

The key is the smallest image in reading order over the shape's moves - bands of ``rb`` rows and the rows within
each band, stacks of ``cb`` columns and the columns within each stack - and the relabellings (digits numbered in
order of first appearance). Transposing is not a move of a rectangle. It is the search of
:mod:`engine.keys._board` (square boxes) with bands and stacks of their own widths, and without its transposed
half:

* Row 0 of every image reads ``1 2 ... n`` (a board's row holds every digit, relabelled in order). Choosing the
  source row ``r0`` for it fixes the labels as a function of the column order: digit d gets label (image column
  of d in r0) + 1.
* Image row 1 comes from r0's band (``r1``, rb - 1 choices). Its cell c holds one more than the image column of
  ``q``, the column where r0 holds the digit (r1, source column of c). On a valid board ``q`` is never in the
  stack of that source column (r0 and r1 share a band: the two cells would share a box). Image row 1 is built
  cell by cell; for each source column tried at c, the smallest value it can give puts ``q`` at the earliest
  image column still open to it (the first free column of the image stack its stack is bound to, or the first
  column of the first image stack not bound yet: bound stacks are always a prefix, since a stack is bound only
  at the first column of the first free one). That value is reached exactly when ``q`` goes there, so the state
  that places it there stands for every completion reaching it.
* All starts move through row 1 together (a beam): at each column only the states reaching the smallest value
  survive, so after the last column the beam holds exactly the (r0, r1, column order) whose rows 0 and 1 are the
  smallest possible; every column is placed by then (each image column got one).
* Start pruning, exact for any rb, cb: row 1's first box holds r1's digits of the source stack ``S0`` bound to
  image stack 0; their ``q`` fall into the other stacks in groups. The best that box can read is the groups in
  descending size, each from the first column of the next image stack (cb+1, cb+2, .., then 2cb+1, ..): no
  column order puts more of the q at or below any image column, so the box sorted is no smaller cell by cell,
  and that best is reached (the stacks so ordered, the q first in each, S0's columns by them). A larger group
  first gives a smaller box (where two patterns first differ, the larger group carries on with t*cb + k + 1 where
  the smaller one jumps to the next stack), so only the (r0, r1, S0) whose group sizes, sorted descending, are
  the lexicographically largest can win.
* After row 1 every label is fixed: the rest of r0's band in ascending order, every other band's rows ascending,
  the bands ordered by their first rows (rows of a board are distinct, so first rows decide) is the smallest
  rest, as the enumeration this search replaced finished each (column order, top row)
  (tests/naive/key_enumerations.py). r1 is the smallest of the band's other rows in every surviving state (a
  smaller one would give a smaller row 1), so the order is the same.

A board with many automorphisms keeps many tied states; past ``max_states`` the search gives up
(TOO_MANY_STATES) rather than grow without bound. Cost: bench/bench_shape_keys.py.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ._beam import _CM, _earliest, _finish, _place

from .errors import CONFLICT, OK, TOO_MANY as TOO_MANY_STATES  # the statuses it writes

# a beam state is one int16 row, laid out as engine/keys/_beam.py says, with ns = n // cb stacks


@kernel
def _valid(g, n, rb, cb):
    """Whether the complete grid ``g`` (n, n) holds every digit once in each row, column and box."""
    seen = np.zeros((3, n, n + 1), dtype=np.bool_)
    for r in range(n):
        for c in range(n):
            d = g[r, c]
            if d < 1 or d > n:
                return False
            k = (r // rb) * (n // cb) + c // cb
            if seen[0, r, d] or seen[1, c, d] or seen[2, k, d]:
                return False
            seen[0, r, d] = True
            seen[1, c, d] = True
            seen[2, k, d] = True
    return True


@kernel
def _starts(g, pos, n, rb, cb):
    """The (r0, r1, S0) that can win (module docstring, start pruning), one per row."""
    ns = n // cb
    starts = np.empty((n * (rb - 1) * ns, 3), dtype=np.int32)
    nstarts = 0
    best = np.zeros(ns, dtype=np.int32)
    pattern = np.zeros(ns, dtype=np.int32)
    for r0 in range(n):
        for j in range(rb):
            r1 = (r0 // rb) * rb + j
            if r1 == r0:
                continue
            for s0 in range(ns):
                pattern[:] = 0
                for k in range(cb):
                    pattern[pos[r0, g[r1, s0 * cb + k]] // cb] += 1
                for x in range(1, ns):  # insertion sort, ascending: ns is 2 to 12
                    v = pattern[x]
                    y = x - 1
                    while y >= 0 and pattern[y] > v:
                        pattern[y + 1] = pattern[y]
                        y -= 1
                    pattern[y + 1] = v
                cmp = 0
                for k in range(ns - 1, -1, -1):  # descending sizes, compared from the largest
                    if pattern[k] != best[k]:
                        cmp = 1 if pattern[k] > best[k] else -1
                        break
                if cmp < 0:
                    continue
                if cmp > 0:
                    best[:] = pattern
                    nstarts = 0
                starts[nstarts, 0] = r0
                starts[nstarts, 1] = r1
                starts[nstarts, 2] = s0
                nstarts += 1
    return starts[:nstarts]


@kernel
def rect_key(cells, n, rb, cb, key, perm, max_states):
    """Write the key of the board ``cells`` (flat, n*n, boxes of rb x cb) to ``key`` and the cell permutation that
    makes it (key == relabelled cells[perm]) to ``perm``. Returns OK, CONFLICT (not a valid board) or
    TOO_MANY_STATES (more than ``max_states`` tied states)."""
    ns = n // cb  # stacks
    g = np.empty((n, n), dtype=np.int8)
    for r in range(n):
        for c in range(n):
            g[r, c] = cells[r * n + c]
    if not _valid(g, n, rb, cb):
        return CONFLICT
    pos = np.empty((n, n + 1), dtype=np.int64)  # pos[r, d]: the column of digit d in row r
    for r in range(n):
        for c in range(n):
            pos[r, g[r, c]] = c
    sm = _CM + 2 * n
    si = sm + ns
    width = si + ns
    starts = _starts(g, pos, n, rb, cb)
    nstarts = starts.shape[0]
    cap = nstarts * cb + 16
    beam = np.full((cap, width), -1, dtype=np.int16)
    nxt = np.full((cap, width), -1, dtype=np.int16)
    for k in range(nstarts):
        beam[k, 0] = starts[k, 0]
        beam[k, 1] = starts[k, 1]
        beam[k, sm] = starts[k, 2]
        beam[k, si + starts[k, 2]] = 0
    size = nstarts
    for c in range(n):
        # one pass: a child is kept while its value ties the best so far; a smaller value drops the kept ones
        best = n + 1
        nsize = 0
        for k in range(size):
            r0, r1 = beam[k, 0], beam[k, 1]
            fixed = beam[k, _CM + c]
            lo = 0
            hi = n
            if fixed >= 0:
                lo = fixed
                hi = fixed + 1
            else:
                bound = beam[k, sm + c // cb]
                if bound >= 0:
                    lo = bound * cb
                    hi = lo + cb
            for s in range(lo, hi):
                if fixed < 0:
                    if beam[k, _CM + n + s] >= 0 or (beam[k, sm + c // cb] < 0 and beam[k, si + s // cb] >= 0):
                        continue
                q = pos[r0, g[r1, s]]
                at = _earliest(beam, k, c, s, q, n, cb, ns)
                if at + 1 > best:
                    continue
                if at + 1 < best:
                    best = at + 1
                    nsize = 0
                if nsize == nxt.shape[0]:  # boards with many automorphisms keep many ties: grow, up to a bound
                    if 2 * nsize > max_states:
                        return TOO_MANY_STATES
                    bigger = np.full((2 * nsize, width), -1, dtype=np.int16)
                    bigger[:nsize] = nxt[:nsize]
                    nxt = bigger
                for x in range(width):
                    nxt[nsize, x] = beam[k, x]
                if fixed < 0:
                    _place(nxt, nsize, c, s, n, cb, ns)
                if nxt[nsize, _CM + n + q] < 0:
                    _place(nxt, nsize, at, q, n, cb, ns)
                nsize += 1
        if nxt.shape[0] > beam.shape[0]:
            beam = np.full(nxt.shape, -1, dtype=np.int16)
        beam, nxt = nxt, beam
        size = nsize
    _finish(g, pos, n, rb, beam, 0, size, False, key, perm)
    return OK


@kernel
def rect_keys(grids, n, rb, cb, out, perms, status, max_states):
    """:func:`rect_key` of every row of ``grids`` (m, n*n), statuses into ``status``; one nogil call a batch."""
    for k in range(grids.shape[0]):
        status[k] = rect_key(grids[k], n, rb, cb, out[k], perms[k], max_states)
