"""Every solver of the registry against the data files, tests/naive and each other.

The data files (data/puzzles-*.txt, ``puzzle:count:solution`` lines) hold unique, multi-solution, no-solution
and conflicting-givens puzzles; each was checked with tests/naive when it was made, and
``test_data_file_agrees_with_naive`` checks again. ``fast`` is in the registry and is tested like the others: if
it cannot be imported these tests fail rather than skip.
"""
from __future__ import annotations

import sys

import naive
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive import pattern_board
from paths import DATA

from engine.formats import from_line, to_line
from engine.geometry import box_for_ncells
from engine.grid import Grid
from engine.solvers import (
    SOLVERS,
    backtrack,
    count_solutions,
    get_solver,
    is_unique,
    mrv,
    solve,
    stack,
)

NAIVE_SOLVERS = ("stack", "backtrack", "mrv")  # the plain-Python ones (with on_event, exact node limits)
NODE_LIMIT = 2_000_000  # far above what any data-file puzzle needs; hitting it is a failure


def data_lines(name: str) -> list[tuple[str, int, str]]:
    out = []
    for line in (DATA / name).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            puzzle, count, solution = line.split(":")
            out.append((puzzle, int(count), solution))
    return out


DATA_CASES = [pytest.param(p, c, s, id=f"{name[8:-4]}-{i + 1}")
              for name in ("puzzles-4x4.txt", "puzzles-9x9.txt", "puzzles-16x16.txt")
              for i, (p, c, s) in enumerate(data_lines(name))]


def test_data_files_cover_every_kind():
    for name in ("puzzles-4x4.txt", "puzzles-9x9.txt", "puzzles-16x16.txt"):
        lines = data_lines(name)
        counts = {c for _, c, _ in lines}
        assert counts == {0, 1, 2}, name
        assert any(naive.conflicts([int(v) for v in from_line(p)]) for p, _, _ in lines), f"{name}: no clash case"
        assert any(c == 0 and not naive.conflicts([int(v) for v in from_line(p)]) for p, c, _ in lines), \
            f"{name}: no case of valid givens without a solution"


@pytest.mark.parametrize("puzzle, count, solution", DATA_CASES)
@pytest.mark.slow
def test_data_file_agrees_with_naive(puzzle, count, solution):
    cells = [int(v) for v in from_line(puzzle)]
    got, first = naive.count_solutions(cells, 2)
    assert got == count, f"puzzle {puzzle}: file says {count}, naive counts {got}"
    if count:
        assert naive.is_solution(cells, from_line(solution).tolist())
    if count == 1:
        assert to_line(first) == solution


@pytest.mark.parametrize("name", sorted(SOLVERS))
@pytest.mark.parametrize("puzzle, count, solution", DATA_CASES)
@pytest.mark.slow
def test_solver_on_data_file(name, puzzle, count, solution):
    cells = from_line(puzzle)
    box = box_for_ncells(cells.size)
    before = cells.copy()
    r = get_solver(name)(cells, box, 2, NODE_LIMIT)
    got = None if r.solution is None else to_line(r.solution)
    detail = f"\npuzzle   {puzzle}\nexpected count {count}, solution {solution or '-'}\ngot      count {r.count}, " \
             f"solution {got or '-'}, gave_up={r.gave_up}"
    assert np.array_equal(cells, before), f"{name} changed its input" + detail
    assert not r.gave_up and r.count == count, name + detail
    if count == 1:
        assert got == solution, name + detail
    if count:
        assert naive.is_solution(cells.tolist(), r.solution.tolist()), name + detail
    else:
        assert r.solution is None, name + detail


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_registry_helpers(name):
    puzzle, count, solution = data_lines("puzzles-9x9.txt")[5]
    grid = Grid.puzzle(from_line(puzzle))
    assert solve(grid, name, 1).solved == (count > 0)
    assert count_solutions(grid, 2, name) == count
    assert is_unique(grid, name) == (count == 1)


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_conflicting_givens_mean_no_solution_and_no_search(name):
    cells = np.zeros(81, dtype=np.int8)
    cells[0] = cells[80] = 5  # different houses: fine
    cells[10] = 5  # same box as cell 0
    r = get_solver(name)(cells, 3, 2, 0)
    assert r.count == 0 and r.solution is None and not r.gave_up
    assert r.metrics.nodes == 0


@pytest.mark.parametrize("name", NAIVE_SOLVERS)
def test_bad_arguments_raise(name):
    solve_fn = get_solver(name)
    with pytest.raises(ValueError):
        solve_fn(np.zeros(80, dtype=np.int8), 3)
    with pytest.raises(ValueError):
        solve_fn(np.full(81, 10, dtype=np.int8), 3)
    with pytest.raises(ValueError):
        solve_fn(np.zeros(81, dtype=np.int8), 3, limit=0)
    with pytest.raises(ValueError):
        solve_fn(np.zeros(81, dtype=np.int8), 3, node_limit=-1)


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_limits_are_checked_the_same_way_by_every_solver(name):
    # A float limit used to make numba compile a float specialisation (and count past 1.5); an int beyond int64
    # raised a numba TypingError. Both are caller mistakes or "no limit": TypeError, or clamped.
    solve_fn, empty = get_solver(name), np.zeros(81, dtype=np.int8)
    for bad in (1.5, "2", True):
        with pytest.raises(TypeError, match="limit must be an integer"):
            solve_fn(empty, 3, limit=bad)
    with pytest.raises(TypeError, match="node_limit must be an integer"):
        solve_fn(empty, 3, node_limit=10.0)
    r = solve_fn(empty, 3, limit=2**70, node_limit=50)
    assert r.gave_up and r.metrics.nodes <= 50
    assert solve_fn(empty, 3, limit=np.int64(2), node_limit=2**70).count == 2


