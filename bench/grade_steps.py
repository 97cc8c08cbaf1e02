"""Where grading's time goes, step by step: which rows make the costly steps, and how much comes after ER is set.

    python bench/grade_steps.py [--count 1000] [--seed 11]

Grades random minimal 9x9 puzzles (bench_grade's) one step at a time through the compiled path's own loop
(``_solve`` with a limit of one step, the grader's table and its memo of misses), timing each call. Prints, for
the puzzles whose ER is 6.5 or more (a chain or harder): the share of their grading time in steps made by each
row, and the share spent after the step that first reached the puzzle's final ER. Those later steps cannot raise
ER; a grader that could prove them no harder than ER without making them would save that share (Sudoku
Explainer's rules give no such proof: whether the easiest step is always found again after other steps is not
guaranteed for ratings that grow with a chain's length). Each call includes the Python that makes it.

A developer's tool for finding what to speed up (the benchmarks diary in git: `git show
eb9b7e6:docs/benchmarks.md`, "Grading, step by step"); it prints no target.
"""
from __future__ import annotations

import argparse
import collections
import os
import time

import numpy as np

import _common  # noqa: F401  (first: it enables the kernel cache before kernels load)
from bench_grade import make_puzzles
from engine.geometry import geometry
from engine.grade.kernels import driver
from engine.grade.kernels.misses import new_memo
from engine.grade.kernels.state import grader_units
from engine.grade.state import State
from engine.grade.techniques import COUNTER_NAMES, NCOUNTERS
from engine.vocabulary import STEP_PATH_ONLY

CHAIN_ER = 6.5


def steps_of(puzzle: np.ndarray, geo, enabled) -> tuple[list[tuple[int, float, float]], float]:
    """(counter, seconds, ER so far) of each step grading ``puzzle`` makes, and its final ER."""
    cells, cands = State.from_puzzle(puzzle.astype(np.int64), 3).to_arrays()
    counts = np.zeros(NCOUNTERS, np.int64)
    ratings = np.zeros(driver.NRATINGS)
    memo = new_memo(cells.size)
    out = []
    while True:
        before = counts.copy()
        t0 = time.perf_counter()
        left = driver._solve(0, driver.NTECHNIQUES, 1, enabled, counts, ratings, cells, cands, geo.houses,
                             geo.peers, grader_units(geo), geo.size,
                             int(np.count_nonzero(cells == 0)), memo)
        seconds = time.perf_counter() - t0
        changed = np.flatnonzero(counts != before)
        if changed.size == 0:
            break
        out.append((int(changed[0]), seconds, float(ratings[driver.ER])))
        if left == 0:
            break
    return out, float(ratings[driver.ER])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    geo = geometry(3)
    enabled = driver.enabled_rows(STEP_PATH_ONLY)
    puzzles = make_puzzles(3, args.count, args.seed)
    steps_of(puzzles[0], geo, enabled)  # kernels compiled or loaded before timing
    load = os.getloadavg()[0]
    by_row: collections.Counter = collections.Counter()
    total = after = 0.0
    hard = nsteps = nafter = 0
    for puzzle in puzzles:
        steps, er = steps_of(puzzle, geo, enabled)
        if er < CHAIN_ER:
            continue
        hard += 1
        reached = next(i for i, (_, _, so_far) in enumerate(steps) if so_far >= er)
        for i, (counter, seconds, _) in enumerate(steps):
            by_row[COUNTER_NAMES[counter]] += seconds
            total += seconds
            nsteps += 1
            if i > reached:
                after += seconds
                nafter += 1
    print(f"grade_steps: {hard} of {len(puzzles)} random minimal puzzles have ER >= {CHAIN_ER} (load {load:.2f}); "
          f"{total / max(hard, 1) * 1e3:.2f} ms and {nsteps / max(hard, 1):.1f} steps each")
    print(f"  after the step that set the final ER: {after / total:.0%} of their time, {nafter / nsteps:.0%} of "
          f"their steps")
    print("  time by the row that made the step (the rows tried before it included):")
    for name, seconds in by_row.most_common():
        print(f"    {name:<30} {seconds / total:5.1%}")


if __name__ == "__main__":
    main()
