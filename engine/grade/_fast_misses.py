"""What a technique's last miss on this puzzle says about the next try: the grid it missed on.

Sudoku Explainer's order makes the grader try every easier technique before each step, so in a puzzle that needs
forcing chains, Nishio (1.1 ms a try on 9x9) is tried, and misses, at almost every step: 220 of 257 tries over 1,000
random minimal puzzles. Between two tries the grid loses only a few candidates. A Nishio chain follows one digit (X
links only), so its conclusions about a digit depend on that digit's places alone: the digits whose places did not
change since its last miss miss again, and only the others are looked at.

Skipping a part that is known to miss changes neither which step is found first nor its rating: the search still
meets the other parts in the same order. The memo is one row per technique of the grid at its last miss, and a
last column saying whether that row holds one (a try that finds a step forgets it, and every puzzle starts without).
(Aligned exclusions were looked at too: their answer for a set of cells depends on every peer of those cells, and
a placement changes twenty cells, so little would be skipped.)
"""
from __future__ import annotations

import numpy as np

from .._jit import wide_kernel

#: the memo's rows: one per technique that remembers its misses
NISHIO_MISS = 0
NMISSES = 1


def fresh_memo(ncells: int) -> np.ndarray:
    """An empty memo for grids of ``ncells`` cells (tests that drive single steps pass one)."""
    return np.zeros((NMISSES, ncells + 1), np.int64)


@wide_kernel
def _new_memo(ncells):
    """:func:`fresh_memo` inside compiled code."""
    return np.zeros((NMISSES, ncells + 1), np.int64)


@wide_kernel
def _forget_all(memo):
    """A new puzzle: no row holds a miss."""
    memo[:, memo.shape[1] - 1] = 0


@wide_kernel
def _holds_miss(memo, row):
    return memo[row, memo.shape[1] - 1] != 0


@wide_kernel
def _changed_digits(memo, row, cands):
    """The digits (a bit each) whose candidates changed since the miss in ``row``: every digit when it holds none."""
    ncells = cands.size
    if not _holds_miss(memo, row):
        return np.int64(-1)
    changed = np.int64(0)
    for c in range(ncells):
        changed |= memo[row, c] ^ cands[c]
    return changed


@wide_kernel
def _remember(memo, row, cands, missed):
    """After a try: its grid when it missed, else nothing (the grid it changed is no miss to remember)."""
    ncells = cands.size
    if missed:
        memo[row, :ncells] = cands
        memo[row, ncells] = 1
    else:
        memo[row, ncells] = 0
