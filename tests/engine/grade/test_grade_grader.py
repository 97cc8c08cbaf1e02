"""The grader as a whole: levels, scores, guessing, bad puzzles, the correctness guard and symmetry invariance."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.formats import from_line
from engine.grade import (GUESSING, GUESSING_RATING, LEVELS, RATINGS, REGISTRY, TECHNIQUES, Contradiction, State,
                          grade, grade_many, level_of, solve_logically)
from engine.vocabulary import TECHNIQUE_OF
from engine.grid import Grid

from engine.carve import carve
from naive.grade import minimal_puzzles, random_board, transform

SINGLES_ONLY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
NEEDS_POINTING = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
#: the techniques of the easy level (up to 2.3): singles and the direct techniques rated below a naked single
EASY = {"hidden-single", "direct-pointing", "direct-claiming", "direct-hidden-pair", "naked-single"}
EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
SEVERAL = "." + EASTER_MONSTER[1:]


@pytest.fixture(scope="module")
def pool():
    """(puzzle, solution) pairs: random minimal 9x9 puzzles."""
    return minimal_puzzles(40, 3, seed=2024, carve=carve)


def test_singles_only_is_easy():
    g = grade(from_line(SINGLES_ONLY), 3)
    assert (g.level, g.score, g.hardest, g.solved, g.needs_guessing) == ("easy", 1.2, "hidden single", True, False)
    assert g.technique == "hidden-single"
    assert g.steps_by_technique == {"hidden-single": 49}
    assert g.steps[0].explanation == "r2c2: hidden single 6 in box 1"


#: the rating of each step Sudoku Explainer's serate makes on NEEDS_POINTING (SukakuExplainer, classic 1.2.1
#: rules, ``--after='%r'``): full houses 1.0, hidden singles 1.2 (box) and 1.5, direct hidden pairs 2.0, naked
#: singles 2.3, pointing 2.6
SERATE_STEPS = ("1.2 1.2 1.2 2.6 2.6 2.6 2.3 2.6 2.6 1.5 1.5 1.5 1.5 1.0 1.2 1.2 1.5 1.5 2.0 2.3 1.2 1.2 1.5 1.2 1.2 "
                "1.2 1.2 1.2 1.2 1.5 2.0 1.2 1.2 1.2 1.2 1.5 1.2 1.2 1.0 1.0 1.2 1.0 1.0 1.2 1.2 1.0 1.2 1.2 1.2 1.2 "
                "1.2 1.0 1.2 1.2 1.2 1.0 1.0 1.0 1.0 1.0 1.0 1.2 1.0 1.0 1.0 1.2 1.0 1.0 1.0")


def test_steps_a_person_can_follow():
    g = grade(from_line(NEEDS_POINTING), 3)
    assert (g.level, g.score, g.hardest) == ("medium", 2.6, "pointing")
    # step for step the path Sudoku Explainer takes: the same techniques in the same order (its search orders,
    # full houses first, direct techniques that only place their single)
    assert " ".join(f"{s.rating:.1f}" for s in g.steps) == SERATE_STEPS
    assert g.steps_by_technique == {"hidden-single": 60, "direct-hidden-pair": 2, "naked-single": 2, "pointing": 5}
    texts = [s.explanation for s in g.steps]
    assert texts[0] == "r6c2: hidden single 4 in box 4"
    assert texts[3] == "pointing 2 in box 5 (r5c6, r6c6) along column 6: removes 2 from r1c6, r2c6, r3c6"
    assert texts[13] == "r1c2: full house 1 in row 1"
    assert texts[18] == ("direct hidden pair 2,6 in r5c6, r6c6 (box 5) leaves r4c6 as the only place for 7 in box 5: "
                         "places 7 in r4c6")


def test_a_puzzle_that_needs_guessing():
    """Easter Monster without its first clue has several solutions: no technique finishes it, and the nested
    forcing chains (seconds to minutes a step) are not even tried, in either path."""
    g = grade(from_line(SEVERAL), 3, guided=False)
    assert (g.level, g.score, g.hardest, g.needs_guessing, g.solved) == ("extreme", GUESSING_RATING, GUESSING,
                                                                         True, False)
    assert grade_many(from_line(SEVERAL)[None], 3)[0] == g == grade(from_line(SEVERAL), 3)


def test_several_solutions_get_stuck_like_guessing():
    g = grade(np.zeros(16, dtype=np.int8), 2)
    assert g.needs_guessing and g.steps_by_technique == {} and g.hardest == GUESSING


def test_conflicting_clues_are_refused():
    with pytest.raises(Contradiction, match="clues conflict: r1c1 and r1c2 both hold 1"):
        grade(from_line("11" + "." * 14), 2)
    with pytest.raises(ValueError, match="puzzle 1: clues conflict"):
        grade_many(np.array([from_line("1" + "." * 15), from_line("11" + "." * 14)]), 2)


def test_a_puzzle_without_solution_is_refused():
    no_solution = from_line("12......" + "..3...4.")  # r1c3 can be neither 3 nor 4
    with pytest.raises(Contradiction, match="no solution"):
        grade(no_solution, 2)
    with pytest.raises(Contradiction, match="puzzle 0: the puzzle has no solution"):
        grade_many(no_solution[None], 2)


@pytest.mark.parametrize("score,level", [(1.2, "easy"), (1.5, "easy"), (2.3, "easy"), (2.6, "medium"),
                                         (3.0, "medium"), (3.2, "hard"), (4.4, "hard"), (5.0, "expert"),
                                         (7.0, "expert"), (7.5, "expert"), (GUESSING_RATING, "extreme")])
def test_level_thresholds(score, level):
    assert level_of(score) == level
    assert level_of(score, needs_guessing=True) == "extreme"


def test_ratings_and_order():
    assert TECHNIQUES[:8] == ("hidden-single", "direct-pointing", "direct-claiming", "direct-hidden-pair", "naked-single",
                              "direct-hidden-triple", "pointing", "claiming")
    assert TECHNIQUES[-7:] == ("chains-and-cycles", "aligned-triple-exclusion", "nishio", "multiple-forcing-chains",
                               "dynamic-forcing-chains", "dynamic-forcing-chains-plus",
                               "nested-forcing-chains")  # Sudoku Explainer's order
    assert {"x-wing", "swordfish", "jellyfish", "xy-wing", "xyz-wing", "unique-loop", "bug"} <= set(TECHNIQUES)
    assert list(RATINGS.values()) == sorted(RATINGS.values())
    assert RATINGS["naked-single"] == 2.3 and RATINGS["x-wing"] == 3.2 and RATINGS["xyz-wing"] == 4.4
    assert max(RATINGS.values()) < GUESSING_RATING
    assert LEVELS == ("easy", "medium", "hard", "expert", "extreme")


@pytest.mark.slow
def test_grades_are_consistent(pool):
    for puzzle, _ in pool:
        g = grade(puzzle, 3)
        assert g.level == level_of(g.score, g.needs_guessing)
        assert g.step_count == len(g.steps) and set(g.steps_by_technique) <= set(TECHNIQUES)
        if g.solved:
            assert g.score == max(s.rating for s in g.steps)
            assert (g.level == "easy") == (set(g.steps_by_technique) <= EASY)


def test_every_deduction_agrees_with_the_solution(pool):
    """The correctness guard: placements match the unique solution, eliminations never remove its digit."""
    solved = 0
    for puzzle, board in pool:
        solution = board.tolist()
        state = State.from_puzzle(puzzle, 3)
        g = grade(puzzle, 3)
        for step in g.steps:
            for c, d in step.placements:
                assert solution[c] == d, (step.explanation, "".join(map(str, puzzle)))
            for c, d in step.eliminations:
                assert solution[c] != d, (step.explanation, "".join(map(str, puzzle)))
            state.apply(step)
            assert all(state.cands[c] >> (solution[c] - 1) & 1 for c in range(81) if not state.cells[c])
        if g.solved:
            solved += 1
            assert state.cells == solution
    assert solved >= len(pool) // 2


def test_the_hardest_technique_is_needed(pool):
    """Without the hardest technique (and those after it) the puzzle gets stuck: nothing easier would do."""
    checked = 0
    for puzzle, _ in pool:
        g = grade(puzzle, 3, explain=False)
        if g.needs_guessing or g.technique in ("hidden-single", "none"):
            continue
        assert TECHNIQUE_OF[g.hardest] == g.technique
        easier = REGISTRY[:TECHNIQUES.index(g.technique)]
        _, solved = solve_logically(State.from_puzzle(puzzle, 3), easier)
        assert not solved, g.hardest
        checked += 1
    assert checked >= 10


@settings(max_examples=30, deadline=None)
@given(index=st.integers(0, 39), seed=st.integers(0, 2 ** 32 - 1))
def test_grade_is_invariant_under_symmetries(pool, index, seed):
    """Rotations, reflections, transposition, band/stack/row/column moves and relabelled digits keep the grade
    (level, score, the hardest step's technique, guessing). Step counts per technique can differ: when several
    deductions are available, which comes first depends on where they sit; so can the hardest step's own name
    between two steps of one technique rated alike (a bidirectional cycle and a forcing chain, both 7.0): the
    first found names it, as in Sudoku Explainer."""
    puzzle = pool[index][0]
    other = transform(puzzle, 3, random.Random(seed))
    a, b = grade_many(np.array([puzzle, other]), 3)
    assert (a.level, a.score, a.technique, a.needs_guessing, a.solved) == \
           (b.level, b.score, b.technique, b.needs_guessing, b.solved)


def test_as_dict_is_json():
    g = grade(from_line(NEEDS_POINTING), 3)
    d = json.loads(json.dumps(g.as_dict()))
    assert d == {"level": "medium", "score": 2.6, "ep": 1.2, "ed": 1.2, "hardest": "pointing", "needs_guessing": False,
                 "solved": True, "technique": "pointing",
                 "techniques": {"hidden-single": 60, "direct-hidden-pair": 2, "naked-single": 2, "pointing": 5}}
    assert json.loads(json.dumps(g.steps[0].as_dict()))["explanation"] == g.steps[0].explanation


@pytest.mark.parametrize("box,blanks", [(2, 0.7), (4, 0.5), (5, 0.4)])
def test_other_sizes(box, blanks):
    rng = random.Random(box)
    board = random_board(box, rng)
    puzzle = board.copy()
    puzzle[rng.sample(range(board.size), int(board.size * blanks))] = 0
    # several solutions: the uniqueness techniques would not be sound. The plain step path (every technique's
    # Python finder in turn), the twin of the compiled one
    g = grade(puzzle, box, uniqueness=False, guided=False)
    assert g.steps and g.steps_by_technique
    for step in g.steps:  # sound deductions hold in every solution, the board among them
        assert all(board[c] == d for c, d in step.placements)
        assert all(board[c] != d for c, d in step.eliminations)
    assert grade_many(puzzle[None], box, uniqueness=False)[0] == g
    guided = grade(puzzle, box, uniqueness=False)  # and the guided step path makes the same steps
    assert [s.as_dict() for s in guided.steps] == [s.as_dict() for s in g.steps]


def test_names_on_16x16_count_from_1_and_digits_are_the_grids_symbols():
    """Rows, columns and boxes are numbered from 1 (r16c3, box 11); a digit is written as the grid writes it
    (12 is C, as the line format and the page show it), never as a number of two figures."""
    import re

    board = random_board(4, random.Random(7))
    puzzle = board.copy()
    puzzle[np.arange(0, 256, 3)] = 0
    text = " ".join(s.explanation for s in grade(puzzle, 4).steps)
    assert "r16c" in text or "c16" in text
    digits = re.findall(r"(?:single|house) (\S+) in", text)
    assert digits and all(len(d) == 1 for d in digits) and set(digits) & set("ABCDEFG")


def test_input_checks():
    g = grade(Grid.puzzle(from_line(SINGLES_ONLY)))
    assert g.level == "easy"
    with pytest.raises(ValueError, match="81 cells"):
        grade(np.zeros(80, dtype=np.int8), 3)
    with pytest.raises(ValueError, match="digits of a 4x4"):
        grade_many(np.full((1, 16), 5), 2)
    with pytest.raises(ValueError, match="2-d array"):
        grade_many(np.zeros(16), 2)
    assert grade(from_line("1234341221434321"), 2).hardest == "none"


def test_next_step_is_the_step_the_grader_takes_from_every_position(pool):
    """A hint is the grader's next step: replaying the recorded steps, next_step gives each one in turn."""
    from engine.grade import next_step

    for puzzle, solution in pool[:8]:
        g = grade(puzzle, 3)
        cells = puzzle.copy()
        for recorded in g.steps:
            hint = next_step(cells, 3)
            assert hint is not None and hint.as_dict() == recorded.as_dict()
            for cell, digit in hint.placements:
                assert solution[cell] == digit
                cells[cell] = digit
            if recorded.eliminations:  # an elimination changes candidates, not digits: stop where the grid can't say
                break
    assert next_step(from_line(EASTER_MONSTER), 3) is None  # no technique we have helps: it needs guessing
    full = pool[0][1]
    assert next_step(full, 3) is None
    clash = from_line(SINGLES_ONLY)
    clash[0] = 3  # r1c1 = 3 while r1c3 holds 3
    with pytest.raises(Contradiction):
        next_step(clash, 3)


def test_a_puzzle_left_for_later_is_graded_by_its_call_as_without_later():
    """grade_many(later=True) leaves each puzzle the compiled path leaves stuck as a Later, its solutions counted
    by the call: one with a solution gets the nested chains' grade, one with several the stuck grade (needing
    guessing), each what grade_many without ``later`` gives."""
    from pathlib import Path

    from engine.grade import Later, grade_many
    from engine.solvers.fast import count_many

    sample = Path(__file__).resolve().parents[3] / "bench" / "hardest-sample.tsv"
    lines = [line.split("\t")[0] for line in sample.read_text().splitlines()
             if line.strip() and not line.startswith(("#", "puzzle"))]
    one = from_line(lines[7], 3)  # (ER 10.9: the nested rows' quickest of the sample)
    several = one.copy()
    several[np.flatnonzero(several)[:3]] = 0
    assert count_many(one.reshape(1, -1), 3, 2)[0] == 1 and count_many(several.reshape(1, -1), 3, 2)[0] == 2
    for puzzle, worth in ((one, True), (several, False)):
        later = grade_many(puzzle.reshape(1, -1), 3, later=True)[0]
        assert isinstance(later, Later) and later.worth_nesting() == worth
        got, want = later(), grade_many(puzzle.reshape(1, -1), 3)[0]
        assert (got.score, got.ep, got.ed, got.level, got.hardest) == (want.score, want.ep, want.ed, want.level,
                                                                        want.hardest)
        assert got.needs_guessing != worth
