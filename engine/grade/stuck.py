"""The grade of a puzzle that needs the nested forcing chains, made without recording its steps: what ``grade_many``
gives for it.

The compiled path stops where only the nested rows (run in Python: :data:`~engine.vocabulary.STEP_PATH_ONLY`) make
a step. Such a puzzle was graded again from its first step with the guided step path, where the kernel names each
step's row and that row's Python finder records the step with its explanation, which ``grade_many`` then threw
away. Here the kernel makes each step itself, on the puzzle's own cells and candidates, keeping its counts and
ratings as the compiled path keeps them; where no row it runs makes a step, the nested search does (the nested row
is the table's last, so that is exactly where the step path asks it), counted and rated as the step path counts and
rates it. The steps are the guided path's (its finders find the step the kernel made: the tests hold the two to
it), without the finders, their explanations, or a second forcing search for each chain step: on the hardest
sample, a tenth of the time.
"""
from __future__ import annotations

import numpy as np

from ..geometry import geometry
from ..shape import Shape
from ..vocabulary import STEP_PATH_ONLY
from .guided import _Kernel
from .state import State
from .techniques import INDEX, NCOUNTERS

#: the counter of a nested step (the row's own: it has no other)
NESTED = INDEX["nested-forcing-chains"]
#: a batch size past which the forcing searches share the thread's kept workspace (space.shared_space)
_SHARED = 1 << 10


def grade_stuck(puzzle: np.ndarray, box: "int | Shape", rows) -> tuple[np.ndarray, np.ndarray, bool]:
    """Counts (NCOUNTERS), ratings (the driver's slots: ER, EP, ED, HARDEST, RATE, HARDEST_KIND) and whether it
    was solved, of grading ``puzzle`` with ``rows`` (the table's rows to try, in its order, the nested one among
    them), as :func:`engine.grade.grader.grade` would make its steps."""
    from .finders.chains import nested
    from .kernels.chains.space import shared_space
    from .kernels.driver import NO_KERNEL, NRATINGS, _grade_many
    from .kernels.state import grader_units

    geo = geometry(box)
    n, ncells = geo.size, geo.ncells
    state = State.from_puzzle(np.asarray(puzzle, np.int64).reshape(-1), box)
    kernel = _Kernel(state, rows)  # the rows it runs, its memo of misses: the guided path's
    arrays, enabled, misses = kernel.arrays, kernel.enabled, kernel.misses
    arrays[0], arrays[1] = state.cells, state.cands
    counts = np.zeros((1, NCOUNTERS), np.int64)
    ratings = np.zeros((1, NRATINGS), np.float64)
    status = np.empty(1, np.int64)
    space = shared_space(ncells, n, _SHARED)
    units = grader_units(geo)
    none = np.empty((0, ncells), np.int8)
    nesting = any(t.name in STEP_PATH_ONLY for t in rows)
    while (arrays[0] == 0).any():
        made = counts.sum()
        _grade_many(none, enabled, geo.houses, geo.peers, units, n, counts, ratings, status, space, misses, arrays)
        if status[0] == NO_KERNEL:  # pragma: no cover - a test holds every row to having a kernel
            raise RuntimeError("a row of engine.grade.techniques.ROWS has no kernel in engine.grade.kernels.driver")
        if counts.sum() > made:  # the kernel made a step
            continue
        found = nested.search(arrays[1], box, explain=False) if nesting else None
        if found is None:  # stuck: it needs guessing
            break
        take(found[1], arrays, geo.peers, n, counts[0], ratings[0])
    return counts[0], ratings[0], bool((arrays[0] != 0).all())


def take(hint: np.ndarray, arrays: np.ndarray, peers: np.ndarray, n: int, counts: np.ndarray,
         ratings: np.ndarray) -> None:
    """Make the nested step ``hint`` (a hint record of nested.search) on the cells and candidates ``arrays``, and
    count and rate it in ``counts`` and ``ratings`` (the driver's slots) as the step path does (its rating in
    tenths, its kind; EP is reached when it places a digit)."""
    from .kernels.chains.forcing import H_KIND, H_TARGET, H_TENTHS
    from .kernels.driver import _rate
    from .kernels.state import _conclude

    counts[NESTED] += 1
    placed = _conclude(arrays[0], arrays[1], peers, int(hint[H_TARGET]), n)
    _rate(ratings, int(hint[H_TENTHS]) / 10, NESTED, int(hint[H_KIND]), placed)
