"""What a technique's last miss on this puzzle says about the next try: the grid it missed on.

Sudoku Explainer's order makes the grader try every easier technique before each step, so in a puzzle that needs
forcing chains, Nishio (1.1 ms a try on 9x9) is tried, and misses, at almost every step: 220 of 257 tries over 1,000
random minimal puzzles. Between two tries the grid loses only a few candidates. A Nishio chain follows one digit (X
links only), so its conclusions about a digit depend on that digit's places alone: the digits whose places did not
change since its last miss miss again, and only the others are looked at.

Skipping a part that is known to miss changes neither which step is found first nor its rating: the search still
meets the other parts in the same order. The memo is the grid of Nishio's last miss and, in its last entry, whether
it holds one (a try that finds a step forgets it, and every puzzle starts without).
(Aligned exclusions were looked at too: their answer for a set of cells depends on every peer of those cells, and
a placement changes twenty cells, so little would be skipped.)
"""
from __future__ import annotations

import numpy as np

from .._jit import wide_kernel


@wide_kernel
def new_memo(ncells):
    """An empty memo for grids of ``ncells`` cells (the grader makes one per batch; tests that drive single steps
    pass their own)."""
    return np.zeros(ncells + 1, np.int64)


@wide_kernel
def _forget(memo):
    """A new puzzle: the memo holds no miss."""
    memo[memo.size - 1] = 0


@wide_kernel
def _changed_digits(memo, cands):
    """The digits (a bit each) whose candidates changed since the miss the memo holds: every digit when none."""
    ncells = cands.size
    if memo[ncells] == 0:
        return np.int64(-1)
    changed = np.int64(0)
    for c in range(ncells):
        changed |= memo[c] ^ cands[c]
    return changed


@wide_kernel
def _remember(memo, cands, missed):
    """After a try: its grid when it missed, else nothing (the grid it changed is no miss to remember)."""
    ncells = cands.size
    if missed:
        memo[:ncells] = cands
        memo[ncells] = 1
    else:
        memo[ncells] = 0
