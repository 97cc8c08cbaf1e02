"""Forcing chains on 16x16 and 25x25: what each set of rows costs a minimal puzzle, and how many it rates without
guessing.

    python bench/big_grid_chains.py [--seed 11] [--count16 30] [--count25 6] [--order spread] [--dynamic] [--full-scale]

Carves random boards (the fill's generator) into minimal puzzles in the carver's order for the size (``--order``
to choose), then grades each puzzle alone with the compiled grader three ways: the static chains only (every
forcing chain left out, as the grader did on these sizes before 2026-11-26), with Nishio and multiple forcing
chains (what it does now: ``engine.vocabulary.BIG_GRID_SKIPS`` leaves out the dynamic ones), and, with
``--dynamic`` (16x16 only), with the dynamic forcing chains too (not dynamic+), and with ``--full-scale`` the rows
``grade_many(..., full_scale=True)`` tries (``catalogue grade --full-scale``): the dynamic chains plain and +.
Prints CPU milliseconds a puzzle (mean, median, most; one thread, kernels loaded before timing), how many were
rated without guessing, and their levels.

Why: the rows left out on big grids are a trade of grading time against puzzles that grade as needing guessing
(docs/grading.md, "Other sizes"; docs/benchmarks.md, "Cost against size").
"""
from __future__ import annotations

import argparse
import collections
import os
import time

import numpy as np

import _common  # noqa: F401  (first: it enables the kernel cache before kernels load)
from engine.carve.carver import carve_many
from engine.grade.kernels.driver import grade_counts
from engine.grade.grader import level_of, skipped
from engine.vocabulary import BIG_GRID_SKIPS, STEP_PATH_ONLY

FORCING = ("nishio", "multiple-forcing-chains", "dynamic-forcing-chains", "dynamic-forcing-chains-plus")


def grade_alone(puzzles: np.ndarray, box: int, skip: tuple[str, ...]) -> tuple[np.ndarray, int, collections.Counter]:
    """CPU ms of each puzzle graded alone, how many were rated without guessing, and the levels."""
    skip = tuple(dict.fromkeys(skip + STEP_PATH_ONLY))
    grade_counts(puzzles[:1], box, skip)  # load (or compile) the kernels
    times, solved, levels = [], 0, collections.Counter()
    for puzzle in puzzles:
        started = time.process_time()
        _, ratings, ok, _ = grade_counts(puzzle[None], box, skip)
        times.append((time.process_time() - started) * 1000)
        solved += int(ok[0])
        levels[level_of(ratings[0, 0], not ok[0])] += 1
    return np.array(times), solved, levels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--count16", type=int, default=30, help="16x16 puzzles (default 30)")
    parser.add_argument("--count25", type=int, default=6, help="25x25 puzzles (default 6; 0 for none)")
    parser.add_argument("--order", choices=("random", "spread"), default=None,
                        help="the carver's removal order (default: the carver's for the size)")
    parser.add_argument("--dynamic", action="store_true", help="16x16: also grade with the dynamic forcing chains")
    parser.add_argument("--full-scale", action="store_true",
                        help="also grade with the rows of the full scale (dynamic chains, plain and +)")
    args = parser.parse_args()
    for box, count in ((4, args.count16), (5, args.count25)):
        if count <= 0:
            continue
        boards = _common.random_boards(box, count, args.seed)
        results = carve_many(boards, box, range(count), order=args.order)
        puzzles = np.array([r.puzzle for r in results], np.int8)
        ways = [("static chains only", FORCING + BIG_GRID_SKIPS), ("with Nishio and multiple (now)", BIG_GRID_SKIPS)]
        if args.dynamic and box == 4:
            ways.append(("with dynamic too (not +)", tuple(s for s in BIG_GRID_SKIPS if s != "dynamic-forcing-chains")))
        if args.full_scale:
            ways.append(("full scale (dynamic, dynamic+)", skipped(box, full_scale=True)))
        side = box * box
        print(f"big_grid_chains: {count} minimal {side}x{side} puzzles, order {args.order or 'the carver default'}, "
              f"seed {args.seed} (load average {os.getloadavg()[0]:.2f})")
        for name, skip in ways:
            times, solved, levels = grade_alone(puzzles, box, skip)
            print(f"  {name:32} CPU ms a puzzle: mean {times.mean():7.1f}, median {np.median(times):7.1f}, "
                  f"most {times.max():7.1f}; without guessing {solved:3} of {count}; "
                  f"levels {dict(sorted(levels.items()))}", flush=True)


if __name__ == "__main__":
    main()
