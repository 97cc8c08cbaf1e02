"""Compiled aligned pair and triple exclusion, in the search order of :mod:`engine.grade.finders.aligned`.

The choices of digits are walked as bitmasks (one bit per digit): a choice is out when it repeats a digit in two
base cells that see each other, or when it covers every candidate of an excluder; a pair of digits that already
covers an excluder rules out every third digit with it, so the triple's walk skips it whole.

The tests of whether two cells see each other and whether a choice covers an excluder are written out in the
loops, not called: numba counts a reference to every array a call takes, inlined or not, and in these loops the
counts were a fifth of the time (docs/development.md, "Reference counts").

Only sets of base cells with two common excluders or more can remove anything; pairs are found from the
excluders (:func:`_aligned_pairs`), not tried one by one, and a pair is walked only when it has at least as many
common excluders as removing one of its digits needs.

A try that misses is remembered (:mod:`engine.grade.kernels.misses`): the next try looks again only at the sets of
base cells where one of the cells, or one of the cells that see them all, changed since. The rest would miss again:
their candidates and their common excluders are the same.
"""
from __future__ import annotations

import numpy as np

from ..._jit import kernel_with, wide_kernel
from ...bits import lowbit_index, popcount
from .misses import _changed_cells, _remember
from .state import _sees


@kernel_with(inline="always")
def _allowed(m0, m1, m2, s01, s02, s12, ex, m, triple):
    """The digits of the base cells (candidates ``m0``, ``m1``, and ``m2`` when ``triple``) that some allowed choice
    uses, against the excluder masks ``ex[:m]``; ``s01``, ``s02``, ``s12``: whether those cells see each other.
    (Candidates in, masks out: the one array it takes is the only one counted at each call.)

    The last cell's digits are not walked one by one: with the other digits chosen, an excluder that keeps exactly
    one digit outside them forbids that digit to the last cell, one that keeps none rules the whole choice out, so
    one pass over the excluders gives every digit the last cell may take. (The same union of allowed choices as a
    walk of every digit; a triple's walk of 9 x 9 x 9 choices becomes 9 x 9 passes.)"""
    a0, a1, a2 = np.int64(0), np.int64(0), np.int64(0)
    x = m0
    while x:
        b0 = x & -x
        x ^= b0
        if not triple:
            # the digits c1 may take beside b0
            forbid = b0 if s01 else np.int64(0)
            for i in range(m):
                r = ex[i] & ~b0
                if not r & (r - 1):  # one digit left (none is impossible: an excluder has two candidates)
                    forbid |= r
            free = m1 & ~forbid
            if free:
                a0 |= b0
                a1 |= free
                if a0 == m0 and a1 == m1:  # every digit is used by an allowed choice: nothing to remove
                    return a0, a1, a2
            continue
        y = m1
        while y:
            b1 = y & -y
            y ^= b1
            if b0 == b1 and s01:
                continue
            # the digits c2 may take beside b0 and b1
            forbid = np.int64(0)
            if s02:
                forbid |= b0
            if s12:
                forbid |= b1
            covered = False  # the pair takes every candidate of an excluder
            for i in range(m):
                r = ex[i] & ~(b0 | b1)
                if not r:
                    covered = True
                    break
                if not r & (r - 1):
                    forbid |= r
            if covered:
                continue
            free = m2 & ~forbid
            if free:
                a0 |= b0
                a1 |= b1
                a2 |= free
                if a0 == m0 and a1 == m1 and a2 == m2:
                    return a0, a1, a2
    return a0, a1, a2


@wide_kernel
def _aligned(cands, peers, cell_houses, k, memo):
    """Aligned pair (k = 2) or triple (k = 3) exclusion: the first one that removes a digit. ``memo``: this
    technique's row of the memo of misses."""
    # a cell with one candidate rules out the base cells it sees, which the changed cells near a set would not
    # tell: such a grid is looked at in full and not remembered (the grader places singles first: it never tries
    # this on one)
    single = False
    for c in range(cands.size):
        if cands[c] and not cands[c] & (cands[c] - 1):
            single = True
    found = _aligned_on(cands, peers, cell_houses, k, memo, single)
    _remember(memo, cands, not found and not single)
    return found


