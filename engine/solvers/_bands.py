"""The 9x9 kernel of the fast solver: one candidate mask per digit and band, with triad reasoning.

Why a second kernel: on 9x9 the cell-mask search (:mod:`engine.solvers._bitmask`) propagates only singles, and
on hard puzzles it guesses ten times as often as the best solvers (92 guesses per count to 2 on top1465, tdoku
9). Locked candidates in the cell layout halve the guesses but cost more than they save on ordinary puzzles.
Here the state is laid out so that the stronger reasoning is a few table lookups.

State (``st``, 30 int64): ``st[3 * (d - 1) + b]`` is the set of cells of band ``b`` (rows 3b..3b+2; bit
``9 * (row % 3) + col``) where digit ``d`` may still go: 27 bits. ``st[27 + b]`` holds the band's unsolved cells.
A solved cell keeps its digit's bit, so every digit mask always shows where the digit is or may be.

Propagation, for each digit whose masks changed:

* triads across (rows x boxes of a band): in one band a digit is once in each of its 3 rows and once in each of
  its 3 boxes, so the row-box segments ("triads") it occupies form a permutation of the 3x3 triad matrix. A
  table gives, for every 9-bit pattern of triads still possible, the triads that lie on some permutation inside
  it: the others are emptied. This is pointing and claiming (and a little more) in one lookup;
* triads down (columns x boxes of a stack): the same in the other direction, on which columns of each band the
  digit may use;
* hidden singles: a row, box or column of the digit left with one cell.

Then naked singles: cells left with one digit, from bit-sliced counts over the 9 digit masks of a band. When
nothing more follows the search branches on a cell with two candidates (else the fewest), saving the 30 words of
state per guess. The slow, obviously-correct twin is the cell-mask kernel: the tests check both agree.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..bits import lowbit_index, popcount
from ._bitmask import BACKTRACKS, CHECKS, GAVE_UP, GUESSES, MAX_DEPTH, NODES, NSTATS, _emit

_I = np.int64
NWORDS = 30  # 27 digit-band masks and 3 unsolved masks
# rows of the scratch array (84, 33): 0..80 saved states with their branch records (at most 80 guesses are ever
# outstanding: each solves a cell and the last cell is always forced), then triad scratch, the state, the stats
TRIADS_ROW, STATE, STATS = 81, 82, 83
TRIADS_AFTER = 16  # guesses in a search before the digit-level triad step runs (see _propagate)
ALL27 = (1 << 27) - 1


def _tables():
    """The lookup tables (built once at import, by plain loops: small and obviously right)."""
    row3 = np.zeros(512, dtype=np.int64)  # 9 cells of a row -> the 3 triads (boxes) they touch
    for r in range(512):
        row3[r] = sum(1 << j for j in range(3) if (r >> (3 * j)) & 7)
    perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    perm = np.zeros(512, dtype=np.int64)  # 3x3 pattern (bit 3i+j) -> union of the permutations inside it
    for p in range(512):
        for s in perms:
            bits = sum(1 << (3 * i + s[i]) for i in range(3))
            if p & bits == bits:
                perm[p] |= bits
    triads = np.zeros(512, dtype=np.int64)  # triad pattern (bit 3*row+box) -> the 27-bit cells of those triads
    columns = np.zeros(512, dtype=np.int64)  # columns of a band (9 bits) -> its 27-bit cells
    for p in range(512):
        for k in range(9):
            if p >> k & 1:
                i, j = divmod(k, 3)
                triads[p] |= 7 << (9 * i + 3 * j)
                columns[p] |= (1 << k) | (1 << (9 + k)) | (1 << (18 + k))
    alone = np.zeros(512, dtype=np.int64)  # 3x3 pattern -> its bits alone in their row or in their column
    for p in range(512):
        for i in range(3):
            r = (p >> (3 * i)) & 7
            if r and r & (r - 1) == 0:
                alone[p] |= r << (3 * i)
            x = (p >> i) & 0o111
            if x and x & (x - 1) == 0:
                alone[p] |= x << i
    peers = np.zeros(27, dtype=np.int64)  # a cell's row and box peers inside its band (the cell not included)
    for pos in range(27):
        i, c = divmod(pos, 9)
        for q in range(27):
            qi, qc = divmod(q, 9)
            if q != pos and (qi == i or qc // 3 == c // 3):
                peers[pos] |= 1 << q
    return row3, perm, triads, columns, alone, peers


ROW3, PERM, TRIADS, COLUMNS, ALONE, BAND_PEERS = _tables()
COLUMN_CELLS = np.array([COLUMNS[1 << (pos % 9)] for pos in range(27)], dtype=np.int64)  # a cell's column, 27 bits


@kernel
def _place(st, d, b, pos):
    """Put digit ``d`` (0-based) in cell ``pos`` of band ``b``; returns the digits whose masks changed (a bit set),
    or -1 when the digit cannot go there. A cell already solved with ``d`` changes nothing."""
    bit = _I(1) << pos
    if st[3 * d + b] & bit == 0:
        return _I(-1)
    if st[27 + b] & bit == 0:
        return _I(0)
    st[27 + b] &= ~bit
    # without branches: the cell leaves every digit's mask, then comes back to its own digit's
    changed = _I(0)
    for e in range(9):
        x = st[3 * e + b]
        changed |= ((x >> pos) & 1) << e
        st[3 * e + b] = x & ~bit
    col = COLUMN_CELLS[pos]
    base = 3 * d
    st[base] &= ~col
    st[base + 1] &= ~col
    st[base + 2] &= ~col
    st[base + b] = (st[base + b] & ~BAND_PEERS[pos]) | bit
    return changed


@kernel
def _across(m):
    """The cells of one band's digit mask that lie on a permutation of its 3x3 triads (0: none is left)."""
    t = ROW3[m & 511] | (ROW3[(m >> 9) & 511] << 3) | (ROW3[(m >> 18) & 511] << 6)
    p = PERM[t]
    if p == t:
        return m
    return m & TRIADS[p]


