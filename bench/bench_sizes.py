"""Cost against grid size: what one board costs at each stage of a fill, from 4x4 to 25x25 (seed 001's question).

    python bench/bench_sizes.py [--runs 3] [--quick] [--order random|spread]

For each box size 2..5: generate boards (the default method), key them (``d4``), carve each into a puzzle
(minimal, or as minimal as the carver's node limit allows on 25x25; the carver's own metrics solve included),
count each puzzle's solutions to two (the fast solver, as ``catalogue check`` does), and grade it (the fill's
compiled path). CPU milliseconds a board, one thread, median of ``--runs`` runs, kernels loaded before timing;
the load average before each size. The "fill" column is what a fill's checker pays a board (key + carve +
grade), and "x 9x9" its ratio to the 9x9 board. ``--order`` carves every size in that removal order instead of
the carver's default for the size (random up to 9x9, spread on 16x16 and 25x25).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common  # noqa: E402,F401  (first: it enables the kernel cache before kernels load)
from engine.carve import carve_many  # noqa: E402
from engine.generators import generate_many  # noqa: E402
from engine.grade import grade_many  # noqa: E402
from engine.keys import key_texts  # noqa: E402
from engine.solvers import fast  # noqa: E402

#: boards per run at each box size: a few seconds of work each
BOARDS = {2: 4000, 3: 1000, 4: 40, 5: 6}


def cpu(work) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


def measure(box: int, count: int, seed: int, order: str | None = None) -> dict[str, float]:
    """CPU seconds of each stage over ``count`` boards."""
    out: dict[str, float] = {}
    made: list = []
    out["generate"] = cpu(lambda: made.extend(generate_many(box, count=count, seed=seed)))
    boards = np.stack([b.cells for b in made])
    out["key"] = cpu(lambda: key_texts(boards, box, "d4"))
    carved: list = []
    out["carve"] = cpu(lambda: carved.extend(carve_many(boards, box, list(range(seed, seed + count)),
                                                                order=order)))
    puzzles = np.stack([r.puzzle for r in carved])
    out["count to 2"] = cpu(lambda: fast.count_many(puzzles, box, 2))
    out["grade"] = cpu(lambda: grade_many(puzzles, box))
    out["clues"] = float(np.mean([r.clues for r in carved]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="a quarter of the boards, one run")
    parser.add_argument("--order", choices=("random", "spread"), default=None,
                        help="the carver's removal order at every size (default: the carver's for the size)")
    args = parser.parse_args()
    runs = 1 if args.quick else args.runs
    stages = ("generate", "key", "carve", "count to 2", "grade")
    rows = {}
    for box, count in BOARDS.items():
        count = max(2, count // 4) if args.quick else count
        measure(box, 2, 999)  # kernels compiled or loaded before timing
        load = os.getloadavg()[0]
        per_run = [measure(box, count, 1 + 1000 * run, args.order) for run in range(runs)]
        ms = {s: 1000 * statistics.median(r[s] for r in per_run) / count for s in stages}
        ms["fill"] = ms["key"] + ms["carve"] + ms["grade"]
        rows[box] = (count, load, statistics.median(r["clues"] for r in per_run), ms)
    base = rows[3][3]["fill"]
    print(f"CPU milliseconds a board, one thread, median of {runs} run(s); removal order "
          f"{args.order or 'the default for the size'}")
    print(f"{'size':>6} {'boards':>7} {'clues':>7} " + " ".join(f"{s:>11}" for s in stages)
          + f" {'fill':>11} {'x 9x9':>9}  load")
    for box, (count, load, clues, ms) in rows.items():
        n = box * box
        print(f"{n:>3}x{n:<2} {count:7,} {clues:7.1f} " + " ".join(f"{ms[s]:11.3f}" for s in stages)
              + f" {ms['fill']:11.3f} {ms['fill'] / base:9.2f}  {load:.2f}")


if __name__ == "__main__":
    main()
