"""Grading on every shape with regions: the compiled path and the plain step path agree, every step is sound."""
import re

import numpy as np
import pytest

from engine.carve.carver import carve_many
from engine.generators import generate_many
from engine.geometry import geometry
from engine.grade.grader import grade, grade_many, next_step, within_level
from engine.grade.kernels.locked import box_line_side
from engine.regions import random_layout
from engine.shape import Shape

GRADED = [Shape.boxes(2, 3), Shape.boxes(3, 2), Shape.boxes(2, 4), Shape.boxes(2, 5), random_layout(6, 5),
          random_layout(8, 3), random_layout(9, 5)]


def _puzzles(shape, count, seed=9):
    boards = np.array([b.cells for b in generate_many(shape, "wfc", count, seed)])
    return boards, np.array([r.puzzle for r in carve_many(boards, shape, list(range(count)))])


@pytest.mark.parametrize("shape", GRADED, ids=str)
def test_the_compiled_grader_makes_the_steps_of_the_plain_step_path(shape):
    # the plain path takes seconds a puzzle on an 8x8 or 9x9 jigsaw: their carved puzzles mostly need chains
    boards, puzzles = _puzzles(shape, 2 if shape.kind == "jigsaw" and shape.size > 6 else 8)
    fast = grade_many(puzzles, shape)
    for board, puzzle, f in zip(boards, puzzles, fast):
        slow = grade(puzzle, shape, guided=False)  # every finder asked in turn: the readable twin
        assert (slow.score, slow.ep, slow.ed, slow.hardest) == (f.score, f.ep, f.ed, f.hardest)
        assert slow.steps_by_technique == f.steps_by_technique and slow.solved == f.solved
        for step in slow.steps:  # sound: nothing the board holds is removed, nothing it does not is placed
            assert all(board[c] == d for c, d in step.placements), step.explanation
            assert all(board[c] != d for c, d in step.eliminations), step.explanation


def test_a_twelve_by_twelve_grade_agrees_with_its_guided_steps():
    shape = Shape.boxes(3, 4)
    boards, puzzles = _puzzles(shape, 2, 4)
    for board, puzzle, f in zip(boards, puzzles, grade_many(puzzles, shape)):
        slow = grade(puzzle, shape)  # guided: the compiled path names each step, its finder makes it
        assert (slow.score, slow.steps_by_technique) == (f.score, f.steps_by_technique)
        assert all(board[c] == d for s in slow.steps for c, d in s.placements)


def test_the_most_cells_a_region_and_a_line_share():
    for shape in GRADED + [Shape.square(3), Shape.boxes(3, 4)]:
        g = geometry(shape)
        want = max(int(np.sum((g.box_of == b) & (line == i)))
                   for b in range(g.size) for line in (g.row_of, g.col_of) for i in range(g.size))
        assert box_line_side(g.row_of, g.col_of, g.box_of, g.size) == want
    assert box_line_side(*(getattr(geometry(Shape.boxes(2, 5)), a) for a in ("row_of", "col_of", "box_of")), 10) == 5


def test_steps_on_a_jigsaw_name_regions_and_a_hint_is_the_first_step():
    shape = random_layout(6, 5)
    _, puzzles = _puzzles(shape, 6)
    words = " ".join(s.explanation for p in puzzles for s in grade(p, shape).steps)
    assert "region" in words and "box" not in words
    step = next_step(puzzles[0], shape)
    assert step == grade(puzzles[0], shape).steps[0]


def test_within_level_agrees_with_the_grade_on_a_shape():
    shape = Shape.boxes(2, 4)
    _, puzzles = _puzzles(shape, 12)
    scores = [g.score for g in grade_many(puzzles, shape)]
    assert within_level(puzzles, shape, "easy").tolist() == [s <= 2.0 + 1e-9 for s in scores]


@pytest.mark.parametrize("shape", [Shape.latin(5), Shape.boxes(2, 3, True), Shape.square(3, True)], ids=str)
def test_shapes_the_grader_does_not_know_are_refused_by_name(shape):
    with pytest.raises(ValueError, match=re.escape(f"shape {shape.name} (") + ".*cannot be graded yet"):
        grade_many(np.zeros((1, shape.size ** 2), np.int8), shape)
