"""Where the band kernel's search branches (see :mod:`engine.solvers._bands`): on how a digit crosses a band, or
on a cell.

A digit crosses a band along one of the 6 permutations of its 3x3 triad matrix (:mod:`engine.solvers._band_triads`);
after the triad step only the permutations whose triads are all still possible remain, its "configurations".
Branching on a digit with exactly two configurations left is a two-way choice like a bivalue cell, but it decides
three triads at once. The band is chosen as tdoku's solver chooses (the band with the fewest configurations over
all digits, a digit with two there): measured on top1465, a third fewer branch points than branching on the first
bivalue cell, and a fifth less time. Bands down the stacks were measured too: fewer branch points, no less time.

When the search is given a board to prefer (the carver's removal tests: a second solution lies near the board),
it branches on cells as before, the board's digit first: measured, a configuration branch that follows the board
was slower there.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel_with
from ..bits import lowbit_index
from ._band_state import NPERMS, TRIADS, TWO_PERMS, _triads

_I = np.int64


@kernel_with(_nrt=False)
def _band_branch(st):
    """``(k, first, second)``: digit ``k // 3`` has exactly two configurations left in band ``k % 3``, and its
    cells there in each are ``st[k] & first`` and ``st[k] & second``; ``k`` is -1 when the band with the fewest
    configurations has no such digit (or every band is solved)."""
    best_b = -1
    best_total = 99
    for b in range(3):
        total = 0
        for d in range(9):
            m = st[3 * d + b]
            total += NPERMS[_triads(m)]
        # a band whose 9 digits each have one configuration left is settled
        if 9 < total < best_total:
            best_total = total
            best_b = b
    if best_b >= 0:
        for d in range(9):
            k = 3 * d + best_b
            m = st[k]
            t = _triads(m)
            if NPERMS[t] == 2:
                return k, _I(TRIADS[TWO_PERMS[t, 0]]), _I(TRIADS[TWO_PERMS[t, 1]])
    return -1, _I(0), _I(0)


@kernel_with(_nrt=False)
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
