"""The compiled search for shapes of up to 126 cells (n <= 11): one bitboard of cells per digit, over any units.

The cell-mask kernel (engine/solvers/_units.py) keeps a candidate mask per cell and scans every unit for hidden
singles; it is what shapes up to 25x25 fall back on. Here, as in the fast 9x9 solvers, the state is turned
around: ``cand[d]`` is the set of cells where digit d + 1 may still go (cells solved with it included), two int64
words of 63 cells each, so a unit's places of a digit are one AND of two words and a count of bits, whatever the
unit's form (rows, columns, boxes, jigsaw regions, diagonals). ``solved`` is the set of solved cells.

Propagation, to a fixed point:

* naked singles: cells with exactly one candidate, from bit-sliced counters over the digits (an empty cell is a
  contradiction);
* hidden singles: a digit with one place left in a unit (none left: a contradiction);
* locked candidates: a digit's places in a unit all inside another unit leave that unit's other cells. On irregular
  regions they cut the search several times over (16-clue jigsaw puzzles: five times fewer guesses when carving,
  measured), and with bitboards their test costs a few word operations, not a scan of the unit.

Only the units that hold a cell changed since the last pass are looked at again (``dirty``), for the digits that
changed. The search branches on a cell with two candidates when there is one, else three, else the first
unsolved cell, saving the whole state (2 * (n + 1) words) so taking a guess back is one copy. No recursion, no
allocation in the loop, ``nogil``. Held to the plain twin in tests/naive/shapes.py (counts and solutions) by
tests/engine/solvers/test_bitboard.py.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..bits import lowbit_index, popcount
from ._stats import BACKTRACKS, CHECKS, GAVE_UP, GUESSES, MAX_DEPTH, NODES

#: cells to a word (63: a word's bits stay non-negative, so the plain-Python popcount agrees with the kernel's)
BITS = 63
#: the most cells a shape may have for this kernel: two words
MAX_CELLS = 2 * BITS


def tables(geo) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(units, peers, full)`` as bitboards: each unit's cells (nunits, 2), each cell's peers (ncells, 2), every
    cell (2,), for a geometry of at most :data:`MAX_CELLS` cells."""
    if geo.ncells > MAX_CELLS:
        raise ValueError(f"the bitboard search takes at most {MAX_CELLS} cells, not {geo.ncells}")
    units = np.zeros((geo.nhouses, 2), np.int64)
    for u, cells in enumerate(geo.houses):
        for c in cells:
            units[u, c // BITS] |= 1 << (int(c) % BITS)
    peers = np.zeros((geo.ncells, 2), np.int64)
    for c in range(geo.ncells):
        for p in geo.peers[c, :geo.npeers_of[c]]:
            peers[c, p // BITS] |= 1 << (int(p) % BITS)
    full = np.zeros(2, np.int64)
    for c in range(geo.ncells):
        full[c // BITS] |= 1 << (c % BITS)
    for a in (units, peers, full):
        a.flags.writeable = False
    return units, peers, full


@kernel
def _place(cand, solved, dirty, n, peers, c, d):
    """Put digit ``d`` (0-based) in cell ``c``: the cell's other digits and the digit's other places among its
    peers go; what changed is marked in ``dirty`` (words 0-1: the cells, word 2: the digits, as bits)."""
    w = c // BITS
    b = np.int64(1) << (c % BITS)
    solved[w] |= b
    digits = np.int64(1) << d
    for e in range(n):
        if e != d and cand[e, w] & b:
            cand[e, w] ^= b
            digits |= np.int64(1) << e
    r0 = cand[d, 0] & peers[c, 0]
    r1 = cand[d, 1] & peers[c, 1]
    cand[d, 0] ^= r0
    cand[d, 1] ^= r1
    dirty[0] |= r0
    dirty[1] |= r1
    dirty[w] |= b
    dirty[2] |= digits


@kernel
def propagate(cand, solved, dirty, n, units, peers, full, cell_houses, nunits, stats):
    """Naked singles, hidden singles and locked candidates until none applies (see the module docstring). Returns
    False at a contradiction. ``dirty``: the cells (words 0-1) and digits (word 2) changed since the last fixed
    point; emptied here."""
    while True:
        # naked singles, and cells with no candidate left
        one0 = one1 = two0 = two1 = np.int64(0)
        for e in range(n):
            x0 = cand[e, 0]
            x1 = cand[e, 1]
            two0 |= one0 & x0
            two1 |= one1 & x1
            one0 |= x0
            one1 |= x1
        if (full[0] & ~one0) | (full[1] & ~one1):
            return False
        single0 = one0 & ~two0 & ~solved[0]
        single1 = one1 & ~two1 & ~solved[1]
        if single0 | single1:
            for w in range(2):
                x = single0 if w == 0 else single1
                while x:
                    low = x & -x
                    x ^= low
                    c = w * BITS + lowbit_index(low)
                    d = -1
                    for e in range(n):
                        if cand[e, w] & low:
                            d = e
                            break
                    if d < 0:  # emptied by a single placed just before
                        return False
                    stats[NODES] += 1
                    _place(cand, solved, dirty, n, peers, c, d)
            continue
        # hidden singles and locked candidates, in the units that hold a changed cell, for the changed digits
        d0, d1, digits = dirty[0], dirty[1], dirty[2]
        dirty[0] = dirty[1] = dirty[2] = 0
        if (d0 | d1) == 0 or digits == 0:
            return True
        changed = False
        for u in range(units.shape[0]):
            u0 = units[u, 0]
            u1 = units[u, 1]
            if (u0 & d0) | (u1 & d1) == 0:
                continue
            stats[CHECKS] += 1
            ds = digits
            while ds:
                e = lowbit_index(ds)
                ds &= ds - 1
                x0 = cand[e, 0] & u0
                x1 = cand[e, 1] & u1
                if (x0 & solved[0]) | (x1 & solved[1]):
                    continue  # placed in this unit already
                k = popcount(x0) + popcount(x1)
                if k == 0:
                    return False
                if k == 1:
                    c = lowbit_index(x0) if x0 else BITS + lowbit_index(x1)
                    stats[NODES] += 1
                    _place(cand, solved, dirty, n, peers, c, e)
                    changed = True
                    continue
                # locked: every place of e in u inside another unit v of its first place
                c = lowbit_index(x0) if x0 else BITS + lowbit_index(x1)
                for j in range(nunits[c]):
                    v = cell_houses[c, j]
                    if v == u or (x0 & ~units[v, 0]) | (x1 & ~units[v, 1]):
                        continue
                    r0 = cand[e, 0] & units[v, 0] & ~u0
                    r1 = cand[e, 1] & units[v, 1] & ~u1
                    if r0 | r1:
                        cand[e, 0] ^= r0
                        cand[e, 1] ^= r1
                        dirty[0] |= r0
                        dirty[1] |= r1
                        dirty[2] |= np.int64(1) << e
                        changed = True
        if not changed:
            return True


@kernel
def start(cells, n, units, peers, full, cell_houses, nunits, cand, solved, dirty, stats):
    """Every candidate, then the clues of ``cells`` placed (0 = blank), before any propagation: False when two
    clues clash."""
    for e in range(n):
        cand[e, 0] = full[0]
        cand[e, 1] = full[1]
    solved[0] = solved[1] = 0
    dirty[0] = full[0]
    dirty[1] = full[1]
    dirty[2] = (np.int64(1) << n) - 1
    for c in range(cells.shape[0]):
        d = cells[c]
        if d == 0:
            continue
        w = c // BITS
        b = np.int64(1) << (c % BITS)
        if cand[d - 1, w] & b == 0 or solved[w] & b:
            return False
        _place(cand, solved, dirty, n, peers, c, d - 1)
    return True


@kernel
def search(cand, solved, dirty, ok, n, units, peers, full, cell_houses, nunits, limit, node_limit, prefer, stack,
           branch, solution, stats):
    """Count the solutions of the state (``cand``, ``solved``; ``dirty`` what changed since it was propagated,
    ``ok`` False if it is already contradicted) up to ``limit``, giving up after ``node_limit`` nodes (0 = never;
    stats[GAVE_UP] says so); the first goes to ``solution`` (digits 1..n). ``prefer``: empty, or a board whose digit
    a branch tries first when the cell still has it. ``stack``: (ncells + 1, n + 1, 2); ``branch``: (2, ncells +
    1)."""
    ncells = solution.shape[0]
    if ok:
        ok = propagate(cand, solved, dirty, n, units, peers, full, cell_houses, nunits, stats)
    count = 0
    depth = 0
    while True:
        if ok and solved[0] == full[0] and solved[1] == full[1]:
            count += 1
            if count == 1:
                for e in range(n):
                    for w in range(2):
                        x = cand[e, w]
                        while x:
                            low = x & -x
                            x ^= low
                            solution[w * BITS + lowbit_index(low)] = e + 1
            if count >= limit:
                break
            ok = False  # look for the next one: take the last guess back
        if node_limit > 0 and stats[NODES] >= node_limit:
            stats[GAVE_UP] = 1
            break
        if ok:
            # a cell with two candidates, else three, else the first unsolved one
            one0 = one1 = two0 = two1 = three0 = three1 = np.int64(0)
            for e in range(n):
                x0 = cand[e, 0]
                x1 = cand[e, 1]
                three0 |= two0 & x0
                three1 |= two1 & x1
                two0 |= one0 & x0
                two1 |= one1 & x1
                one0 |= x0
                one1 |= x1
            open0 = ~solved[0] & full[0]
            open1 = ~solved[1] & full[1]
            pick0 = two0 & ~three0 & open0
            pick1 = two1 & ~three1 & open1
            if (pick0 | pick1) == 0:
                four0 = four1 = np.int64(0)
                for e in range(n):  # a second pass for the cells with four or more
                    four0 |= three0 & cand[e, 0]
                    four1 |= three1 & cand[e, 1]
                pick0 = three0 & ~four0 & open0
                pick1 = three1 & ~four1 & open1
                if (pick0 | pick1) == 0:
                    pick0 = open0
                    pick1 = open1
            best = lowbit_index(pick0) if pick0 else BITS + lowbit_index(pick1)
            w = best // BITS
            b = np.int64(1) << (best % BITS)
            m = np.int64(0)
            for e in range(n):
                if cand[e, w] & b:
                    m |= np.int64(1) << e
            bit = m & -m
            if prefer.shape[0]:
                want = np.int64(1) << (prefer[best] - 1)
                if m & want:
                    bit = want
            for e in range(n):
                stack[depth, e, 0] = cand[e, 0]
                stack[depth, e, 1] = cand[e, 1]
            stack[depth, n, 0] = solved[0]
            stack[depth, n, 1] = solved[1]
            branch[0, depth] = best
            branch[1, depth] = m ^ bit
            depth += 1
            if depth > stats[MAX_DEPTH]:
                stats[MAX_DEPTH] = depth
        else:
            if depth == 0:
                break
            k = depth - 1
            stats[BACKTRACKS] += 1
            best = branch[0, k]
            rest = branch[1, k]
            bit = rest & -rest
            branch[1, k] = rest ^ bit
            for e in range(n):
                cand[e, 0] = stack[k, e, 0]
                cand[e, 1] = stack[k, e, 1]
            solved[0] = stack[k, n, 0]
            solved[1] = stack[k, n, 1]
            if branch[1, k] == 0:
                depth -= 1  # the last alternative here: its saved state is no longer needed
        stats[GUESSES] += 1
        stats[NODES] += 1
        dirty[0] = dirty[1] = dirty[2] = 0
        _place(cand, solved, dirty, n, peers, best, lowbit_index(bit))
        ok = propagate(cand, solved, dirty, n, units, peers, full, cell_houses, nunits, stats)
    return count


@kernel
def count_cells(cells, n, units, peers, full, cell_houses, nunits, limit, node_limit, cand, solved, dirty, stack,
                branch, solution, stats):
    """Count the solutions of ``cells`` (0 = blank) up to ``limit``: :func:`start`, then :func:`search`."""
    ok = start(cells, n, units, peers, full, cell_houses, nunits, cand, solved, dirty, stats)
    return search(cand, solved, dirty, ok, n, units, peers, full, cell_houses, nunits, limit, node_limit, cells[:0],
                  stack, branch, solution, stats)
