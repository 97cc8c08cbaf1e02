"""The band kernel's reasoning on triads (see :mod:`engine.solvers._bands`): across, down, and by digit.

In one band a digit is once in each of its 3 rows and once in each of its 3 boxes, so the row-box segments
("triads") it occupies form a permutation of the 3x3 triad matrix; the same holds down a stack for columns. And a
triad is 3 cells of one row (or column), so it holds exactly 3 different digits.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel_with
from ..bits import lowbit_index
from ._band_state import ALONE, COLUMNS, PERM, TRIADS, _place, _triads

_I = np.int64


@kernel_with(inline="always")
def _across(m):
    """The cells of one band's digit mask that lie on a permutation of its 3x3 triads (0: none is left)."""
    t = _triads(m)
    p = PERM[t]
    if p == t:
        return m
    return m & TRIADS[p]


# A call, not inlined: inlined into _propagate it saved a sixteenth of a solve but made a cold `catalogue solve` a
# sixth longer (a larger _propagate, optimised again under each of its callers; Xeon-EMR, 2026-11-29)
@kernel_with(_nrt=False)
def _digit_step(st, d):
    """Triad reasoning for digit ``d`` across and down until it settles, then its hidden singles are placed.

    Returns the digits whose masks changed (a bit each), or -1 on a contradiction.
    """
    base = 3 * d
    m0 = _across(st[base])
    m1 = _across(st[base + 1])
    m2 = _across(st[base + 2])
    while True:
        if m0 == 0 or m1 == 0 or m2 == 0:
            return _I(-1)
        c0 = (m0 | (m0 >> 9) | (m0 >> 18)) & 511
        c1 = (m1 | (m1 >> 9) | (m1 >> 18)) & 511
        c2 = (m2 | (m2 >> 9) | (m2 >> 18)) & 511
        n0 = _I(0)
        n1 = _I(0)
        n2 = _I(0)
        for s in range(3):
            sh = 3 * s
            pv = PERM[((c0 >> sh) & 7) | (((c1 >> sh) & 7) << 3) | (((c2 >> sh) & 7) << 6)]
            if pv == 0:
                return _I(-1)
            n0 |= (pv & 7) << sh
            n1 |= ((pv >> 3) & 7) << sh
            n2 |= ((pv >> 6) & 7) << sh
        if n0 == c0 and n1 == c1 and n2 == c2:
            break
        # only the bands that lost columns can lose triads
        if n0 != c0:
            m0 = _across(m0 & COLUMNS[n0])
        if n1 != c1:
            m1 = _across(m1 & COLUMNS[n1])
        if n2 != c2:
            m2 = _across(m2 & COLUMNS[n2])
    st[base] = m0
    st[base + 1] = m1
    st[base + 2] = m2
    # hidden singles: a row, box or column of the digit with one cell left, among the unsolved cells. The three
    # bands' are found first, without a branch a band: most steps find none, and a branch on whether a band has
    # the digit unsolved is one the predictor misses. A placement changes no other band's unsolved cells, and a
    # single it made stale (its cell gone from the digit's mask) is a contradiction _place reports.
    single_col = (c0 | c1 | c2) & ~((c0 & c1) | (c0 & c2) | (c1 & c2))
    p0 = _pins(m0, single_col) & st[27]
    p1 = _pins(m1, single_col) & st[28]
    p2 = _pins(m2, single_col) & st[29]
    changed = _I(0)
    if p0 | p1 | p2 == 0:
        return changed
    for b in range(3):
        new = p0 if b == 0 else (p1 if b == 1 else p2)
        while new:
            pos = lowbit_index(new)
            new &= new - 1
            ch = _place(st, d, b, pos)
            if ch < 0:
                return _I(-1)
            changed |= ch
    return changed


