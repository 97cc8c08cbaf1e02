"""The step path guided by the compiled one: the kernel says which row makes the next step, and only that row's
Python finder runs, to record the step with its explanation.

Why: the plain step path (:func:`engine.grade.grader.solve_logically` with ``guided=False``) tries every row's
Python finder before each step, and on big grids
most of them miss after long searches (on a 25x25 puzzle, aligned exclusion and fish most of the time), while the
compiled path (:mod:`engine.grade.kernels.driver`) answers the same question, "which row first makes a step
here?", in a fraction of that. The two paths find the same first deduction of every row in the same order (the
twin tests hold them to it, running the Python finders alone), so running the kernel for one step on a copy of the
state names the row whose Python finder then finds that very step. The steps, ratings and grades are the plain
path's; only the rows that would have missed are not asked (measured: bench/bench_grade.py, many times faster,
most on hard puzzles and big grids: docs/benchmarks.md, Grading).

The rows the kernel does not run (:data:`engine.vocabulary.STEP_PATH_ONLY`, the nested forcing chains) are asked in
Python, at their place in the order. "The same steps" rests on the twins agreeing, which the tests check both ways
(every row's kernel against its finder, and this path against the plain one). A disagreement of one kind is caught
here too: should the finder the kernel pointed at miss, that step is looked for the plain way, row by row, so the
answer is still the Python path's (the tests set :data:`STRICT` and fail instead). The other kind, the kernel missing
a step an earlier row's finder would take, shows only as a different step: the tests compare the two paths.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..vocabulary import STEP_PATH_ONLY
from .state import State, Step
from .techniques import FULL_HOUSE_COUNTER, IN_BOX_COUNTER, INDEX, REGISTRY

#: raise instead of falling back when the row the kernel names finds no step (the tests set it)
STRICT = False


def in_table_order(techniques) -> bool:
    """Whether ``techniques`` are rows of the table (the registry's own), each once, easiest first: the only lists
    the kernel can stand in for (it tries rows in the table's order)."""
    rows = [INDEX.get(t.name, -1) for t in techniques]
    return (all(r >= 0 and REGISTRY[r] is t for r, t in zip(rows, techniques))
            and all(a < b for a, b in zip(rows, rows[1:])))


class _Kernel:
    """The compiled grader set up to make one step at a time on a copy of a state's cells and candidates."""

    def __init__(self, state: State, techniques):
        from .kernels.driver import enabled_rows
        from .kernels.misses import new_memo

        names = {t.name for t in techniques if t.name not in STEP_PATH_ONLY}
        self.enabled = enabled_rows(tuple(name for name in INDEX if name not in names))
        self.box = state.t.box
        self.arrays = np.empty((2, state.t.ncells), np.int64)
        # The memo of misses holds a grid and answers for any grid like it, whatever path led there: one per
        # puzzle, kept from step to step, as the grader keeps it.
        self.misses = new_memo(state.t.ncells)

    def next_row(self, state: State) -> int | None:
        """The row of the table whose first deduction is the next step from ``state``, or None if no row run by
        the kernel makes one."""
        from .kernels.driver import step_counter

        self.arrays[0] = state.cells
        self.arrays[1] = state.cands
        counter = step_counter(self.arrays, self.box, self.enabled, self.misses)
        if counter < 0:
            return None
        return INDEX["hidden-single"] if counter in (IN_BOX_COUNTER, FULL_HOUSE_COUNTER) else counter


def _first_step(state: State, techniques, row: int | None) -> Step | None:
    """The first step of ``techniques`` from ``state`` when the kernel said ``row`` makes it (None: no kernel row):
    the Python finders of that row and of the rows the kernel does not run."""
    for technique in techniques:
        if technique.name in STEP_PATH_ONLY:
            step = technique.find(state)
        elif INDEX[technique.name] == row:
            step = technique.find(state)
            if step is None:  # the twins disagree: take the Python path's answer, row by row
                if STRICT:
                    raise AssertionError(f"the kernel found a {technique.name} step that its Python finder misses")
                return plain_first_step(state, techniques)
        else:
            continue
        if step is not None:
            return step
    return None


def plain_first_step(state: State, techniques) -> Step | None:
    """The first deduction of ``techniques`` from ``state``, asking each row's Python finder in turn (the plain
    path)."""
    for technique in techniques:
        step = technique.find(state)
        if step is not None:
            return step
    return None


def guided_finder(state: State, techniques) -> Callable[[State], Step | None]:
    """What finds each next step of ``techniques`` on ``state`` as the grader makes steps on it: the kernel names the
    row, its finder records the step (the plain path where the kernel cannot stand in for the list)."""
    techniques = tuple(techniques)
    if not in_table_order(techniques):
        return lambda s: plain_first_step(s, techniques)
    kernel = _Kernel(state, techniques)
    return lambda s: _first_step(s, techniques, kernel.next_row(s))


def first_step(state: State, techniques=REGISTRY) -> Step | None:
    """The first deduction of ``techniques`` (easiest first) from ``state``: the step the grader takes next."""
    return guided_finder(state, techniques)(state)