@wide_kernel
def _aligned_on(cands, peers, cell_houses, k, memo, single):
    ncells = cands.size
    npeers = peers.shape[1]
    is_base = np.zeros(ncells, np.bool_)
    bases = np.empty(ncells, np.int64)
    # (triples only:) a base cell's excluders (peers with 2..k candidates), in order, and those of them that changed
    # since the last miss, in order
    rows = ncells if k == 3 else 0
    excl = np.empty((rows, npeers), np.int64)
    nexcl = np.zeros(rows, np.int64)
    moved = np.empty((rows, npeers), np.int64)
    nmoved = np.zeros(rows, np.int64)
    # the cells changed since the last miss (every cell when none is remembered, or when a cell has one candidate),
    # and for each cell its changed peers: a set of base cells is looked at again only where one of them changed
    words = (ncells + 63) >> 6
    changed = _changed_cells(memo, cands, words)
    near = np.zeros((ncells, words), np.uint64)
    if single:
        for w in range(words):
            changed[w] = ~np.uint64(0)
    # the same as bitsets over the cells with 2..k candidates (63 to a word: the plain-Python popcount of the
    # kernels run without JIT counts no sign bit), so a pair or triple without two common excluders is skipped fast
    small = np.full(ncells, -1, np.int64)
    small_cell = np.empty(ncells, np.int64)  # the cell of each bit
    nsmall = 0
    for c in range(ncells):
        if 2 <= popcount(cands[c]) <= k:
            small[c] = nsmall
            small_cell[nsmall] = c
            nsmall += 1
    nwords = nsmall // 63 + 1
    bits = np.zeros((ncells, nwords), np.int64)
    sees = np.zeros((nsmall if k == 2 else 0, words), np.uint64)  # a pair's excluders' peers, as bits of cells
    nb = 0
    if k == 2:
        # a pair reads only the bitsets: each excluder (a cell with two candidates) adds itself to its peers', each
        # changed cell to its peers' near cells, each single rules out its peers as base cells (less work than a
        # scan of every cell's peers: docs/benchmarks.md, "Grading")
        count = np.zeros(ncells, np.int64)
        for s in range(nsmall):
            for p in peers[small_cell[s]]:
                bits[p, s // 63] |= np.int64(1) << (s % 63)
                count[p] += 1
                sees[s, p >> 6] |= np.uint64(1) << np.uint64(p & 63)
        for c in range(ncells):
            if changed[c >> 6] >> np.uint64(c & 63) & np.uint64(1):
                for p in peers[c]:
                    near[p, c >> 6] |= np.uint64(1) << np.uint64(c & 63)
            if single and cands[c] and not cands[c] & (cands[c] - 1):
                for p in peers[c]:
                    count[p] = 0
        for c in range(ncells):
            if popcount(cands[c]) >= 2 and count[c]:
                bases[nb] = c
                nb += 1
        return _aligned_pairs(cands, bases, nb, bits, sees, small_cell, nwords, changed, near, cell_houses, npeers)
    for c in range(ncells):  # (triples from here on)
        if popcount(cands[c]) < 2:
            continue
        m = 0
        beside_single = False  # a peer with one candidate
        for p in peers[c]:
            near[c, p >> 6] |= changed[p >> 6] & (np.uint64(1) << np.uint64(p & 63))
            size = popcount(cands[p])
            if size == 1:
                beside_single = True
                break
            if 2 <= size <= k:
                excl[c, m] = p
                m += 1
                if changed[p >> 6] >> np.uint64(p & 63) & np.uint64(1):
                    moved[c, nmoved[c]] = p
                    nmoved[c] += 1
                bits[c, small[p] // 63] |= np.int64(1) << (small[p] % 63)
        if beside_single or m == 0:
            continue
        is_base[c] = True
        bases[nb] = c
        nb += 1
        nexcl[c] = m
    # the candidates of the set's common excluders: the cells of the AND of the base cells' bitsets (in bit order;
    # an excluder counts whatever its place in the list)
    ex = np.empty(npeers, np.int64)
    for j in range(1, nb):
        c1 = bases[j]
        for i in range(j):
            c0 = bases[i]
            shared = 0
            for w in range(nwords):
                shared += popcount(bits[c0, w] & bits[c1, w])
            if shared < 2:
                continue
            # unchanged: the two cells and every cell that sees both
            still = not (changed[c0 >> 6] >> np.uint64(c0 & 63)) & np.uint64(1)
            still = still and not (changed[c1 >> 6] >> np.uint64(c1 & 63)) & np.uint64(1)
            for w in range(words):
                if near[c0, w] & near[c1, w]:
                    still = False
            m0, m1 = cands[c0], cands[c1]
            s01 = _sees(c0, c1, cell_houses)
            # the third cell: an excluder of c0, then one of c1 not already seen; where the pair is unchanged, only
            # those that changed (the others make sets as at the last miss)
            thirds = moved if still else excl
            nthirds = nmoved if still else nexcl
            for src in range(2):
                owner = c0 if src == 0 else c1
                for b in range(nthirds[owner]):
                    c2 = thirds[owner, b]
                    if src == 1 and _sees(c2, c0, cell_houses):
                        continue
                    if not is_base[c2] or c2 == c0 or c2 == c1:
                        continue
                    m = 0
                    for w in range(nwords):
                        m += popcount(bits[c0, w] & bits[c1, w] & bits[c2, w])
                    if m < 2:
                        continue
                    m = 0
                    for w in range(nwords):
                        x = bits[c0, w] & bits[c1, w] & bits[c2, w]
                        while x:
                            low = x & -x
                            x ^= low
                            ex[m] = cands[small_cell[63 * w + lowbit_index(low)]]
                            m += 1
                    m2 = cands[c2]
                    s02 = _sees(c0, c2, cell_houses)
                    s12 = _sees(c1, c2, cell_houses)
                    a0, a1, a2 = _allowed(m0, m1, m2, s01, s02, s12, ex, m, True)
                    if m0 & ~a0 or m1 & ~a1 or m2 & ~a2:
                        cands[c0] = m0 & a0
                        cands[c1] = m1 & a1
                        cands[c2] = m2 & a2
                        return True
    return False


@wide_kernel
def _aligned_pairs(cands, bases, nb, bits, sees, small_cell, nwords, changed, near, cell_houses, npeers):
    """The pairs of :func:`_aligned_on`, in its order (by the later base cell, then the earlier), each only where
    the two share at least two excluders: the earlier cells are read off the bits of the cells that two of the
    later cell's excluders see, not tried one by one (on the grids random minimal puzzles try it on, 202 of 784
    pairs of base cells a try share two, and trying each pair was two thirds of a try)."""
    words = sees.shape[1]
    before = np.zeros(words, np.uint64)  # the base cells before the later one
    once = np.zeros(words, np.uint64)
    twice = np.zeros(words, np.uint64)
    ex = np.empty(npeers, np.int64)
    for j in range(nb):
        c1 = bases[j]
        for w in range(words):
            once[w] = 0
            twice[w] = 0
        for w in range(nwords):
            x = bits[c1, w]
            while x:
                low = x & -x
                x ^= low
                e = 63 * w + lowbit_index(low)
                for v in range(words):
                    twice[v] |= once[v] & sees[e, v]
                    once[v] |= sees[e, v]
        for v in range(words):
            x = twice[v] & before[v]
            while x:
                c0 = np.int64((v << 6) + lowbit_index(x))
                x &= x - np.uint64(1)
                # unchanged: the two cells and every cell that sees both
                still = not (changed[c0 >> 6] >> np.uint64(c0 & 63)) & np.uint64(1)
                still = still and not (changed[c1 >> 6] >> np.uint64(c1 & 63)) & np.uint64(1)
                for u in range(words):
                    if near[c0, u] & near[c1, u]:
                        still = False
                if still:
                    continue
                m0, m1 = cands[c0], cands[c1]
                s01 = _sees(c0, c1, cell_houses)
                npair = 0
                for w in range(nwords):
                    y = bits[c0, w] & bits[c1, w]
                    while y:
                        low = y & -y
                        y ^= low
                        ex[npair] = cands[small_cell[63 * w + lowbit_index(low)]]
                        npair += 1
                # a digit of c0 goes only if every digit of c1 (but its own, when the two see each other) is ruled
                # out with it, each by an excluder of its own (two candidates: the pair of digits exactly); so too
                # for c1: fewer common excluders than that remove nothing
                if npair < min(popcount(m0), popcount(m1)) - (1 if s01 else 0):
                    continue
                # the digits no allowed choice uses go
                a0, a1, _ = _allowed(m0, m1, np.int64(0), s01, False, False, ex, npair, False)
                if m0 & ~a0 or m1 & ~a1:
                    cands[c0] = m0 & a0
                    cands[c1] = m1 & a1
                    return True
        before[c1 >> 6] |= np.uint64(1) << np.uint64(c1 & 63)
    return False
