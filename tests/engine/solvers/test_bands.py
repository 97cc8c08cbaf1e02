"""The 9x9 band kernel (engine/solvers/_bands.py) against the cell-mask kernel it replaced on 9x9.

The cell-mask kernel (singles only, one mask per cell) is the simpler twin: both must give the same counts, the
same solution of every unique puzzle and the same removal-test answers. test_fast_solver.py checks the fast
solver (now the band kernel on 9x9) against the plain-Python backtracker as well.
"""
from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import is_solution, pattern_board

from engine.carve import carve_many
from engine.generators import generate_many
from engine.solvers import _band_state, fast
from engine.solvers._band_branch import _band_branch
from engine.solvers._bands import LOAD, STATE, TRIADS_ROW, _propagate, _search9, scratch9
from engine.solvers._bitmask import _solve_cells
from engine.solvers._stats import BACKTRACKS, NODES, NSTATS

HARD = [  # well-known hard puzzles (guessing for every singles solver), each with one solution
    "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",  # Easter Monster
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",  # Arto Inkala 2012
    "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",  # AI Escargot
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",  # top1465 #1
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",  # top1465 #2
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",  # top95
    "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....",  # top95
]


def _grid(line: str) -> np.ndarray:
    return np.array([0 if ch == "." else int(ch) for ch in line], dtype=np.int8)


def cellmask(cells: np.ndarray, limit: int, forbid_cell: int = -1, forbid_digit: int = 0):
    """Count (and first solution) with the cell-mask kernel, called directly as fast.solve did before."""
    s = fast.Scratch(3)
    s.stats[:] = 0
    count = _solve_cells(cells, s.n, s.cell_houses, s.peers, s.houses, limit, 0, forbid_cell,
                         (1 << (forbid_digit - 1)) if forbid_digit else 0, s.hmask, s.work, s.queue, s.stack,
                         s.branch, s.solution, s.stats, s.no_trace, s.ntrace, s.shown, False)
    return int(count), s.solution.copy()


@pytest.fixture(scope="module")
def minimal_puzzles() -> np.ndarray:
    boards = np.stack([b.cells for b in generate_many(3, "backtrack", 300, 11)])
    return np.stack([r.puzzle for r in carve_many(boards, 3, np.arange(300))])


def test_random_minimal_puzzles_agree(minimal_puzzles):
    for limit in (1, 2, 3):
        counts, solutions = fast.solve_many(minimal_puzzles, 3, limit)
        assert (counts == 1).all()
        for p, c, sol in zip(minimal_puzzles, counts, solutions):
            want, want_solution = cellmask(p, limit)
            assert c == want
            assert np.array_equal(sol, want_solution)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), keep=st.floats(0.12, 0.6))
def test_sparse_and_ambiguous_puzzles_agree(seed, keep):
    """Puzzles with many solutions, none, or one: counts up to 3 agree; a first solution is a real one."""
    rng = random.Random(seed)
    puzzle = np.array(pattern_board(3, rng, keep=keep), dtype=np.int8)
    if rng.random() < 0.3:  # a changed clue: often no solution at all
        cell = rng.randrange(81)
        puzzle[cell] = rng.randint(1, 9)
    for limit in (1, 2, 3):
        got = fast.solve(puzzle, 3, limit)
        want, want_solution = cellmask(puzzle, limit)
        assert got.count == want
        if want:
            assert is_solution(puzzle.tolist(), got.solution.tolist())
        if want == 1 and limit > 1:
            assert np.array_equal(got.solution, want_solution)


@pytest.mark.parametrize("line", HARD)
def test_hard_puzzles(line):
    puzzle = _grid(line)
    got = fast.solve(puzzle, 3, 2)
    want, want_solution = cellmask(puzzle, 2)
    assert got.count == want == 1
    assert np.array_equal(got.solution, want_solution)
    assert is_solution(puzzle.tolist(), got.solution.tolist())


@settings(max_examples=40, deadline=None)
@given(index=st.integers(0, 299), cell=st.integers(0, 80), digit=st.integers(1, 9))
def test_removal_tests_agree(minimal_puzzles, index, cell, digit):
    """exists_without (the carving test) with any blank cell and digit, on a puzzle with one clue taken out."""
    puzzle = minimal_puzzles[index].copy()
    clues = np.flatnonzero(puzzle)
    puzzle[clues[cell % clues.size]] = 0
    blank = np.flatnonzero(puzzle == 0)[cell % int((puzzle == 0).sum())]
    want, _ = cellmask(puzzle, 1, int(blank), digit)
    assert fast.exists_without(puzzle, 3, int(blank), digit) == bool(want)


def test_metrics_add_up(minimal_puzzles):
    """At the first solution every blank holds a placement not taken back: nodes - backtracks = blanks."""
    puzzles = np.concatenate([minimal_puzzles[:50], np.stack([_grid(x) for x in HARD])])
    counts, stats = fast.metrics_many(puzzles, 3, 1)
    blanks = (puzzles == 0).sum(axis=1)
    assert (counts == 1).all()
    assert np.array_equal(stats[:, NODES] - stats[:, BACKTRACKS], blanks)


