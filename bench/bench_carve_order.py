"""The carver's removal order on big grids: "spread" (clues go where they are densest) against "random".

    python bench/bench_carve_order.py [--runs 3] [--boards16 100] [--boards25 6] [--boards9 2000] [--seed 3]

The same random boards (the default generator) carved into minimal puzzles by ``carve_many`` with each order in
turn, one thread, the carver's own metrics solve included (as a fill pays it): CPU ms a board and boards per
CPU second (median of ``--runs`` runs, the orders alternating within each run so both see the same hour of a
shared machine), mean clues, and on 25x25 the removal tests left undecided at the default node limit (2,000 nodes
a test). The load average is printed before each run. On 9x9 (``--boards9``, one run: why the default stays
random there) it prints the same for each order, and the share of each level and the grading CPU a puzzle
(``grade_many``). Issue 11's target: 16x16 carving at >= 100 boards per
core-second, proven minimal; 25x25 proven minimal (0 undecided) at >= 1 board per core-second.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

import _common  # noqa: F401  (first: it enables the kernel cache before kernels load)
from engine.carve import carve_many
from engine.generators import generate_many
from engine.grade import LEVELS, grade_many

ORDERS = ("random", "spread")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--boards16", type=int, default=100)
    parser.add_argument("--boards25", type=int, default=6)
    parser.add_argument("--boards9", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    if args.boards9 > 0:
        levels9(args.boards9, args.seed)
    for box, count in ((4, args.boards16), (5, args.boards25)):
        if count <= 0:
            continue
        n = box * box
        boards = np.stack([b.cells for b in generate_many(box, count=count, seed=args.seed)])
        seeds = range(args.seed, args.seed + count)
        for order in ORDERS:  # kernels loaded before timing
            carve_many(boards[:1], box, [0], order=order)
        cpu = {o: [] for o in ORDERS}
        results = {}
        for run in range(args.runs):
            load = os.getloadavg()[0]
            line = []
            for order in ORDERS if run % 2 == 0 else ORDERS[::-1]:
                started = time.process_time()
                results[order] = carve_many(boards, box, seeds, order=order)
                cpu[order].append((time.process_time() - started) / count)
                line.append(f"{order} {cpu[order][-1] * 1e3:.2f}")
            print(f"{n}x{n} run {run + 1} (load {load:.2f}): " + ", ".join(line) + " ms of CPU a board", flush=True)
        print(f"{n}x{n}, {count} boards, median of {args.runs} runs:")
        base = statistics.median(cpu["random"])
        for order in ORDERS:
            ms = statistics.median(cpu[order])
            r = results[order]
            print(f"  {order:<7} {ms * 1e3:8.2f} ms of CPU a board  {1 / ms:8.2f} boards per CPU second  "
                  f"x{base / ms:.2f}  clues {np.mean([x.clues for x in r]):6.1f}  "
                  f"proven minimal {sum(x.minimal for x in r)}/{count}  "
                  f"undecided tests a board {np.mean([x.undecided for x in r]):6.1f}")


def levels9(count: int, seed: int) -> None:
    """9x9 in each order: carving CPU, clues, the levels' shares and the grading CPU of the puzzles."""
    boards = np.stack([b.cells for b in generate_many(3, count=count, seed=seed)])
    seeds = range(seed, seed + count)
    for order in ORDERS:
        grade_many(carve_many(boards[:2], 3, [0, 1], order=order)[0].puzzle[None, :], 3)
    print(f"9x9, {count} boards (load {os.getloadavg()[0]:.2f}), one run:")
    for order in ORDERS:
        started = time.process_time()
        carved = carve_many(boards, 3, seeds, order=order)
        carve_cpu = (time.process_time() - started) / count
        puzzles = np.stack([r.puzzle for r in carved])
        started = time.process_time()
        grades = grade_many(puzzles, 3)
        grade_cpu = (time.process_time() - started) / count
        shares = "  ".join(f"{level} {sum(g.level == level for g in grades) / count:5.1%}" for level in LEVELS)
        print(f"  {order:<7} carve {carve_cpu * 1e3:.3f} ms, grade {grade_cpu * 1e3:.3f} ms of CPU a puzzle; clues "
              f"{np.mean([r.clues for r in carved]):5.2f}; {shares}")


if __name__ == "__main__":
    main()
