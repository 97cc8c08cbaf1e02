"""Solving and counting on every shape: the units kernel, the teaching solvers, the plain twin, known numbers."""
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from naive import shapes as plain

from engine.generators import wfc
from engine.grid import Grid
from engine.shape import Shape
from engine.solvers import get_solver, solve, units

SMALL = [Shape.boxes(2, 3), Shape.boxes(3, 2), Shape.latin(4), Shape.latin(5), Shape.boxes(2, 2, True),
         Shape.boxes(2, 3, True), Shape.latin(5, True),
         Shape.jigsaw("AABBCD" "AABBCD" "AABCCD" "EEBECD" "FEEECD" "FFFFFD")]
#: both kernels of engine.solvers.units (each takes every shape of up to 126 cells)
KERNELS = units.KERNELS


def _plain_units(shape):
    return plain.units(shape.size, shape.box_rows, shape.box_cols, shape.diagonals, shape.regions)


# Known numbers. Latin squares: 576 of order 4, 161,280 of order 5 (OEIS A002860). The empty 6x6 grid with 2x3
# boxes: 28,200,960 boards (Pettersen; OEIS A107739): counted here with the first row fixed to 1..6 - every board
# is one of 6! relabellings of exactly one such board - as 39,168 x 720. 4x4 Sudoku: 288. Diagonal Latin squares
# (both diagonals): 48 of order 4, 960 of order 5 (OEIS A274171).
@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("shape, boards", [(Shape.latin(4), 576), (Shape.latin(5), 161_280),
                                           (Shape.square(2), 288), (Shape.latin(4, True), 48),
                                           (Shape.latin(5, True), 960)], ids=str)
def test_known_counts_of_boards(shape, boards, kernel):
    assert units.count(shape, kernel=kernel) == boards


@pytest.mark.parametrize("kernel", KERNELS)
def test_the_6x6_grid_has_28200960_boards(kernel):
    first_row = np.zeros(36, np.int8)
    first_row[:6] = np.arange(1, 7)
    assert units.count(Shape.boxes(2, 3), first_row, kernel=kernel) * 720 == 28_200_960
    # the other orientation: transposed
    assert units.count(Shape.boxes(3, 2), first_row, kernel=kernel) * 720 == 28_200_960


def test_the_plain_twin_agrees_on_the_small_counts():
    for shape, boards in ((Shape.latin(4), 576), (Shape.square(2), 288), (Shape.latin(4, True), 48)):
        assert plain.count([0] * shape.ncells, _plain_units(shape), shape.size) == boards


@pytest.mark.parametrize("shape", SMALL, ids=str)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), keep=st.floats(0.0, 0.6))
def test_units_kernel_counts_what_the_twin_counts(shape, seed, keep):
    board = wfc.generate(shape, seed).cells
    rng = np.random.default_rng(seed)
    puzzle = np.where(rng.random(shape.ncells) < keep, board, 0).astype(np.int8)
    want = plain.count(puzzle.tolist(), _plain_units(shape), shape.size, 3)
    for kernel in KERNELS:
        got = units.solve(puzzle, shape, 3, kernel=kernel)
        assert got.count == want, kernel
        sol = got.solution
        if want:
            assert plain.is_board(sol.tolist(), _plain_units(shape), shape.size)
            assert np.all((puzzle == 0) | (sol == puzzle))
    # counting to two, the cell-mask kernel's locked candidates join; from the first node here, so that every
    # puzzle takes them
    for after in (0, units.LOCKED_AFTER):
        assert units.solve(puzzle, shape, 2, kernel="cellmask", locked_after=after).count == min(want, 2)


@pytest.mark.parametrize("shape", SMALL, ids=str)
def test_every_solver_solves_every_shape(shape):
    board = wfc.generate(shape, 5).cells
    puzzle = board.copy()
    puzzle[::2] = 0
    grid = Grid.puzzle(puzzle, shape)
    want = plain.count(puzzle.tolist(), _plain_units(shape), shape.size, 2)
    for name in ("fast", "mrv", "stack", "backtrack"):
        result = solve(grid, name, limit=2)
        assert result.count == want, name
        assert Grid(result.solution, shape).is_solved()


