"""Would restarts cut the removal tests' heavy tail? Each search of a carving, again under random value orders.

    python bench/carve_restarts.py [--box 4] [--boards 10] [--orders 6] [--cap 20000] [--order random]

Replays the carver on random boards (:func:`carve_tests.replay`: its own removal order, ``--order`` random or
spread, default the carver's for the size; its own tests) and, for every
removal test that needed a search, runs the same search again under ``--orders`` random value orders (the digit
tried first at a branch drawn at random for each cell, where the carver tries the board's digit), each stopped at
``--cap`` nodes. From those node counts it prices restart schedules offline: run the board-first search up to a
node limit, then a random order up to the next limit, and so on, and at the end the board-first search without a
limit (a test that passes must finish one search to prove it). A failing test stops at the first run that finds
its second solution. Prints the nodes of every schedule against the carver's single board-first search, and the
nodes if an oracle picked the best of the orders for each test (a bound no portfolio of these orders can beat).

A developer's tool (the benchmarks diary in git: `git show eb9b7e6:docs/benchmarks.md`, "The order of removal");
it prints no target.
"""
from __future__ import annotations

import argparse
import os

import numpy as np

import _common  # noqa: F401  (first: it enables the kernel cache before kernels load)
from carve_tests import replay
from engine.carve import DEFAULT_ORDER
from engine.carve._removal import _cellmask_test
from engine.generators import generate_many
from engine.solvers import fast
from engine.solvers._stats import NODES

SCHEDULES = ([200], [1000], [300, 300], [200, 400], [500, 500, 500], [300, 300, 600, 1200],
             [256, 256, 512, 256, 256, 512, 1024])


def search_nodes(s, n: int, puzzle: np.ndarray, prefer: np.ndarray, cell: int, digit: int, cap: int) -> tuple[int, int]:
    """(verdict, nodes) of the carver's removal search for ``cell`` (blank in ``puzzle``), trying ``prefer``'s digit
    first at each branch: 0 a second solution found, 1 none, -1 stopped at ``cap`` nodes."""
    hmask = np.zeros_like(s.hmask)
    for x in np.flatnonzero(puzzle):
        for k in range(3):
            hmask[s.cell_houses[x, k]] |= 1 << (int(puzzle[x]) - 1)
    s.stats[:] = 0
    verdict = _cellmask_test(puzzle.copy(), prefer, cell, np.int64(1 << (digit - 1)), n, cap, s.cell_houses, s.peers,
                             s.houses, hmask, s.work, s.queue, s.stack, s.branch, s.solution, s.stats, s.no_trace,
                             s.ntrace, s.shown, None)
    return int(verdict), int(s.stats[NODES])


def schedule_nodes(runs: list[int], limits: list[int]) -> int:
    """Nodes a test costs under a restart schedule: ``runs[k]`` is what run k needs to decide (0: board-first; a
    passing test's run decides too, by finishing its proof within the limit)."""
    total = 0
    for k, limit in enumerate(limits):
        if runs[k] <= limit:
            return total + runs[k]
        total += limit
    return total + runs[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--box", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--boards", type=int, default=10)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--orders", type=int, default=6)
    parser.add_argument("--cap", type=int, default=20000)
    parser.add_argument("--order", choices=("random", "spread"), default=None)
    args = parser.parse_args()
    n = args.box * args.box
    boards = np.stack([b.cells for b in generate_many(args.box, count=args.boards, seed=args.seed)])
    s = fast.scratch(args.box)
    rng = np.random.default_rng(1)
    load = os.getloadavg()[0]
    tests = []  # (fails, [board-first nodes, random order nodes...])
    for i, board in enumerate(boards):
        rows = replay(board, args.box, i, s, order=args.order)
        puzzle = board.copy()
        for _, verdict, nodes, _, cell in rows:
            puzzle[cell] = 0
            if nodes > 0:
                digit = int(board[cell])
                runs = []
                for k in range(args.orders + 1):
                    prefer = board if k == 0 else rng.integers(1, n + 1, size=board.size).astype(board.dtype)
                    v, used = search_nodes(s, n, puzzle, prefer, cell, digit, args.cap)
                    runs.append(used if v >= 0 else 10 * args.cap)  # stopped: dearer than any schedule's limits
                tests.append((verdict == 0, runs))
            if verdict != 1:
                puzzle[cell] = board[cell]
    nfail = sum(f for f, _ in tests)
    base = sum(r[0] for _, r in tests)
    print(f"carve_restarts: {args.boards} {n}x{n} boards, {args.order or DEFAULT_ORDER[args.box]} order "
          f"(load {load:.2f}); {len(tests)} tests searched "
          f"({nfail} failing, {len(tests) - nfail} passing), {args.orders} random orders each")
    print(f"  the carver (board first, one search):   {base:>12,} nodes")
    for limits in (x for x in SCHEDULES if len(x) <= args.orders + 1):
        total = sum(schedule_nodes(r, limits) for _, r in tests)
        print(f"  restarts at {str(limits):<36} {total:>12,} nodes  x{base / total:.2f}")
    oracle = sum(min(r) if f else r[0] for f, r in tests)
    print(f"  an oracle's best order for each failing test: {oracle:>6,} nodes  x{base / oracle:.2f}")


if __name__ == "__main__":
    main()
