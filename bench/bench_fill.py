"""Fill benchmark: `catalogue fill` from the shell, stage scaling (1 vs 2 threads), and who claims numbers.

    python bench/bench_fill.py shell [--count 50000] [--cold]    # the whole command, wall clock from the shell
    python bench/bench_fill.py scaling [--boards 8192]            # each CPU stage alone, 1 thread vs 2 threads
    python bench/bench_fill.py claims [--count 20000] [--runs 3]  # writer claims vs checkers inserting

Targets (catalogue and grading issues): `catalogue fill --count 50000` (9x9, d4, carving, metrics, grading,
SQLite and files) <= 37.5 s with warm numba caches (30 s without grading); two threads per CPU stage >= 1.6x one.
``--cold`` points NUMBA_CACHE_DIR at an empty folder, so every kernel compiles (the warm cache is not touched).
The machine is shared: figures are medians of ``--runs`` runs, and ratios matter more than seconds.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

CLI = [sys.executable, "-c", "from catalogue.cli import main; main()"]
TARGET_S = 37.5


def shell(args) -> None:
    # One parent folder, removed only at the end: deleting 50,000 files right before the next run would make that
    # run pay for the file system's cleanup (ext4 with online discard), which is not the fill's cost.
    with tempfile.TemporaryDirectory() as parent:
        if not args.cold:  # make sure "warm" means warm: compile or load every kernel once, untimed
            subprocess.run([*CLI, "fill", "--count", "10", "--db", str(Path(parent) / "warm.db"),
                            "--out", str(Path(parent) / "warm"), *args.extra], capture_output=True, check=True)
        for run in range(args.runs):
            tmp = Path(parent) / f"run{run}"
            tmp.mkdir()
            env = dict(os.environ)
            if args.cold:
                env["NUMBA_CACHE_DIR"] = str(Path(tmp) / "numba-cache")
            cmd = [*CLI, "fill", "--count", str(args.count), "--seed", str(args.seed + run),
                   "--db", str(Path(tmp) / "c.db"), "--out", str(Path(tmp) / "boards"), *args.extra]
            load = os.getloadavg()[0]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            done = subprocess.run(cmd, capture_output=True, text=True, env=env)
            wall = time.perf_counter() - started
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            # On a shared machine the wall clock measures the neighbours too; the CPU seconds the process used
            # do not, and CPU / cores is the wall time it needs when it has the cores to itself.
            print(f"--- run {run + 1}: {'cold' if args.cold else 'warm'} cache, wall {wall:.2f} s "
                  f"(target <= {TARGET_S} s), exit {done.returncode}; CPU {cpu:.1f} s = {cpu / wall:.2f} cores "
                  f"busy on average; CPU / {os.cpu_count()} cores = {cpu / os.cpu_count():.1f} s; "
                  f"load average at start {load:.1f}")
            print(done.stdout.rstrip())
            if done.stderr.strip():
                print(done.stderr.rstrip())


def _stage_rate(work, batches, threads: int) -> tuple[float, float]:
    """(items per second, process CPU seconds per wall second) when ``threads`` threads share ``batches``.

    The CPU share tells a busy machine from a GIL: kernels that really run in parallel use up to 2.0 cores with
    two threads even when other processes leave too little CPU for the wall-clock ratio to show it."""
    todo = list(batches)
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                if not todo:
                    return
                item = todo.pop()
            work(item)

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    started, cpu = time.perf_counter(), time.process_time()
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    wall = time.perf_counter() - started
    items = sum(len(b[0]) if isinstance(b[0], np.ndarray) else b[1] for b in batches)
    return items / wall, (time.process_time() - cpu) / wall


def scaling(args) -> None:
    from catalogue.pipeline.options import FillOptions
    from catalogue.pipeline.stages import Kernels, carve_seeds

    plan = FillOptions(size=9, method="wfc", equivalence="d4", batch=args.batch, seed=1)
    k = Kernels("wfc")
    k.warm(plan)
    nb = args.boards // args.batch
    boards, seeds, _ = k.generate_array(3, nb * args.batch, 7)
    chunks = [(boards[i * args.batch:(i + 1) * args.batch], seeds[i * args.batch:(i + 1) * args.batch])
              for i in range(nb)]

    def generate(item):
        k.generate_array(3, item[1], item[0])

    def keys(item):
        k.key_texts(item[0], 3, "d4")

    def carve(item):
        k.carve(item[0], 3, carve_seeds(item[1], 0), "none", None, None)

    def carve_grade(item):
        results = k.carve(item[0], 3, carve_seeds(item[1], 0), "none", None, None)
        k.grade_many(np.stack([r.puzzle for r in results]), 3)

    def check(item):  # what a checker does per batch
        keys(item)
        carve_grade(item)

    # keys are the cheapest stage by far (docs/benchmarks.md, Canonical keys): repeat the batches so that a
    # measurement lasts long enough to mean something
    stages = [("generate (wfc)", generate, [(i, args.batch) for i in range(nb)]),
              ("canonical keys (d4)", keys, chunks * 50), ("carve", carve, chunks),
              ("carve + grade", carve_grade, chunks), ("check = keys + carve + grade", check, chunks)]
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'stage':30} {'1 thread/s':>11} {'2 threads/s':>12} {'ratio':>6} {'cores used 1 / 2':>17}"
          f"   (median of {args.runs})")
    for name, work, items in stages:
        one = [_stage_rate(work, items, 1) for _ in range(args.runs)]
        two = [_stage_rate(work, items, 2) for _ in range(args.runs)]
        r1, r2 = statistics.median(r for r, _ in one), statistics.median(r for r, _ in two)
        c1, c2 = statistics.median(c for _, c in one), statistics.median(c for _, c in two)
        print(f"{name:30} {r1:11.0f} {r2:12.0f} {r2 / r1:6.2f}x {c1:8.2f} / {c2:.2f}")


def claims(args) -> None:
    """The guide's point 10: checkers inserting their own claims vs handing them to the one writer (SQLite)."""
    from catalogue.pipeline import run as run_mod
    from catalogue.pipeline.stages import CheckerActor
    from catalogue.pipeline.writer import WriterActor, batch_rows
    from catalogue.store import Catalogue

    class ClaimingChecker(CheckerActor):
        """Stores its own batch (BEGIN IMMEDIATE from this thread) and hands only the files to the writer."""

        def check(self, batch, new, keys):
            checked = super().check(batch, new, keys)
            boards, puzzles = batch_rows(checked, self.plan, self.run_id)
            return checked, self.catalogue.store_batch(boards, puzzles)

    class FilesWriter(WriterActor):
        def handle(self, item):
            checked, numbers = item
            kept = [i for i, n in enumerate(numbers) if n is not None]
            self.catalogue.write_board_files([numbers[i] for i in kept], checked.boards[kept], self.plan.box)
            with self.counters.lock:
                self.counters.accepted += len(kept)
                self.counters.last_number = max([self.counters.last_number or 0] + [numbers[i] for i in kept])
                done = self.counters.accepted >= self.counters.target
            if done:
                self.supervisor.finish("completed")

    original = (run_mod.CheckerActor, run_mod.WriterActor)
    results: dict[str, list[float]] = {"writer claims": [], "checkers insert": []}
    for run in range(args.runs):
        for mode in results:
            with tempfile.TemporaryDirectory() as tmp:
                catalogue = Catalogue.open(Path(tmp) / "c.db", Path(tmp) / "boards")
                if mode == "checkers insert":
                    run_mod.CheckerActor, run_mod.WriterActor = ClaimingChecker, FilesWriter
                    _patch_run_id(ClaimingChecker)
                try:
                    summary = run_mod.fill(catalogue, args.count, seed=run + 1, generators=2, checkers=2)
                finally:
                    run_mod.CheckerActor, run_mod.WriterActor = original
                    catalogue.close()
                results[mode].append(summary.elapsed)
                print(f"run {run + 1} {mode:16} {summary.elapsed:6.2f} s  {summary.accepted / summary.elapsed:7.0f} "
                      f"boards/s")
    for mode, times in results.items():
        print(f"median {mode:16} {statistics.median(times):6.2f} s")


def _patch_run_id(cls) -> None:
    """ClaimingChecker needs the run id; the run builds checkers before it knows to pass it, so read it late."""
    import catalogue.pipeline.run as run_mod

    original_build = run_mod._Run._build

    def build(self):
        original_build(self)
        for checker in self.checkers:
            checker.run_id = self.run_id
        run_mod._Run._build = original_build

    run_mod._Run._build = build


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("shell")
    p.add_argument("--count", type=int, default=50_000)
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--cold", action="store_true")
    p.add_argument("extra", nargs="*", help="more fill options after --")
    p = sub.add_parser("scaling")
    p.add_argument("--boards", type=int, default=8192)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--runs", type=int, default=3)
    p = sub.add_parser("claims")
    p.add_argument("--count", type=int, default=20_000)
    p.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    {"shell": shell, "scaling": scaling, "claims": claims}[args.what](args)


if __name__ == "__main__":
    main()
