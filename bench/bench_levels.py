"""Carving toward a level (engine.carve.toward): how often a carving lands on each level, and what it costs.

    python bench/bench_levels.py [--boards 30] [--runs 3] [--sizes 3,4] [--seed 11]

For each size, random boards are carved once into minimal puzzles (engine.carve), graded, and then relaxed toward
each level below extreme (``relax_many``: clues of the board put back until the grade is within the level). The
table gives the share of minimal carvings already at each level, the share of relaxed puzzles that land on the
level (the rest come out easier; ``catalogue fill --level`` then tries another carving), their median clue count,
and the CPU time of the relaxing per board: the median of ``--runs`` runs, each on the same carvings.
"""
from __future__ import annotations

import argparse
import collections
import os
import statistics
import time

import numpy as np
from tabulate import tabulate

import _common  # noqa: F401  (first: it enables the kernel cache before kernels load)
from engine.carve import carve_many, relax_many
from engine.grade import LEVELS, grade_many


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=30)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--sizes", default="3,4", help="box sizes, comma-separated (5: 25x25, minutes)")
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows = []
    for box in (int(b) for b in args.sizes.split(",")):
        n = box * box
        boards = _common.random_boards(box, args.boards, args.seed)
        cut = carve_many(boards, box, range(args.boards))
        grades = grade_many(np.stack([c.puzzle for c in cut]), box)
        minimal_levels = collections.Counter(g.level for g in grades)
        relax_many(cut[:2], boards[:2], box, "easy", range(2))  # compile or load the kernels before timing
        for level in LEVELS[:-1]:
            cpus = []
            for _ in range(args.runs):
                c = time.process_time()
                out, got = relax_many(cut, boards, box, level, range(args.boards), grades)
                cpus.append(time.process_time() - c)
            relaxed = [i for i, c in enumerate(out) if not c.minimal]
            on = sum(got[i].level == level for i in relaxed)
            rows.append([f"{n}x{n}", level, f"{minimal_levels[level] / args.boards:.0%}",
                         f"{len(relaxed)}", f"{on / len(relaxed):.0%}" if relaxed else "-",
                         statistics.median(out[i].clues for i in relaxed) if relaxed else "-",
                         f"{statistics.median(cpus) / args.boards * 1000:.1f}"])
    print(tabulate(rows, headers=["size", "level", "minimal carvings at it", "relaxed", "relaxed on the level",
                                  "clues (median)", "CPU ms per board"]))


if __name__ == "__main__":
    main()
