"""The compiled twin of the grader: every technique, same search order, counting steps instead of recording them.

Each technique kernel finds the FIRST deduction in exactly the order its step finder documents, applies it to
``cells``/``cands`` in place and says whether it made progress; :func:`_solve` tries the rows of the table
(:data:`engine.grade.techniques.ROWS`, in the order of :data:`engine.vocabulary.TECHNIQUE_TABLE`) easiest first,
calling each row's kernel by its family with its argument, like :func:`engine.grade.grader.solve_logically`. So
both paths make the same steps in the same order, and the tests compare their counts on many puzzles (the finders
are the readable reference; change both together).

This module is the driver and the one entry point; the technique kernels live beside it by family, under the
file names of their finders (engine/grade/kernels/: singles, locked, subsets, fish, wings, unique_loops, bug,
aligned, chains/), on the candidate state of :mod:`engine.grade.kernels.state`.
"""
from __future__ import annotations

import numpy as np

from ..._jit import kernel_with, wide_kernel
from ...geometry import geometry
from ...vocabulary import STEP_PATH_ONLY
from ..finders.singles import FULL_HOUSE as FULL_HOUSE_KIND
from ..techniques import ARGS, COUNTER_RATINGS, FAMILIES, FULL_HOUSE_COUNTER, IN_BOX_COUNTER, INDEX, NCOUNTERS
from .aligned import _aligned
from .bug import _bug
from .chains.cycles import C_KIND, C_PASS, C_SIZE, C_TENTHS, CYCLE, X_PASS, _cycles_on, cycle_sees
from .chains.forcing import H_KIND, H_TENTHS, HINT_SIZE, _forcing
from .chains.space import forcing_space, shared_space
from .families import (ALIGNED, BUG, CLAIMING, CYCLES, DIRECT_HIDDEN, DIRECT_LOCKING, FISH, FORCING, HIDDEN_SINGLE,
                       HIDDEN_SUBSET, LOCKED_CANDIDATES, NAKED_SINGLE, NAKED_SUBSET, STEP_PATH, UNIQUE_LOOP, WING, XYZ)
from .fish import _fish
from .locked import _direct_locking, _locked_candidates, box_line_side
from .misses import NROWS, _changed_digits, _forget, _remember, new_memo
from .singles import _hidden_single, _naked_single
from .state import _contradiction, _place, _places_table, grader_units
from .subsets import _direct_hidden, _hidden_subset, _naked_subset
from .unique_loops import _unique_loop
from .wings import _wing

SOLVED, STUCK, CONTRADICTION = 0, 1, 2
#: what _solve_in, _solve and _grade_many say for a row of the table without a kernel (a test holds every row to
#: having one; grade_counts raises rather than grade without it)
NO_KERNEL = -1
# what one try of a technique did
NOTHING, ELIMINATED, PLACED = 0, 1, 2
#: no limit on the steps of _solve
UNLIMITED = -1
# The slots of a puzzle's ``ratings`` row: Sudoku Explainer's three figures (ER the hardest step, EP the hardest
# step up to the first placement, ED the first step), the counter of the hardest step, and RATE, where a technique
# whose rating depends on the step (a chain's length) writes it (the others leave their row's rating there), and
# the kind of the hardest step (engine.vocabulary.STEP_NAMES: a full house, BUG+1, a forcing X-chain).
ER, EP, ED, HARDEST, RATE, HARDEST_KIND = 0, 1, 2, 3, 4, 5
NRATINGS = 6
#: counter -> rating of one step (a frozen constant in the kernels)
_COUNTER_RATING = np.array(COUNTER_RATINGS, np.float64)

# Each row's kernel family and argument (engine.grade.techniques.ROWS), by row: numba freezes module-level tuples
# into the compiled code as constants, so the step loop reads a row's family and argument from constant data and
# branches on the family (a row added to the table needs no line here when its family has a branch in _solve_in).
# Tuples of ints, not numpy arrays: numba builds a global array's value again where the loop reads it, at every row
# tried, which made grading measurably slower (bench/ab_grade.py; docs/benchmarks.md, "Grading"). Reordering the
# table reorders the tries.
_FAMILY = FAMILIES
_ARG = ARGS
NTECHNIQUES = len(INDEX)
# row t of the table keeps its misses in row t of the memo (engine.grade.kernels.misses): a row added to the table
# must have its own, never one past the memo's end (numba checks no bounds)
if NROWS != NTECHNIQUES:
    raise RuntimeError("engine.grade.kernels.misses.NROWS is not one memo row per row of the technique table")


