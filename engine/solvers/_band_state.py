"""The band kernel's state (see :mod:`engine.solvers._bands`): its layout, lookup tables and primitives.

``st[3 * (d - 1) + b]`` is the set of cells of band ``b`` (rows 3b..3b+2; bit ``9 * (row % 3) + col``) where digit
``d`` may still go: 27 bits. ``st[27 + b]`` holds the band's unsolved cells. A solved cell keeps its digit's bit, so
every digit mask always shows where the digit is or may be.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel_with
from ..bits import lowbit_index, popcount

_I = np.int64
NWORDS = 30  # 27 digit-band masks and 3 unsolved masks
ALL27 = (1 << 27) - 1


def _tables():
    """The lookup tables (built once at import, by plain loops: small and obviously right)."""
    row3 = np.zeros(512, dtype=np.int64)  # 9 cells of a row -> the 3 triads (boxes) they touch
    for r in range(512):
        row3[r] = sum(1 << j for j in range(3) if (r >> (3 * j)) & 7)
    perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    perm = np.zeros(512, dtype=np.int64)  # 3x3 pattern (bit 3i+j) -> union of the permutations inside it
    nperms = np.zeros(512, dtype=np.int64)  # 3x3 pattern -> how many permutations lie inside it
    two = np.zeros((512, 2), dtype=np.int64)  # 3x3 pattern with exactly two permutations inside -> those two
    for p in range(512):
        inside = []
        for s in perms:
            bits = sum(1 << (3 * i + s[i]) for i in range(3))
            if p & bits == bits:
                perm[p] |= bits
                inside.append(bits)
        nperms[p] = len(inside)
        if len(inside) == 2:
            two[p] = inside
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
    # Stored in the narrowest unsigned type that holds them (never uint64, which numba mixes with int64 into
    # floats): the tables take a quarter of the cache, and an index read from an unsigned table is known not to
    # be negative, so the compiled code drops the wraparound test numba puts on every signed index.
    return (row3.astype(np.uint8), perm.astype(np.uint16), nperms.astype(np.uint8), two.astype(np.uint16),
            triads.astype(np.uint32), columns.astype(np.uint32), alone.astype(np.uint16), peers.astype(np.uint32))


ROW3, PERM, NPERMS, TWO_PERMS, TRIADS, COLUMNS, ALONE, BAND_PEERS = _tables()
COLUMN_CELLS = np.array([COLUMNS[1 << (pos % 9)] for pos in range(27)], dtype=np.uint32)  # a cell's column
#: CLUE_OUT[c, j]: the cells of band j a clue in cell c rules out for its digit (its row and box peers in its own
#: band, its column in the others)
CLUE_OUT = np.array([[BAND_PEERS[c % 27] if j == c // 27 else COLUMN_CELLS[c % 27] for j in range(3)]
                     for c in range(81)], dtype=np.uint32)


@kernel_with(inline="always")
def _triads(m):
    """The triads (3x3 pattern, bit ``3 * row + box``) where a band's digit mask ``m`` still has a cell."""
    return ROW3[m & 511] | (ROW3[(m >> 9) & 511] << 3) | (ROW3[(m >> 18) & 511] << 6)


@kernel_with(inline="always")
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


@kernel_with(_nrt=False)
def _nsolved(st):
    return 81 - popcount(st[27]) - popcount(st[28]) - popcount(st[29])


@kernel_with(_nrt=False)
def _solved(st):
    return st[27] == 0 and st[28] == 0 and st[29] == 0


@kernel_with(_nrt=False)
def _load(cells, st, placed, out, forbid_cell, forbid_digit):
    """Fill ``st`` from the clues (0 = blank) of an 81-cell grid and rule out ``forbid_digit`` (1-based) at
    ``forbid_cell`` (-1: none). Returns ``(ok, solved)``; not ok when clues conflict. ``placed`` and ``out`` (30
    words each) are scratch, by digit 0..9 and band: the clues' cells, and the cells they rule out.

    One pass over the cells without a branch on the cell's content (the carver loads a grid for each removal test,
    so this is hot, and whether a cell of a random puzzle holds a clue is a coin the branch predictor cannot call):
    a blank cell is digit 0, whose words are written and never read. A clue rules out its row and box peers in its
    band and its column in the other bands (:data:`CLUE_OUT`).
    """
    for k in range(30):
        placed[k] = 0
        out[k] = 0
    for b in range(3):
        unsolved = _I(0)
        for pos in range(27):
            c = 27 * b + pos
            v = _I(cells[c])
            bit = _I(1) << pos
            placed[3 * v + b] |= bit
            out[3 * v] |= CLUE_OUT[c, 0]
            out[3 * v + 1] |= CLUE_OUT[c, 1]
            out[3 * v + 2] |= CLUE_OUT[c, 2]
            unsolved |= _I(v == 0) << pos
        st[27 + b] = unsolved
    for k in range(27):
        g = placed[k + 3]
        ruled_out = out[k + 3]
        if g & ruled_out:
            return False, _I(0)  # two clues of a digit see each other
        st[k] = g | (st[27 + k % 3] & ~ruled_out)
    if forbid_cell >= 0:
        st[3 * (forbid_digit - 1) + forbid_cell // 27] &= ~(_I(1) << (forbid_cell % 27))
    return True, 81 - popcount(st[27]) - popcount(st[28]) - popcount(st[29])


@kernel_with(_nrt=False)
def _write_solution(st, solution):
    """The solved state's digits into ``solution`` (81 cells): each digit mask of a solved state holds that digit's
    cells, so walking the 81 set bits is a fifth of the work of asking each cell which digit it has."""
    for k in range(27):
        m = st[k]
        base = 27 * (k % 3)
        while m:
            solution[base + lowbit_index(m)] = k // 3 + 1
            m &= m - 1


@kernel_with(_nrt=False)
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