def test_solve_takes_cells_as_well_as_a_grid():
    puzzle, count, _ = data_lines("puzzles-9x9.txt")[5]
    cells = from_line(puzzle)
    assert solve(cells, limit=2).count == count
    assert solve(list(cells), limit=2).count == count
    assert solve(cells.reshape(9, 9), limit=2).count == count
    assert count_solutions(cells) == count
    with pytest.raises(TypeError, match="parse text first"):
        solve(puzzle)
    with pytest.raises(ValueError):
        solve(cells[:80])


# -- metrics ----------------------------------------------------------------------------------------------------
MIXED = [p for p, c, _ in data_lines("puzzles-9x9.txt")[4:13]]  # unique, multi-solution and unsolvable


@pytest.mark.parametrize("puzzle", MIXED)
@pytest.mark.slow
def test_stack_and_backtrack_walk_the_same_tree(puzzle):
    """Seed 001's stack loop and seed 002's recursion try the same digits in the same cells in the same order."""
    cells = from_line(puzzle)
    a, b = stack.solve(cells, 3, 2), backtrack.solve(cells, 3, 2)
    assert (a.count, a.gave_up) == (b.count, b.gave_up)
    ma, mb = a.metrics.as_dict(), b.metrics.as_dict()
    ma.pop("seconds"), mb.pop("seconds")
    assert ma == mb


@pytest.mark.parametrize("name", NAIVE_SOLVERS)
@pytest.mark.parametrize("puzzle", MIXED)
@pytest.mark.slow
def test_metric_invariants(name, puzzle):
    cells = from_line(puzzle)
    blanks = int(np.count_nonzero(cells == 0))
    for limit in (1, 2):
        r = get_solver(name)(cells, 3, limit)
        m = r.metrics
        assert m.guesses <= m.nodes and m.backtracks <= m.nodes and m.max_depth <= blanks
        if name != "mrv":  # no propagation: every try is a guess, and each one stands on the stack
            assert m.guesses == m.nodes
            assert m.max_depth == (blanks if r.count else m.max_depth)
        if r.count == limit:  # stopped on a solution: its placements are still standing
            assert m.nodes - m.backtracks == blanks
        else:  # the whole tree was searched: everything placed was taken back
            assert m.nodes == m.backtracks
        assert m.checks > 0 or blanks == 0
        assert m.seconds >= 0


def test_checks_count_peer_comparisons():
    """One blank cell whose row holds 1..8 elsewhere: trying 1 meets it at the first comparison, 2 at the second
    ... 8 at the eighth; 9 compares with the 8 others of the row, of the column and of the box (24), then fits."""
    board = pattern_board(3)
    cells = np.array(board, dtype=np.int8)
    target = 8  # r1c9: its row holds 1..8 in columns 1..8 after relabelling below
    cells[target] = 0
    row = board[:8]
    expected = sum(row.index(d) + 1 for d in range(1, 10) if d in row and d != board[target]) + 24
    for solver in (stack, backtrack):
        r = solver.solve(cells, 3, 1)
        assert r.count == 1 and r.metrics.nodes == 1
        assert r.metrics.checks == expected


def test_mrv_guesses_only_at_branch_points():
    one_blank = np.array(pattern_board(3), dtype=np.int8)
    one_blank[40] = 0
    r = mrv.solve(one_blank, 3, 2)
    assert r.count == 1
    assert (r.metrics.nodes, r.metrics.guesses, r.metrics.max_depth, r.metrics.backtracks) == (1, 0, 0, 1)
    empty = mrv.solve(np.zeros(16, dtype=np.int8), 2, 1)
    assert empty.metrics.guesses >= 1 and empty.metrics.max_depth >= 1


