"""The bitboard search for shapes of up to 126 cells (engine/solvers/_bitboard.py) against the plain twin and the
cell-mask kernel: counts, solutions, the board's digits first, the node limit, and its limits."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import shapes as plain

from engine.carve.carver import carve_many
from engine.generators import wfc
from engine.geometry import geometry
from engine.regions import random_layout
from engine.shape import Shape
from engine.solvers import _bitboard as bb
from engine.solvers import units
from engine.solvers._stats import GAVE_UP, NSTATS

NINE = [random_layout(9, 1), random_layout(9, 2), Shape.square(3, True), Shape.latin(9), Shape.boxes(3, 3, True)]
SMALL = [random_layout(6, 5), Shape.boxes(2, 4), Shape.latin(7, True), random_layout(11, 3), Shape.boxes(2, 5)]


def _units(shape):
    return plain.units(shape.size, shape.box_rows, shape.box_cols, shape.diagonals, shape.regions)


def _search(cells, shape, limit, node_limit=0, prefer=None):
    """count, first solution and stats of the kernel called directly (``prefer``: a board, or none)."""
    geo = geometry(shape)
    n = geo.size
    unit_bits, peers, full = bb.tables(geo)
    cand, solved, dirty = np.zeros((n, 2), np.int64), np.zeros(2, np.int64), np.zeros(3, np.int64)
    stack = np.zeros((geo.ncells + 1, n + 1, 2), np.int64)
    branch = np.zeros((2, geo.ncells + 1), np.int64)
    solution, stats = np.zeros(geo.ncells, np.int8), np.zeros(NSTATS, np.int64)
    cells = np.asarray(cells, np.int8)
    ok = bb.start(cells, n, unit_bits, peers, full, geo.cell_houses, geo.nunits, cand, solved, dirty, stats)
    count = bb.search(cand, solved, dirty, ok, n, unit_bits, peers, full, geo.cell_houses, geo.nunits, limit,
                      node_limit, cells[:0] if prefer is None else np.asarray(prefer, np.int8), stack, branch,
                      solution, stats)
    return count, solution, stats


@pytest.mark.parametrize("shape", NINE + SMALL, ids=str)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), keep=st.floats(0.45, 0.8))
def test_it_counts_what_the_twin_counts(shape, seed, keep):
    board = wfc.generate(shape, seed).cells
    rng = np.random.default_rng(seed)
    puzzle = np.where(rng.random(shape.ncells) < keep, board, 0).astype(np.int8)
    want = plain.count(puzzle.tolist(), _units(shape), shape.size, 3)
    count, solution, _ = _search(puzzle, shape, 3)
    assert count == want
    assert plain.is_board(solution.tolist(), _units(shape), shape.size)
    assert np.all((puzzle == 0) | (solution == puzzle))
    assert _search(puzzle, shape, 3, prefer=board)[0] == want  # trying the board's digits first: the same count


@pytest.mark.parametrize("shape", NINE, ids=str)
def test_minimal_puzzles_have_their_board_as_their_one_solution(shape):
    boards = wfc.generate_array(shape, 12, 5)[0]
    for board, result in zip(boards, carve_many(boards, shape, list(range(12)))):
        count, solution, _ = _search(result.puzzle, shape, 2)
        assert count == 1 and np.array_equal(solution, board)
        assert units.solve(result.puzzle, shape, 2, kernel="cellmask").count == 1
        # the board's digits first: the first solution found is the board, at once
        count, solution, stats = _search(result.puzzle, shape, 1, prefer=board)
        assert count == 1 and np.array_equal(solution, board)


def test_clashing_clues_and_the_node_limit():
    shape = random_layout(9, 1)
    board = wfc.generate(shape, 3).cells
    clash = board.copy()
    clash[1] = clash[0]  # one row holds a digit twice
    assert _search(clash, shape, 2)[0] == 0
    empty = np.zeros(81, np.int8)
    count, _, stats = _search(empty, shape, 10**9, node_limit=50)
    assert stats[GAVE_UP] == 1 and count < 10**9


def test_it_takes_shapes_of_up_to_126_cells():
    with pytest.raises(ValueError, match="at most 126 cells"):
        bb.tables(geometry(Shape.boxes(3, 4)))
    with pytest.raises(ValueError, match="bitboard kernel takes shapes of up to 126 cells"):
        units.solve(np.zeros(144, np.int8), Shape.boxes(3, 4), kernel="bitboard")
    with pytest.raises(ValueError, match="kernel must be one of"):
        units.solve(np.zeros(36, np.int8), Shape.boxes(2, 3), kernel="fast")
    assert units.scratch(random_layout(9, 1)).kernel == "bitboard"
    assert units.scratch(Shape.square(3, True)).kernel == "cellmask"
    assert units.scratch(random_layout(12, 1)).kernel == "cellmask"  # 144 cells


@pytest.mark.slow
def test_it_runs_as_plain_python():
    """NUMBA_DISABLE_JIT=1: the kernel's lines run as Python and count the same."""
    shape = random_layout(6, 5)
    board = wfc.generate(shape, 2).cells
    puzzle = board.copy()
    puzzle[::3] = 0
    script = ("import numpy as np; from engine.regions import random_layout; from engine.solvers import units; "
              f"print(units.solve(np.array({puzzle.tolist()}, np.int8), random_layout(6, 5), 5, "
              "kernel='bitboard').count)")
    out = subprocess.run([sys.executable, "-c", script], env=dict(os.environ, NUMBA_DISABLE_JIT="1"),
                         capture_output=True, text=True, timeout=300, check=True)
    assert int(out.stdout) == units.solve(puzzle, shape, 5, kernel="bitboard").count
