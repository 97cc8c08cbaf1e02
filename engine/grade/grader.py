"""Grading a puzzle the way a person would solve it: the easiest technique that makes progress, every time.

The grader tries the techniques of :data:`engine.vocabulary.TECHNIQUE_TABLE` in order (easiest first), applies
the first deduction found, and starts again from the easiest; so a harder technique is used only when nothing
easier helps. When no technique makes progress the puzzle needs guessing (or has several solutions).

Two paths give the same grade (the tests hold them to it on many puzzles):

- the step-recording path (:func:`grade` with ``explain=True``) runs the Python techniques and keeps every
  :class:`~engine.grade.state.Step` with its explanation. Guided (the default), the fast path names each step's
  technique first and only that technique's finder runs (:mod:`engine.grade.guided`); plain (``guided=False``),
  every technique's finder is asked in turn: the slow twin the tests hold the fast path to;
- the fast path (``explain=False`` and :func:`grade_many`) runs the same techniques, in the same order, as one
  compiled kernel (:mod:`engine.grade.kernels.driver`) that only counts steps. It releases the GIL, so the catalogue's
  checker threads grade in parallel.

The grade carries the three figures Sudoku Explainer's ``serate`` prints: ER (``score``), the rating of the
hardest step; EP, the hardest step up to the first digit placed; ED, the first step. The level follows from ER
(:data:`~engine.vocabulary.LEVEL_LIMITS`), and a puzzle that needs guessing is ``extreme`` with all three at
:data:`~engine.vocabulary.GUESSING_RATING`. Uniqueness techniques (they assume the puzzle has one solution) are
on by default, as in Sudoku Explainer; ``uniqueness=False`` grades without them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..inputs import check_any_cells, check_any_grids, check_name
from ..shape import Shape
from ..vocabulary import (BIG_GRID_SKIPS, FULL_SCALE_BIG_GRID_SKIPS, GUESSING, GUESSING_RATING, LEVEL_LIMITS, LEVELS,
                          STEP_PATH_ONLY, TECHNIQUE_TABLE, TECHNIQUES, UNIQUENESS_TECHNIQUES, step_name)
from .finders import singles
from .guided import first_step, guided_finder, plain_first_step
from .state import Contradiction, State, Step
from .techniques import (COUNTER_NAMES, FULL_HOUSE_COUNTER, HIDDEN_SINGLE_ROW, IN_BOX_COUNTER, INDEX, NCOUNTERS,
                         REGISTRY)

#: what ``hardest`` says when the puzzle had no blank cell
NOTHING = "none"


@dataclass(frozen=True)
class Grade:
    """How hard a puzzle is for a person. ``steps`` is empty when the grade came from the fast path."""

    level: str
    score: float
    #: the hardest step's own name (engine.vocabulary.STEP_NAMES: ``forcing X-chain``, ``BUG+1``), or
    #: ``guessing`` / ``none``
    hardest: str
    steps_by_technique: dict[str, int]
    steps: list[Step] = field(default_factory=list, compare=False)
    needs_guessing: bool = False
    solved: bool = True
    #: Sudoku Explainer's EP (the hardest step up to the first placement) and ED (the first step); ER is ``score``
    ep: float = 0.0
    ed: float = 0.0
    #: the row of the technique table that made the hardest step (``chains-and-cycles``), or as ``hardest``
    technique: str = NOTHING

    @property
    def er(self) -> float:
        """Sudoku Explainer's ER: the rating of the hardest step (the same as ``score``)."""
        return self.score

    @property
    def step_count(self) -> int:
        return sum(self.steps_by_technique.values())

    def as_dict(self) -> dict:
        """The compact form for JSON and the catalogue database (no step list)."""
        return {"level": self.level, "score": self.score, "ep": self.ep, "ed": self.ed, "hardest": self.hardest,
                "technique": self.technique, "techniques": dict(self.steps_by_technique), "needs_guessing": self.needs_guessing,
                "solved": self.solved}


def level_of(score: float, needs_guessing: bool = False) -> str:
    if needs_guessing:
        return LEVELS[-1]
    for level, limit in LEVEL_LIMITS:
        if score <= limit + 1e-9:
            return level
    return LEVELS[-1]