# -- node limit, events -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAIVE_SOLVERS)
def test_node_limit_gives_up_exactly_there(name):
    hard = from_line("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    r = get_solver(name)(hard, 3, 2, 500)
    assert r.gave_up and r.metrics.nodes == 500
    full = get_solver(name)(hard, 3, 1, 0) if name == "mrv" else None
    if full is not None:  # with room enough the same solver finishes and the limit changes nothing
        again = mrv.solve(hard, 3, 1, full.metrics.nodes)
        assert not again.gave_up and again.count == 1 and again.metrics.nodes == full.metrics.nodes


@pytest.mark.parametrize("name", NAIVE_SOLVERS)
@pytest.mark.parametrize("puzzle", MIXED[:6])
@pytest.mark.slow
def test_events_replay_to_the_solution(name, puzzle):
    cells = from_line(puzzle)
    events = []
    r = get_solver(name)(cells, 3, 1, on_event=lambda cell, digit: events.append((cell, digit)))
    quiet = get_solver(name)(cells, 3, 1)
    assert (r.count, r.metrics.nodes) == (quiet.count, quiet.metrics.nodes)
    grid = cells.astype(int).tolist()
    placed = taken = 0
    for cell, digit in events:
        assert cells[cell] == 0, "a given was touched"
        taken += digit == 0 or grid[cell] != 0  # emptied, or replaced by the next digit to try
        placed += digit != 0
        grid[cell] = digit
    assert placed == r.metrics.nodes and taken == r.metrics.backtracks
    if r.count:
        assert grid == r.solution.tolist()
    else:
        assert grid == cells.tolist()


# -- every size -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("box", [2, 3, 4, 5])
@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_every_size(name, box):
    board = pattern_board(box)
    n = box * box
    cells = np.array(board, dtype=np.int8)
    cells[[(r * n + (r * 7) % n) for r in range(n)]] = 0  # one blank per row, scattered over the columns
    cells[(n - 1) * n:] = 0  # and the whole last row
    r = get_solver(name)(cells, box, 2, 200_000)
    assert not r.gave_up
    assert r.count == 1 and r.solution.tolist() == board


def test_backtrack_raises_the_recursion_limit_it_needs():
    old = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(120)  # below what 81 blanks plus pytest's own frames need
        r = backtrack.solve(np.zeros(81, dtype=np.int8), 3, 1)
        assert r.count == 1 and naive.is_board(r.solution.tolist()) and r.metrics.max_depth == 81
        assert sys.getrecursionlimit() > 120
    finally:
        sys.setrecursionlimit(old)


def test_empty_25x25_is_filled_by_fast():
    r = get_solver("fast")(np.zeros(625, dtype=np.int8), 5, 1, 100_000)
    assert r.count == 1 and naive.is_board(r.solution.tolist())


@pytest.mark.parametrize("name", NAIVE_SOLVERS)
def test_node_limit_protects_the_slow_solvers_on_an_empty_25x25(name):
    """Without propagation the plain searches wander on 25x25 (mrv too); the node limit ends them cleanly."""
    r = get_solver(name)(np.zeros(625, dtype=np.int8), 5, 1, 3000)
    if r.gave_up:
        assert r.count == 0 and r.metrics.nodes == 3000
    else:
        assert r.count == 1 and naive.is_board(r.solution.tolist())


# -- properties -------------------------------------------------------------------------------------------------
@st.composite
def blanked_boards(draw, box: int, max_blanks: int):
    """A known valid board (the pattern, digits relabelled) with some cells blanked: it has >= 1 solution."""
    n = box * box
    perm = draw(st.permutations(list(range(1, n + 1))))
    board = pattern_board(box, digits=perm)
    blanks = draw(st.sets(st.integers(0, n * n - 1), max_size=max_blanks))
    puzzle = [0 if i in blanks else v for i, v in enumerate(board)]
    return board, puzzle


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=blanked_boards(3, 45), name=st.sampled_from(sorted(SOLVERS)))
def test_blanked_boards_have_a_solution_that_keeps_every_clue(data, name):
    board, puzzle = data
    cells = np.array(puzzle, dtype=np.int8)
    r = get_solver(name)(cells, 3, 1, NODE_LIMIT)
    assert r.count == 1 and not r.gave_up
    assert naive.is_solution(puzzle, r.solution.tolist())
    assert cells.tolist() == puzzle


@settings(max_examples=25, deadline=None)
@given(data=blanked_boards(3, 60), name=st.sampled_from(sorted(SOLVERS)))
def test_count_is_monotone_in_limit(data, name):
    _, puzzle = data
    cells = np.array(puzzle, dtype=np.int8)
    counts = [get_solver(name)(cells, 3, limit, NODE_LIMIT).count for limit in (1, 2, 3, 5)]
    assert counts[0] == 1
    assert counts == sorted(counts)
    assert all(c <= limit for c, limit in zip(counts, (1, 2, 3, 5)))
    # a count below its limit is the exact number of solutions, so every larger limit finds the same
    for i, (c, limit) in enumerate(zip(counts, (1, 2, 3, 5))):
        if c < limit:
            assert all(later == c for later in counts[i:])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=16, max_size=16))
def test_all_solvers_agree_with_naive_on_random_4x4(cells):
    """Arbitrary 4x4 grids: conflicting, unsolvable, unique and many-solution ones alike."""
    expected, _ = naive.count_solutions(cells, 3)
    arr = np.array(cells, dtype=np.int8)
    for name in SOLVERS:
        r = get_solver(name)(arr, 2, 3)
        assert r.count == expected, f"{name} on {to_line(arr)}: {r.count}, naive {expected}"
        if r.count:
            assert naive.is_solution(cells, r.solution.tolist())
