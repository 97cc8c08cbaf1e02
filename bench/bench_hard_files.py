"""A file with a clump of the hardest puzzles, graded and imported: what a person watching the bar sees.

    python bench/bench_hard_files.py [--ordinary 3000] [--copies 3] [--puzzles FILE] [--only grade|import]

The file (unless ``--puzzles`` names one): ``--ordinary`` minimal 9x9 puzzles carved from random boards, then
the hardest list (bench/hardest.txt: puzzles that need the nested forcing chains, seconds each) in ``--copies``
relabellings each, then ``--ordinary`` more. ``catalogue grade``'s path (``batch_map`` over the file, one thread per
core) and ``catalogue import``'s (``import_sources`` into a new SQLite catalogue) each run once, recording the
time of every move of the bar. Printed for each: wall and CPU seconds (CPU / wall: the cores it kept busy), the
longest time the bar stood still, and how far a time left was from the truth (the time the run still took), as a
share of the whole run (median and worst, over the moves after the first 2 s): the one the bar was told
(catalogue.time_left.estimate: by kind once a hard puzzle is done), the whole run's pace, and a pace over the last
30 s (what rich's own column uses).

Run it in a checkout of an earlier commit (its ``catalogue`` first on ``PYTHONPATH``) to see the same figures
before: this script uses only what both have.
"""
from __future__ import annotations

import argparse
import inspect
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import _common  # noqa: F401  (the repository on sys.path, the kernel cache)
import numpy as np

HERE = Path(__file__).resolve().parent


def make_file(path: Path, ordinary: int, copies: int) -> Path:
    from engine.carve import carve_many
    from engine.formats.batch import lines
    from engine.generators import get_generator

    def carved(count: int, seed: int) -> list[str]:
        boards, seeds, _ = get_generator("backtrack").generate_array(3, count, seed)
        return list(lines(np.stack([r.puzzle for r in carve_many(boards, 3, np.asarray(seeds, dtype=np.int64))])))

    hardest = [line.split()[0] for line in (HERE / "hardest.txt").read_text().splitlines() if line.strip()]
    clump = []
    for shift in range(copies):  # relabelled: other puzzles (and other boards under d4), the same work
        table = str.maketrans("123456789", "123456789"[shift:] + "123456789"[:shift])
        clump += [p.translate(table) for p in hardest]
    path.write_text("\n".join(carved(ordinary, 1) + clump + carved(ordinary, 2)) + "\n")
    return path


def estimates(moves: list[tuple[float, int, object]], total: int, end: float) -> list[float]:
    """(median, worst) error of the time left the bar showed, of the whole-run pace and of a 30-s pace, as shares
    of the run, after 2 s."""
    shown, whole, recent = [], [], []
    for i, (t, done, left) in enumerate(moves):
        if t < 2.0 or done == 0 or done >= total:
            continue
        truth = end - t
        pace = (total - done) * t / done
        whole.append(abs(pace - truth) / end)
        shown.append(abs((pace if left is None else left) - truth) / end)
        back = [(s, d) for s, d, _ in moves[:i + 1] if s >= t - 30.0]
        s0, d0 = back[0]
        if t > s0 and done > d0:
            recent.append(abs((total - done) * (t - s0) / (done - d0) - truth) / end)
    med = lambda xs: statistics.median(xs) if xs else float("nan")  # noqa: E731
    return [f(xs) for xs in (shown, whole, recent) for f in (med, lambda xs: max(xs, default=float("nan")))]


def report(name: str, wall: float, cpu: float, moves: list, total: int) -> None:
    times = [0.0] + [t for t, _, _ in moves] + [wall]
    still = max(b - a for a, b in zip(times, times[1:]))
    errors = " ".join(f"{e:>7.0%}" for e in estimates(moves, total, wall))
    print(f"{name:<8} {wall:>8.1f} {cpu:>8.1f} {cpu / wall:>6.2f} {len(moves):>6} {still:>9.1f} {errors}")


def run_grade(path: Path) -> tuple[float, float, list, int]:
    import contextlib

    import catalogue.progress
    from catalogue.batches import batch_map
    from catalogue.choices import InputFormat, read_entries
    from catalogue.cli.commands.grade import grade_entries, grade_entry
    from engine.grade import Contradiction

    entries = read_entries(str(path), InputFormat.auto, None, what="puzzle")
    extra = {}
    if "later" in inspect.signature(batch_map).parameters:
        from engine.grade import Later
        extra["later"] = Later
    moves: list = []
    w = time.perf_counter()

    @contextlib.contextmanager
    def recorder(*args, **kwargs):  # the bar, as batch_map moves it: when, how far, the time left it was told
        yield lambda done, left=None: moves.append((time.perf_counter() - w, done, left))

    catalogue.progress.item_bar = recorder
    w, c = time.perf_counter(), time.process_time()
    for _ in batch_map(lambda e: grade_entry(e, False), grade_entries, entries, "grade", label="grading",
                       retry=(Contradiction,), threads=0, **extra):
        pass
    return time.perf_counter() - w, time.process_time() - c, moves, len(entries)


def run_import(path: Path) -> tuple[float, float, list, int]:
    from catalogue.choices import InputFormat, read_entries
    from catalogue.pipeline.import_batches import Source
    from catalogue.pipeline.importer import import_sources
    from catalogue.store import Catalogue

    entries = read_entries(str(path), InputFormat.auto, None, what="puzzle")
    moves: list = []
    with tempfile.TemporaryDirectory() as tmp, Catalogue.open(str(Path(tmp) / "c.db")) as catalogue:
        w, c = time.perf_counter(), time.process_time()
        import_sources(catalogue, [Source(label=str(path), stored_as=path.name, entries=entries)],
                       command="bench",
                       progress=lambda done, total, left=None: moves.append((time.perf_counter() - w, done, left)))
        return time.perf_counter() - w, time.process_time() - c, moves, len(entries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ordinary", type=int, default=3000)
    parser.add_argument("--copies", type=int, default=3)
    parser.add_argument("--puzzles", type=Path)
    parser.add_argument("--only", choices=["grade", "import"])
    args = parser.parse_args()
    from catalogue.kernels import jobs_for
    from engine.warmup import prepare

    prepare(jobs_for("import", {3}, equivalence="d4") + jobs_for("grade", {3}))
    with tempfile.TemporaryDirectory() as tmp:
        path = args.puzzles or make_file(Path(tmp) / "clump.txt", args.ordinary, args.copies)
        count = sum(1 for line in path.open() if line.strip())
        print(f"{path.name}: {count:,} puzzles; {os.cpu_count()} cpus; load average {os.getloadavg()[0]:.2f}; "
              f"{sys.modules['catalogue'].__file__}")
        print(f"{'':<8} {'wall s':>8} {'CPU s':>8} {'cores':>6} {'moves':>6} {'still s':>9} "
              f"{'shown':>7} {'worst':>7} {'whole':>7} {'worst':>7} {'30 s':>7} {'worst':>7}")
        print(f"{'':<8} {'':>8} {'':>8} {'':>6} {'':>6} {'':>9} {'time left off by, share of run':>47}")
        for name, run in (("grade", run_grade), ("import", run_import)):
            if args.only in (None, name):
                wall, cpu, moves, total = run(path)
                report(name, wall, cpu, moves, total)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
