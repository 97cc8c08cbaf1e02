"""How much of the forcing runs a depth bound could cut: the states each run reaches against the states it would keep
if it stopped where no later state could take part in a conclusion that beats the search's own answer.

    python bench/forcing_run_depths.py --puzzles top1465.txt [--count 40] [--tries 400]

The forcing chains (Nishio, multiple, dynamic) run each candidate's propagation to its end, and only then count
the complexity of what it concluded. A state first reached at depth d (links from the assumption) has at least
d + 1 states behind it, and every conclusion joins it with at least one more state, so once a run's next state
to follow is at depth d, everything it can still add counts at least d + 3. Bounded by the search's own answer
(the "perfect bound": no real search knows it before it ends), the run could stop there. This script takes the
grids the step path tries each producer on, finds each grid's answer, runs every candidate's on and off run alone,
and prints the share of the runs' states at depths that bound keeps: the most such a cut could save.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common  # noqa: E402,F401  (first: the repository on the path, the kernel cache enabled)

import bench_tries  # noqa: E402
from bench_serate import read_set, to_array  # noqa: E402
from engine.grade.kernels.chains import forcing as F  # noqa: E402
from engine.grade.kernels.chains import implications as I  # noqa: E402
from engine.grade.kernels.chains import slots as S  # noqa: E402

PRODUCERS = (("nishio", F.NISHIO), ("multiple-forcing-chains", F.MULTIPLE), ("dynamic-forcing-chains", F.DYNAMIC))


def deepest_kept(producer: int, hint: np.ndarray) -> int:
    """The deepest next state a run may follow while a conclusion through it could still beat ``hint``."""
    if hint[F.H_TENTHS] == F.NO_HINT:
        return 1 << 30
    base = F._base_tenths(producer)
    depth = -1  # following depth d + 1 adds states a conclusion joins at d + 4 states or more: can that still win?
    while (base + I._length_tenths(depth + 4), depth + 4) <= (hint[F.H_TENTHS], hint[F.H_COMPLEXITY]):
        depth += 1
    return depth


def measure(producer: int, grids) -> tuple[int, int, int]:
    """(runs, states reached, states at depths the perfect bound keeps) over ``grids``."""
    g, n, ch, _ = bench_tries.nine_by_nine()
    hint = np.empty(F.HINT_SIZE, np.int64)
    ws = S._workspace(1, g.size * g.size, n)
    runs = reached = kept = 0
    for _, cands in grids:
        F._forcing_hint(producer, cands, g.houses, ch, n, hint)
        deepest = deepest_kept(producer, hint)
        for c in range(cands.size):
            for d in range(n):
                if not cands[c] >> d & 1:
                    continue
                for seed in (2 * (c * n + d) + 1, 2 * (c * n + d)):
                    S._reset(ws, 0)
                    I._propagate(ws, 0, seed, cands, g.houses, ch, n, producer != F.NISHIO, producer != F.MULTIPLE,
                                 0)
                    members = np.nonzero(ws[0][0] == ws[1][0])[0]
                    runs += 1
                    reached += members.size
                    # a state's first path has depth + 1 states: kept when its depth is at most deepest + 1
                    kept += sum(S._first_path(ws, 0, int(s)) <= deepest + 2 for s in members)
    return runs, reached, kept


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--puzzles", required=True, metavar="FILE", help="81-character lines, e.g. top1465")
    p.add_argument("--count", type=int, default=40, help="puzzles (default 40)")
    p.add_argument("--tries", type=int, default=400, help="grids a producer at most (default 400)")
    args = p.parse_args()
    puzzles = to_array(read_set(Path(args.puzzles))[:args.count])
    print(f"forcing_run_depths: the first {len(puzzles)} puzzles of {args.puzzles} "
          f"(load average {os.getloadavg()[0]:.2f})")
    for name, producer in PRODUCERS:
        grids = bench_tries.collect(name, puzzles)[:args.tries]
        runs, reached, kept = measure(producer, grids)
        print(f"  {name:24s} {len(grids):4d} grids, {runs:7,d} runs, {reached / max(runs, 1):5.1f} states a run; "
              f"the perfect bound keeps {kept / max(reached, 1):6.1%} of them")


if __name__ == "__main__":
    main()
