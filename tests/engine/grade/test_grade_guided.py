"""The guided step path (engine.grade.guided) against the plain one: the kernel names each step's row, only that
row's Python finder runs, and the steps, explanations and grades are exactly those of asking every row in turn.

The plain path (``guided=False``, :func:`solve_logically`) stays the slow twin the compiled path is held to in
test_grade_fast.py; here the guided one is held to the plain one: on random candidate states (every row's first
deduction), along whole grades of every size, and for hints.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.carve import carve
from engine.formats import from_line
from engine.grade import REGISTRY, State, grade, next_step, solve_logically
from engine.grade.grader import techniques_for
from engine.grade.guided import _first_step, first_step, in_table_order, plain_first_step
from engine.grade.techniques import INDEX
from naive.grade import minimal_puzzles, random_board

from test_grade_fast import count_solutions, random_state

# top1465 puzzles whose hardest steps are a multiple forcing chain (8.3) and a dynamic one (9.0)
MULTIPLE = "......41.9..3.....3...5.....48..7..........52.1.......6..2....5.7....8......9...."
DYNAMIC = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
SINGLES_ONLY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def _dicts(steps):
    return [s.as_dict() for s in steps]


def _same_grades(puzzle, box, **kw):
    guided, plain = grade(puzzle, box, **kw), grade(puzzle, box, guided=False, **kw)
    assert guided == plain
    assert _dicts(guided.steps) == _dicts(plain.steps)
    return plain


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), blanks=st.floats(0.45, 0.8), thin=st.floats(0.0, 0.6),
       box=st.sampled_from([2, 3, 3, 3]))
def test_the_first_step_is_the_plain_paths_on_random_states(seed, blanks, thin, box):
    """On a state full of patterns, the rows from each row on up to the multiple forcing chains (so every row gets
    to be the first that could make the step): the row the kernel names finds the very step the plain path's
    row-by-row search finds first. The uniqueness rows only where the candidates admit one solution, as the
    grader only meets them there."""
    state, _ = random_state(box, random.Random(seed), blanks, thin)
    rows = techniques_for(box, uniqueness=count_solutions(state) == 1)
    rows = rows[:[t.name for t in rows].index("multiple-forcing-chains") + 1]
    for k in range(len(rows)):
        guided, plain = first_step(state.copy(), rows[k:]), plain_first_step(state.copy(), rows[k:])
        assert (guided and guided.as_dict()) == (plain and plain.as_dict()), rows[k].name


@pytest.mark.slow
def test_whole_grades_of_minimal_9x9_puzzles_are_the_plain_paths():
    for puzzle, _ in minimal_puzzles(60, 3, seed=5, carve=carve):
        _same_grades(puzzle, 3)
        _same_grades(puzzle, 3, uniqueness=False)


@pytest.mark.slow
@pytest.mark.parametrize("line", [MULTIPLE, DYNAMIC])
def test_whole_grades_of_hard_puzzles_are_the_plain_paths(line):
    g = _same_grades(from_line(line), 3)
    assert g.technique in ("multiple-forcing-chains", "dynamic-forcing-chains") and g.solved


@pytest.mark.parametrize("box,blanks,count", [(2, 0.7, 20), (3, 0.6, 10)])
def test_puzzles_with_many_solutions_are_graded_alike(box, blanks, count):
    """Stuck positions (no row makes a step) and the grade without uniqueness that a puzzle with several solutions
    falls back to."""
    rng = random.Random(box)
    for _ in range(count):
        board = random_board(box, rng)
        board[rng.sample(range(board.size), int(board.size * blanks))] = 0
        _same_grades(board, box, uniqueness=False)
        _same_grades(board, box)


@pytest.mark.slow
def test_a_minimal_16x16_puzzle_is_graded_alike():
    (puzzle, _), = minimal_puzzles(1, 4, seed=3, carve=carve)  # needs Nishio (test_grade_chains.py)
    assert _same_grades(puzzle, 4).hardest == "Nishio forcing chains"


def test_hints_are_the_plain_paths_from_every_position():
    puzzle = from_line(MULTIPLE)
    state = State.from_puzzle(puzzle, 3)
    steps, solved = solve_logically(state.copy(), techniques_for(3))
    assert solved
    replay = State.from_puzzle(puzzle, 3)
    for i, step in enumerate(steps):
        if i % 7 == 0:  # every seventh position: the plain path's hints take a second in all
            # a hint starts from the digits alone (a fresh state), as both paths' do
            guided, plain = next_step(replay.cells, 3), next_step(replay.cells, 3, guided=False)
            assert guided is not None and guided.as_dict() == plain.as_dict()
        replay.apply(step)
    assert next_step(replay.cells, 3) is None  # a full grid has no next step


def test_lists_the_kernel_cannot_stand_in_for_take_the_plain_path():
    """A list out of the table's order (or with a row of one's own) is tried as given, row by row."""
    puzzle = from_line(SINGLES_ONLY)
    reordered = (REGISTRY[INDEX["naked-single"]], REGISTRY[INDEX["hidden-single"]])
    assert in_table_order(REGISTRY) and in_table_order(reordered[::-1]) and not in_table_order(reordered)
    guided = solve_logically(State.from_puzzle(puzzle, 3), reordered, guided=True)
    plain = solve_logically(State.from_puzzle(puzzle, 3), reordered)
    assert _dicts(guided[0]) == _dicts(plain[0]) and guided[1] == plain[1]
    assert guided[0][0].technique == "naked-single"  # the list's order, not the table's


def test_a_row_the_kernel_names_wrongly_falls_back_to_the_plain_search(monkeypatch):
    """Were the twins ever to disagree, the step is still the plain path's: the first row that finds one (and the
    tests, which set STRICT, fail instead)."""
    from engine.grade import guided

    state = State.from_puzzle(from_line(SINGLES_ONLY), 3)
    rows = techniques_for(3)
    wrong = next(t.name for t in rows if t.find(state.copy()) is None)  # a row without a step here
    assert guided.STRICT  # set by tests/conftest.py
    with pytest.raises(AssertionError, match=wrong):
        _first_step(state, rows, INDEX[wrong])
    monkeypatch.setattr(guided, "STRICT", False)
    step = _first_step(state, rows, INDEX[wrong])
    assert step is not None and step.as_dict() == plain_first_step(state, rows).as_dict()
