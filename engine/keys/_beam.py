"""Kernels: the pieces of the row-1 beam search shared by the full keys of boards (private; use :mod:`engine.keys`).

:mod:`engine.keys._board` (square boxes, with a transposed half) and :mod:`engine.keys._rect` (boxes of rb x cb)
search alike: their docstrings say why the search is exact. Both build image row 1 column by column with these
helpers, then finish every surviving state with :func:`_finish`. A square box is the case rb = cb = ns = b.

A beam state is one row of an int array: r0, r1, then image column -> source column (n), source column -> image
column (n), image stack -> source stack (ns), source stack -> image stack (ns); -1 = not placed yet. A search may
keep more after these (_board: which half, plain or transposed, the state is in).
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel, kernel_with

_CM = 2  # the first column of the image column -> source column map, after r0 and r1


# the two helpers run for every (state, column) pair: inlined, they cost no call and no counting of the beam's
# references (docs/development.md, Reference counts), and numba compiles no copy of them per argument type
@kernel_with(inline="always")
def _earliest(beam, k, c, s, q, n, cb, ns):
    """The image column ``q`` lands on at best if source column ``s`` goes to image column ``c`` (state ``k``)."""
    ci = _CM + n
    sm = _CM + 2 * n
    si = sm + ns
    if beam[k, ci + q] >= 0:
        return beam[k, ci + q]
    t_img = c // cb
    tq = beam[k, si + q // cb]
    if tq < 0 and q // cb == s // cb:  # never on a valid board (r0 and r1 share a band); kept for safety
        tq = t_img
    if tq >= 0:
        for j in range(cb):
            p = tq * cb + j
            if p != c and beam[k, _CM + p] < 0:
                return p
        return -1
    for t2 in range(ns):
        if t2 != t_img and beam[k, sm + t2] < 0:
            return t2 * cb
    return -1


@kernel_with(inline="always")
def _place(beam, k, p, col, n, cb, ns):
    """Put source column ``col`` at image column ``p``, binding the stacks if needed."""
    sm = _CM + 2 * n
    beam[k, _CM + p] = col
    beam[k, _CM + n + col] = p
    if beam[k, sm + p // cb] < 0:
        beam[k, sm + p // cb] = col // cb
        beam[k, sm + ns + col // cb] = p // cb


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
def _finish(g, pos, n, rb, beam, lo, hi, have, key, perm):
    """States ``lo:hi`` of the beam over the board ``g`` (n, n), whose rows 0 and 1 are the same as every other
    surviving state's: finish each (the rows sorted) and keep the smallest. ``have``: ``key`` already holds a
    finished image to beat (of other states: a tie keeps it). Returns whether one of these states wrote ``key``;
    then ``perm`` holds its cell permutation of ``g``."""
    nb = n // rb
    label = np.empty(n + 1, dtype=np.int32)
    rowimg = np.empty((n, n), dtype=np.int8)
    rows = np.empty(n, dtype=np.int32)
    best_rows = np.empty(n, dtype=np.int32)
    best_cols = np.empty(n, dtype=np.int32)
    found = False
    for k in range(lo, hi):
        r0, r1 = beam[k, 0], beam[k, 1]
        label[0] = 0
        for d in range(1, n + 1):
            label[d] = beam[k, _CM + n + pos[r0, d]] + 1
        for r in range(n):
            for c in range(n):
                rowimg[r, c] = label[g[r, beam[k, _CM + c]]]
        band0 = r0 // rb
        rows[0] = r0
        rows[1] = r1
        m = 2
        for j in range(rb):
            r = band0 * rb + j
            if r != r0 and r != r1:
                rows[m] = r
                m += 1
        _sort_rows(rowimg, rows, 2, rb, n)
        slot = 0
        for band in range(nb):
            if band != band0:
                slot += 1
                for j in range(rb):
                    rows[slot * rb + j] = band * rb + j
                _sort_rows(rowimg, rows, slot * rb, slot * rb + rb, n)
        # order the other bands (slots 1..nb-1) by their sorted first rows; rows are distinct, so first rows decide
        for x in range(2, nb):
            y = x
            while y > 1 and _row_less(rowimg, rows[y * rb], rows[(y - 1) * rb], n):
                for j in range(rb):
                    tmp = rows[y * rb + j]
                    rows[y * rb + j] = rows[(y - 1) * rb + j]
                    rows[(y - 1) * rb + j] = tmp
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
            found = True
            for i in range(n):
                best_rows[i] = rows[i]
                best_cols[i] = beam[k, _CM + i]
                for c in range(n):
                    key[i * n + c] = rowimg[rows[i], c]
    if found:
        for i in range(n):
            for c in range(n):
                perm[i * n + c] = best_rows[i] * n + best_cols[c]
    return found