def test_clashing_clues_have_no_solution_on_a_diagonal():
    shape = Shape.latin(5, True)
    cells = np.zeros(25, np.int8)
    cells[0], cells[24] = 3, 3  # both on the main diagonal
    for name in ("fast", "mrv", "stack", "backtrack"):
        assert get_solver(name)(cells, shape, 1, 0).count == 0


def test_node_limit_gives_up():
    result = units.solve(np.zeros(144, np.int8), Shape.boxes(3, 4), 10**9, node_limit=500)
    assert result.gave_up and result.metrics.nodes >= 500


def test_fast_keeps_square_boxes_on_their_kernels():
    empty = np.zeros(81, np.int8)
    a = solve(Grid(empty, Shape.square(3)), limit=1)
    b = solve(Grid(empty, 3), limit=1)
    assert np.array_equal(a.solution, b.solution) and a.metrics.nodes == b.metrics.nodes


@pytest.mark.parametrize("shape", SMALL, ids=str)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), keep=st.floats(0.2, 0.7))
@example(seed=710, keep=0.625)  # (on 2x2+x, the third puzzle keeps all 16 clues: no node)
def test_the_batch_entry_points_take_every_shape_and_count_as_the_twin(shape, seed, keep):
    from engine.solvers.fast import count_many, metrics_many, solve_results

    rng = np.random.default_rng(seed)
    boards = [wfc.generate(shape, seed + k).cells for k in range(3)]
    puzzles = np.stack([np.where(rng.random(shape.ncells) < keep, b, 0) for b in boards]).astype(np.int8)
    unit_list = _plain_units(shape)
    want = [plain.count(p.tolist(), unit_list, shape.size, 2) for p in puzzles]
    assert count_many(puzzles, shape, 2).tolist() == want
    results = solve_results(puzzles, shape, 2)
    assert [r.count for r in results] == want
    for p, r in zip(puzzles, results):
        one = units.solve(p, shape, 2)
        assert np.array_equal(r.solution, one.solution) and r.metrics.nodes == one.metrics.nodes
        assert plain.is_board(r.solution.tolist(), unit_list, shape.size)
    counts, stats = metrics_many(puzzles, shape, 1)
    # a node is a grid with a blank to fill: none for a puzzle that kept every clue (the twins count 0 there too)
    assert stats.shape == (3, 6) and ((stats[:, 0] >= 1) == (puzzles == 0).any(axis=1)).all()


@pytest.mark.parametrize("shape", SMALL, ids=str)
def test_minimality_on_every_shape_is_the_twins_clue_by_clue(shape):
    from engine.carve import carve_many, minimal_many

    boards = np.stack([wfc.generate(shape, k).cells for k in range(3)])
    carved = np.stack([r.puzzle for r in carve_many(boards, shape, [0, 1, 2])])
    loose = carved.copy()
    for i in range(3):  # a clue of the board put back: no longer minimal
        loose[i, np.flatnonzero(carved[i] == 0)[0]] = boards[i, np.flatnonzero(carved[i] == 0)[0]]
    unit_list = _plain_units(shape)

    def twin(p):
        return all(plain.count([0 if k == c else v for k, v in enumerate(p)], unit_list, shape.size, 2) > 1
                   for c in np.flatnonzero(p))

    puzzles = np.concatenate([carved, loose])
    minimal, checks, undecided = minimal_many(puzzles, np.concatenate([boards, boards]), shape)
    assert minimal.tolist() == [twin(p.tolist()) for p in puzzles] == [True] * 3 + [False] * 3
    assert (undecided == 0).all() and (checks[:3] == (carved != 0).sum(axis=1)).all()
