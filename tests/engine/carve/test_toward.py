"""Carving toward a level (engine.carve.toward) and the test it searches with (engine.grade.within_level).

The twins: the number of solutions is counted by the solver (the relaxing never asks), and a puzzle's level is the
full grader's (within_level skips every technique above the level).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.carve import carve_many, orbits, relax_many
from engine.generators import generate_many
from engine.grade import LEVELS, grade_many, within_level
from engine.solvers import fast


@lru_cache(maxsize=None)
def carvings(box: int, count: int, symmetry: str = "none"):
    # the random order: its minimal 16x16 puzzles are all extreme, so every one needs clues back (the "spread"
    # order, the default there, leaves a few that are already hard or expert: 3 of 30 measured)
    boards = np.stack([b.cells for b in generate_many(box, "backtrack", count, 3)])
    return boards, tuple(carve_many(boards, box, list(range(count)), symmetry=symmetry, order="random"))


def rank(level: str) -> int:
    return LEVELS.index(level)


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_16x16_carvings_come_within_the_level_and_stay_unique(level):
    boards, cut = carvings(4, 6)
    before = grade_many(np.stack([c.puzzle for c in cut]), 4)
    assert all(g.level == "extreme" for g in before)  # why big grids need this: minimal puzzles are extreme
    out, grades = relax_many(list(cut), boards, 4, level, range(6), before)
    puzzles = np.stack([c.puzzle for c in out])
    for c0, c, b in zip(cut, out, boards):
        assert ((c.puzzle == c0.puzzle) | (c0.puzzle == 0)).all()  # clues are only added...
        assert ((c.puzzle == 0) | (c.puzzle == b)).all()  # ...from the solution
        assert c.clues == np.count_nonzero(c.puzzle) > c0.clues and not c.minimal
        assert c.checks == c0.checks and c.attempts_used == c0.attempts_used
    assert (fast.count_many(puzzles, 4, 2) == 1).all()
    assert all(rank(g.level) <= rank(level) for g in grades)
    assert [(g.score, g.level) for g in grade_many(puzzles, 4)] == [(g.score, g.level) for g in grades]
    _, stats = fast.metrics_many(puzzles, 4, limit=1)
    assert [c.metrics.nodes for c in out] == stats[:, 0].tolist()
    # levels are narrow: the last-step tries land most puzzles on the level itself, not below it
    assert sum(g.level == level for g in grades) >= 4, [g.level for g in grades]


def test_carvings_within_the_level_are_returned_as_they_are():
    boards, cut = carvings(3, 20)
    grades = grade_many(np.stack([c.puzzle for c in cut]), 3)
    out, again = relax_many(list(cut), boards, 3, "extreme", range(20), grades)
    assert all(a is b for a, b in zip(out, cut)) and [g.score for g in again] == [g.score for g in grades]
    out, again = relax_many(list(cut), boards, 3, "hard", range(20))
    for c0, c, g0, g in zip(cut, out, grades, again):
        if rank(g0.level) <= rank("hard"):
            assert c is c0 and g.score == g0.score
        else:
            assert rank(g.level) <= rank("hard") and not c.minimal


def test_a_symmetric_carving_gets_whole_orbits_back():
    boards, cut = carvings(3, 30, "rot180")
    out, grades = relax_many(list(cut), boards, 3, "easy", range(30))
    table, sizes = orbits(3, "rot180")
    for c in out:
        blank = [c.puzzle[table[o, :sizes[o]]] == 0 for o in range(len(table))]
        assert all(b.all() or not b.any() for b in blank)
    assert all(g.level == "easy" or rank(g.level) < rank("easy") for g in grades)


def test_the_same_seed_puts_the_same_clues_back():
    boards, cut = carvings(4, 3)
    one, _ = relax_many(list(cut), boards, 4, "medium", [5, 6, 7])
    two, _ = relax_many(list(cut), boards, 4, "medium", [5, 6, 7])
    assert all((a.puzzle == b.puzzle).all() for a, b in zip(one, two))


def test_an_unknown_level_is_refused():
    boards, cut = carvings(3, 2)
    with pytest.raises(ValueError, match="unknown level 'tricky'"):
        relax_many(list(cut), boards, 3, "tricky", [1, 2])
    with pytest.raises(ValueError, match="unknown level 'tricky'"):
        within_level(np.stack([c.puzzle for c in cut]), 3, "tricky")


# --- within_level against the full grade ----------------------------------------------------------------------

def mixed_puzzles(box: int, count: int) -> np.ndarray:
    """Minimal carvings and the same with clues put back toward the levels: puzzles of most levels (on 16x16 not
    toward expert, whose search runs chains on every try: seconds, and covered above)."""
    boards, cut = carvings(box, count)
    rows = [c.puzzle for c in cut]
    for level in LEVELS[:-1] if box == 3 else LEVELS[:-2]:
        rows += [c.puzzle for c in relax_many(list(cut), boards, box, level, range(count))[0]]
    return np.stack(rows)


@pytest.mark.parametrize("box, count", [(3, 60), (4, 3)])
@pytest.mark.parametrize("uniqueness", [True, False])
def test_within_level_agrees_with_the_full_grade(box, count, uniqueness):
    puzzles = mixed_puzzles(box, count)
    grades = grade_many(puzzles, box, uniqueness=uniqueness)
    assert len({g.level for g in grades}) >= 3
    for level in LEVELS:
        got = within_level(puzzles, box, level, uniqueness=uniqueness)
        assert got.tolist() == [rank(g.level) <= rank(level) for g in grades], level


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 59), st.lists(st.integers(0, 80), max_size=12), st.sampled_from(LEVELS))
def test_within_level_agrees_on_any_clues_put_back(which, cells, level):
    boards, cut = carvings(3, 60)
    puzzle = cut[which].puzzle.copy()
    puzzle[cells] = boards[which][cells]
    grade = grade_many(puzzle[None, :], 3)[0]
    assert bool(within_level(puzzle[None, :], 3, level)[0]) == (rank(grade.level) <= rank(level))