@kernel
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
    # hidden singles: a row, box or column of the digit with one cell left, among the unsolved cells
    single_col = (c0 | c1 | c2) & ~((c0 & c1) | (c0 & c2) | (c1 & c2))
    changed = _I(0)
    for b in range(3):
        m = m0 if b == 0 else (m1 if b == 1 else m2)
        open_ = st[27 + b]
        if m & open_ == 0:
            continue
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
        new = pin & open_
        while new:
            pos = lowbit_index(new)
            new &= new - 1
            ch = _place(st, d, b, pos)
            if ch < 0:
                return _I(-1)
            changed |= ch
    return changed


@kernel
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


@kernel
def _triad_digits(st, pats, tp):
    """:func:`_triad_matrix` on every band across and every stack down; returns the digits changed, -1 on a
    contradiction. Run when singles are exhausted, before a guess."""
    changed = _I(0)
    for b in range(3):
        for d in range(9):
            m = st[3 * d + b]
            pats[d] = ROW3[m & 511] | (ROW3[(m >> 9) & 511] << 3) | (ROW3[(m >> 18) & 511] << 6)
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


@kernel
def _nsolved(st):
    return 81 - popcount(st[27]) - popcount(st[28]) - popcount(st[29])


@kernel
def _propagate(st, dirty, pats, tp, stats):
    """Digit steps for every changed digit, then naked singles, until nothing changes; False on a contradiction."""
    # stats are written once at the end: stores into ``stats`` inside the loops would make the compiler reload
    # ``st`` after each one (both are int64 arrays, so they may alias), which cost a fifth of the time
    before = _nsolved(st)
    steps = 0
    rounds = 0
    ok = True
    while ok:
        rounds += 1
        while dirty:
            d = lowbit_index(dirty)
            dirty &= dirty - 1
            steps += 1
            ch = _digit_step(st, d)
            if ch < 0:
                ok = False
                break
            dirty |= ch
        if not ok:
            break
        for b in range(3):
            one = _I(0)
            two = _I(0)
            for d in range(9):
                x = st[3 * d + b]
                two |= one & x
                one |= x
            unsolved = st[27 + b]
            if unsolved & ~one:
                ok = False
                break
            singles = unsolved & ~two
            while singles:
                pos = lowbit_index(singles)
                singles &= singles - 1
                bit = _I(1) << pos
                for d in range(9):
                    if st[3 * d + b] & bit:
                        break
                ch = _place(st, d, b, pos)
                if ch < 0:
                    ok = False
                    break
                dirty |= ch
            if not ok:
                break
        if dirty == 0:
            # The digit-level triad step pays only on hard puzzles: measured, running it from the start cost random
            # minimal puzzles 7% and carving 14% and saved nothing on top1465 against starting after 16 guesses
            if stats[GUESSES] < TRIADS_AFTER:
                break
            dirty = _triad_digits(st, pats, tp)
            if dirty < 0:
                ok = False
            elif dirty == 0:
                break
    stats[NODES] += _nsolved(st) - before
    stats[CHECKS] += 12 * steps + 27 * rounds
    return ok


