"""Kernel: the main-class key of a Latin square by a pruned search (private; use :mod:`engine.keys.latin`, whose
docstring says what the key is and why this search finds it exactly).

Layout of the search, per square: the six conjugates and their tables (``row_of[k, c, s]``: the row holding symbol
s in column c; ``col_of[k, r, s]``: the column holding s in row r); then every (conjugate, r0, r1) whose row
permutation pi has the smallest cycle type (:func:`_cycle_type`); then, for each of those, a depth-first search
over the column orders that lay pi's cycles out in the canonical slots (one slot after another: which cycle of the
slot's length, and which of its columns first), pruned as soon as the square's rows 2.. read larger than the best
found so far (:func:`_bound`), every complete order compared with the best (:func:`_leaf`).
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel, kernel_with

from .errors import CONFLICT, OK, TOO_MANY as TOO_MANY_NODES  # the statuses it writes


@kernel
def _latin(sq, n):
    """Whether ``sq`` (flat, n*n) holds 1..n once in every row and column."""
    seen = np.zeros((2, n, n + 1), dtype=np.bool_)
    for r in range(n):
        for c in range(n):
            s = sq[r * n + c]
            if s < 1 or s > n or seen[0, r, s] or seen[1, c, s]:
                return False
            seen[0, r, s] = True
            seen[1, c, s] = True
    return True


@kernel
def _conjugate(sq, n, roles, out):
    """``out``: the conjugate of square ``sq`` (values 1..n) whose triple (a0, a1, a2) is the source's roles
    ``roles`` of each triple (row, column, symbol - 1)."""
    t = np.zeros(3, dtype=np.int64)
    for r in range(n):
        for c in range(n):
            t[0] = r
            t[1] = c
            t[2] = sq[r * n + c] - 1
            out[t[roles[0]] * n + t[roles[1]]] = t[roles[2]] + 1


@kernel
def _cycle_type(pi, n, seen, lens):
    """The lengths of ``pi``'s cycles in ascending order into ``lens``; returns how many."""
    seen[:] = False
    m = 0
    for c in range(n):
        if seen[c]:
            continue
        length = 0
        x = c
        while not seen[x]:
            seen[x] = True
            x = pi[x]
            length += 1
        y = m  # insertion: a permutation of 25 points has few cycles
        while y > 0 and lens[y - 1] > length:
            lens[y] = lens[y - 1]
            y -= 1
        lens[y] = length
        m += 1
    return m


# _bound and _leaf run once a node of the search, from one caller: inlined, they cost no call and no counting of
# their arrays' references (docs/development.md, Reference counts), and numba compiles no copy of them per
# argument type
@kernel_with(inline="always")
def _bound(conj, row_of, col_of, k, r0, n, q, qinv, cyc_of, cyc_len, slot_pos, slot_len, level, nslots, best):
    """-1 when every order completing the partial one ``q`` (slots below ``level`` placed) gives a square larger
    than ``best``; else 0. Compares rows 2.. in reading order while their cells are known; a cell whose symbol's
    column is not placed yet is at least one more than the first open slot of that column's cycle length."""
    for a in range(2, n):
        if q[a] < 0:
            return 0
        src = row_of[k, q[0], conj[k, r0 * n + q[a]]]
        for j in range(1, n):
            if q[j] < 0:
                return 0
            y = col_of[k, r0, conj[k, src * n + q[j]]]
            if qinv[y] >= 0:
                v = qinv[y] + 1
                if v < best[a * n + j]:
                    return 0
                if v > best[a * n + j]:
                    return -1
                continue
            length = cyc_len[cyc_of[y]]
            low = n + 1
            for s in range(level, nslots):
                if slot_len[s] == length:
                    low = slot_pos[s] + 1
                    break
            return -1 if low > best[a * n + j] else 0
    return 0


@kernel_with(inline="always")
def _leaf(conj, row_of, col_of, k, r0, n, q, qinv, best):
    """Compare the square that the complete order ``q`` makes (rows 2..) with ``best``, copying it when smaller."""
    state = 0  # 0: equal so far, 1: smaller (copy the rest), -1: larger
    for a in range(2, n):
        src = row_of[k, q[0], conj[k, r0 * n + q[a]]]
        for j in range(1, n):
            v = qinv[col_of[k, r0, conj[k, src * n + q[j]]]] + 1
            if state == 0:
                if v < best[a * n + j]:
                    state = 1
                elif v > best[a * n + j]:
                    return
            if state == 1:
                best[a * n + j] = v