def grade_from_counts(counts, ratings, solved: bool, steps: list[Step] | None = None) -> Grade:
    """The grade of a run that made ``counts[i]`` steps of counter i, rated ``ratings`` (ER, EP, ED, the counter of
    the hardest step and its kind: :func:`rate_steps`) and ended solved or stuck."""
    by_technique: dict[str, int] = {}
    for name, count in zip(COUNTER_NAMES, counts):
        count = int(count)
        if count:
            by_technique[name] = by_technique.get(name, 0) + count
    by_technique = {name: by_technique[name] for name in TECHNIQUES if name in by_technique}  # the table's order
    score, ep, ed = (round(float(r), 2) for r in ratings[:3])
    technique = COUNTER_NAMES[int(ratings[3])] if score > 0 else NOTHING
    hardest = step_name(technique, int(ratings[4])) if score > 0 else NOTHING
    if not solved:
        score = ep = ed = GUESSING_RATING
        hardest = technique = GUESSING
    return Grade(level=level_of(score, not solved), score=score, hardest=hardest, steps_by_technique=by_technique,
                 steps=list(steps or ()), needs_guessing=not solved, solved=solved, ep=ep, ed=ed, technique=technique)


def rate_steps(steps) -> tuple[float, float, float, int, int]:
    """Sudoku Explainer's ER, EP and ED of a list of steps, as serate keeps them, and the counter and kind of the
    hardest step (the first to reach ER): ER the hardest step, EP the hardest up to the first placement, ED the
    first."""
    er = ep = ed = 0.0
    hardest = kind = 0
    for i, step in enumerate(steps):
        if step.rating > er:
            er, hardest, kind = step.rating, counter_of(step), step.kind
        if ep == 0.0:
            if i == 0:
                ed = er
            if step.placements:
                ep = er
    return er, ep, ed, hardest, kind


def counter_of(step: Step) -> int:
    """Which counter a step adds to: its technique's row (hidden singles found in a box, and full houses, apart,
    by rating)."""
    if step.technique == HIDDEN_SINGLE_ROW and step.rating == singles.RATING_BOX:
        return IN_BOX_COUNTER
    if step.technique == HIDDEN_SINGLE_ROW and step.rating == singles.RATING_FULL:
        return FULL_HOUSE_COUNTER
    return INDEX[step.technique]


def skipped(box: "int | Shape", uniqueness: bool = True, full_scale: bool = False) -> tuple[str, ...]:
    """The rows not tried: the uniqueness techniques when ``uniqueness`` is off, and on grids of 16x16 and more the
    dynamic forcing chains (:data:`~engine.vocabulary.BIG_GRID_SKIPS`), or with ``full_scale`` only the nested
    ones (:data:`~engine.vocabulary.FULL_SCALE_BIG_GRID_SKIPS`)."""
    big = FULL_SCALE_BIG_GRID_SKIPS if full_scale else BIG_GRID_SKIPS
    side = box.size if isinstance(box, Shape) else box * box
    return (() if uniqueness else UNIQUENESS_TECHNIQUES) + (big if side >= 16 else ())


def techniques_for(box: "int | Shape", uniqueness: bool = True, techniques=REGISTRY, full_scale: bool = False) -> tuple:
    """The rows of ``techniques`` to try on a grid of box ``box``: all but the :func:`skipped` ones."""
    skip = skipped(box, uniqueness, full_scale)
    return tuple(t for t in techniques if t.name not in skip)


def solve_logically(state: State, techniques=REGISTRY, *, guided: bool = False) -> tuple[list[Step], bool]:
    """Apply the easiest technique that makes progress until solved or stuck: ``(steps, solved)``.

    ``techniques`` (easiest first) may be a part of the registry, to ask what a puzzle needs. ``guided``: the
    compiled grader names each step's technique and only its finder runs (:mod:`engine.grade.guided`; the same
    steps). Raises :class:`Contradiction` when it gets stuck because the puzzle has no solution."""
    techniques = tuple(techniques)
    find = guided_finder(state, techniques) if guided else (lambda s: plain_first_step(s, techniques))
    steps: list[Step] = []
    while 0 in state.cells:
        step = find(state)
        if step is None:
            why = state.contradiction()
            if why:
                raise Contradiction(f"the puzzle has no solution ({why})")
            return steps, False
        state.apply(step)
        steps.append(step)
    return steps, True


