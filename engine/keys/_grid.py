"""Kernel: the exact full-equivalence key of any grid without conflicts (private; use :mod:`engine.keys`).

Used for puzzles (grids with blanks); complete boards take the faster :mod:`engine.keys._board`, and the tests
check that the two agree on boards. The key is the smallest image in reading order over transpose x band/row
orders x stack/column orders x relabellings (digits numbered by first appearance, blanks stay 0).

The search builds the image one cell at a time, in reading order, with a beam: every state that can still reach
the smallest image so far is kept, all others are dropped as soon as one of their cells is larger. Naive
branching over every column order explodes on puzzles (a row of 20 blanks ties 20! ways), so columns are not
chosen one by one; each state keeps an *ordered partition* of the columns (blocks of columns whose order is not
decided yet, never crossing a stack boundary), as in partition-refinement canonical labelling:

* blanks of the current row in a block go first and stay one block: their order is decided by later rows;
* digits not seen before (new) go last in the block and stay one block; digit d's label is
  ``aoff[d] + image column of its anchor column`` (the column where it first appeared), so labels are fixed
  exactly when their anchor's block shrinks to one column;
* a digit whose anchor sits in a block of several columns can reach ``aoff + first column of that block``: the
  smallest such value is exact, and only ties there branch (one child per tied digit, anchor moved first).

Rows are chosen one per image row (branching), bands and stacks the same way; rows, bands and stacks that are
identical cell for cell are tried once (swapping them is an automorphism, so their subtrees give the same image).
Cost grows with the ties a grid keeps (bench/bench_keys.py; docs/benchmarks.md, Canonical keys): larger and
sparser grids keep more. A grid with a huge
symmetry group (25 clues on the diagonal of a 25x25 grid) exceeds ``max_states`` and is refused.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel

from .errors import OK, TOO_MANY as TOO_MANY_STATES  # the statuses it returns


@kernel
def _block_end(st, obs, p, b):
    """The end (exclusive) of the block starting at image column ``p``."""
    e = p + 1
    lim = (p // b + 1) * b
    while e < lim and st[obs + e] == 0:
        e += 1
    return e


@kernel
def _block_start(st, obs, p):
    while st[obs + p] == 0:
        p -= 1
    return p


@kernel
def _move(st, oord, owh, col, target):
    """Put column ``col`` at image column ``target``, swapping with the column there."""
    src = st[owh + col]
    other = st[oord + target]
    st[oord + target] = col
    st[oord + src] = other
    st[owh + other] = src
    st[owh + col] = target


@kernel
def _tables(grids, b):
    """Which rows (of one band) and which bands are identical cell for cell, per orientation (the stacks of one
    orientation are the bands of the other)."""
    n = b * b
    same_row = np.zeros((2, n, n), dtype=np.bool_)
    same_band = np.zeros((2, b, b), dtype=np.bool_)
    for t in range(2):
        for r in range(n):
            for r2 in range(n):
                if r // b == r2 // b:
                    eq = True
                    for c in range(n):
                        if grids[t, r, c] != grids[t, r2, c]:
                            eq = False
                            break
                    same_row[t, r, r2] = eq
        for x in range(b):
            for y in range(b):
                eq = True
                for j in range(b):
                    for c in range(n):
                        if grids[t, x * b + j, c] != grids[t, y * b + j, c]:
                            eq = False
                same_band[t, x, y] = eq
    return same_row, same_band


@kernel
def _emit(nxt, nsize, best, item, v, max_states):
    """Keep ``item`` if its value ``v`` at the current image cell ties the best; a smaller value drops the rest."""
    if v > best:
        return nxt, nsize, best, True
    if v < best:
        best = v
        nsize = 0
    if nsize == nxt.shape[0]:
        if 2 * nsize > max_states:
            return nxt, nsize, best, False
        bigger = np.zeros((2 * nsize, nxt.shape[1]), dtype=np.int16)
        bigger[:nsize] = nxt[:nsize]
        nxt = bigger
    nxt[nsize, :] = item
    return nxt, nsize + 1, best, True


@kernel
def grid_key(cells, b, key, perm, max_states):
    """Write the full-equivalence key of ``cells`` (no conflicts) to ``key`` and the cell permutation that makes
    it to ``perm``. Returns OK, or TOO_MANY_STATES if the beam would exceed ``max_states``."""
    n = b * b
    # state layout (int16, not int8: with NUMBA_DISABLE_JIT numpy keeps int8 in index sums, which would overflow)
    # orientation (transposed?), cells of image row i decided so far, next new label, source row of image row i
    o_t, o_dec, o_next, o_cur = 0, 1, 2, 3
    o_rowsrc = 4  # image row -> source row
    o_rowused = o_rowsrc + n
    o_band = o_rowused + n  # image band -> source band
    o_bandused = o_band + b
    o_stack = o_bandused + b  # image stack -> source stack
    o_stackused = o_stack + b
    o_ord = o_stackused + b  # image column -> source column (free order within a block)
    o_wh = o_ord + n  # source column -> image column
    o_bs = o_wh + n  # 1 where a block starts
    o_anch = o_bs + n  # digit -> anchor column (-1: not seen yet)
    o_aoff = o_anch + n + 1  # digit -> label offset: label = aoff + image column of the anchor
    o_buf = o_aoff + n + 1  # the current image row's decided values
    width = o_buf + n
    grids = np.empty((2, n, n), dtype=np.int16)
    for r in range(n):
        for c in range(n):
            grids[0, r, c] = cells[r * n + c]
            grids[1, c, r] = cells[r * n + c]
    same_row, same_band = _tables(grids, b)
    ntrans = 2
    symmetric = True
    for r in range(n):
        for c in range(n):
            if grids[0, r, c] != grids[1, r, c]:
                symmetric = False
    if symmetric:  # the transpose is the same grid: one orientation is enough
        ntrans = 1
    beam = np.zeros((64, width), dtype=np.int16)
    nxt = np.zeros((64, width), dtype=np.int16)
    work = np.zeros((2 * n + 2 * b + 8, width), dtype=np.int16)
    cur = np.zeros(width, dtype=np.int16)
    ties = np.empty(n, dtype=np.int32)
    size = 0
    for t in range(ntrans):
        st = beam[size]
        st[:] = -1
        st[o_t] = t
        st[o_dec] = 0
        st[o_next] = 1
        st[o_rowused:o_rowused + n] = 0
        st[o_bandused:o_bandused + b] = 0
        st[o_stackused:o_stackused + b] = 0
        st[o_bs:o_bs + n] = 0
        st[o_aoff:o_aoff + n + 1] = 0
        st[o_buf:o_buf + n] = 0
        size += 1
    for i in range(n):
        for p in range(n):
            best = 127
            nsize = 0
            for k in range(size):
                work[0, :] = beam[k]
                nwork = 1
                while nwork > 0:
                    nwork -= 1
                    cur[:] = work[nwork]
                    t = cur[o_t]
                    r = cur[o_cur]
                    if cur[o_dec] > p:  # decided with its block earlier in this row
                        nxt, nsize, best, ok = _emit(nxt, nsize, best, cur, cur[o_buf + p], max_states)
                        if not ok:
                            return TOO_MANY_STATES
                        continue
                    if r < 0:  # choose the source row of image row i (and its band at a band's first row)
                        if i % b == 0:
                            lo_band = 0
                            hi_band = b
                        else:
                            lo_band = cur[o_band + i // b]
                            hi_band = lo_band + 1
                        for band in range(lo_band, hi_band):
                            if i % b == 0:
                                if cur[o_bandused + band] != 0:
                                    continue
                                dup = False
                                for other in range(band):
                                    if cur[o_bandused + other] == 0 and same_band[t, other, band]:
                                        dup = True
                                if dup:
                                    continue
                            for j in range(b):
                                row = band * b + j
                                if cur[o_rowused + row] != 0:
                                    continue
                                dup = False
                                for j2 in range(j):
                                    if cur[o_rowused + band * b + j2] == 0 and same_row[t, band * b + j2, row]:
                                        dup = True
                                if dup:
                                    continue
                                ch = work[nwork]
                                nwork += 1
                                ch[:] = cur
                                ch[o_band + i // b] = band
                                ch[o_bandused + band] = 1
                                ch[o_rowused + row] = 1
                                ch[o_rowsrc + i] = row
                                ch[o_cur] = row
                        continue
                    if i == 0 and cur[o_stack + p // b] < 0:  # bind image stack p // b to a source stack
                        for stack in range(b):
                            if cur[o_stackused + stack] != 0:
                                continue
                            dup = False
                            for other in range(stack):  # stacks are the bands of the other orientation
                                if cur[o_stackused + other] == 0 and same_band[1 - t, other, stack]:
                                    dup = True
                            if dup:
                                continue
                            ch = work[nwork]
                            nwork += 1
                            ch[:] = cur
                            ch[o_stack + p // b] = stack
                            ch[o_stackused + stack] = 1
                            for j in range(b):
                                ch[o_ord + p + j] = stack * b + j
                                ch[o_wh + stack * b + j] = p + j
                                ch[o_bs + p + j] = 1 if j == 0 else 0
                        continue
                    # refine the block starting at p by row r's digits
                    e = _block_end(cur, o_bs, p, b)
                    nblank = 0
                    for x in range(p, e):
                        if grids[t, r, cur[o_ord + x]] == 0:
                            _move(cur, o_ord, o_wh, cur[o_ord + x], p + nblank)
                            nblank += 1
                    if nblank > 0:  # blanks first, one block: later rows order them
                        for x in range(p, p + nblank):
                            cur[o_buf + x] = 0
                        if p + nblank < e:
                            cur[o_bs + p + nblank] = 1
                        cur[o_dec] = p + nblank
                        nxt, nsize, best, ok = _emit(nxt, nsize, best, cur, 0, max_states)
                        if not ok:
                            return TOO_MANY_STATES
                        continue
                    low = 127
                    nties = 0
                    for x in range(p, e):
                        d = grids[t, r, cur[o_ord + x]]
                        q = cur[o_anch + d]
                        if q < 0:
                            continue
                        qs = _block_start(cur, o_bs, cur[o_wh + q])
                        if _block_end(cur, o_bs, qs, b) - qs == 1:
                            v = cur[o_aoff + d] + qs  # label fixed
                        elif qs == p:
                            v = cur[o_aoff + d] + p + 1  # anchor in this block: right after the digit
                        else:
                            v = cur[o_aoff + d] + qs  # anchor can go first in its block
                        if v < low:
                            low = v
                            nties = 0
                        if v == low:
                            ties[nties] = cur[o_ord + x]
                            nties += 1
                    if nties == 0:  # only new digits: one block, labels follow their final columns
                        nxt_label = cur[o_next]
                        for x in range(p, e):
                            col = cur[o_ord + x]
                            d = grids[t, r, col]
                            cur[o_anch + d] = col
                            cur[o_aoff + d] = nxt_label - p
                            cur[o_buf + x] = nxt_label + x - p
                        cur[o_next] = nxt_label + e - p
                        cur[o_dec] = e
                        nxt, nsize, best, ok = _emit(nxt, nsize, best, cur, cur[o_buf + p], max_states)
                        if not ok:
                            return TOO_MANY_STATES
                        continue
                    for z in range(nties):  # one child per digit reaching the smallest value
                        ch = work[nwork]
                        ch[:] = cur
                        col = ties[z]
                        d = grids[t, r, col]
                        q = ch[o_anch + d]
                        qs = _block_start(ch, o_bs, ch[o_wh + q])
                        qe = _block_end(ch, o_bs, qs, b)
                        _move(ch, o_ord, o_wh, col, p)
                        if p + 1 < e:
                            ch[o_bs + p + 1] = 1
                        if qe - qs > 1:
                            target = p + 1 if qs == p else qs
                            _move(ch, o_ord, o_wh, q, target)
                            if target + 1 < qe:
                                ch[o_bs + target + 1] = 1
                        ch[o_buf + p] = low
                        ch[o_dec] = p + 1
                        nxt, nsize, best, ok = _emit(nxt, nsize, best, ch, low, max_states)
                        if not ok:
                            return TOO_MANY_STATES
            key[i * n + p] = best
            if nxt.shape[0] > beam.shape[0]:
                beam = np.zeros(nxt.shape, dtype=np.int16)
            beam, nxt = nxt, beam
            size = nsize
        for k in range(size):  # next image row: no source row chosen yet
            beam[k, o_dec] = 0
            beam[k, o_cur] = -1
    st = beam[0]
    for i in range(n):
        for c in range(n):
            row = st[o_rowsrc + i]
            col = st[o_ord + c]
            if st[o_t] == 0:
                perm[i * n + c] = row * n + col
            else:
                perm[i * n + c] = col * n + row
    return OK
