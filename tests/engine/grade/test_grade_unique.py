"""The uniqueness techniques: unique loops (rectangles are the 4-cell ones) and BUG.

Hand-checked positions for each type (exact removals or placement, exact rating), each also through its kernel;
a plain BUG test (every blank cell bivalue, every digit twice per house) against the kernel; the kernels against
their Python twins on random states of puzzles with one solution (the only states where these steps are sound);
and ``uniqueness=False`` keeps both rows out of both paths.
"""
from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.carve import carve
from engine.grade import grade, grade_many
from engine.grade.state import State, tables
from engine.grade.techniques import BY_NAME
from engine.vocabulary import UNIQUENESS_TECHNIQUES
from naive.grade import minimal_puzzles
from test_grade_fast import _kernel_step, check_state
from test_grade_techniques import cell, make


def both_paths(find, name: str, state: State, box: int = 3):
    """The Python step, after checking the kernel makes the same change to the candidates."""
    step = find(state.copy())
    cells, cands = state.to_arrays()
    made = _kernel_step(name, cells, cands, box)
    assert (made is not None) == (step is not None)
    if step is not None:
        assert made == (round(step.rating, 2), step.kind), step.explanation
        after = state.copy()
        after.apply(step)
        assert cands.tolist() == after.cands and cells.tolist() == after.cells, step.explanation
    return step


def loop(state: State):
    return both_paths(BY_NAME["unique-loop"].find, "unique-loop", state)


def elims(*pairs) -> tuple:
    return tuple(sorted((cell(nm), d) for nm, d in pairs))


# -- unique rectangles and loops ----------------------------------------------------------------------------------
def test_unique_rectangle_type_1():
    step = loop(make(cands={"r1c1": "12", "r1c4": "12", "r3c1": "12", "r3c4": "125"}))
    assert step.rating == 4.5 and step.eliminations == elims(("r3c4", 1), ("r3c4", 2))
    assert step.name == "unique rectangle type 1"
    assert step.explanation.startswith("unique rectangle type 1 on 1,2 in r1c1, r3c1, r3c4, r1c4: r3c4 must hold")


def test_unique_rectangle_type_2():
    # r2c5, r2c8 are {3,4,7}: one is 7, so 7 leaves the rest of row 2
    state = make(cands={"r1c5": "34", "r1c8": "34", "r2c5": "347", "r2c8": "347"},
                 only={7: ["r2c5", "r2c8", "r2c1", "r2c9", "r5c5", "r6c6"]})
    step = loop(state)
    assert step.rating == 4.5 and "type 2" in step.explanation and step.name == "unique rectangle type 2"
    assert step.eliminations == elims(("r2c1", 7), ("r2c9", 7))


def test_unique_rectangle_type_3_naked_pair():
    # r5c1 {1,2,6} and r5c4 {1,2,8} act as one cell {6,8}; with r5c9 {6,8}: a naked pair in row 5
    state = make(cands={"r4c1": "12", "r4c4": "12", "r5c1": "126", "r5c4": "128", "r5c9": "68"})
    step = loop(state)
    assert step.rating == 4.6 and "type 3" in step.explanation and "naked set 6,8 in row 5" in step.explanation
    assert step.name == "unique rectangle type 3"
    assert step.eliminations == elims(*[(f"r5c{c}", d) for c in (2, 3, 5, 6, 7, 8) for d in (6, 8)])


def test_unique_rectangle_type_3_hidden_pair():
    # r2c2 {3,6,8}, r2c5 {3,6,9}: 3 and 6 have in row 2 (r2c5 aside) only r2c2 and r2c7: r2c7 keeps just 3,6
    state = make(cands={"r1c2": "36", "r1c5": "36", "r2c2": "368", "r2c5": "369", "r2c7": "13567"},
                 only={3: ["r1c2", "r1c5", "r2c2", "r2c5", "r2c7", "r5c1", "r6c9"],
                       6: ["r1c2", "r1c5", "r2c2", "r2c5", "r2c7", "r5c3", "r6c8"]})
    step = loop(state)
    assert step.rating == 4.5 and "type 3" in step.explanation
    assert step.explanation.endswith("3,6 are a hidden set in r2c2, r2c7 of row 2, else two solutions: "
                                     "removes 1,5,7 from r2c7")
    assert step.eliminations == elims(("r2c7", 1), ("r2c7", 5), ("r2c7", 7))


