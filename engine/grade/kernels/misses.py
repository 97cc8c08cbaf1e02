"""What a technique's last miss on this puzzle says about the next try: the grid it missed on.

Sudoku Explainer's order makes the grader try every easier technique before each step, so in a puzzle that needs
forcing chains, Nishio (a costly search) is tried, and misses, at almost every step (measured on random minimal
puzzles). Between two tries the grid loses only a few candidates. A Nishio chain follows one digit (X
links only), so its conclusions about a digit depend on that digit's places alone: the digits whose places did not
change since its last miss miss again, and only the others are looked at.

Skipping a part that is known to miss changes neither which step is found first nor its rating: the search still
meets the other parts in the same order. The memo is the grid of Nishio's last miss and, in its last entry, whether
it holds one (a try that finds a step forgets it, and every puzzle starts without).
Aligned pair and triple exclusion remember their misses too (:mod:`engine.grade.kernels.aligned`). Their answer for a
set of base cells depends only on the candidates of those cells and of the cells that see all of them (the common
excluders come from these), so a set none of whose cells changed since the last miss misses again. In the
puzzles that reach them (top1465's, where aligned triple exclusion nearly always misses) most of the sets looked
at were unchanged since the try before.

Direct pointing and claiming look at one digit at a time: a locked digit, and its single left in a house, are
that digit's places alone; so do pointing, claiming and the fish. So, as for Nishio, the digits whose places did
not change since the last miss miss again. They are tried before every step that is not a single, so they are
among the rows tried most often and a real share of grading's time (docs/benchmarks.md, "Grading"), and a step
changes the places of few digits (a placed digit's, and those of the cell it fills).

The memo has a row per row of the technique table, at the row's index (:data:`engine.grade.techniques.INDEX`: the
driver passes row ``t``'s kernel ``memo[t]``): the grid of its last miss and, in its last entry, whether it holds
one. The rows whose kernel remembers nothing leave theirs unused; a row added to the table has its own, so no two
rows share one and none lies past the end.
"""
from __future__ import annotations

import numpy as np

from ..._jit import kernel_with, wide_kernel
from ...vocabulary import TECHNIQUES

#: the memo's rows: one per row of the technique table (engine.vocabulary.TECHNIQUE_TABLE), in its order
NROWS = len(TECHNIQUES)


def new_memo(ncells: int) -> np.ndarray:
    """An empty memo for grids of ``ncells`` cells (the grader makes one per batch, the guided step path one per
    puzzle; tests that drive single steps pass their own): a row per row of the technique table. Made in Python and
    passed in, so that it costs the kernels no entry of their own."""
    return np.zeros((NROWS, ncells + 1), np.int64)


@wide_kernel
def _forget(memo):
    """A new puzzle: the memo holds no miss."""
    for r in range(memo.shape[0]):
        memo[r, memo.shape[1] - 1] = 0


@wide_kernel
def _changed_cells(memo, cands, words):
    """The cells whose candidates changed since the miss the memo's row holds, as a bitset (``words`` words of 64);
    every cell when it holds none."""
    ncells = cands.size
    out = np.zeros(words, np.uint64)
    held = memo[ncells] != 0
    for c in range(ncells):
        if not held or memo[c] != cands[c]:
            out[c >> 6] |= np.uint64(1) << np.uint64(c & 63)
    return out


@kernel_with(_nrt=False)
def _changed_digits(memo, cands):
    """The digits (a bit each) whose candidates changed since the miss the memo's row holds: every digit when
    none. This and :func:`_remember` allocate nothing and are compiled without reference counts, so a kernel
    compiled without them (direct pointing and claiming) calls them at no cost."""
    ncells = cands.size
    if memo[ncells] == 0:
        return np.int64(-1)
    changed = np.int64(0)
    for c in range(ncells):
        changed |= memo[c] ^ cands[c]
    return changed


@kernel_with(_nrt=False)
def _remember(memo, cands, missed):
    """After a try: its grid when it missed, else nothing (the grid it changed is no miss to remember), in the
    memo's row ``memo``."""
    ncells = cands.size
    if missed:
        for c in range(ncells):  # a loop: a slice copy may allocate
            memo[c] = cands[c]
        memo[ncells] = 1
    else:
        memo[ncells] = 0