def next_step(cells, box: "int | Shape | None" = None, techniques=REGISTRY, *, uniqueness: bool = True,
              nested: bool = False, guided: bool = True, full_scale: bool = False,
              candidates=None) -> Step | None:
    """The step a person takes next on a partly filled grid (flat digits, 0 = blank, or a Grid): the easiest
    technique that makes progress, exactly the first step :func:`grade` would record from this position.
    None when the grid is full or no technique helps (the position needs guessing). Raises
    :class:`Contradiction` when digits conflict. A hint is this step. Nested forcing chains, which take seconds
    to minutes, are tried only with ``nested=True`` (on a position with one solution). ``guided``: as in
    :func:`grade`; ``full_scale``: as in :func:`grade_many`. ``candidates`` (a bitmask per cell, bit d - 1 for
    digit d: a player's pencil marks) narrows the candidates the digits leave, so the step is the next one from
    where the player stands: an elimination made is not found again. A blank cell left without a candidate
    raises :class:`Contradiction` (a mark removed was the cell's digit)."""
    arr, box = _as_puzzle(cells, box)
    state = State.from_puzzle(arr, box)
    if 0 not in state.cells:
        return None
    if candidates is not None:
        marks = np.asarray(candidates, dtype=np.int64).reshape(-1)
        if marks.size != len(state.cands):
            raise ValueError(f"candidates: {marks.size} cells given for a grid of {len(state.cands)}")
        state.cands = [c & int(m) for c, m in zip(state.cands, marks)]
        why = state.contradiction()
        if why is not None:
            raise Contradiction(why)
    rows = techniques_for(box, uniqueness, techniques, full_scale)
    if not (nested and _worth_nesting(arr, box, rows)):
        rows = _unnested(rows)
    return first_step(state, rows) if guided else plain_first_step(state, rows)


def _as_puzzle(cells, box: "int | Shape | None") -> tuple[np.ndarray, "int | Shape"]:
    if hasattr(cells, "cells") and hasattr(cells, "box"):  # a Grid
        cells, box = cells.cells, cells.box if box is None else box
    return check_any_cells(cells, box, "puzzle")


def grade(cells, box: "int | Shape | None" = None, *, explain: bool = True, uniqueness: bool = True,
          guided: bool = True, full_scale: bool = False) -> Grade:
    """Grade one puzzle (flat digits, 0 = blank, or a :class:`~engine.grid.Grid`).

    ``explain=True`` records every step with its explanation; ``explain=False`` takes the compiled fast path
    and leaves ``steps`` empty (same grade, much faster). ``uniqueness=False`` leaves out the techniques that
    assume the puzzle has one solution. With ``explain=True`` the compiled path names the technique of each step
    and only its Python finder runs (:mod:`engine.grade.guided`: the same steps, many times faster on big grids);
    ``guided=False`` asks every technique's Python finder in turn, the slow twin the tests hold the compiled path
    to. ``full_scale``: as in :func:`grade_many`. Raises ValueError (:class:`Contradiction`) when the clues
    conflict or the puzzle has no solution.
    """
    arr, box = _as_puzzle(cells, box)
    if not explain:
        try:
            return grade_many(arr.reshape(1, -1), box, uniqueness=uniqueness, full_scale=full_scale)[0]
        except Contradiction as e:  # one puzzle: no "puzzle 0:" in front
            raise Contradiction(str(e).split(": ", 1)[1]) from None
    rows = techniques_for(box, uniqueness, full_scale=full_scale)
    if not _worth_nesting(arr, box, rows):
        rows = _unnested(rows)
    try:
        steps, solved = solve_logically(State.from_puzzle(arr, box), rows, guided=guided)
    except Contradiction:
        if not uniqueness:
            raise
        # uniqueness techniques on a puzzle with several solutions: grade it without them (see grade_many), and
        # without the nested chains, which never finish such a puzzle (_worth_nesting)
        rows = _unnested(techniques_for(box, False, full_scale=full_scale))
        steps, solved = solve_logically(State.from_puzzle(arr, box), rows, guided=guided)
    counts = [0] * NCOUNTERS
    for step in steps:
        counts[counter_of(step)] += 1
    return grade_from_counts(counts, rate_steps(steps), solved, steps)


