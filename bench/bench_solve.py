"""The fast solver on random minimal 9x9 puzzles: rates (engine.solve, fast single and batch calls), py-sudoku peer,
thread scaling, cold/warm CLI start.

    python bench/bench_solve.py            # about a minute on a quiet 2-core machine
    python bench/bench_solve.py --quick    # a few seconds

Puzzles: random boards (engine.generators "backtrack", falling back to the solver on random givens) carved into
minimal puzzles with engine.carve, the same puzzles for every line. Each rate is the median of ``--repeats``
timed runs after a warm-up; "single" calls ``fast.solve`` once per puzzle (Python overhead included), "batch" is
one ``solve_many``/``count_many`` kernel call for all of them. Rates are given per wall second and per CPU second
of this thread: the 2 cores are shared, so wall rates also measure the neighbours. py-sudoku (PyPI
``py-sudoku``) solves a small subset; its count-to-2 peer is ``has_multiple_solutions`` (it solves twice).
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
from tabulate import tabulate

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _common import random_boards, timed  # noqa: E402
from engine.carve import carve_many  # noqa: E402
from engine.formats import to_line  # noqa: E402
from engine.solvers import fast  # noqa: E402




def minimal_puzzles(count: int, seed: int) -> np.ndarray:
    boards = random_boards(3, count, seed)
    return np.stack([r.puzzle for r in carve_many(boards, 3, np.arange(count) + seed)])




def py_sudoku_rows(puzzles: np.ndarray, repeats: int) -> tuple[float, float]:
    from sudoku import Sudoku

    def board(p):
        return [[int(v) or None for v in p[r * 9:(r + 1) * 9]] for r in range(9)]

    ours = fast.solve_many(puzzles, 3)[1]
    for p, s in zip(puzzles, ours):  # same answers, or the comparison means nothing
        assert [v for row in Sudoku(3, 3, board=board(p)).solve().board for v in row] == s.tolist()
    solve_wall, _ = timed(lambda: [Sudoku(3, 3, board=board(p)).solve() for p in puzzles], repeats)
    count_wall, _ = timed(lambda: [Sudoku(3, 3, board=board(p)).has_multiple_solutions() for p in puzzles],
                          repeats)
    return len(puzzles) / solve_wall, len(puzzles) / count_wall


def thread_scaling(puzzles: np.ndarray, repeats: int) -> tuple[float, float, float, float, float]:
    """Counting to 2 with one thread (all puzzles) and two threads (half each): puzzles per wall second of each,
    the wall speed-up, the 2-thread rate per CPU second relative to 1 thread (1.0 = the kernels scale perfectly,
    the GIL is not in the way) and the CPUs the 2 threads kept busy (CPU / wall: the most the machine gave us,
    so the bound on the wall speed-up). The puzzles are repeated up to 20,000 so each run lasts long enough
    (~0.15 s) for thread start-up and scheduling noise not to matter."""
    puzzles = np.tile(puzzles, (-(-20000 // len(puzzles)), 1))
    halves = np.array_split(puzzles, 2)

    def two():
        threads = [threading.Thread(target=fast.count_many, args=(h, 3, 2)) for h in halves]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    def process_cpu(fn):
        walls, cpus = [], []
        fn()
        for _ in range(repeats):
            w, c = time.perf_counter(), time.process_time()
            fn()
            walls.append(time.perf_counter() - w)
            cpus.append(time.process_time() - c)
        return statistics.median(walls), statistics.median(cpus)

    one_wall, one_cpu = process_cpu(lambda: fast.count_many(puzzles, 3, 2))
    two_wall, two_cpu = process_cpu(two)
    return (len(puzzles) / one_wall, len(puzzles) / two_wall, one_wall / two_wall, one_cpu / two_cpu,
            two_cpu / two_wall)


def cli_start(puzzle: np.ndarray, repeats: int) -> tuple[float, float]:
    """Wall seconds of ``catalogue solve FILE`` in a fresh process: cold (kernels compiled) and warm (cached).

    Cold runs with ``NUMBA_CACHE_DIR`` pointing at a new empty folder (engine/cache.py keeps the numba cache under
    it, keyed on the engine's source), so nothing is cached; warm runs reuse what the cold run wrote. Clearing the
    shared cache instead would slow down everyone else using it.
    """
    script = shutil.which("catalogue")  # the installed command, as a user starts it
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "puzzle.txt"
        path.write_text(to_line(puzzle) + "\n")
        cmd = ([script, "solve", str(path)] if script else
               [sys.executable, "-c", "from catalogue.cli import main; main()", "solve", str(path)])
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "numba-cache"))

        def run() -> float:
            t = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT, env=env)
            return time.perf_counter() - t

        cold = run()
        warm = statistics.median(run() for _ in range(repeats))
    return cold, warm


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer puzzles and repeats (a few seconds)")
    ap.add_argument("--puzzles", type=int, default=None, help="random minimal 9x9 puzzles (default 4000, quick 500)")
    ap.add_argument("--repeats", type=int, default=None, help="timed runs per figure (default 5, quick 3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-cli", action="store_true", help="skip the cold/warm `catalogue solve` start")
    args = ap.parse_args()
    count = args.puzzles or (500 if args.quick else 4000)
    repeats = args.repeats or (3 if args.quick else 5)
    peer_count = 10 if args.quick else 40

    fast.warm()
    puzzles = minimal_puzzles(count, args.seed)
    clues = (puzzles != 0).sum(axis=1)
    print(f"{count} random minimal 9x9 puzzles (clues {clues.mean():.1f} mean, {clues.min()}..{clues.max()}); "
          f"median of {repeats} runs\n")

    from engine import Grid, solve

    grids = [Grid.puzzle(p) for p in puzzles]
    rows = []
    for label, fn in [
        ("engine.solve(Grid), single calls", lambda: [solve(g) for g in grids]),
        ("fast solve, single calls", lambda: [fast.solve(p, 3) for p in puzzles]),
        ("fast solve, batch", lambda: fast.solve_many(puzzles, 3, 1)),
        ("fast count to 2, single calls", lambda: [fast.solve(p, 3, 2) for p in puzzles]),
        ("fast count to 2, batch", lambda: fast.count_many(puzzles, 3, 2)),
    ]:
        wall, cpu = timed(fn, repeats)
        rows.append([label, count / wall, count / cpu])
    peer_solve, peer_count_rate = py_sudoku_rows(puzzles[:peer_count], repeats)
    rows.append([f"py-sudoku solve ({peer_count} puzzles)", peer_solve, None])
    rows.append([f"py-sudoku has_multiple_solutions ({peer_count})", peer_count_rate, None])
    print(tabulate(rows, headers=["", "puzzles/s (wall)", "puzzles/s (CPU)"], floatfmt=",.0f", missingval="-"))
    print(f"\nfast vs py-sudoku: solve x{rows[2][1] / peer_solve:,.0f} (batch), x{rows[1][1] / peer_solve:,.0f} "
          f"(single calls); count to 2 x{rows[4][1] / peer_count_rate:,.0f} (batch)")

    one, two, speedup, efficiency, busy = thread_scaling(puzzles, repeats)
    print(f"\nthreads, count to 2 (batch): 1 thread {one:,.0f}/s, 2 threads {two:,.0f}/s: wall speed-up "
          f"x{speedup:.2f}; the 2 threads got {busy:.2f} of {os.cpu_count()} shared CPUs; per CPU second they do "
          f"x{efficiency:.2f} the work of 1 thread")

    if not args.no_cli:
        cold, warm = cli_start(puzzles[0], 3 if args.quick else 5)
        print(f"\n`catalogue solve` on one puzzle, fresh process: cold {cold:.2f} s (solver kernels compiled), "
              f"warm {warm:.2f} s (kernels loaded from the numba cache)")


if __name__ == "__main__":
    main()
