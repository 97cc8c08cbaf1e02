"""`minimal_many`: whether unique puzzles are minimal, against a count of solutions for every clue taken out."""
from __future__ import annotations

import numpy as np
import pytest

from engine.carve import carve_many, minimal_many
from engine.generators import generate_many
from engine.solvers.fast import count_many


def twin(puzzle: np.ndarray, box: int) -> bool:
    """Minimal: every puzzle with one clue taken out has 2 solutions or more (one count per clue)."""
    clues = np.flatnonzero(puzzle)
    without = np.repeat(puzzle[None, :], len(clues), axis=0)
    without[np.arange(len(clues)), clues] = 0
    return bool((count_many(without, box, 2) >= 2).all())


@pytest.mark.parametrize("box, count", [(2, 30), (3, 40), (4, 3)])
def test_carved_puzzles_are_minimal_and_one_clue_more_is_not(box, count):
    boards = np.stack([b.cells for b in generate_many(box, "backtrack", count, 11)])
    puzzles = np.stack([r.puzzle for r in carve_many(boards, box, list(range(count)))])
    minimal, checks, undecided = minimal_many(puzzles, boards, box)
    assert minimal.all() and (undecided == 0).all()
    assert (checks == (puzzles != 0).sum(axis=1)).all()  # every clue tested
    more = puzzles.copy()
    for i in range(count):
        blank = np.flatnonzero(more[i] == 0)[i % 3]
        more[i, blank] = boards[i, blank]
    minimal, _, _ = minimal_many(more, boards, box)
    assert not minimal.any()
    assert [twin(p, box) for p in more] == list(minimal)


def test_symmetric_carvings_agree_with_the_twin():
    boards = np.stack([b.cells for b in generate_many(3, "backtrack", 30, 5)])
    puzzles = np.stack([r.puzzle for r in carve_many(boards, 3, list(range(30)), symmetry="rot90")])
    minimal, _, _ = minimal_many(puzzles, boards, 3)
    assert list(minimal) == [twin(p, 3) for p in puzzles]


def test_inputs_are_checked():
    boards = np.stack([b.cells for b in generate_many(2, "backtrack", 2, 1)])
    with pytest.raises(ValueError, match="one solution per puzzle"):
        minimal_many(boards, boards[:1], 2)
    wrong = boards.copy()
    wrong[0, 0] = wrong[0, 0] % 4 + 1
    with pytest.raises(ValueError):
        minimal_many(wrong, boards, 2)