def grade_many(puzzles, box: "int | Shape | None" = None, *, uniqueness: bool = True,
               full_scale: bool = False, later: bool = False) -> "list[Grade | Later]":
    """Grade each row of ``puzzles`` (m, ncells) with the compiled fast path (no steps recorded).

    Releases the GIL while it works, so threads grade batches in parallel. Raises ValueError naming the first
    puzzle whose clues conflict or that has no solution.

    A uniqueness technique assumes one solution; on a puzzle with several it can remove every candidate of some
    cell. Such a puzzle is graded again without them, so it comes out as needing guessing (as it must), never as
    having no solution.

    ``full_scale``: on 16x16 and 25x25 also try the dynamic forcing chains (plain and +), left out there by
    default (:data:`~engine.vocabulary.BIG_GRID_SKIPS`: seconds a puzzle, against milliseconds), so that a puzzle
    that needs them gets their rating instead of needing guessing. No effect on 4x4 and 9x9, which always try
    them.

    ``later``: a puzzle the compiled path leaves to the nested forcing chains comes back as a :class:`Later`, to
    grade by calling it, its solutions counted then too: this call then needs no kernel but the grader's."""
    from .kernels.driver import ED, EP, ER, HARDEST, HARDEST_KIND, grade_counts

    arr, box = check_any_grids(puzzles, box, "puzzles")
    counts, ratings, solved, bad = grade_counts(arr, box, skipped(box, uniqueness, full_scale))
    for i in np.flatnonzero(bad):
        if uniqueness:
            c, r, s, b = grade_counts(arr[i:i + 1], box, skipped(box, False, full_scale))
            if not b[0]:
                counts[i], ratings[i], solved[i] = c[0], r[0], s[0]
                continue
        try:  # let the step path say why, with the cells named
            rows = _unnested(techniques_for(box, False, full_scale=full_scale))
            solve_logically(State.from_puzzle(arr[i], box), rows, guided=True)
        except Contradiction as e:
            raise Contradiction(f"puzzle {i}: {e}") from None
        raise AssertionError("the fast path found a contradiction the step path does not")  # pragma: no cover
    figures = ratings[:, [ER, EP, ED, HARDEST, HARDEST_KIND]]  # as rate_steps gives them
    grades = [grade_from_counts(counts[i], figures[i], bool(solved[i])) for i in range(arr.shape[0])]
    return _second_pass(arr, box, uniqueness, grades, full_scale, later)


def _unnested(rows) -> tuple:
    """``rows`` without the ones only the step path runs (the nested forcing chains), for a puzzle they cannot
    finish: one with several solutions, or none."""
    return tuple(t for t in rows if t.name not in STEP_PATH_ONLY)


def _worth_nesting(puzzle, box: "int | Shape", rows) -> bool:
    """Whether the rows only the step path runs (the nested forcing chains: seconds to minutes a step) are among
    ``rows`` and worth trying on ``puzzle`` (:func:`_one_solution`)."""
    return _nesting(rows) and _one_solution(puzzle, box)


def _nesting(rows) -> bool:
    """Whether the rows only the step path runs are among ``rows``."""
    return any(t.name in STEP_PATH_ONLY for t in rows)


def _one_solution(puzzle, box: "int | Shape") -> bool:
    """Whether ``puzzle`` has exactly one solution: only then are the nested rows worth trying. With several, no
    technique can finish it, and it is graded as needing guessing at no cost, in both paths alike."""
    from ..solvers import units
    from ..solvers.fast import count_many

    if isinstance(box, Shape):
        return units.count(box, puzzle, 2) == 1
    return bool(count_many(puzzle.reshape(1, -1), box, 2)[0] == 1)