def test_node_limit_gives_up():
    puzzle = _grid(HARD[0])
    full = fast.solve(puzzle, 3, 2)
    cut = fast.solve(puzzle, 3, 2, node_limit=full.metrics.nodes // 4)
    assert cut.gave_up and not full.gave_up
    assert cut.metrics.nodes >= full.metrics.nodes // 4


def test_conflicting_clues_have_no_solution():
    puzzle = np.zeros(81, dtype=np.int8)
    puzzle[0] = puzzle[1] = 5  # one row
    assert fast.solve(puzzle, 3, 2).count == 0
    assert fast.count_many(puzzle[None, :], 3)[0] == 0


def test_tables():
    """The lookup tables against their definitions, by brute force."""
    perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    for p in range(512):
        inside = [s for s in perms if all(p >> (3 * i + s[i]) & 1 for i in range(3))]
        assert _band_state.PERM[p] == sum({1 << (3 * i + s[i]) for s in inside for i in range(3)})
        assert _band_state.NPERMS[p] == len(inside)
        if len(inside) == 2:
            assert sorted(_band_state.TWO_PERMS[p]) == sorted(sum(1 << (3 * i + s[i]) for i in range(3))
                                                              for s in inside)
    for pos in range(27):
        row, col = divmod(pos, 9)
        peers = [q for q in range(27) if q != pos and (q // 9 == row or (q % 9) // 3 == col // 3)]
        assert _band_state.BAND_PEERS[pos] == sum(1 << q for q in peers)


def _count_state(st: np.ndarray, limit: int) -> int:
    """Solutions of a band-kernel state, up to ``limit``, by the kernel's own search."""
    work = scratch9()
    stats = np.zeros(NSTATS, dtype=np.int64)
    nothing = np.zeros(0, dtype=np.int8)
    return int(_search9(st.copy(), np.int64(limit), np.int64(0), nothing, work, np.zeros(81, dtype=np.int8), stats,
                        work[:0], stats[:0], nothing))


def _load_twin(cells: np.ndarray, forbid_cell: int, forbid_digit: int):
    """The band state of ``cells``, cell by cell in plain Python: each digit's words hold its clues and the blank
    cells no clue of it sees; None when two clues of a digit see each other."""
    st = [0] * 30
    for c in range(81):
        b, pos = divmod(c, 27)
        if cells[c] == 0:
            st[27 + b] |= 1 << pos
    for d in range(1, 10):
        for c in range(81):
            b, pos = divmod(c, 27)
            seen = [q for q in range(81) if cells[q] == d and q != c
                    and (q // 9 == c // 9 or q % 9 == c % 9 or (q // 27, q % 9 // 3) == (b, c % 9 // 3))]
            if cells[c] == d and seen:
                return None
            if cells[c] == d or (cells[c] == 0 and not seen and (c, d) != (forbid_cell, forbid_digit)):
                st[3 * (d - 1) + b] |= 1 << pos
    return st


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), keep=st.floats(0.0, 0.6), clash=st.booleans(), forbid=st.integers(-1, 80))
def test_the_branch_free_load_builds_the_twins_state(seed, keep, clash, forbid):
    """_load (one pass, blank cells written to digit 0's scratch words) gives the state a cell-by-cell build
    gives, rejects the grids where two clues of a digit see each other, and rules out the forbidden digit."""
    rng = random.Random(seed)
    cells = np.array(pattern_board(3, rng, keep=keep), dtype=np.int8)
    if clash:
        cells[rng.randrange(81)] = rng.randint(1, 9)
    digit = rng.randint(1, 9)
    if forbid >= 0:
        cells[forbid] = 0  # as the carver asks: a removed clue, its digit ruled out there
    work = scratch9()
    work[LOAD:LOAD + 2] = -1  # whatever an earlier call left there
    ok, solved = _band_state._load(cells, work[STATE], work[LOAD], work[LOAD + 1], forbid, digit)
    twin = _load_twin(cells, forbid, digit)
    assert ok == (twin is not None)
    if ok:
        assert solved == np.count_nonzero(cells)
        assert list(work[STATE, :30]) == twin


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), keep=st.floats(0.2, 0.35))
def test_a_branch_on_a_digits_two_ways_across_a_band_splits_the_solutions(seed, keep):
    """The search's two-way branch on how a digit crosses a band (engine/solvers/_band_branch.py) loses no
    solution and counts none twice: the solutions under each way add up to the cell-mask twin's count."""
    puzzle = np.array(pattern_board(3, random.Random(seed), keep=keep), dtype=np.int8)
    total, _ = cellmask(puzzle, 5000)
    work = scratch9()
    state = work[STATE]
    assert _band_state._load(puzzle, state, work[LOAD], work[LOAD + 1], -1, 0)[0]
    ok, _, _ = _propagate(state, np.int64(511), work[TRIADS_ROW, :9], work[TRIADS_ROW, 9:18], np.int64(99))
    k, first, other = _band_branch(state)
    if not ok or k < 0 or total >= 5000:
        return
    assert state[k] & first and state[k] & other and state[k] & first != state[k] & other  # two real ways
    counts = []
    for way in (first, other):
        branch = state.copy()
        branch[k] &= way
        counts.append(_count_state(branch, 5000))
    assert counts[0] + counts[1] == total
    assert _count_state(state, 5000) == total


def test_band_branches_happen_on_hard_puzzles():
    """The hard puzzles reach states where a band branch is taken (so the test above is not vacuous there)."""
    taken = 0
    for line in HARD:
        work = scratch9()
        state = work[STATE]
        _band_state._load(_grid(line), state, work[LOAD], work[LOAD + 1], -1, 0)
        _propagate(state, np.int64(511), work[TRIADS_ROW, :9], work[TRIADS_ROW, 9:18], np.int64(99))
        taken += _band_branch(state)[0] >= 0
    assert taken >= len(HARD) // 2


def test_the_stack_holds_the_deepest_line_of_guesses():
    """80 guesses on cells (the last cell is always forced) and 27 on ways across a band (one per digit and band:
    after it the digit has one way left there) can be outstanding at once: rows 0..107 come before the scratch."""
    assert TRIADS_ROW == 80 + 27 + 1
    assert scratch9().shape[0] > LOAD + 1 > STATE > TRIADS_ROW