@wide_kernel
def _solve(first, last, limit, enabled, counts, ratings, cells, cands, houses, peers, cell_houses, n, blanks,
           misses):
    """:func:`_solve_in` with no shared forcing workspace (the tests' single steps: each forcing search makes its
    own)."""
    return _solve_in(first, last, limit, enabled, counts, ratings, cells, cands, houses, peers, n, blanks, misses,
                     forcing_space(cells.size, n, 0), _chain_shape(houses, cell_houses, n))


@wide_kernel
def _chain_shape(houses, cell_houses, n):
    """What the rows read of the grid's shape, made once for many steps: each cell's units
    (engine.grade.kernels.state.grader_units), and the cells of each cell's houses as bitsets
    (engine.grade.kernels.chains.cycles.cycle_sees)."""
    return cell_houses, cycle_sees(houses, cell_houses, cell_houses.shape[0])


@kernel_with(inline="always")
def _solve_in(first, last, limit, enabled, counts, ratings, cells, cands, houses, peers, n, blanks, misses, space,
              shape):
    """Make steps until none of the ``blanks`` blank cells is left, no technique finds a step, or ``limit`` steps
    are made (UNLIMITED: no limit); each step is the first deduction of the table's rows ``first..last-1`` tried
    in order (a row whose ``enabled`` flag is 0 is skipped), counted at its technique's row in ``counts`` and
    rated in ``ratings`` (the slots ER, EP, ED, HARDEST, RATE). Returns the blank cells left, or NO_KERNEL.

    The grader asks for every row; the tests ask for one row and one step. The singles, which make most steps,
    are written out in this loop (a function call for each of them made easy puzzles markedly slower to grade,
    bench/bench_grade.py, easy level); every other row's kernel is called from it. A technique whose step's
    rating depends on the step (a chain's length, a loop's type) writes it to ``ratings[RATE]``. ``space``: the
    forcing searches' shared workspace (engine.grade.kernels.chains.space.forcing_space); ``shape``:
    :func:`_chain_shape`."""
    steps = 0
    table = np.empty((houses.shape[0] + 1, n), np.int64)
    hint = np.empty(max(HINT_SIZE, C_SIZE), np.int64)  # a chain row's conclusion (either kind)
    cell_houses, sees = shape
    # the places table has one row more than the houses: its first entry holds the most cells a box and a line
    # share, what direct pointing and claiming prune by (engine.grade.kernels.locked.box_line_side). Passed as an
    # argument of its own down this loop, that number made 9x9 grading measurably slower (bench/ab_grade.py;
    # docs/benchmarks.md, "Grading")
    table[houses.shape[0], 0] = box_line_side(houses, cell_houses, n)
    while blanks and steps != limit:
        made = NOTHING
        counter = 0
        family = HIDDEN_SINGLE
        kind = 0  # which of its row's steps the step is (engine.vocabulary.STEP_NAMES)
        tabled = False  # the places table is filled for this step's candidates
        for t in range(first, last):
            if not enabled[t]:
                continue
            counter = t
            family = STEP_PATH  # a row past the table has no kernel (and numba checks no bounds)
            arg = 0
            if t < NTECHNIQUES:
                family = _FAMILY[t]
                arg = _ARG[t]  # the row's k, side, wing or producer (engine.grade.kernels.families)
            if family == HIDDEN_SINGLE:
                h = _hidden_single(cells, cands, houses, peers, n)
                if h >= 0:
                    full = h >= houses.shape[0]
                    # a hidden single in a region (2n..3n-1) is counted apart (Sudoku Explainer rates it lower)
                    in_box = 2 * n <= h < 3 * n and houses.shape[0] >= 3 * n  # (a Latin square's 2n: a diagonal)
                    counter = FULL_HOUSE_COUNTER if full else (IN_BOX_COUNTER if in_box else t)
                    kind = FULL_HOUSE_KIND if full else 0
                    made = PLACED
            elif family == NAKED_SINGLE:
                if _naked_single(cells, cands, peers):
                    made = PLACED
            else:
                if not tabled:
                    _places_table(cands, houses, n, table)
                    tabled = True
                ratings[RATE] = _COUNTER_RATING[t]
                # Each row's kernel is called here, not through an inlined helper: an inlined call still counts a
                # reference to each array it takes, in and out, at every row tried (docs/development.md,
                # "Reference counts"), and this loop tries about twenty rows before each step of a hard puzzle.
                made = NOTHING
                if family == CYCLES or family == FORCING:
                    if family == CYCLES:
                        found = _cycles_on(cells, cands, houses, cell_houses, peers, n, hint, sees)
                        tenths = hint[C_TENTHS]
                        # finders.chains.steps.chain_kind: a cycle's pass, or 3 + (the forcing chain's pass != X)
                        kind = hint[C_PASS] if hint[C_KIND] == CYCLE else (3 if hint[C_PASS] == X_PASS else 4)
                    else:  # the argument is the producer: Nishio, multiple, dynamic, dynamic (+)
                        found = _forcing(arg, cells, cands, houses, cell_houses, peers, n, hint, misses[t], space)
                        tenths = hint[H_TENTHS]
                        kind = hint[H_KIND]
                    if found:
                        ratings[RATE] = tenths / 10.0
                        made = PLACED if found == 2 else ELIMINATED
                elif family == DIRECT_LOCKING:  # these place the single they leave
                    if _direct_locking(cells, cands, houses, peers, cell_houses, n, arg == CLAIMING, table,
                                       misses[t]):
                        made = PLACED
                elif family == DIRECT_HIDDEN:
                    if _direct_hidden(cells, cands, houses, peers, n, arg, table):
                        made = PLACED
                elif family == LOCKED_CANDIDATES:
                    # these and the fish look only at the digits whose places changed since the row's last miss
                    # (engine.grade.kernels.misses: row t of the memo); direct pointing and claiming do it inside
                    # their kernel, which counts no references (done here for them, grading measured slower)
                    memo = misses[t]
                    if _locked_candidates(cands, houses, cell_houses, n, arg == CLAIMING, table,
                                          _changed_digits(memo, cands)):
                        made = ELIMINATED
                    _remember(memo, cands, made == NOTHING)
                elif family == NAKED_SUBSET:
                    if _naked_subset(cands, houses, n, arg):
                        made = ELIMINATED
                elif family == HIDDEN_SUBSET:
                    if _hidden_subset(cands, houses, n, arg, table):
                        made = ELIMINATED
                elif family == FISH:
                    memo = misses[t]
                    if _fish(cands, houses, n, arg, table, _changed_digits(memo, cands)):
                        made = ELIMINATED
                    _remember(memo, cands, made == NOTHING)
                elif family == WING:
                    if _wing(cands, peers, cell_houses, arg == XYZ):
                        made = ELIMINATED
                elif family == UNIQUE_LOOP:  # the rating of a loop's step depends on its length and type
                    found = _unique_loop(cells, cands, houses, peers, cell_houses, n)
                    if found:
                        # (tenths * 8 + type) * 2 + 1 for a loop longer than a rectangle: kernels.unique_loops
                        ratings[RATE] = (found // 16) / 10.0
                        kind = (found // 2) % 8 - 1 + (4 if found & 1 else 0)  # finders.unique_loops.loop_kind
                        made = ELIMINATED
                elif family == BUG:
                    found = _bug(cells, cands, houses, peers, cell_houses, n)
                    if found:
                        ratings[RATE] = (found // 8) / 10.0  # tenths * 8 + kind: engine.grade.kernels.bug
                        kind = found % 8
                        made = ELIMINATED
                elif family == ALIGNED:
                    if _aligned(cands, peers, cell_houses, arg, misses[t]):
                        made = ELIMINATED
                else:  # STEP_PATH, or a family without a branch here
                    made = NO_KERNEL
            if made != NOTHING:
                break
        if made == NOTHING or made == NO_KERNEL:
            return blanks if made == NOTHING else NO_KERNEL
        counts[counter] += 1
        singles = family == HIDDEN_SINGLE or family == NAKED_SINGLE  # (counted in a box or as a full house too)
        _rate(ratings, _COUNTER_RATING[counter] if singles else ratings[RATE], counter, kind, made == PLACED)
        if made == PLACED:
            blanks -= 1
        steps += 1
    return blanks


@wide_kernel
def _rate(ratings, rating, counter, kind, placed):
    """Add one step to Sudoku Explainer's three figures, as serate keeps them: ER is the hardest step (the first
    to reach it names it: its counter and kind), ED the rating after the first step, EP the rating when the first
    digit is placed."""
    first = ratings[ED] == 0.0
    if rating > ratings[ER]:
        ratings[ER] = rating
        ratings[HARDEST] = counter
        ratings[HARDEST_KIND] = kind
    if ratings[EP] == 0.0:
        if first:
            ratings[ED] = ratings[ER]
        if placed:
            ratings[EP] = ratings[ER]


@kernel_with(inline="always")
def _start_puzzle(puzzle, cells, cands, peers, n, misses):
    """Set ``cells`` and ``cands`` to ``puzzle``'s givens and forget the misses of the last puzzle: the blank cells,
    or -1 when two givens clash."""
    _forget(misses)
    cells[:] = 0
    cands[:] = (np.int64(1) << n) - 1
    blanks = cells.size
    for c in range(cells.size):
        d = puzzle[c]
        if d:
            if not cands[c] >> (d - 1) & 1:
                return -1
            _place(cells, cands, peers, c, d)
            blanks -= 1
    return blanks


@wide_kernel
def _grade_many(puzzles, enabled, houses, peers, cell_houses, n, counts, ratings, status, space, misses,
                state):
    """Grade every row of ``puzzles`` (``status``: SOLVED, STUCK or CONTRADICTION each), or, when ``state`` has a
    row (then ``puzzles`` has none), make one step from the cells and candidates of ``state`` (``status[0]``:
    the blank cells left, or NO_KERNEL), changing them. ``misses``: the memo of engine.grade.kernels.misses.

    One entry point for both, so that the guided step path (engine.grade.guided, :func:`step_counter`) runs the
    very code the fill compiled, with no compile of its own on a new machine (a second entry would compile the
    whole loop again). And one call of :func:`_solve_in` for both, which is compiled inside this kernel
    (``inline="always"``): as a kernel of its own it was compiled, optimised and emitted once alone and once more
    inside this one, a real share of a new machine's compile on the longest chain of it (bench/compile_costs.py)."""
    shape = _chain_shape(houses, cell_houses, n)
    stepping = state.shape[0] > 0
    cells = state[0] if stepping else np.empty(puzzles.shape[1], np.int64)
    cands = state[1] if stepping else np.empty(puzzles.shape[1], np.int64)
    for i in range(1 if stepping else puzzles.shape[0]):
        if stepping:
            blanks = 0
            for c in range(cells.size):
                blanks += cells[c] == 0
        else:
            blanks = _start_puzzle(puzzles[i], cells, cands, peers, n, misses)
            if blanks < 0:
                status[i] = CONTRADICTION
                continue
        # every row of the table, easiest first, back to the easiest after every step (one step when stepping)
        left = _solve_in(0, NTECHNIQUES, 1 if stepping else UNLIMITED, enabled, counts[i], ratings[i], cells, cands,
                         houses, peers, n, blanks, misses, space, shape)
        if stepping:
            status[0] = left
        elif left <= 0:
            status[i] = SOLVED if left == 0 else NO_KERNEL
        else:
            status[i] = CONTRADICTION if _contradiction(cells, cands, houses, n) else STUCK


def enabled_rows(skip=()) -> np.ndarray:
    """One flag per row of the table: 1 for the rows to try, 0 for the names in ``skip``."""
    flags = np.ones(NTECHNIQUES, np.int8)
    for name in skip:
        flags[INDEX[name]] = 0
    return flags


def grade_counts(puzzles: np.ndarray, box: int, skip=()) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Counts (m, NCOUNTERS), ratings (m, NRATINGS: the slots ER, EP, ED, HARDEST), solved flags (m,), and flags
    (m,) of the puzzles found without solution (or with conflicting clues). ``puzzles`` must already be validated
    (digits 0..n); the techniques named in ``skip`` are not tried."""
    geo = geometry(box)
    arr = np.ascontiguousarray(puzzles, dtype=np.int8)
    counts = np.zeros((arr.shape[0], NCOUNTERS), np.int64)
    ratings = np.zeros((arr.shape[0], NRATINGS), np.float64)
    status = np.empty(arr.shape[0], np.int64)
    space = shared_space(arr.shape[1], geo.size, arr.shape[0], geo.houses.tobytes())
    _grade_many(arr, enabled_rows(tuple(skip) + STEP_PATH_ONLY), geo.houses, geo.peers, grader_units(geo),
                geo.size, counts, ratings, status, space, new_memo(arr.shape[1]), np.empty((0, arr.shape[1]), np.int64))
    if (status == NO_KERNEL).any():
        raise RuntimeError("a row of engine.grade.techniques.ROWS has no kernel in engine.grade.kernels.driver")
    return counts, ratings, status == SOLVED, status == CONTRADICTION


def step_counter(state: np.ndarray, box: int, enabled: np.ndarray, misses: np.ndarray) -> int:
    """The counter (engine.grade.techniques.COUNTER_NAMES) of the step the grader makes from ``state``, a (2, ncells)
    int64 array of cells and candidates that the step changes, trying the rows ``enabled`` flags; -1 when none
    makes a step. ``misses``: the puzzle's memo (:func:`new_memo`), kept from step to step."""
    geo = geometry(box)
    counts = np.zeros((1, NCOUNTERS), np.int64)
    status = np.empty(1, np.int64)
    _grade_many(np.empty((0, state.shape[1]), np.int8), enabled, geo.houses, geo.peers, grader_units(geo),
                geo.size, counts, np.zeros((1, NRATINGS), np.float64), status,
                shared_space(state.shape[1], geo.size, 1), misses, state)
    if status[0] == NO_KERNEL:  # pragma: no cover - a test holds every row to having a kernel
        raise RuntimeError("a row of engine.grade.techniques.ROWS has no kernel in engine.grade.kernels.driver")
    made = np.flatnonzero(counts[0])
    return int(made[0]) if made.size else -1
