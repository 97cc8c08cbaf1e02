"""The compiled twin of the grader: every technique, same search order, counting steps instead of recording them.

Each ``_technique`` kernel finds the FIRST deduction in exactly the order its Python module documents, applies
it to ``cells``/``cands`` in place and says whether it made progress; ``_grade_one`` loops easiest first like
:func:`engine.grade.grader.solve_logically`. So both paths make the same steps in the same order, and the tests
compare their counts on many puzzles (the Python modules are the readable reference; change both together).

This module is the driver and the one entry point; the technique kernels live in ``_fast_*.py`` by idea (state,
singles, subsets, fish, wings, links, chains, aic) and are re-exported here, where the tests call them.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..geometry import geometry
from ._fast_aic import _aic, _aic_apply, _aic_removes, _aic_strong, _aic_weak  # noqa: F401
from ._fast_chains import _colouring, _x_chain, _xy_chain
from ._fast_fish import _fish
from ._fast_links import _add_link, _removes, _strong_links, _targets  # noqa: F401
from ._fast_singles import _claiming, _hidden_single, _naked_single, _pointing
from ._fast_state import _contradiction, _digit_of, _in_house, _place, _popcount, _sees  # noqa: F401
from ._fast_subsets import _hidden_subset, _naked_subset, _next_combination  # noqa: F401
from ._fast_wings import _wing

SOLVED, STUCK, CONTRADICTION = 0, 1, 2
#: the counter each kernel adds to, in the order of grader.COUNTER_NAMES (hidden singles: box, then line)
COUNTER_ORDER = ("hidden-single", "hidden-single", "naked-single", "pointing", "claiming", "naked-pair", "x-wing",
                 "hidden-pair", "naked-triple", "swordfish", "hidden-triple", "xy-wing", "xyz-wing", "naked-quad",
                 "jellyfish", "hidden-quad", "simple-colouring", "x-chain", "xy-chain", "aic")


@kernel
def _grade_one(puzzle, houses, peers, row_of, col_of, box_of, n, counts, cells, cands):
    """Solve like the grader, adding to ``counts`` (COUNTER_ORDER); SOLVED, STUCK or CONTRADICTION."""
    cells[:] = 0
    cands[:] = (np.int64(1) << n) - 1
    blanks = cells.size
    for c in range(cells.size):
        d = puzzle[c]
        if d:
            if not cands[c] >> (d - 1) & 1:
                return CONTRADICTION
            _place(cells, cands, peers, c, d)
            blanks -= 1
    while blanks:
        found = _hidden_single(cells, cands, houses, peers, n)
        if found:
            counts[found - 1] += 1
            blanks -= 1
            continue
        if _naked_single(cells, cands, peers):
            counts[2] += 1
            blanks -= 1
            continue
        t = 3
        if _pointing(cands, houses, row_of, col_of, box_of, n):
            t = 3
        elif _claiming(cands, houses, box_of, n):
            t = 4
        elif _naked_subset(cands, houses, row_of, col_of, box_of, n, 2):
            t = 5
        elif _fish(cands, houses, n, 2):
            t = 6
        elif _hidden_subset(cands, houses, n, 2):
            t = 7
        elif _naked_subset(cands, houses, row_of, col_of, box_of, n, 3):
            t = 8
        elif _fish(cands, houses, n, 3):
            t = 9
        elif _hidden_subset(cands, houses, n, 3):
            t = 10
        elif _wing(cands, peers, row_of, col_of, box_of, False):
            t = 11
        elif _wing(cands, peers, row_of, col_of, box_of, True):
            t = 12
        elif _naked_subset(cands, houses, row_of, col_of, box_of, n, 4):
            t = 13
        elif _fish(cands, houses, n, 4):
            t = 14
        elif _hidden_subset(cands, houses, n, 4):
            t = 15
        elif _colouring(cands, houses, peers, row_of, col_of, box_of, n):
            t = 16
        elif _x_chain(cands, houses, peers, row_of, col_of, box_of, n):
            t = 17
        elif _xy_chain(cands, peers, row_of, col_of, box_of, n):
            t = 18
        elif _aic(cands, houses, peers, row_of, col_of, box_of, n):
            t = 19
        else:
            return CONTRADICTION if _contradiction(cells, cands, houses, n) else STUCK
        counts[t] += 1
    return SOLVED


@kernel
def _grade_many(puzzles, houses, peers, row_of, col_of, box_of, n, counts, status):
    cells = np.empty(puzzles.shape[1], np.int64)
    cands = np.empty(puzzles.shape[1], np.int64)
    for i in range(puzzles.shape[0]):
        status[i] = _grade_one(puzzles[i], houses, peers, row_of, col_of, box_of, n, counts[i], cells, cands)


def grade_counts(puzzles: np.ndarray, box: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Counts (m, len(COUNTER_ORDER)), solved flags (m,), and the index of the first puzzle without solution
    (or with conflicting clues), -1 when none. ``puzzles`` must already be validated (digits 0..n)."""
    geo = geometry(box)
    arr = np.ascontiguousarray(puzzles, dtype=np.int8)
    counts = np.zeros((arr.shape[0], len(COUNTER_ORDER)), np.int64)
    status = np.empty(arr.shape[0], np.int64)
    _grade_many(arr, geo.houses, geo.peers, geo.row_of, geo.col_of, geo.box_of, geo.size, counts, status)
    bad = np.flatnonzero(status == CONTRADICTION)
    return counts, status == SOLVED, int(bad[0]) if bad.size else -1
