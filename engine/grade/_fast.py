"""The compiled twin of the grader: every technique, same search order, counting steps instead of recording them.

Each technique kernel finds the FIRST deduction in exactly the order its Python module documents, applies it to
``cells``/``cands`` in place and says whether it made progress; :func:`_solve` tries the rows of the table
(:data:`engine.vocabulary.TECHNIQUE_TABLE`) easiest first, dispatching on each row's index, like
:func:`engine.grade.grader.solve_logically`. So both paths make the same steps in the same order, and the tests
compare their counts on many puzzles (the Python modules are the readable reference; change both together).

This module is the driver and the one entry point; the technique kernels live in ``_fast_*.py`` by idea (state,
singles and locked candidates, subsets, fish, wings, links, chains, aic).
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..geometry import geometry
from ._fast_aic import _aic
from ._fast_chains import _colouring, _x_chain, _xy_chain
from ._fast_fish import _fish
from ._fast_singles import _hidden_single, _locked_candidates, _naked_single
from ._fast_state import _contradiction, _place
from ._fast_subsets import _hidden_subset, _naked_subset
from ._fast_wings import _wing
from .techniques import IN_BOX_COUNTER, INDEX, NCOUNTERS

SOLVED, STUCK, CONTRADICTION = 0, 1, 2
#: what _eliminate, _solve and _grade_one say for a row of the table without a kernel (a test holds every row to
#: having one; grade_counts raises rather than grade without it)
NO_KERNEL = -1
# what one try of a technique did
NOTHING, ELIMINATED, PLACED = 0, 1, 2
#: no limit on the steps of _solve
UNLIMITED = -1

# Kernel ids are rows of the table, looked up by name, never numbered here: numba freezes module globals into
# the compiled code as constants, so the dispatch compiles to the same chain of integer compares as hand-written
# numbers would. Reordering the table reorders the tries.
HIDDEN_SINGLE = INDEX["hidden-single"]
NAKED_SINGLE = INDEX["naked-single"]
POINTING = INDEX["pointing"]
CLAIMING = INDEX["claiming"]
NAKED_PAIR = INDEX["naked-pair"]
NAKED_TRIPLE = INDEX["naked-triple"]
NAKED_QUAD = INDEX["naked-quad"]
HIDDEN_PAIR = INDEX["hidden-pair"]
HIDDEN_TRIPLE = INDEX["hidden-triple"]
HIDDEN_QUAD = INDEX["hidden-quad"]
X_WING = INDEX["x-wing"]
SWORDFISH = INDEX["swordfish"]
JELLYFISH = INDEX["jellyfish"]
XY_WING = INDEX["xy-wing"]
XYZ_WING = INDEX["xyz-wing"]
SIMPLE_COLOURING = INDEX["simple-colouring"]
X_CHAIN = INDEX["x-chain"]
XY_CHAIN = INDEX["xy-chain"]
AIC = INDEX["aic"]
NTECHNIQUES = len(INDEX)


@kernel
def _solve(first, last, limit, counts, cells, cands, houses, peers, row_of, col_of, box_of, n, blanks):
    """Make steps until none of the ``blanks`` blank cells is left, no technique finds a step, or ``limit`` steps
    are made (UNLIMITED: no limit); each step is the first deduction of the table's rows ``first..last-1`` tried
    in order, counted at its technique's row in ``counts``. Returns the blank cells left, or NO_KERNEL.

    The grader asks for every row; the tests ask for one row and one step. The singles, which make most steps,
    are dispatched in this loop and the other techniques in :func:`_eliminate`: a function call per row tried
    made easy puzzles 15-20 % slower to grade (bench/bench_grade.py, easy level)."""
    steps = 0
    while blanks and steps != limit:
        made = NOTHING
        for t in range(first, last):
            if t == HIDDEN_SINGLE:
                h = _hidden_single(cells, cands, houses, peers, n)
                if h >= 0:
                    counts[IN_BOX_COUNTER if h >= 2 * n else HIDDEN_SINGLE] += 1
                    made = PLACED
            elif t == NAKED_SINGLE:
                if _naked_single(cells, cands, peers):
                    counts[t] += 1
                    made = PLACED
            else:
                made = _eliminate(t, counts, cands, houses, peers, row_of, col_of, box_of, n)
            if made != NOTHING:
                break
        if made == NOTHING or made == NO_KERNEL:
            return blanks if made == NOTHING else NO_KERNEL
        if made == PLACED:
            blanks -= 1
        steps += 1
    return blanks


@kernel
def _eliminate(t, counts, cands, houses, peers, row_of, col_of, box_of, n):
    """Try technique ``t`` (its row in the table), one that removes candidates without placing a digit, once:
    ELIMINATED (and one added to its counter in ``counts``), NOTHING, or NO_KERNEL for a row it has no kernel for."""
    if t == POINTING or t == CLAIMING:
        found = _locked_candidates(cands, houses, row_of, col_of, box_of, n, t == CLAIMING)
    elif t == NAKED_PAIR or t == NAKED_TRIPLE or t == NAKED_QUAD:
        found = _naked_subset(cands, houses, row_of, col_of, box_of, n, 2 if t == NAKED_PAIR else
                              (3 if t == NAKED_TRIPLE else 4))
    elif t == HIDDEN_PAIR or t == HIDDEN_TRIPLE or t == HIDDEN_QUAD:
        found = _hidden_subset(cands, houses, n, 2 if t == HIDDEN_PAIR else (3 if t == HIDDEN_TRIPLE else 4))
    elif t == X_WING or t == SWORDFISH or t == JELLYFISH:
        found = _fish(cands, houses, n, 2 if t == X_WING else (3 if t == SWORDFISH else 4))
    elif t == XY_WING or t == XYZ_WING:
        found = _wing(cands, peers, row_of, col_of, box_of, t == XYZ_WING)
    elif t == SIMPLE_COLOURING:
        found = _colouring(cands, houses, peers, row_of, col_of, box_of, n)
    elif t == X_CHAIN:
        found = _x_chain(cands, houses, peers, row_of, col_of, box_of, n)
    elif t == XY_CHAIN:
        found = _xy_chain(cands, peers, row_of, col_of, box_of, n)
    elif t == AIC:
        found = _aic(cands, houses, peers, row_of, col_of, box_of, n)
    else:
        return NO_KERNEL
    if not found:
        return NOTHING
    counts[t] += 1
    return ELIMINATED


@kernel
def _grade_one(puzzle, houses, peers, row_of, col_of, box_of, n, counts, cells, cands):
    """Solve like the grader, adding to ``counts`` (engine.grade.techniques.COUNTER_NAMES); SOLVED, STUCK or
    CONTRADICTION."""
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
    # every row of the table, easiest first, back to the easiest after every step
    left = _solve(0, NTECHNIQUES, UNLIMITED, counts, cells, cands, houses, peers, row_of, col_of, box_of, n, blanks)
    if left <= 0:
        return SOLVED if left == 0 else NO_KERNEL
    return CONTRADICTION if _contradiction(cells, cands, houses, n) else STUCK


@kernel
def _grade_many(puzzles, houses, peers, row_of, col_of, box_of, n, counts, status):
    cells = np.empty(puzzles.shape[1], np.int64)
    cands = np.empty(puzzles.shape[1], np.int64)
    for i in range(puzzles.shape[0]):
        status[i] = _grade_one(puzzles[i], houses, peers, row_of, col_of, box_of, n, counts[i], cells, cands)


def grade_counts(puzzles: np.ndarray, box: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Counts (m, NCOUNTERS), solved flags (m,), and the index of the first puzzle without solution (or with
    conflicting clues), -1 when none. ``puzzles`` must already be validated (digits 0..n)."""
    geo = geometry(box)
    arr = np.ascontiguousarray(puzzles, dtype=np.int8)
    counts = np.zeros((arr.shape[0], NCOUNTERS), np.int64)
    status = np.empty(arr.shape[0], np.int64)
    _grade_many(arr, geo.houses, geo.peers, geo.row_of, geo.col_of, geo.box_of, geo.size, counts, status)
    if (status == NO_KERNEL).any():
        raise RuntimeError("a technique of engine.vocabulary.TECHNIQUE_TABLE has no kernel in engine.grade._fast")
    bad = np.flatnonzero(status == CONTRADICTION)
    return counts, status == SOLVED, int(bad[0]) if bad.size else -1