def test_unique_rectangle_type_4():
    # 3 has no other place in row 7 than r7c2, r7c6: one of them is 3, so neither is 9
    state = make(cands={"r8c2": "39", "r8c6": "39", "r7c2": "359", "r7c6": "369"},
                 only={3: ["r7c2", "r7c6", "r8c2", "r8c6", "r1c1", "r9c9"]})
    step = loop(state)
    assert step.rating == 4.5 and "type 4" in step.explanation and step.name == "unique rectangle type 4"
    assert step.eliminations == elims(("r7c2", 9), ("r7c6", 9))


def test_unique_loop_of_six_cells_type_1():
    # {4,5} along row 1, box 2, row 2, box 3, row 3, box 1 (4 nowhere else): r3c1 must hold its 9
    ring = ["r1c1", "r1c4", "r2c4", "r2c7", "r3c7", "r3c1"]
    state = make(cands={"r1c1": "45", "r1c4": "45", "r2c4": "45", "r2c7": "45", "r3c7": "45", "r3c1": "459"},
                 only={4: ring})
    step = loop(state)
    assert step.rating == 4.6 and step.eliminations == elims(("r3c1", 4), ("r3c1", 5))
    assert step.explanation.startswith("unique loop (6 cells) type 1 on 4,5") and step.name == "unique loop type 1"


def test_no_loop_through_a_house_three_times():
    # the cells with {1,2} in one row and one column only: no valid loop
    assert loop(make(cands={"r1c1": "12", "r1c2": "12", "r1c3": "12", "r2c1": "129"})) is None


# -- BUG ----------------------------------------------------------------------------------------------------------
def is_bug(state: State) -> bool:
    """The plain BUG test: every blank cell has two candidates, every digit 0 or 2 places in each house."""
    t = state.t
    if any(state.cells[c] == 0 and state.cands[c].bit_count() != 2 for c in range(t.ncells)):
        return False
    return all(sum(state.cands[c] >> d & 1 for c in house) in (0, 2) for house in t.houses for d in range(t.n))


def bug_plus_one(state: State):
    """The plain BUG+1: the one cell with three candidates, and the digit whose removal leaves a BUG."""
    t = state.t
    wide = [c for c in range(t.ncells) if state.cands[c].bit_count() > 2]
    if len(wide) != 1 or state.cands[wide[0]].bit_count() != 3:
        return None
    keep = []
    for d in range(1, t.n + 1):
        if state.has(wide[0], d):
            s = state.copy()
            s.cands[wide[0]] &= ~(1 << (d - 1))
            if is_bug(s):
                keep.append(d)
    return (wide[0], keep[0]) if len(keep) == 1 else None


def bug_state(extra: dict[str, int]) -> State:
    """4x4, board 1234/3412/2143/4321 with rows 1-2 blank: each blank cell holds its digit and the one of the
    board with rows 1 and 2 swapped (a BUG: every digit twice in each house); ``extra`` adds a digit to cells."""
    board = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    t = tables(2)
    state = State(t, board[:], [0] * 16)
    for c in range(8):
        state.cells[c] = 0
        state.cands[c] = (1 << (board[c] - 1)) | (1 << (board[(c + 4) % 8] - 1))
    for name, d in extra.items():
        state.cands[cell(name, 2)] |= 1 << (d - 1)
    return state


def test_the_plain_bug_test():
    assert is_bug(bug_state({})) and not is_bug(bug_state({"r1c1": 2}))
    assert BY_NAME["bug"].find(bug_state({})) is None  # no BUG cell: nothing to say (the state has two solutions)


def test_bug_plus_one_leaves_the_digit():
    # r1c1 {1,2,3}: 2 has three places in row 1 and box 1, so r1c1 is 2 (else the rest is a BUG): its other
    # candidates go, as Sudoku Explainer's hint does, and a naked single is left for the next step
    state = bug_state({"r1c1": 2})
    step = both_paths(BY_NAME["bug"].find, "bug", state, 2)
    assert (0, 2) == bug_plus_one(state) and step.rating == 5.6 and step.placements == ()
    assert step.eliminations == tuple((0, d) for d in range(1, 5) if d != 2 and state.has(0, d))
    assert step.explanation.startswith("BUG+1: r1c1 must be 2, else no solution or several: removes")
    assert step.name == "BUG+1"


def test_bug_type_2():
    # r1c1 and r1c3 both gain 2: one of them is 2, so 2 leaves their common peers r1c2, r1c4
    step = both_paths(BY_NAME["bug"].find, "bug", bug_state({"r1c1": 2, "r1c3": 2}), 2)
    assert step.rating == 5.7 and step.eliminations == ((1, 2), (3, 2))
    assert step.explanation == "BUG type 2: one of r1c1, r1c3 is 2: removes 2 from r1c2, r1c4"
    assert step.name == "BUG type 2"


