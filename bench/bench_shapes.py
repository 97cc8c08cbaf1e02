"""Every shape side by side with 9x9: making a board, carving it, counting, per board; the units kernel against its
plain twin.

    python bench/bench_shapes.py [--count 300] [--repeats 5] [--only making|grading|fill]

Per shape: WFC boards (``generate_array``, one batch) and carving them to minimal puzzles (``carve_many``), CPU
and wall ms a board, medians of ``--repeats`` runs after a warm-up, and the share of the 9x9 board's cost (9x9
takes the square kernels; every other shape the units kernel, engine/solvers/_units.py, and the Python carving
driver, engine/carve/units.py). Then grading those puzzles on every shape (``grade_many``): CPU ms a
puzzle, the share needing guessing, and the share at each level (docs/shapes.md cites them). Then the count of the
empty 6x6 grid (28,200,960 boards) by the units kernel, and
the units kernel against the plain twin (tests/naive/shapes.py) on the same 6x6 puzzles.

``--only fill`` runs the issue's fill targets through the CLI, as a person would (generate, key, carve, grade,
store, write the files; new catalogue each run, kernels already in the cache): ``catalogue fill --count 10000``
of 6x6 and 8x8 and ``--count 1000`` of 12x12, beside 9x9 of the same counts, wall and CPU seconds (the whole
process tree) of the median of ``--repeats`` runs.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

from _common import ROOT, host_line, timed

sys.path.insert(0, str(ROOT / "tests"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="boards a run (default 300)")
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure; the median is shown (default 5)")
    parser.add_argument("--only", choices=("all", "making", "grading", "fill"), default="all",
                        help="run one table: boards and carving, grading, or the CLI's fill (default: all but "
                             "fill, and the counts)")
    args = parser.parse_args()

    from engine.carve.carver import carve_many
    from engine.generators.wfc import generate_array
    from engine.regions import random_layout
    from engine.shape import Shape
    from engine.solvers import units

    shapes = [("9x9 (3x3, today's kernels)", 3), ("6x6 (2x3)", Shape.boxes(2, 3)), ("8x8 (2x4)", Shape.boxes(2, 4)),
              ("10x10 (2x5)", Shape.boxes(2, 5)), ("12x12 (3x4)", Shape.boxes(3, 4)), ("Latin 9", Shape.latin(9)),
              ("X-Sudoku 9x9", Shape.square(3, True)), ("jigsaw 9x9 (seed 1)", random_layout(9, 1)),
              ("jigsaw 12x12 (seed 1)", random_layout(12, 1))]
    print(f"bench_shapes: {host_line()}; {args.count} boards a run, medians of {args.repeats}", flush=True)
    if args.only == "grading":
        _grading(shapes, args.count)
        return
    if args.only == "fill":
        _fill(args.repeats)
        return
    print(f"{'shape':26} {'make ms':>8} {'carve ms':>9} {'CPU ms':>8} {'x 9x9':>6} {'clues':>6} {'wall ms':>8}")
    base = None
    for name, shape in shapes:
        count = args.count if not isinstance(shape, Shape) or shape.size <= 9 else max(args.count // 3, 10)
        repeats = args.repeats
        if isinstance(shape, Shape) and shape.kind == "jigsaw" and shape.size > 9:
            count, repeats = 10, 1  # seconds a board: its uniqueness tests search far (docs/shapes.md)
        boards = generate_array(shape, count, 1)[0]
        seeds = list(range(count))
        make_wall, make_cpu = timed(lambda: generate_array(shape, count, 1), repeats)
        carve_wall, carve_cpu = timed(lambda: carve_many(boards, shape, seeds), repeats)
        clues = np.mean([r.clues for r in carve_many(boards, shape, seeds)])
        per = 1e3 * (make_cpu + carve_cpu) / count
        base = base or per
        print(f"{name:26} {1e3 * make_cpu / count:8.3f} {1e3 * carve_cpu / count:9.3f} {per:8.3f} "
              f"{per / base:5.1f}x {clues:6.1f} {1e3 * (make_wall + carve_wall) / count:8.3f}", flush=True)

    if args.only == "making":
        return
    _grading(shapes, args.count)

    t, c = time.perf_counter(), time.process_time()
    boards66 = units.count(Shape.boxes(2, 3))
    print(f"count of the empty 6x6 grid: {boards66:,} boards in {time.process_time() - c:.1f} s CPU "
          f"({time.perf_counter() - t:.1f} s wall)")

    from naive import shapes as plain

    shape = Shape.boxes(2, 3)
    unit_list = plain.units(6, 2, 3)
    puzzles = [r.puzzle for r in carve_many(generate_array(shape, 100, 2)[0], shape, list(range(100)))]
    _, kernel_cpu = timed(lambda: [units.solve(p, shape, 2) for p in puzzles], args.repeats)
    _, twin_cpu = timed(lambda: [plain.count(p.tolist(), unit_list, 6, 2) for p in puzzles], 1)
    print(f"6x6 minimal puzzles, count to 2: units kernel {1e6 * kernel_cpu / 100:.1f} us, plain twin "
          f"{1e6 * twin_cpu / 100:.1f} us a puzzle (x{twin_cpu / kernel_cpu:.0f})")


def _fill(repeats: int) -> None:
    """``catalogue fill`` of each shape into a new catalogue: wall and CPU seconds of the whole process tree."""
    import resource
    import statistics
    import subprocess
    import tempfile

    script = os.path.join(os.path.dirname(sys.executable), "catalogue")
    print(f"\n{'catalogue fill':26} {'boards':>7} {'wall s':>8} {'CPU s':>8} {'boards/s':>9} {'target':>8}")
    for name, args, count, target in (("9x9 (3x3)", [], 10_000, None), ("6x6 (2x3)", ["--shape", "2x3"], 10_000, 10),
                                      ("8x8 (2x4)", ["--shape", "2x4"], 10_000, 10),
                                      ("9x9 (3x3), 1,000", [], 1_000, None),
                                      ("12x12 (3x4)", ["--shape", "3x4"], 1_000, 30)):
        walls, cpus = [], []
        for run in range(repeats):
            with tempfile.TemporaryDirectory() as folder:
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                started = time.perf_counter()
                subprocess.run([script, "fill", "-n", str(count), "--seed", str(run + 1), *args,
                                "--db", os.path.join(folder, "c.db")], check=True, capture_output=True)
                walls.append(time.perf_counter() - started)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        print(f"{name:26} {count:7,} {wall:8.2f} {cpu:8.2f} {count / wall:9,.0f} "
              f"{'< ' + str(target) + ' s' if target else '':>8}", flush=True)


def _grading(shapes, count: int) -> None:
    """Grade carved puzzles of every shape: cost and levels."""
    from engine.carve.carver import carve_many
    from engine.generators.wfc import generate_array
    from engine.grade import grade_many
    from engine.shape import Shape
    from engine.vocabulary import LEVELS

    print(f"\n{'grading minimal puzzles':26} {'CPU ms':>8} {'wall ms':>8} {'guess':>6}  "
          + " ".join(f"{lv:>8}" for lv in LEVELS))
    for name, shape in shapes:
        n = count if not isinstance(shape, Shape) or shape.size <= 9 else max(count // 10, 10)
        if isinstance(shape, Shape) and shape.kind == "jigsaw" and shape.size > 9:
            # minutes a puzzle: most need nested forcing chains, which only the step path runs (docs/shapes.md)
            print(f"{name:26} not timed: most need the nested forcing chains, a minute or two a puzzle")
            continue
        boards = generate_array(shape, n, 3)[0]
        puzzles = np.array([r.puzzle for r in carve_many(boards, shape, list(range(n)))])
        grade_many(puzzles[:1], shape)  # the grader's kernels loaded before the clock starts
        t, c = time.perf_counter(), time.process_time()
        grades = grade_many(puzzles, shape)
        cpu, wall = time.process_time() - c, time.perf_counter() - t
        shares = [100 * sum(g.level == lv for g in grades) / n for lv in LEVELS]
        guess = 100 * sum(g.needs_guessing for g in grades) / n
        print(f"{name:26} {1e3 * cpu / n:8.2f} {1e3 * wall / n:8.2f} {guess:5.0f}%  "
              + " ".join(f"{x:7.0f}%" for x in shares), flush=True)


if __name__ == "__main__":
    main()
