"""Carving random boards into minimal puzzles: rate, threads, clue distribution, symmetries, sizes, Python peer.

    python bench/bench_carve.py            # a few minutes on a quiet 2-core machine
    python bench/bench_carve.py --quick    # well under a minute

Boards come from engine.generators ("backtrack"; the solver on random givens if that is missing). Rates are the
median of ``--repeats`` timed ``carve_many`` calls after a warm-up, per wall second and per CPU second (the 2 cores
are shared, so wall rates also measure the neighbours). The peer is a plain-Python carver written here: same idea
(random order, keep a removal while the count stays 1) with a list-based backtracking counter.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path

import numpy as np
from tabulate import tabulate

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _common import random_boards, timed  # noqa: E402
from engine.carve import SYMMETRIES, carve_many, warm  # noqa: E402
from engine.solvers import fast  # noqa: E402




# --- the pure-Python peer -------------------------------------------------------------------------------------

def _peer_count(grid: list[int], peers: list[list[int]], limit: int) -> int:
    blanks = [c for c in range(81) if grid[c] == 0]
    if not blanks:
        return 1
    best, options = -1, None
    for c in blanks:
        opts = set(range(1, 10)) - {grid[p] for p in peers[c]}
        if options is None or len(opts) < len(options):
            best, options = c, opts
            if len(opts) <= 1:
                break
    total = 0
    for d in options:
        grid[best] = d
        total += _peer_count(grid, peers, limit - total)
        if total >= limit:
            break
    grid[best] = 0
    return total


def peer_carve(board, seed: int) -> list[int]:
    n = 9
    houses = ([[r * n + c for c in range(n)] for r in range(n)] + [[r * n + c for r in range(n)] for c in range(n)]
              + [[(br * 3 + i) * n + bc * 3 + j for i in range(3) for j in range(3)]
                 for br in range(3) for bc in range(3)])
    peers = [sorted({x for h in houses if c in h for x in h} - {c}) for c in range(81)]
    puzzle = [int(v) for v in board]
    order = list(range(81))
    random.Random(seed).shuffle(order)
    for c in order:
        d, puzzle[c] = puzzle[c], 0
        if _peer_count(puzzle, peers, 2) != 1:
            puzzle[c] = d
    return puzzle


# --- measurements --------------------------------------------------------------------------------------------



def histogram(clues: np.ndarray) -> str:
    values, counts = np.unique(clues, return_counts=True)
    scale = 50 / counts.max()
    return "\n".join(f"  {v:3d} {c / clues.size:6.1%} {'#' * max(1, round(c * scale))}" for v, c in zip(values, counts))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer boards and repeats")
    ap.add_argument("--boards", type=int, default=None, help="9x9 boards for the rate (default 2000, quick 300)")
    ap.add_argument("--dist", type=int, default=None, help="9x9 boards for the clue distribution (default 5000, "
                                                           "quick 500)")
    ap.add_argument("--repeats", type=int, default=None, help="timed runs per rate (default 5, quick 3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--node-limits", action="store_true", help="also time 25x25 under several node limits (slow)")
    ap.add_argument("--metrics-tail", type=int, default=40, help="25x25 boards whose metrics solve is reported "
                    "(the tail: median, 90th percentile, max, how many were cut at the bound; default 40)")
    args = ap.parse_args()
    count = args.boards or (300 if args.quick else 2000)
    dist = args.dist or (500 if args.quick else 5000)
    repeats = args.repeats or (3 if args.quick else 5)

    warm()
    boards = random_boards(3, max(count, dist), args.seed)
    seeds = np.arange(len(boards))
    wall, cpu = timed(lambda: carve_many(boards[:count], 3, seeds[:count]), repeats)
    rate = count / wall
    print(f"carving {count} random 9x9 boards into minimal puzzles, median of {repeats} runs:")
    print(f"  {rate:,.0f} boards/s (wall), {count / cpu:,.0f} boards/s (CPU)")

    halves = np.array_split(np.arange(count), 2)

    def two():
        threads = [threading.Thread(target=carve_many, args=(boards[h], 3, seeds[h])) for h in halves]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    two_wall, two_cpu = timed(two, repeats)
    print(f"  2 threads: {count / two_wall:,.0f} boards/s (wall), speed-up x{wall / two_wall:.2f}; they got "
          f"{two_cpu / two_wall:.2f} of {os.cpu_count()} shared CPUs; per CPU second they do x{cpu / two_cpu:.2f} "
          f"the work of 1 thread")

    results = carve_many(boards[:dist], 3, seeds[:dist])
    clues = np.array([r.clues for r in results])
    tests = np.array([r.checks for r in results])
    print(f"\nclue counts over {dist} boards (no symmetry, 1 attempt): mean {clues.mean():.2f}, sd "
          f"{clues.std():.2f}, range {clues.min()}..{clues.max()}, {tests.mean():.0f} removal tests per board")
    print(histogram(clues))

    sub = boards[: min(count, 500)]
    rows = []
    for symmetry in SYMMETRIES:
        w, _ = timed(lambda: carve_many(sub, 3, seeds[: len(sub)], symmetry=symmetry), 1)
        c = np.array([r.clues for r in carve_many(sub, 3, seeds[: len(sub)], symmetry=symmetry)])
        rows.append([symmetry, len(sub) / w, c.mean(), c.std(), f"{c.min()}..{c.max()}"])
    few = sub[: 50 if args.quick else 200]
    for attempts in (5, 20):
        w, _ = timed(lambda: carve_many(few, 3, seeds[: len(few)], attempts=attempts), 1)
        c = np.array([r.clues for r in carve_many(few, 3, seeds[: len(few)], attempts=attempts)])
        rows.append([f"none, {attempts} attempts", len(few) / w, c.mean(), c.std(), f"{c.min()}..{c.max()}"])
    print()
    print(tabulate(rows, headers=["symmetry", "boards/s (wall)", "mean clues", "sd", "range"],
                   floatfmt=(None, ",.0f", ".2f", ".2f")))

    rows = []
    for box, k in ((4, 3 if args.quick else 8), (5, 1 if args.quick else 3)):
        big = random_boards(box, k, args.seed)
        times, cl, undecided = [], [], []
        for i, b in enumerate(big):
            r = carve_many(b[None, :], box, [i])[0]
            times.append(r.seconds)
            cl.append(r.clues)
            undecided.append(r.undecided)
        rows.append([f"{box * box}x{box * box}", k, statistics.median(times), max(times), np.mean(cl),
                     np.mean(undecided)])
    print()
    print(tabulate(rows, headers=["size", "boards", "median s", "max s", "mean clues", "undecided tests"],
                   floatfmt=(None, None, ".3f", ".3f", ".1f", ".1f")))

    # the tail of the solve that measures each carved puzzle: bounded at METRICS_NODE_LIMIT nodes (issue 11)
    from engine.carve.carver import METRICS_NODE_LIMIT

    count = 5 if args.quick else args.metrics_tail
    results = carve_many(random_boards(5, count, args.seed + 2), 5, list(range(count)))
    nodes = np.array([r.metrics.nodes for r in results])
    seconds = np.array([r.metrics.seconds for r in results])
    cut = sum(not r.metrics_complete for r in results)
    print()
    print(f"metrics solve of {count} carved 25x25 puzzles (bounded at {METRICS_NODE_LIMIT:,} nodes): nodes median "
          f"{int(np.median(nodes)):,}, 90th percentile {int(np.percentile(nodes, 90)):,}, max {int(nodes.max()):,}; "
          f"seconds median {np.median(seconds):.3f}, max {seconds.max():.3f}; cut at the bound: {cut} of {count}")

    if args.node_limits:
        b = random_boards(5, 1, args.seed + 1)
        rows = []
        for limit in (500, 2000, 20000, 200000):
            r = carve_many(b, 5, [0], node_limit=limit)[0]
            rows.append([limit, r.seconds, r.clues, r.undecided])
        print("\n25x25, one board, node limit per removal test:")
        print(tabulate(rows, headers=["node limit", "seconds", "clues", "undecided tests"], floatfmt=".2f"))

    k = 2 if args.quick else 5
    t = time.perf_counter()
    peer = [peer_carve(b, i) for i, b in enumerate(boards[:k])]
    peer_rate = k / (time.perf_counter() - t)
    for p in peer:
        assert fast.count_many(np.array([p], np.int8), 3, 2)[0] == 1
    print(f"\npure-Python carver ({k} boards): {peer_rate:.2f} boards/s; fast carving is x{rate / peer_rate:,.0f}")


if __name__ == "__main__":
    main()
