"""Grading on every shape: the compiled path and the plain step path agree, every step is sound."""
import os
from pathlib import Path

import numpy as np
import pytest

from engine.carve.carver import carve_many
from engine.formats import from_line
from engine.generators import generate_many
from engine.geometry import geometry
from engine.grade.grader import grade, grade_many, next_step, within_level
from engine.grade.kernels.locked import box_line_side
from engine.grade.kernels.state import grader_units
from engine.regions import random_layout
from engine.shape import Shape

GRADED = [Shape.boxes(2, 3), Shape.boxes(3, 2), Shape.boxes(2, 4), Shape.boxes(2, 5), random_layout(6, 5),
          random_layout(8, 3), random_layout(9, 5), Shape.latin(4), Shape.latin(5), Shape.latin(7), Shape.latin(9),
          Shape.boxes(2, 3, True), Shape.boxes(2, 4, True), Shape.latin(5, True), Shape.latin(7, True)]
# (9x9 X: its steps below, the plain path takes minutes there)
ROOT = Path(__file__).resolve().parents[3]


def _puzzles(shape, count, seed=9):
    boards = np.array([b.cells for b in generate_many(shape, "wfc", count, seed)])
    return boards, np.array([r.puzzle for r in carve_many(boards, shape, list(range(count)))])


@pytest.mark.parametrize("shape", GRADED, ids=str)
def test_the_compiled_grader_makes_the_steps_of_the_plain_step_path(shape):
    # the plain path takes seconds a puzzle on an 8x8 or 9x9 jigsaw or Latin square: their carved puzzles mostly
    # need chains
    boards, puzzles = _puzzles(shape, 2 if (shape.kind != "boxes" or shape.diagonals) and shape.size > 6 else 8)
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
        units = [g.row_of == i for i in range(g.size)] + [g.col_of == i for i in range(g.size)]
        if shape.diagonals:
            units += [g.row_of == g.col_of, g.row_of + g.col_of == g.size - 1]
        want = max(int(np.sum((g.box_of == b) & unit)) for b in range(g.size) for unit in units)
        want = want if shape.has_regions else 0  # a Latin square: no locked candidates to skip by
        assert box_line_side(g.houses, grader_units(g), g.size) == want
    g = geometry(Shape.boxes(2, 5))
    assert box_line_side(g.houses, grader_units(g), 10) == 5


def test_the_grader_units_of_a_latin_square_repeat_the_row_in_the_region_slot():
    g = geometry(Shape.latin(5))
    units = grader_units(g)
    assert units.shape == (25, 3)
    assert (units[:, 0] == g.row_of).all() and (units[:, 1] == 5 + g.col_of).all()
    assert (units[:, 2] == units[:, 0]).all()
    square = geometry(3)
    assert (grader_units(square) == square.cell_houses).all()


def _serate_latin():
    lines = (ROOT / "bench" / "latin9-serate.tsv").read_text().splitlines()
    rows = [line.split("\t") for line in lines if line and not line.startswith("#")]
    puzzles = np.array([[0 if ch == "." else int(ch) for ch in r[0]] for r in rows], np.int8)
    return puzzles, [tuple(float(x) for x in r[1:4]) for r in rows]


def test_latin_squares_get_serates_ratings():
    # 400 minimal puzzles on 9x9 Latin squares, rated by serate with its Latin-square switch (no boxes): singles,
    # subsets, wings, unique rectangles, BUG, cycles and forcing chains up to nested ones (ER 1.5 to 9.0)
    puzzles, ratings = _serate_latin()
    assert len(puzzles) == 400
    graded = grade_many(puzzles, Shape.latin(9))
    assert [(g.er, g.ep, g.ed) for g in graded] == ratings
    assert max(r[0] for r in ratings) >= 9.0 and {4.5, 5.6} <= {r[0] for r in ratings}


def test_a_latin_square_has_no_locked_candidates_and_its_steps_name_rows_and_columns():
    puzzles, ratings = _serate_latin()
    shape = Shape.latin(9)
    some = [p for p, r in zip(puzzles, ratings) if 3.0 <= r[0] <= 4.5][:6]
    steps = [s for p in some for s in grade(p, shape).steps]
    assert steps and not any("box" in s.explanation or "region" in s.explanation for s in steps)
    assert not any(s.technique in ("pointing", "claiming", "direct-pointing", "direct-claiming") for s in steps)


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


def test_the_grader_units_of_x_sudoku_hold_the_diagonals_or_the_row():
    g = geometry(Shape.square(3, True))
    units = grader_units(g)
    assert units.shape == (81, 5)
    assert tuple(units[0]) == (0, 9, 18, 27, 0) and tuple(units[8]) == (0, 17, 20, 0, 28)
    assert tuple(units[40]) == (4, 13, 22, 27, 28)  # the centre: both diagonals


def test_x_sudoku_steps_use_the_diagonals():
    """On X puzzles the diagonals are houses to every technique: some steps name one, locked candidates among
    them (a box and a diagonal share three cells), and each step is sound (the plain path's test above)."""
    shape = Shape.square(3, True)
    boards, puzzles = _puzzles(shape, 8, seed=3)
    steps = [s for p in puzzles for s in grade(p, shape).steps]
    on_diagonal = [s for s in steps if any(h >= 27 for h in s.houses)]
    assert on_diagonal and any("diagonal" in s.explanation for s in on_diagonal)
    assert {s.technique for s in on_diagonal} > {"hidden-single"}
    singles = [s for s in on_diagonal if s.technique == "hidden-single" and s.houses[0] >= 27 and s.kind == 0]
    assert singles and all(s.rating == 1.5 for s in singles)  # as in a row or column (not a full house, 1.0)



@pytest.mark.slow
def test_the_compiled_grader_stays_inside_its_tables_on_latin_squares_and_diagonals():
    """The kernels run as plain Python (NUMBA_DISABLE_JIT=1), where numpy refuses an index out of bounds: the
    compiled code does not check (boundscheck off), and read past the places table on Latin squares (direct
    locking looked at the boxes they lack) and wrote past a walk's four closing states on X shapes (a cell on a
    diagonal has up to six strong links). Both puzzles reached those lines; their ratings are the step path's."""
    import subprocess
    import sys

    script = ("from engine.formats import from_line; from engine.grade import grade_many; from engine.shape import "
              "Shape\n"
              "for line, spec in ((" + repr(LATIN10) + ", 'latin10'), (" + repr(X6) + ", '2x3+x')):\n"
              "    shape = Shape.parse(spec)\n"
              "    print(grade_many(from_line(line, shape)[None], shape)[0].er)\n")
    out = subprocess.run([sys.executable, "-c", script], env=dict(os.environ, NUMBA_DISABLE_JIT="1"),
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["3.2", "7.1"]
    assert grade(np.array(from_line(X6, Shape.boxes(2, 3, True)), np.int8), Shape.boxes(2, 3, True)).er == 7.1


#: puzzles whose grading reached the lines above (found with NUMBA_BOUNDSCHECK=1)
LATIN10 = ".9....46....4.A.........5.8.3..38A.2..6.2A...1..53...76A3.85A.75...2.4...3..65277...2...49.7...9A..6"
X6 = ".............5....34.....6......1..."