@pytest.fixture(scope="module")
def paths_9x9():
    """(puzzle, solution, steps) of the minimal puzzles (one solution each) whose grade uses a uniqueness row."""
    pairs = minimal_puzzles(150, 3, seed=21, carve=carve)
    grades = grade_many(np.array([p for p, _ in pairs]), 3)
    return [(p, b, grade(p, 3).steps) for (p, b), g in zip(pairs, grades)
            if set(g.steps_by_technique) & set(UNIQUENESS_TECHNIQUES)]


def replay(puzzle, steps, box: int = 3):
    """Each state of a solve path with the step taken from it."""
    state = State.from_puzzle(puzzle, box)
    for step in steps:
        yield state, step
        state.apply(step)


def test_bug_plus_one_on_real_puzzles_agrees_with_the_plain_test_and_the_solution(paths_9x9):
    """At every BUG+1 of the solve paths, the kernel leaves what the plain test and the solution say."""
    seen = 0
    for puzzle, board, steps in paths_9x9:
        for state, step in replay(puzzle, steps):
            if step.technique == "bug" and step.explanation.startswith("BUG+1"):
                assert both_paths(BY_NAME["bug"].find, "bug", state) == step
                c, d = bug_plus_one(state)
                after = state.copy()
                after.apply(step)
                assert after.cands[c] == 1 << (d - 1) and board[c] == d
                seen += 1
    assert seen >= 1


# -- the kernels against their Python twins, on states of puzzles with one solution ------------------------------
def test_each_kernel_matches_before_every_uniqueness_step(paths_9x9):
    """Every technique, Python and kernel, on the state before each uniqueness step of the solve paths (one
    solution: the steps must agree with the solution too)."""
    kinds = set()
    for puzzle, board, steps in paths_9x9:
        for state, step in replay(puzzle, steps):
            if step.technique in UNIQUENESS_TECHNIQUES:
                check_state(state, board, 3, one_solution=True)
                kinds.add((step.technique, step.explanation.split(" type ")[1][0] if " type " in step.explanation
                           else "+1"))
    assert len(paths_9x9) >= 10 and len(kinds) >= 4, kinds


@settings(max_examples=30, deadline=None)
@given(pick=st.integers(0, 2 ** 32 - 1), thin=st.floats(0.0, 0.4))
def test_each_kernel_matches_on_states_with_one_solution_9x9(paths_9x9, pick, thin):
    """A random state of a solve path, with candidates other than the solution's dropped at random: still one
    solution, and more bivalue cells."""
    rng = random.Random(pick)
    puzzle, board, steps = paths_9x9[rng.randrange(len(paths_9x9))]
    state = State.from_puzzle(puzzle, 3)
    for step in steps[:rng.randrange(len(steps))]:
        state.apply(step)
    for c in range(board.size):
        for d in range(1, 10):
            if d != board[c] and state.has(c, d) and rng.random() < thin:
                state.cands[c] &= ~(1 << (d - 1))
    check_state(state, board, 3, one_solution=True)


@pytest.mark.slow
def test_each_kernel_matches_before_uniqueness_steps_16x16():
    pairs = minimal_puzzles(20, 4, seed=3, carve=carve)
    grades = grade_many(np.array([p for p, _ in pairs]), 4)
    used = 0
    for (puzzle, board), g in zip(pairs, grades):
        if "unique-loop" not in g.steps_by_technique:
            continue
        for state, step in replay(puzzle, grade(puzzle, 4).steps, 4):
            if step.technique in UNIQUENESS_TECHNIQUES:
                check_state(state, board, 4, one_solution=True)
                used += 1
        break  # one 16x16 puzzle's explained path is enough (each takes seconds)
    assert used >= 1


# -- without uniqueness -------------------------------------------------------------------------------------------
def test_grade_without_uniqueness_never_uses_them():
    puzzles = np.array([p for p, _ in minimal_puzzles(40, 3, seed=21, carve=carve)])
    used = 0
    for puzzle, fast in zip(puzzles, grade_many(puzzles, 3, uniqueness=False)):
        slow = grade(puzzle, 3, uniqueness=False, guided=False)
        for g in (slow, fast):
            assert not set(g.steps_by_technique) & set(UNIQUENESS_TECHNIQUES)
        assert all(s.technique not in UNIQUENESS_TECHNIQUES for s in slow.steps)
        assert (fast.score, fast.steps_by_technique) == (slow.score, slow.steps_by_technique)
        used += bool(set(grade(puzzle, 3).steps_by_technique) & set(UNIQUENESS_TECHNIQUES))
    assert used >= 1  # with uniqueness some of them do use these rows
