"""Tests of the grading tests' plain helpers (tests/naive/grade.py): the reference solver counts, the plain carver
makes minimal unique puzzles, and the random transformations keep a board valid."""
from __future__ import annotations

import random

import numpy as np

from naive.grade import carve_minimal, random_board, solutions, transform


def test_reference_solver_counts():
    assert len(solutions([0] * 16, 2, limit=1000)) == 288  # all 4x4 boards
    easy = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
    [only] = solutions([int(ch) for ch in easy], 3, limit=2)
    assert only[:9] == [4, 8, 3, 9, 2, 1, 6, 5, 7]


def test_carver_makes_minimal_unique_puzzles():
    rng = random.Random(5)
    board = random_board(3, rng)
    puzzle = carve_minimal(board, 3, rng)
    assert solutions(puzzle, 3) == [board.tolist()]
    for cell in np.flatnonzero(puzzle):
        fewer = puzzle.copy()
        fewer[cell] = 0
        assert len(solutions(fewer, 3)) == 2


def test_transform_keeps_validity():
    rng = random.Random(1)
    board = random_board(3, rng)
    for _ in range(20):
        other = transform(board, 3, rng).reshape(9, 9)
        for i in range(9):
            assert sorted(other[i]) == list(range(1, 10))
            assert sorted(other[:, i]) == list(range(1, 10))
            r, c = divmod(i, 3)
            assert sorted(other[3 * r:3 * r + 3, 3 * c:3 * c + 3].reshape(-1)) == list(range(1, 10))