def _second_pass(arr, box: "int | Shape", uniqueness: bool, grades: list, full_scale: bool,
                 later: bool = False) -> list:
    """Grade on the puzzles the compiled path left stuck: it stops before the rows it does not run
    (:data:`STEP_PATH_ONLY`, the nested forcing chains), which :class:`Later` tries on a puzzle with one solution.
    With ``later``, each such puzzle is left as a :class:`Later` instead, its solutions counted by the call too."""
    rows = techniques_for(box, uniqueness, full_scale=full_scale)
    if not _nesting(rows):
        return grades
    for i, g in enumerate(grades):
        if not g.needs_guessing:
            continue
        if later:
            grades[i] = Later(arr[i].copy(), box, uniqueness, full_scale, g)
        elif _one_solution(arr[i], box):
            grades[i] = Later(arr[i].copy(), box, uniqueness, full_scale)()
    return grades


@dataclass(frozen=True, eq=False)
class Later:
    """The grade of one puzzle that :func:`grade_many` left for later (``later=True``): one the compiled path left
    to the nested forcing chains. Calling it grades the puzzle as ``grade_many`` would have, with the kernel's
    steps and the nested search's, none recorded (:mod:`engine.grade.stuck`): seconds to minutes, in the calling
    thread.

    ``stuck``: the compiled path's grade (needing guessing), which the call returns as it is if the puzzle has
    several solutions (counted first: the solver's kernels are made ready with the nested chains', by whoever
    makes those ready, not compiled unannounced inside ``grade_many``); None when it is known to have one."""

    puzzle: np.ndarray
    box: "int | Shape"
    uniqueness: bool
    full_scale: bool
    stuck: "Grade | None" = None

    def worth_nesting(self) -> bool:
        """Whether the call tries the nested forcing chains: the puzzle has one solution (else the call returns
        ``stuck``). Counted once, with the solver's kernels: the catalogue asks before it makes the nested chains'
        kernels ready and again before the call, and on 16x16 a count may take a while."""
        return self.stuck is None or self._one_solution

    @cached_property
    def _one_solution(self) -> bool:  # (a frozen dataclass still takes it: cached_property writes __dict__)
        return _one_solution(self.puzzle, self.box)

    def __call__(self) -> Grade:
        from .kernels.driver import ED, EP, ER, HARDEST, HARDEST_KIND
        from .stuck import grade_stuck

        if not self.worth_nesting():
            return self.stuck
        counts, ratings, solved = grade_stuck(self.puzzle, self.box, techniques_for(
            self.box, self.uniqueness, full_scale=self.full_scale))
        return grade_from_counts(counts, ratings[[ER, EP, ED, HARDEST, HARDEST_KIND]], solved)


def within_level(puzzles, box: "int | Shape | None" = None, level: str = "hard", *,
                 uniqueness: bool = True) -> np.ndarray:
    """Whether each row of ``puzzles`` grades at or below ``level``: what ``grade_many`` says, without trying a
    technique rated above the level (so on 16x16 a test for "hard" runs no chain at all, and costs little).

    Why it is the same answer: the table is in rating order and no step rates below its row, so until the first
    step rated above the level the grader and this restricted one make the same steps, easiest row first. If the
    grader's puzzle stays within the level, every step it makes is one of the restricted rows: the same run. If
    not, the restricted run gets stuck there or takes a step rated above the level (a variable rating, such as a
    long chain's, can pass its row's): not within. A puzzle with no solution is not within any level."""
    from .kernels.driver import ER, grade_counts

    check_name("level", level, LEVELS)
    arr, box = check_any_grids(puzzles, box, "puzzles")
    limits = dict(LEVEL_LIMITS)
    if level not in limits:  # the last level holds every puzzle with a solution
        return ~grade_counts(arr, box, skipped(box, uniqueness))[3]
    limit = limits[level] + 1e-9
    beyond = tuple(name for name, rating in TECHNIQUE_TABLE if rating > limit)
    _, ratings, solved, _ = grade_counts(arr, box, skipped(box, uniqueness) + beyond)
    return solved & (ratings[:, ER] <= limit)
