"""Carving toward a level: a carving graded harder than a level gets clues back, about the fewest that bring it
within the level.

Why: on 16x16 and 25x25 nearly every minimal puzzle needs more than the chains the grader runs at those sizes (59
of 60 random minimal 16x16 puzzles graded "extreme", bench/README.md), so no number of minimal carvings gives an
easy or a hard one. Putting back clues of the solution makes a puzzle easier (each technique has less to find)
while it stays unique (a superset of a unique puzzle's clues has the same one solution). The result is unique but
not minimal, and says so (``CarveResult.minimal`` is False).

How: the carving's blank cells are put back in a random order fixed by the seed (whole orbits under a symmetry, so
the pattern keeps it), and a binary search over how many come back finds the point where the grade falls to the
level: about log2(blanks) gradings (8 on 16x16), the puzzles of a batch graded together in one call per round. The
grade is not strictly monotone in the clues put back, so this finds a short prefix of the order that fits, not
always the shortest one; every puzzle returned was graded as it is, so its grade is its own.
"""
from __future__ import annotations

import dataclasses
import time

import numpy as np

from ..inputs import check_name
from ..solvers import fast
from ..solvers._stats import CHECKS, GAVE_UP
from ..solvers.base import Metrics, share_seconds
from ..vocabulary import LEVELS
from .carver import METRICS_NODE_LIMIT, CarveResult, orbits


def _put_back_order(puzzle: np.ndarray, box: int, symmetry: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The blank cells of ``puzzle`` in put-back order, and where each group (an orbit) ends in that order."""
    table, sizes = orbits(box, symmetry)
    blank = np.flatnonzero(puzzle[table[:, 0]] == 0)  # a symmetric carving blanks whole orbits
    blank = np.random.default_rng(seed).permutation(blank)
    cells = np.concatenate([table[o, :sizes[o]] for o in blank]) if len(blank) else np.zeros(0, np.int64)
    return cells, np.cumsum(sizes[blank])


#: single groups tried on the last step when the search's answer is easier than the level (see relax_many): all of
#: them on 16x16 (measured: far more random 16x16 carvings land on "hard" than with 24 tries; docs/benchmarks.md,
#: "Carving toward a level")
LAST_STEP_TRIES = 200


def relax_many(carvings: list[CarveResult], boards, box: int, level: str, seeds,
               grades=None) -> tuple[list[CarveResult], list]:
    """Each carving (of the same row of ``boards``) that grades harder than ``level``, with clues put back until it
    grades at or below it; the others as they are. Returns (carvings, their grades).

    ``grades``, when given, are the carvings' grades already known (saves grading them again). A relaxed
    carving's ``clues``, ``metrics`` (the fast solver on the new puzzle) and ``seconds`` (its share of the work
    added) are its own, and ``minimal`` is False.

    The search asks only "within the level?" (:func:`engine.grade.within_level`, which tries no technique above
    it: cheap). The group of clues that brings a puzzle within the level often brings it below, as levels are
    narrow; then up to :data:`LAST_STEP_TRIES` other single groups are tried in its place, and the first that
    lands on the level is kept. If none does the puzzle comes out easier than ``level``: a caller that wants the
    level exactly tries another seed."""
    from ..grade import grade_many, within_level  # here: the grader is the engine's heaviest import

    check_name("level", level, LEVELS)
    boards = np.asarray(boards)
    want = LEVELS.index(level)
    start = time.perf_counter()
    grades = list(grade_many(np.stack([c.puzzle for c in carvings]), box) if grades is None else grades)
    carvings = list(carvings)
    todo = [i for i, g in enumerate(grades) if LEVELS.index(g.level) > want]
    if not todo:
        return carvings, grades
    orders = {i: _put_back_order(carvings[i].puzzle, box, carvings[i].symmetry, int(seeds[i])) for i in todo}

    def with_groups(i: int, k: int, extra: int = -1) -> np.ndarray:
        """Carving i with its first k groups put back (and group ``extra`` too, if given)."""
        cells, ends = orders[i]
        p = carvings[i].puzzle.copy()
        back = cells[:ends[k - 1]] if k else cells[:0]
        p[back] = boards[i][back]
        if extra >= 0:
            part = cells[(ends[extra - 1] if extra else 0):ends[extra]]
            p[part] = boards[i][part]
        return p

    def on_level(puzzles: list[np.ndarray]) -> np.ndarray:
        arr = np.stack(puzzles)
        hit = within_level(arr, box, level)
        if want and hit.any():
            hit[hit] = ~within_level(arr[hit], box, LEVELS[want - 1])
        return hit

    # binary search: too hard with lo groups back (0: the carving itself), within the level with hi (all of them:
    # the complete board, which needs no step)
    lo = {i: 0 for i in todo}
    hi = {i: len(orders[i][1]) for i in todo}
    while True:
        open_ = [i for i in todo if hi[i] - lo[i] > 1]
        if not open_:
            break
        mids = {i: (lo[i] + hi[i]) // 2 for i in open_}
        inside = within_level(np.stack([with_groups(i, mids[i]) for i in open_]), box, level)
        for i, ok in zip(open_, inside):
            if ok:
                hi[i] = mids[i]
            else:
                lo[i] = mids[i]
    final = {i: with_groups(i, hi[i]) for i in todo}
    # the last step: when group hi-1 took the puzzle below the level, another group in its place may not
    easy = [i for i, hit in zip(todo, on_level([final[i] for i in todo])) if not hit]
    for i in easy:
        others = list(range(lo[i], len(orders[i][1])))[:LAST_STEP_TRIES]
        tried = [with_groups(i, lo[i], g) for g in others]
        hits = np.flatnonzero(on_level(tried)) if tried else []
        if len(hits):
            final[i] = tried[hits[0]]
    puzzles = np.stack([final[i] for i in todo])
    regrades = grade_many(puzzles, box)
    solving = time.perf_counter()
    _, stats = fast.metrics_many(puzzles, box, limit=1, node_limit=METRICS_NODE_LIMIT)
    solve_seconds = share_seconds(time.perf_counter() - solving, stats[:, CHECKS])
    share = (solving - start) / len(todo)
    for j, i in enumerate(todo):
        st = stats[j]
        metrics = Metrics(nodes=int(st[0]), guesses=int(st[1]), backtracks=int(st[2]), checks=int(st[3]),
                          max_depth=int(st[4]), seconds=float(solve_seconds[j]))
        carvings[i] = dataclasses.replace(carvings[i], puzzle=puzzles[j], clues=int(np.count_nonzero(puzzles[j])),
                                          seconds=carvings[i].seconds + share, metrics=metrics, minimal=False,
                                          metrics_complete=not st[GAVE_UP])
        grades[i] = regrades[j]
    return carvings, grades
