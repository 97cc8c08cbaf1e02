"""9x9 against the code of another commit, interleaved in one process: solve, carve, generate, key, make Grids.

    python bench/ab_engine.py --before REV [--rounds 20] [--count 200]

Why: shapes (engine/shape.py) put a Shape where a box size was, in the entry points every 9x9 call goes through;
the issue asks 9x9 to stay within 3 %. This host's speed moves by tens of per cent from one minute to the next,
so the two codes run in turns within each round (the order alternating), on the same inputs, and the report
gives, per operation, CPU time per item of each and the median and quartiles of the rounds' ratios. REV's engine
is exported as ``engine_before`` by bench/ab_grade.py's :func:`export` (its kernels compile once per commit).
Results are compared too: the same boards, puzzles, counts and keys, since nothing was meant to change.
"""
from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import time

import numpy as np

import _common  # noqa: F401  (first: it enables the kernel cache before kernels load)
from ab_grade import export


def _ops(pkg: str, boards: np.ndarray, puzzles: np.ndarray, seed: int):
    """name -> (items, callable returning something comparable) for the engine package ``pkg``."""
    fast = importlib.import_module(f"{pkg}.solvers.fast")
    carver = importlib.import_module(f"{pkg}.carve.carver")
    wfc = importlib.import_module(f"{pkg}.generators.wfc")
    canonical = importlib.import_module(f"{pkg}.keys.canonical")
    grid = importlib.import_module(f"{pkg}.grid")
    seeds = list(range(seed, seed + len(boards)))
    return {
        "solve (one call a puzzle, limit 2)": (len(puzzles), lambda: [fast.solve(p, 3, 2).count for p in puzzles]),
        "carve (batch)": (len(boards), lambda: np.stack([r.puzzle for r in carver.carve_many(boards, 3, seeds)])),
        "generate (wfc, batch)": (len(boards), lambda: wfc.generate_array(3, len(boards), seed)[0]),
        "key (full, batch)": (len(boards), lambda: canonical.canonical_keys(boards, 3, "full")),
        "Grid(cells) and is_solved": (len(boards), lambda: [grid.Grid(b).is_solved() for b in boards]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, metavar="REV", help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=20, help="rounds (default 20)")
    parser.add_argument("--count", type=int, default=200, help="boards and puzzles a round (default 200)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    sys.path.insert(0, str(export(args.before)))
    from engine.carve.carver import carve_many
    from engine.generators.wfc import generate_array

    boards = generate_array(3, args.count, args.seed)[0]
    puzzles = np.stack([r.puzzle for r in carve_many(boards, 3, list(range(args.count)))])
    started = time.time()
    ops = {"before": _ops("engine_before", boards, puzzles, args.seed), "now": _ops("engine", boards, puzzles,
                                                                                     args.seed)}
    for side in ops.values():
        for _, fn in side.values():
            fn()  # load (or compile) before timing
    print(f"ab_engine: {args.rounds} rounds of {args.count} 9x9 items, before = {args.before}; kernels ready in "
          f"{time.time() - started:.1f} s; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs",
          flush=True)
    print(f"{'operation':36} {'before ms':>10} {'now ms':>10} {'now/before':>11} {'quartiles':>17}  same")
    for name in ops["now"]:
        items = ops["now"][name][0]
        spent = {"before": [], "now": []}
        same = True
        for r in range(args.rounds):
            out = {}
            for side in (("before", "now") if r % 2 == 0 else ("now", "before")):
                t = time.process_time()
                out[side] = ops[side][name][1]()
                spent[side].append(time.process_time() - t)
            same &= all(np.array_equal(np.asarray(a), np.asarray(b)) for a, b in zip(out["before"], out["now"]))
        ratios = [n / b for b, n in zip(spent["before"], spent["now"])]
        q1, med, q3 = statistics.quantiles(ratios, n=4)
        print(f"{name:36} {1e3 * statistics.median(spent['before']) / items:10.4f} "
              f"{1e3 * statistics.median(spent['now']) / items:10.4f} {med:10.3f}x "
              f"{q1:8.3f}-{q3:.3f}x  {'yes' if same else 'NO'}", flush=True)


if __name__ == "__main__":
    main()