@kernel
def _branch_cell(st):
    """The unsolved cell (band, pos) with two candidates, else with the fewest."""
    best_b = -1
    best_pos = -1
    best_k = 99
    for b in range(3):
        one = _I(0)
        two = _I(0)
        three = _I(0)
        for d in range(9):
            x = st[3 * d + b]
            three |= two & x
            two |= one & x
            one |= x
        pairs = st[27 + b] & two & ~three
        if pairs:
            return b, lowbit_index(pairs)
        rest = st[27 + b]
        while rest:
            pos = lowbit_index(rest)
            rest &= rest - 1
            k = 0
            for d in range(9):
                k += (st[3 * d + b] >> pos) & 1
            if k < best_k:
                best_k = k
                best_b = b
                best_pos = pos
    return best_b, best_pos


@kernel
def _load(cells, st, forbid_cell, forbid_digit):
    """Fill ``st`` from the clues (0 = blank) of an 81-cell grid and rule out ``forbid_digit`` (1-based) at
    ``forbid_cell`` (-1: none). Returns ``(ok, solved)``; not ok when clues conflict.

    Built digit by digit rather than by placing each clue: a digit's clues rule out their row and box peers in
    their band and their column in the other bands, and every other clue's cell.
    """
    for k in range(27):
        st[k] = 0
    open0 = _I(ALL27)
    open1 = _I(ALL27)
    open2 = _I(ALL27)
    solved = 0
    for c in range(81):
        v = cells[c]
        if v != 0:
            b = c // 27
            bit = _I(1) << (c - 27 * b)
            st[3 * (v - 1) + b] |= bit
            if b == 0:
                open0 &= ~bit
            elif b == 1:
                open1 &= ~bit
            else:
                open2 &= ~bit
            solved += 1
    for d in range(9):
        base = 3 * d
        out0 = _I(0)  # cells of each band the digit's clues rule out
        out1 = _I(0)
        out2 = _I(0)
        for b in range(3):
            x = st[base + b]
            while x:
                pos = lowbit_index(x)
                x &= x - 1
                col = COLUMN_CELLS[pos]
                if b == 0:
                    out0 |= BAND_PEERS[pos]
                    out1 |= col
                    out2 |= col
                elif b == 1:
                    out0 |= col
                    out1 |= BAND_PEERS[pos]
                    out2 |= col
                else:
                    out0 |= col
                    out1 |= col
                    out2 |= BAND_PEERS[pos]
        g0, g1, g2 = st[base], st[base + 1], st[base + 2]
        if (g0 & out0) | (g1 & out1) | (g2 & out2):
            return False, solved  # two clues of the digit see each other
        st[base] = g0 | (open0 & ~out0)
        st[base + 1] = g1 | (open1 & ~out1)
        st[base + 2] = g2 | (open2 & ~out2)
    st[27] = open0
    st[28] = open1
    st[29] = open2
    if forbid_cell >= 0:
        st[3 * (forbid_digit - 1) + forbid_cell // 27] &= ~(_I(1) << (forbid_cell % 27))
    return True, solved


@kernel
def _write_solution(st, solution):
    for c in range(81):
        b = c // 27
        bit = _I(1) << (c % 27)
        for d in range(9):
            if st[3 * d + b] & bit:
                solution[c] = d + 1
                break


@kernel
def _solved(st):
    return st[27] == 0 and st[28] == 0 and st[29] == 0


@kernel
def _show(st, before0, before1, before2, first, trace, ntrace, shown):
    """Trace events for the cells solved since the unsolved masks were ``before*``: ``first`` (a guessed cell,
    or -1) first, then the others in cell order. False once the buffer is full."""
    if first >= 0 and shown[first] == 0:
        d = _digit_at(st, first)
        if d > 0:
            shown[first] = d
            if not _emit(trace, ntrace, first, d):
                return False
    for b in range(3):
        new = (before0 if b == 0 else (before1 if b == 1 else before2)) & ~st[27 + b]
        while new:
            pos = lowbit_index(new)
            new &= new - 1
            c = 27 * b + pos
            d = _digit_at(st, c)
            if d > 0 and shown[c] == 0:  # after a contradiction a solved cell may have lost its digit
                shown[c] = d
                if not _emit(trace, ntrace, c, d):
                    return False
    return True


@kernel
def _hide(saved, trace, ntrace, shown):
    """Take-back events for every shown cell that ``saved`` has unsolved."""
    for c in range(81):
        if shown[c] != 0 and (saved[27 + c // 27] >> (c % 27)) & 1:
            shown[c] = 0
            if not _emit(trace, ntrace, c, 0):
                return False
    return True


@kernel
def _digit_at(st, c):
    """The digit (1-based) of cell ``c`` when one digit is left there, else 0."""
    b = c // 27
    bit = _I(1) << (c % 27)
    found = 0
    for d in range(9):
        if st[3 * d + b] & bit:
            if found:
                return 0
            found = d + 1
    return found


@kernel
def _search9(st, limit, node_limit, prefer, stack, solution, stats, trace, ntrace, shown):
    """Count the solutions of the loaded state ``st`` up to ``limit`` (first one to ``solution``).

    ``stack`` rows 0..80 hold the saved state of each outstanding guess (columns 0..29) and its branch record:
    the cell (30), the digits left to try there (31, a mask) and the cells solved before the guess (32). At each
    branch the digit of ``prefer`` (a board, or no cells) is tried
    first. ``node_limit`` > 0 stops the search once ``stats[NODES]`` reaches it (``stats[GAVE_UP]`` set). When
    ``trace`` has rows, placements and take-backs are recorded there (as :func:`engine.solvers.fast.trace`
    describes) and the search stops at the first solution or a full buffer.
    """
    tracing = trace.shape[0] > 0
    count = 0
    depth = 0
    pats = stack[TRIADS_ROW, :9]
    tp = stack[TRIADS_ROW, 9:18]
    u0, u1, u2 = st[27], st[28], st[29]
    ok = _propagate(st, _I(511), pats, tp, stats)
    if tracing and not _show(st, u0, u1, u2, -1, trace, ntrace, shown):
        return count
    while True:
        if ok and _solved(st):
            count += 1
            if count == 1:
                _write_solution(st, solution)
            if count >= limit or tracing:
                break
            ok = False
        if node_limit > 0 and stats[NODES] >= node_limit:
            stats[GAVE_UP] = 1
            break
        if ok:
            b, pos = _branch_cell(st)
            bit = _I(1) << pos
            digits = _I(0)
            for d in range(9):
                if st[3 * d + b] & bit:
                    digits |= _I(1) << d
            first = lowbit_index(digits)
            if prefer.shape[0] > 0 and digits & (_I(1) << (prefer[27 * b + pos] - 1)):
                first = prefer[27 * b + pos] - 1
            stack[depth, :NWORDS] = st[:NWORDS]
            stack[depth, 30] = 27 * b + pos
            stack[depth, 31] = digits & ~(_I(1) << first)
            stack[depth, 32] = _nsolved(st)
            depth += 1
            if depth > stats[MAX_DEPTH]:
                stats[MAX_DEPTH] = depth
            d = first
        else:
            if depth == 0:
                break
            k = depth - 1
            # every placement since this branch point is taken back: the guess and what it forced (the
            # definition of engine/solvers/base.py, shared by every solver)
            stats[BACKTRACKS] += max(1, _nsolved(st) - stack[k, 32])
            if tracing and not _hide(stack[k], trace, ntrace, shown):
                break
            st[:NWORDS] = stack[k, :NWORDS]
            cell = stack[k, 30]
            b = cell // 27
            pos = cell % 27
            rest = stack[k, 31]
            d = lowbit_index(rest)
            stack[k, 31] = rest & (rest - 1)
            if stack[k, 31] == 0:
                depth -= 1
        stats[GUESSES] += 1
        stats[NODES] += 1
        u0, u1, u2 = st[27], st[28], st[29]
        ch = _place(st, d, b, pos)
        ok = ch >= 0 and _propagate(st, ch, pats, tp, stats)
        if tracing and not _show(st, u0, u1, u2, 27 * b + pos, trace, ntrace, shown):
            break
    return count


@kernel
def solve9(cells, limit, node_limit, forbid_cell, forbid_digit, prefer, work, solution):
    """Count the solutions of the 81-cell grid ``cells`` up to ``limit``, with ``forbid_digit`` ruled out at
    ``forbid_cell`` (-1: none); the first solution goes to ``solution``, the metrics to ``work[STATS]``.

    ``work`` is the one scratch array (:func:`scratch9`): one argument instead of four, since each argument of a
    compiled call costs about 0.1 us to dispatch, and single calls are meant to cost a few microseconds.
    """
    st = work[STATE]
    stats = work[STATS]
    stats[:NSTATS] = 0
    ok, _ = _load(cells, st, forbid_cell, forbid_digit)
    if not ok:
        return 0
    return _search9(st, limit, node_limit, prefer, work, solution, stats, work[:0], stats[:0], cells[:0])


@kernel
def solve9_checked(cells, limit, node_limit, work, solution):
    """:func:`solve9` for a single call: -1 when a cell holds anything but 0..9 (so the caller need not check)."""
    for c in range(81):
        if cells[c] < 0 or cells[c] > 9:
            return -1
    return solve9(cells, limit, node_limit, np.int64(-1), np.int64(0), cells[:0], work, solution)


@kernel
def solve9_exists(cells, forbid_cell, forbid_digit, node_limit, prefer, work, solution):
    """Whether ``cells`` has a solution without ``forbid_digit`` at ``forbid_cell`` (the carving test).

    The constants go in as int64 values, not literals: numba compiles a separate copy of a callee for each
    literal argument it is given, and every entry point here calls solve9 with the same types so that it is
    compiled once (compiling is most of a first run's cost)."""
    return solve9(cells, np.int64(1), node_limit, forbid_cell, forbid_digit, prefer, work, solution) > 0


@kernel
def trace9(cells, work, solution, trace, ntrace, shown):
    """:func:`solve9` with the moves recorded in ``trace`` (rows ``(cell, digit)``, digit 0 = taken back; ``shown``
    (81,) zeros on entry); stops at the first solution or when the buffer is full."""
    st = work[STATE]
    stats = work[STATS]
    stats[:NSTATS] = 0
    ok, _ = _load(cells, st, -1, 0)
    if not ok:
        return 0
    return _search9(st, 1, 0, cells[:0], work, solution, stats, trace, ntrace, shown)


def scratch9() -> np.ndarray:
    """The working array of :func:`solve9` for one thread (see :data:`STATE`)."""
    return np.zeros((84, NWORDS + 3), dtype=np.int64)


@kernel
def solve9_batch(puzzles, limit, counts, solutions, stats_out, work):
    """:func:`solve9` on every row of ``puzzles``; per-puzzle metrics to ``stats_out`` when it has rows."""
    keep_stats = stats_out.shape[0] > 0
    none = np.int64(-1)  # typed int64, not a literal: see solve9_exists
    zero = np.int64(0)
    for i in range(puzzles.shape[0]):
        counts[i] = solve9(puzzles[i], limit, zero, none, zero, puzzles[i, :0], work, solutions[i])
        if keep_stats:
            stats_out[i, :] = work[STATS, :NSTATS]


@kernel
def scratch9_kernel():
    """:func:`scratch9` inside compiled code (batches allocate it once)."""
    return np.zeros((84, NWORDS + 3), dtype=np.int64)
