"""The forcing searches of a batch share one workspace (engine.grade.kernels.chains.space.forcing_space), kept by the
grading thread from batch to batch, where each search used to make its own: a puzzle graded in a batch, after other
puzzles' searches have left their runs in the shared slots, gets the same counts and ratings as the same puzzle
graded alone (a batch of one uses no shared workspace, so each of its searches makes a fresh one: the slow twin)."""
from __future__ import annotations

import numpy as np

from engine.grade.kernels.chains.space import forcing_space, shared_space
from engine.grade.kernels.driver import grade_counts
from engine.grade.techniques import INDEX

from test_grade_misses import ALIGNED_PUZZLES, NISHIO_PUZZLES


def _digits(puzzle: str) -> np.ndarray:
    return np.array([0 if ch == "." else int(ch) for ch in puzzle], np.int8)


def _batch() -> np.ndarray:
    # puzzles that need Nishio, multiple and dynamic forcing chains, twice over in two orders: more than the 16 a
    # batch needs to share a workspace, and each search meets slots that other puzzles' searches used
    puzzles = [_digits(p) for p in NISHIO_PUZZLES] + [_digits(p) for _, p in ALIGNED_PUZZLES]
    batch = np.array(puzzles + puzzles[::-1])
    assert len(batch) > 16
    return batch


def test_a_shared_workspace_grades_as_a_fresh_one():
    batch = _batch()
    together = grade_counts(batch, 3)
    for i, puzzle in enumerate(batch):
        alone = grade_counts(puzzle[None, :], 3)
        for k in range(4):
            assert np.array_equal(together[k][i], alone[k][0]), (i, k)
    counts = together[0]
    for name in ("nishio", "multiple-forcing-chains", "dynamic-forcing-chains"):  # the searches that share it
        assert counts[:, INDEX[name]].sum() > 0, name


def test_a_workspace_for_no_runs_has_no_slots():
    # the single searches' placeholder: a search never finds room in it and makes its own
    ws = forcing_space(81, 9, 0)
    assert ws[1].size == 0
    shared = forcing_space(81, 9, 4)
    assert shared[1].size == 2 * 9 + 1 + 81 * 4


def test_the_generations_start_again_before_they_overflow():
    batch = _batch()
    before = grade_counts(batch, 3)
    space = shared_space(81, 9, len(batch))  # this thread's, the one grade_counts used
    assert shared_space(81, 9, len(batch)) is space
    space[1][:] = (1 << 30) + 7  # as after a long life; the marks left in the slots stay
    after = grade_counts(batch, 3)
    assert space[1].max() < 1 << 20  # started again
    for k in range(4):
        assert np.array_equal(before[k], after[k])


def test_the_complexity_stamps_start_again_before_they_overflow():
    # the stamp of the walks that count a chain's states: a stale visit mark equal to the next stamp would make
    # those walks skip every state (a complexity, and so a rating, too low) unless both start again
    batch = _batch()
    before = grade_counts(batch, 3)
    space = shared_space(81, 9, len(batch))
    space[10][0] = (1 << 30) + 7  # stamp
    space[8][:] = (1 << 30) + 8  # visit: what the next walk's stamp would be
    after = grade_counts(batch, 3)
    for k in range(4):
        assert np.array_equal(before[k], after[k])
    assert space[10][0] < 1 << 20


def test_a_thread_keeps_the_shared_workspace_of_one_grid_size():
    nine = shared_space(81, 9, 100)
    assert shared_space(81, 9, 100) is nine
    sixteen = shared_space(256, 16, 100)
    assert shared_space(256, 16, 100) is sixteen
    assert shared_space(81, 9, 100) is not nine  # the 16x16 one took its place; a new one is made
    assert shared_space(81, 9, 5) is shared_space(81, 9, 5)  # the empty one of small batches is kept beside it


def test_a_workspace_met_by_another_shape_of_its_size_makes_its_tables_again():
    """9x9 boxes, X and jigsaw layouts share a thread's workspaces. A search makes its houses' tables only when
    its grid differs from the last search's, so the same candidates on another shape must not find the last
    shape's tables: a search inside nested chains on the same grid, first as 9x9 then as X or jigsaw, must find
    what a fresh workspace finds; and the batch workspace forgets its grid when the shape changes."""
    from engine.grade.finders.chains.nested import _Search
    from engine.grade.kernels.chains import forcing as fo
    from engine.grade.kernels.chains.space import _search_space
    from engine.shape import Shape

    class _Fresh(_Search):
        def workspace(self, work):
            return _search_space(work, self.n)

    layout = ("AAABBBCCC" "AAABBBCCC" "AADBBBCCC" "ADDEEEFFF" "DDDEEEFFF" "DDDEEEFFF" "GGGHHHIII" "GGGHHHIII"
              "GGGHHHIII")
    rng = np.random.default_rng(7)
    found = 0
    for _ in range(6):
        grid = np.zeros(81, np.int64)
        for c in range(81):
            for d in rng.choice(9, int(rng.integers(2, 4)), replace=False):
                grid[c] |= 1 << int(d)
        start = grid.copy()
        start[int(rng.integers(81))] |= 0x1FF  # a removal for the conclusions to rest on
        for other in (Shape.square(3, True), Shape.jigsaw(layout)):
            _Search(0, start, 3).inside(fo.DYNAMIC, grid)  # the thread's workspace now holds this grid, as 9x9
            shared, fresh = ([(r.tolist(), s.tolist(), q.tolist()) for r, s, q in kind(0, start, other).inside(
                fo.DYNAMIC, grid)] for kind in (_Search, _Fresh))
            assert shared == fresh
            found += len(fresh)
    assert found
    space = shared_space(81, 9, 100, b"one shape")
    space[11][:] = 5
    assert (shared_space(81, 9, 100, b"one shape")[11] == 5).all()
    assert (shared_space(81, 9, 100, b"another")[11] == -1).all()
