"""`catalogue regrade` benchmark: puzzles per second, against grading the same puzzles with no database at all.

    python bench/bench_regrade.py [--count 5000] [--runs 3] [--quick]

Makes a SQLite catalogue with ``catalogue fill --count N`` (9x9, graded), then times, median of ``--runs`` runs:

- ``grade_many`` on the catalogue's puzzles, in chunks of 1,000 (the peer: what regrading cannot beat);
- ``Catalogue.regrade`` in one and two threads when every stored grade is stale (each run first marks every
  puzzle as an old "extreme guessing 10.0"), so every row is written again: the worst case;
- ``Catalogue.regrade`` when every grade is current (reads and grades only, writes nothing).

Wall and CPU seconds of the process (CPU per puzzle is what a core does with the core to itself), with the load
average before each run: the machine is shared.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _common  # noqa: E402,F401  (first: it enables the kernel cache before kernels load)

STALE = "UPDATE puzzles SET level = 'extreme', score = 10.0, hardest = 'guessing', techniques = '{}'"


def measure(work, runs: int, before=None) -> tuple[float, float, list[float]]:
    """Median (wall, CPU) seconds of ``work()`` over ``runs`` runs (``before()`` first, untimed), and the load
    averages seen before each run."""
    walls, cpus, loads = [], [], []
    for _ in range(runs):
        if before:
            before()
        loads.append(os.getloadavg()[0])
        w, c = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus), loads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="500 puzzles, one run")
    args = parser.parse_args()
    if args.quick:
        args.count, args.runs = 500, 1

    import sqlite3

    from catalogue.store import Catalogue
    from engine.formats import from_line
    from engine.grade import grade_many

    folder = Path(tempfile.mkdtemp(prefix="bench_regrade_"))
    db = folder / "catalogue.db"
    subprocess.run([sys.executable, "-m", "catalogue", "-q", "fill", "--count", str(args.count), "--seed", "1",
                    "--db", str(db)], check=True, stdout=subprocess.DEVNULL)
    with sqlite3.connect(db) as conn:
        lines = [row[0] for row in conn.execute("SELECT puzzle FROM puzzles ORDER BY id")]
    cells = np.stack([from_line(line, 3) for line in lines])
    n = len(lines)
    print(f"{n:,} random minimal 9x9 puzzles of `catalogue fill --count {args.count} --seed 1`, median of "
          f"{args.runs} run(s)")

    def stale() -> None:
        with sqlite3.connect(db) as conn:
            conn.execute(STALE)

    def grade_only() -> None:
        for i in range(0, n, 1000):
            grade_many(cells[i:i + 1000], 3)

    cat = Catalogue.open(str(db), create=False)
    grade_many(cells[:100], 3)  # kernels loaded before any timing
    results = []
    for label, work, before in (
            ("grade_many alone, 1 thread", grade_only, None),
            ("regrade stale, 1 thread", lambda: cat.regrade({}, threads=1), stale),
            ("regrade stale, 2 threads", lambda: cat.regrade({}, threads=2), stale),
            ("regrade current, 2 threads", lambda: cat.regrade({}, threads=2), None)):
        wall, cpu, loads = measure(work, args.runs, before)
        results.append((label, wall, cpu, loads))
    cat.close()
    peer_cpu = results[0][2]
    peer_wall = results[0][1]
    print(f"{'':30} {'puzzles/s (wall)':>17} {'puzzles/s (CPU)':>16} {'us CPU a puzzle':>16} {'CPU / peer':>11}"
          f" {'speed-up (wall)':>16}  load before each run")
    for label, wall, cpu, loads in results:
        print(f"{label:30} {n / wall:17,.0f} {n / cpu:16,.0f} {1e6 * cpu / n:16,.1f} {cpu / peer_cpu:11.2f} "
              f"{peer_wall / wall:16.2f}  {', '.join(f'{x:.2f}' for x in loads)}")


if __name__ == "__main__":
    main()