@kernel
def main_class_key(square, n, conjugates, best, max_nodes):
    """Write the main-class key of ``square`` (flat, values 1..n) to ``best``. Returns OK, CONFLICT (not a Latin
    square) or TOO_MANY_NODES (the search would visit more than ``max_nodes`` partial column orders)."""
    if not _latin(square, n):
        return CONFLICT
    ncells = n * n
    conj = np.zeros((6, ncells), dtype=np.int8)
    row_of = np.zeros((6, n, n + 1), dtype=np.int64)
    col_of = np.zeros((6, n, n + 1), dtype=np.int64)
    for k in range(6):
        _conjugate(square, n, conjugates[k], conj[k])
        for r in range(n):
            for c in range(n):
                row_of[k, c, conj[k, r * n + c]] = r
                col_of[k, r, conj[k, r * n + c]] = c
    # every (conjugate, r0, r1) whose pi has the smallest cycle type: only they can give the smallest row 1
    pi = np.zeros(n, dtype=np.int64)
    seen = np.zeros(n, dtype=np.bool_)
    lens = np.zeros(n, dtype=np.int64)
    best_lens = np.zeros(n, dtype=np.int64)
    nslots = 0
    tied = np.zeros((6 * n * n, 3), dtype=np.int64)
    ntied = 0
    for k in range(6):
        for r0 in range(n):
            for r1 in range(n):
                if r1 == r0:
                    continue
                for c in range(n):
                    pi[c] = col_of[k, r0, conj[k, r1 * n + c]]
                m = _cycle_type(pi, n, seen, lens)
                cmp = 0 if ntied > 0 else -1
                for x in range(min(m, nslots)):
                    if lens[x] != best_lens[x]:
                        cmp = -1 if lens[x] < best_lens[x] else 1
                        break
                if cmp > 0:
                    continue
                if cmp < 0:
                    best_lens[:m] = lens[:m]
                    nslots = m
                    ntied = 0
                tied[ntied, 0] = k
                tied[ntied, 1] = r0
                tied[ntied, 2] = r1
                ntied += 1
    # the canonical slots: cycles laid out one after another in ascending length
    slot_pos = np.zeros(max(nslots, 1), dtype=np.int64)
    slot_len = np.zeros(max(nslots, 1), dtype=np.int64)
    p = 0
    for s in range(nslots):
        slot_pos[s] = p
        slot_len[s] = best_lens[s]
        p += best_lens[s]
    for x in range(ncells):
        best[x] = 127
    cyc = np.zeros((n, n), dtype=np.int64)  # cyc[i, u]: the u-th column of pi's cycle i from its first column
    cyc_len = np.zeros(n, dtype=np.int64)
    cyc_of = np.zeros(n, dtype=np.int64)
    cand = np.zeros((max(nslots, 1), n), dtype=np.int64)  # the cycles a slot may take: those of its length
    ncand = np.zeros(max(nslots, 1), dtype=np.int64)
    used = np.zeros(n, dtype=np.bool_)
    choice = np.zeros(max(nslots, 1), dtype=np.int64)
    taken = np.zeros(max(nslots, 1), dtype=np.int64)
    q = np.zeros(n, dtype=np.int64)  # image column -> source column, -1 while open
    qinv = np.zeros(n, dtype=np.int64)  # source column -> image column
    nodes = 0
    for t in range(ntied):
        k, r0, r1 = tied[t, 0], tied[t, 1], tied[t, 2]
        for c in range(n):
            pi[c] = col_of[k, r0, conj[k, r1 * n + c]]
        seen[:] = False
        ncyc = 0
        for c in range(n):
            if seen[c]:
                continue
            x = c
            u = 0
            while not seen[x]:
                seen[x] = True
                cyc[ncyc, u] = x
                cyc_of[x] = ncyc
                x = pi[x]
                u += 1
            cyc_len[ncyc] = u
            ncyc += 1
        for s in range(nslots):
            ncand[s] = 0
            for i in range(ncyc):
                if cyc_len[i] == slot_len[s]:
                    cand[s, ncand[s]] = i
                    ncand[s] += 1
        q[:] = -1
        qinv[:] = -1
        used[:] = False
        level = 0
        choice[0] = -1
        taken[0] = -1
        while level >= 0:
            length = slot_len[level]
            pos = slot_pos[level]
            if taken[level] >= 0:  # take back this slot's cycle before trying the next
                used[taken[level]] = False
                for u in range(length):
                    qinv[q[pos + u]] = -1
                    q[pos + u] = -1
                taken[level] = -1
            found = False
            while True:
                choice[level] += 1
                if choice[level] >= ncand[level] * length:
                    break
                i = cand[level, choice[level] // length]
                if used[i]:
                    choice[level] += length - 1 - choice[level] % length  # skip the cycle's other starts
                    continue
                found = True
                break
            if not found:
                level -= 1
                continue
            i = cand[level, choice[level] // length]
            start = choice[level] % length
            used[i] = True
            taken[level] = i
            for u in range(length):
                x = cyc[i, (start + u) % length]
                q[pos + u] = x
                qinv[x] = pos + u
            nodes += 1
            if nodes > max_nodes:
                return TOO_MANY_NODES
            if level == nslots - 1:
                _leaf(conj, row_of, col_of, k, r0, n, q, qinv, best)
            elif _bound(conj, row_of, col_of, k, r0, n, q, qinv, cyc_of, cyc_len, slot_pos, slot_len, level + 1,
                        nslots, best) == 0:
                level += 1
                choice[level] = -1
                taken[level] = -1
    # rows 0 and 1 and column 0 are the same for every candidate: 1..n, the canonical slots, 1..n
    for j in range(n):
        best[j] = j + 1
        best[j * n] = j + 1
    for s in range(nslots):
        for u in range(slot_len[s]):
            best[n + slot_pos[s] + u] = slot_pos[s] + (u + 1) % slot_len[s] + 1
    return OK


@kernel
def main_class_keys(squares, n, conjugates, out, status, max_nodes):
    """:func:`main_class_key` of every row of ``squares`` (m, n*n), statuses into ``status``; one nogil call."""
    for i in range(squares.shape[0]):
        status[i] = main_class_key(squares[i], n, conjugates, out[i], max_nodes)