@kernel_with(inline="always")
def _pins(m, single_col):
    """The cells of one band's digit mask ``m`` alone in their row, their box, or (``single_col``: the columns
    the digit has in this band alone) their column."""
    r0 = m & 511
    r1 = (m >> 9) & 511
    r2 = (m >> 18) & 511
    pin = single_col & (r0 | r1 | r2) & ~((r0 & r1) | (r0 & r2) | (r1 & r2))
    pin = (r0 & pin) | ((r1 & pin) << 9) | ((r2 & pin) << 18)
    if r0 & (r0 - 1) == 0:
        pin |= r0
    if r1 & (r1 - 1) == 0:
        pin |= r1 << 9
    if r2 & (r2 - 1) == 0:
        pin |= r2 << 18
    for j in range(3):
        x = (m >> (3 * j)) & 0o7007007
        if x & (x - 1) == 0:
            pin |= x << (3 * j)
    return pin


@kernel_with(_nrt=False)
def _triad_matrix(pats, tp):
    """Digit-level reasoning on one 3x3 triad matrix (a band across, or a stack down).

    ``pats[d]`` (9 bits, bit ``3i + j``) are the triads digit ``d`` may still use; each digit uses a permutation
    of them. A triad is 3 cells of one row (or column), so it holds exactly 3 different digits: a triad with 3
    possible digits takes all 3 (each leaves the other triads of its row and box of the matrix), and a triad
    with 3 digits that must go there (their only triad left in a row or box of the matrix) takes no other digit.
    Writes the new patterns to ``pats``; returns the digits changed (a bit each), -1 on a contradiction.
    """
    c1 = _I(0)
    c2 = _I(0)
    c3 = _I(0)
    c4 = _I(0)
    f1 = _I(0)
    f2 = _I(0)
    f3 = _I(0)
    f4 = _I(0)
    for d in range(9):
        p = pats[d]
        c4 |= c3 & p
        c3 |= c2 & p
        c2 |= c1 & p
        c1 |= p
        q = ALONE[p]
        tp[d] = q
        f4 |= f3 & q
        f3 |= f2 & q
        f2 |= f1 & q
        f1 |= q
    if ~c3 & 511 or f4:
        return _I(-1)
    exact = c3 & ~c4  # triads with exactly 3 possible digits
    full = f3  # triads with 3 digits that must go there
    if exact & ~full == 0 and full & ~exact == 0:
        return _I(0)
    changed = _I(0)
    for d in range(9):
        p = pats[d]
        q = tp[d]
        new = p & ~(full & ~q)
        must = p & exact & ~q
        while must:
            t = must & -must
            must ^= t
            i = lowbit_index(t)
            new &= ~((7 << (3 * (i // 3))) | (0o111 << (i % 3))) | t
        if new != p:
            new = PERM[new]
            if new == 0:
                return _I(-1)
            pats[d] = new
            changed |= _I(1) << d
    return changed


@kernel_with(_nrt=False)
def _triad_digits(st, pats, tp):
    """:func:`_triad_matrix` on every band across and every stack down; returns the digits changed, -1 on a
    contradiction. Run when singles are exhausted, before a guess."""
    changed = _I(0)
    for b in range(3):
        for d in range(9):
            m = st[3 * d + b]
            pats[d] = _triads(m)
        ch = _triad_matrix(pats, tp)
        if ch < 0:
            return _I(-1)
        if ch:
            for d in range(9):
                if ch >> d & 1:
                    st[3 * d + b] &= TRIADS[pats[d]]
            changed |= ch
    for s in range(3):
        sh = 3 * s
        for d in range(9):
            m0, m1, m2 = st[3 * d], st[3 * d + 1], st[3 * d + 2]
            pats[d] = ((((m0 | (m0 >> 9) | (m0 >> 18)) >> sh) & 7) | ((((m1 | (m1 >> 9) | (m1 >> 18)) >> sh) & 7) << 3)
                       | ((((m2 | (m2 >> 9) | (m2 >> 18)) >> sh) & 7) << 6))
        ch = _triad_matrix(pats, tp)
        if ch < 0:
            return _I(-1)
        if ch:
            for d in range(9):
                if ch >> d & 1:
                    v = pats[d]
                    for b in range(3):
                        keep = ((v >> (3 * b)) & 7) << sh | (511 & ~(7 << sh))
                        st[3 * d + b] &= COLUMNS[keep]
            changed |= ch
    return changed
