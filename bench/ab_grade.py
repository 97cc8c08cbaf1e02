"""The grader now against the code of another commit, interleaved in one process: CPU a puzzle, round by round.

    python bench/ab_grade.py --before REV [--file top1465.txt] [--count 50] [--rounds 40] [--box 3] [--seed 7]
                             [--nested]

Why: this host's speed moves by tens of per cent from one minute to the next (2026-11-26: the same code graded
top1465's first 300 at 68 to 112 puzzles per CPU second in runs a minute apart), so two processes run in turn
cannot tell a change of a few per cent. Here the ``engine`` folder of REV is exported (``git archive``) as the
package ``engine_before`` into a folder kept per commit (``$TMPDIR/ab_grade/<commit>``, so its compiled kernels
are cached and only the first run of a commit compiles them, a few minutes), and each round both graders grade the
same chunk of ``--count`` puzzles, in turns (the order alternates by round). The report gives both rates per CPU
second, the ratio of the totals, and the median and quartiles of the rounds' ratios; the results of the two are
compared on every chunk (counts, ratings, solved, contradictions), since a speed change is meant to be exact;
where they differ, it also says on how many puzzles ER moved, and how far.

Puzzles: the first ``--count`` x 4 81-character lines of ``--file`` (e.g. top1465), or random minimal puzzles made
as bench_grade makes them (``--box``, ``--seed``); the rounds go through four chunks in turn.

The compiled path is timed (the driver's ``grade_counts``), which stops before the nested forcing chains; with
``--nested``, the whole of ``grade_many`` (each puzzle graded alone, as the hardest puzzles are, through the step
path's nested rows), and its ratings (ER, EP, ED) are what is compared: for the hardest puzzles, e.g.
bench/hardest-sample.tsv's.
"""
from __future__ import annotations

import argparse
import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import _common  # noqa: F401  (first: it enables the kernel cache before kernels load)

ROOT = Path(__file__).resolve().parents[1]


def export(rev: str) -> Path:
    """The folder holding REV's engine as the package ``engine_before`` (exported once per commit)."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"],
                            capture_output=True, text=True)
    if commit.returncode != 0:
        sys.exit(f"ab_grade: --before {rev}: not a commit of this checkout")
    folder = Path(tempfile.gettempdir()) / "ab_grade" / commit.stdout.strip()
    if not (folder / "engine_before").is_dir():
        staging = folder.with_name(folder.name + ".part")
        staging.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit.stdout.strip(), "engine"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(staging)], input=archive, check=True)
        (staging / "engine").rename(staging / "engine_before")
        staging.rename(folder)
    return folder


def puzzles(args) -> np.ndarray:
    need = 4 * args.count
    if args.file:
        from bench_serate import read_set, to_array

        found = to_array(read_set(Path(args.file))[:need])
        if len(found) < need:
            sys.exit(f"ab_grade: {args.file}: {len(found)} puzzles, {need} needed (--count x 4)")
        return found
    from bench_grade import make_puzzles

    return make_puzzles(args.box, need, args.seed)


class _Ratings:
    """A grader's ``grade_many`` as the loop below calls the driver: (ER, EP, ED), one row a puzzle, as the first
    two of the four arrays compared (the others empty)."""

    def __init__(self, grader):
        self.grader = grader

    def grade_counts(self, grids, box):
        rated = np.array([[g.er, g.ep, g.ed]
                          for g in (self.grader.grade_many(grids[i:i + 1], box)[0] for i in range(len(grids)))])
        return rated, rated, np.zeros(0), np.zeros(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, metavar="REV", help="the commit to compare with")
    parser.add_argument("--file", default="", help="81-character puzzle lines (default: random minimal puzzles)")
    parser.add_argument("--count", type=int, default=50, help="puzzles a round (default 50)")
    parser.add_argument("--rounds", type=int, default=40, help="rounds (default 40)")
    parser.add_argument("--box", type=int, default=3, help="box size of the random puzzles (default 3)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the random puzzles (default 7)")
    parser.add_argument("--nested", action="store_true", help="time grade_many, nested chains and all")
    args = parser.parse_args()
    sys.path.insert(0, str(export(args.before)))
    import engine.grade.kernels.driver as now
    try:
        before = importlib.import_module("engine_before.grade.kernels.driver")
    except ModuleNotFoundError as e:  # a commit from before the grader's floor plan: its driver is grade/_fast.py
        if not (e.name or "").startswith("engine_before.grade.kernels"):
            raise
        before = importlib.import_module("engine_before.grade._fast")

    if args.nested:
        now, before = _Ratings(importlib.import_module("engine.grade.grader")), \
            _Ratings(importlib.import_module("engine_before.grade.grader"))
    grids = puzzles(args)
    box = 3 if args.file else args.box
    started = time.time()
    for mod in (before, now):
        mod.grade_counts(grids[:2], box)  # load (or compile) before timing
    print(f"ab_grade: {args.rounds} rounds of {args.count} puzzles ({args.file or f'random minimal, box {box}'}), "
          f"before = {args.before}; kernels ready in {time.time() - started:.1f} s; load average "
          f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs", flush=True)
    spent = {"before": 0.0, "now": 0.0}
    ratios = []
    differ = 0
    moved: dict[int, float] = {}  # puzzle index -> how far its ER moved (a change that is not exact says how far)
    for r in range(args.rounds):
        chunk = grids[(r % 4) * args.count:(r % 4 + 1) * args.count]
        order = (("before", before), ("now", now)) if r % 2 == 0 else (("now", now), ("before", before))
        took, out = {}, {}
        for name, mod in order:
            t = time.process_time()
            out[name] = mod.grade_counts(chunk, box)
            took[name] = time.process_time() - t
            spent[name] += took[name]
        differ += not all(np.array_equal(a, b) for a, b in zip(out["before"][:4], out["now"][:4]))
        for k in np.flatnonzero(out["before"][1][:, 0] != out["now"][1][:, 0]):
            moved[(r % 4) * args.count + int(k)] = abs(out["before"][1][k, 0] - out["now"][1][k, 0])
        ratios.append(took["before"] / took["now"])
    done = args.rounds * args.count
    q1, _, q3 = statistics.quantiles(ratios, n=4)
    print(f"before {done / spent['before']:9.1f} puzzles per CPU second ({1e3 * spent['before'] / done:.3f} ms each)")
    print(f"now    {done / spent['now']:9.1f} puzzles per CPU second ({1e3 * spent['now'] / done:.3f} ms each)")
    print(f"now / before: x{spent['before'] / spent['now']:.3f} by the totals; rounds: median x"
          f"{statistics.median(ratios):.3f}, quartiles x{q1:.3f} - x{q3:.3f}; results differ in {differ} of "
          f"{args.rounds} rounds")
    if moved:
        seen = min(args.rounds, 4) * args.count
        print(f"ER differs on {len(moved)} of the {seen} puzzles ({len(moved) / seen:.2%}), by more than 0.1 on "
              f"{sum(m > 0.1 + 1e-9 for m in moved.values())}")


if __name__ == "__main__":
    main()
