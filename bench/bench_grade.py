"""Grading benchmark: puzzles per second on random minimal puzzles, the level distribution, 1 vs 2 threads.

    python bench/bench_grade.py [--count 4000] [--runs 5] [--box 3] [--seed 1] [--steps 300] [--file F] [--quick]

Puzzles: random boards (engine.generators, the default method) carved into minimal unique puzzles by
engine.carve (one random removal order each). Target (grading issue): >= 2,000 random minimal 9x9 puzzles per
second per core with the fast path (grade_many), so grading adds little to the catalogue fill. ``--file`` grades
the first ``--count`` puzzles of a file instead (one 81-character line each, '.' or '0' for a blank: top1465).

``--steps`` puzzles are graded with the step-recording path too (``grade``), guided by the kernels as it runs, and
plain (every technique's Python finder in turn), with the ratio of the two.

The machine is shared: every figure is the median of ``--runs`` runs, and the CPU seconds the process used are
reported next to the wall clock (puzzles per CPU second is what a core does when it has the core to itself).
"""
from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _common  # noqa: E402,F401  (first: it enables the kernel cache before kernels load)
from engine.carve import carve_many  # noqa: E402
from engine.generators import generate_many  # noqa: E402
from engine.grade import LEVELS, TECHNIQUES, grade, grade_many  # noqa: E402

TARGET = 3000.0  # issue 10: fill grades at least 3,000 random minimal 9x9 puzzles per core-second


def make_puzzles(box: int, count: int, seed: int) -> np.ndarray:
    boards = np.array([b.cells for b in generate_many(box, count=count, seed=seed)])
    return np.array([r.puzzle for r in carve_many(boards, box, range(seed, seed + count))])


def timed(work) -> tuple[float, float]:
    """(wall seconds, process CPU seconds) of ``work()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def threaded(puzzles: np.ndarray, box: int, threads: int, chunk: int = 250) -> None:
    """Grade ``puzzles`` in chunks taken by ``threads`` threads (how the catalogue's checkers call it)."""
    todo = [puzzles[i:i + chunk] for i in range(0, len(puzzles), chunk)]
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                if not todo:
                    return
                batch = todo.pop()
            grade_many(batch, box)

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()


def distribution(grades) -> None:
    m = len(grades)
    levels = collections.Counter(g.level for g in grades)
    print("level distribution:")
    for level in LEVELS:
        print(f"  {level:8s} {levels[level]:6d}  {100 * levels[level] / m:5.1f} %")
    hardest = collections.Counter(g.hardest for g in grades)
    print("hardest technique needed:")
    for name in (*TECHNIQUES, "guessing"):
        if hardest[name]:
            print(f"  {name:17s} {hardest[name]:6d}  {100 * hardest[name] / m:5.1f} %")
    scores = [g.score for g in grades if g.solved]
    if scores:  # a few big puzzles may all need guessing
        print(f"score of the puzzles logic solves: median {statistics.median(scores):.1f}, "
              f"mean {statistics.mean(scores):.2f}")


def read_puzzles(path: str, count: int) -> np.ndarray:
    """The first ``count`` 9x9 puzzles of a file, one 81-character line each."""
    lines = [line.strip() for line in Path(path).read_text().splitlines() if line.strip()][:count]
    return np.array([[0 if ch in ".0" else int(ch) for ch in line[:81]] for line in lines], np.int8)


def cost_by_level(puzzles: np.ndarray, grades, box: int) -> None:
    print("fast-path cost by level (CPU microseconds per puzzle, one thread):")
    for level in LEVELS:
        chosen = np.array([p for p, g in zip(puzzles, grades) if g.level == level])
        if len(chosen):
            _, cpu = timed(lambda: grade_many(chosen, box))
            print(f"  {level:8s} {1e6 * cpu / len(chosen):9.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=4000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--box", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--steps", type=int, default=300, help="puzzles to grade with the step-recording path too")
    ap.add_argument("--file", help="grade the puzzles of this file (one 9x9 puzzle a line) instead")
    ap.add_argument("--quick", action="store_true", help="500 puzzles, 3 runs, 100 with steps")
    args = ap.parse_args()
    if args.quick:
        args.count, args.runs, args.steps = 500, 3, 100
    n = args.box * args.box
    what = f"of {args.file}" if args.file else f"random minimal {n}x{n} puzzles (seed {args.seed})"
    print(f"bench_grade: {args.count} {what}, {args.runs} runs, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f}")
    started = time.perf_counter()
    puzzles = read_puzzles(args.file, args.count) if args.file else make_puzzles(args.box, args.count, args.seed)
    print(f"made the puzzles in {time.perf_counter() - started:.1f} s; clues: mean "
          f"{np.count_nonzero(puzzles, axis=1).mean():.1f}")
    started = time.perf_counter()
    grades = grade_many(puzzles[:2], args.box)  # compile or load the kernels
    print(f"kernels ready in {time.perf_counter() - started:.1f} s")

    one = [timed(lambda: grade_many(puzzles, args.box)) for _ in range(args.runs)]
    two = [timed(lambda: threaded(puzzles, args.box, 2)) for _ in range(args.runs)]
    wall1, cpu1 = statistics.median(w for w, _ in one), statistics.median(c for _, c in one)
    wall2, cpu2 = statistics.median(w for w, _ in two), statistics.median(c for _, c in two)
    m = len(puzzles)
    # cores busy = CPU seconds / wall seconds: a kernel holding the GIL could not keep more cores busy with two
    # threads than with one, whatever the neighbours on a shared machine leave over
    print(f"fast path, 1 thread : {m / wall1:9.0f} puzzles/s wall, {m / cpu1:9.0f} puzzles per CPU second "
          f"(target >= {TARGET:.0f} per core); {cpu1 / wall1:.2f} cores busy")
    print(f"fast path, 2 threads: {m / wall2:9.0f} puzzles/s wall = {wall1 / wall2:.2f}x one thread; "
          f"{cpu2 / wall2:.2f} cores busy")

    grades = grade_many(puzzles, args.box)
    if args.steps > 0:
        # the step-recording path as grade() runs it (guided: the kernel names each step's row) and its plain twin
        # (every row's Python finder in turn, what the tests hold the compiled path to)
        sample = puzzles[:args.steps]
        rates = []
        for guided in (True, False):
            slow = []
            wall, cpu = timed(lambda: slow.extend(grade(p, args.box, guided=guided) for p in sample))
            same = all(s.as_dict() == f.as_dict() for s, f in zip(slow, grades))
            rates.append(len(sample) / cpu)
            name = "step path, guided" if guided else "step path, plain "
            print(f"{name}: {len(sample) / wall:9.1f} puzzles/s wall, {len(sample) / cpu:9.1f} puzzles per CPU "
                  f"second ({1000 * cpu / len(sample):.1f} ms each), on the first {len(sample)} "
                  f"({sum(s.step_count for s in slow) / len(sample):.1f} steps each); same grades as the fast path: "
                  f"{same}")
        print(f"guided / plain: x{rates[0] / rates[1]:.1f}")
    distribution(grades)
    cost_by_level(puzzles, grades, args.box)


if __name__ == "__main__":
    main()
