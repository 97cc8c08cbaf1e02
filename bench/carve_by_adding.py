"""Carving the other way round: add clues where a second solution exists, then minimize with what was learnt.

    python bench/carve_by_adding.py [--box 4] [--boards 10] [--seed 5] [--order random]

The carver removes clues from the full board, and the removal tests that fail (the clue stays) are most of its
time on 16x16: each must find a second solution of a nearly minimal puzzle. This script tries the reverse order,
to see whether it is cheaper. From an empty grid, in a random order of cells, each cell is tested (the carver's
own test, ``_removal_keeps_unique``): when a solution with another digit there exists, the board's digit becomes a
clue and the cells where that solution differs from the board are kept as an unavoidable set; when none does, the
cell is already determined. The puzzle is then unique but not minimal, so each clue is tested for removal in a
random order, and a clue that is the only clue left in one of the known sets stays without a search (every
failing test adds its set too). The result is minimal: every clue kept failed a test or is alone in a set.

Prints, per board, the carver's test time and clues (:func:`carve_tests.replay`, in ``--order``, default the
carver's for the size) beside this scheme's (adding,
then minimizing), how many clues stayed without a search, and the tests and nodes. A developer's tool
(the benchmarks diary in git: `git show eb9b7e6:docs/benchmarks.md`, "The order of removal"); it prints no
target.
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np

import _common  # noqa: F401  (first: it enables the kernel cache before kernels load)
from carve_tests import replay
from engine.carve import DEFAULT_ORDER
from engine.carve._removal import _removal_keeps_unique
from engine.carve._unavoidable import MAX_CYCLE, MAX_SETS
from engine.generators import generate_many
from engine.solvers import fast
from engine.solvers._stats import NODES


class Tester:
    """The carver's removal test on one board, counting tests, nodes and seconds; the witness of a failing one."""

    def __init__(self, board: np.ndarray, box: int, s) -> None:
        self.board, self.n, self.s = board, box * box, s
        # no precomputed small sets: the sets this scheme uses are the witnesses it finds
        self.sets = np.zeros((MAX_SETS, 2 * MAX_CYCLE), np.int64)
        self.sizes = np.zeros(MAX_SETS, np.int64)
        self.cell_sets = np.zeros(board.size, np.int64)
        self.orbit = np.zeros(1, np.int64)
        self.tests = self.nodes = 0
        self.seconds = 0.0

    def __call__(self, puzzle: np.ndarray, cell: int) -> np.ndarray | None:
        """None when ``cell`` (blank in ``puzzle``) holds the board's digit in every solution, else the cells where
        a solution with another digit there differs from the board."""
        s = self.s
        self.orbit[0] = cell
        s.stats[:] = 0
        t0 = time.perf_counter()
        verdict = _removal_keeps_unique(puzzle, self.board, self.orbit, 1, self.n, 0, s.cell_houses, s.peers,
                                        s.houses, s.hmask, s.work, s.queue, s.stack, s.branch, s.solution, s.stats,
                                        s.no_trace, s.ntrace, s.shown, s.bands, self.sets, self.sizes,
                                        self.cell_sets)
        self.seconds += time.perf_counter() - t0
        self.tests += 1
        self.nodes += int(s.stats[NODES])
        if verdict == 1:
            return None
        assert s.solution[cell] != self.board[cell]
        return np.flatnonzero(s.solution != self.board)

    def mark(self, cell: int, on: bool) -> None:
        """Set or clear the board's digit at ``cell`` in the house masks the test reads."""
        bit = 1 << (int(self.board[cell]) - 1)
        for k in range(3):
            h = self.s.cell_houses[cell, k]
            self.s.hmask[h] = self.s.hmask[h] | bit if on else self.s.hmask[h] & ~bit


def carve_by_adding(board: np.ndarray, box: int, seed: int, s) -> tuple[np.ndarray, dict]:
    """A minimal puzzle of ``board`` by adding, then removing; and what it cost."""
    rng = np.random.default_rng(seed)
    test = Tester(board, box, s)
    puzzle = np.zeros_like(board)
    s.hmask[:] = 0
    sets: list[np.ndarray] = []
    cell_sets: list[list[int]] = [[] for _ in range(board.size)]

    def learn(witness: np.ndarray) -> None:
        for x in witness:
            cell_sets[x].append(len(sets))
        sets.append(witness)

    for cell in rng.permutation(board.size):
        witness = test(puzzle, cell)
        if witness is not None:
            puzzle[cell] = board[cell]
            test.mark(cell, True)
            learn(witness)
    cost = {"added": int((puzzle > 0).sum()), "add_seconds": test.seconds, "free": 0}
    clues_in = [int((puzzle[w] > 0).sum()) for w in sets]
    for cell in rng.permutation(np.flatnonzero(puzzle)):
        if any(clues_in[k] == 1 for k in cell_sets[cell]):
            cost["free"] += 1
            continue
        puzzle[cell] = 0
        test.mark(cell, False)
        witness = test(puzzle, cell)
        if witness is None:
            for k in cell_sets[cell]:
                clues_in[k] -= 1
                assert clues_in[k] > 0, "a known unavoidable set lost its last clue, yet the test passed"
        else:
            puzzle[cell] = board[cell]
            test.mark(cell, True)
            clues_in.append(1)
            learn(witness)
    cost.update(seconds=test.seconds, tests=test.tests, nodes=test.nodes)
    return puzzle, cost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--box", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--boards", type=int, default=10)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--order", choices=("random", "spread"), default=None)
    args = parser.parse_args()
    n = args.box * args.box
    boards = np.stack([b.cells for b in generate_many(args.box, count=args.boards, seed=args.seed)])
    s = fast.scratch(args.box)
    replay(boards[0], args.box, 0, s)  # kernels compiled or loaded before timing
    carve_by_adding(boards[0], args.box, 0, s)
    load = os.getloadavg()[0]
    ours = theirs = 0.0
    order = args.order or DEFAULT_ORDER[args.box]
    print(f"carve_by_adding: {args.boards} {n}x{n} boards, the carver in the {order} order (load {load:.2f})")
    for i, board in enumerate(boards):
        rows = replay(board, args.box, i, s, order=args.order)
        seconds = sum(r[3] for r in rows)
        clues = board.size - sum(r[1] == 1 for r in rows)
        puzzle, cost = carve_by_adding(board, args.box, i, s)
        ours += seconds
        theirs += cost["seconds"]
        print(f"  board {i}: the carver {seconds * 1e3:6.1f} ms, {clues} clues | adding "
              f"{cost['add_seconds'] * 1e3:5.1f} ms ({cost['added']} clues), in all {cost['seconds'] * 1e3:6.1f} ms, "
              f"{int((puzzle > 0).sum())} clues, {cost['free']} kept without a search, {cost['tests']} tests, "
              f"{cost['nodes']:,} nodes")
    print(f"  a board: the carver {ours / args.boards * 1e3:.1f} ms, adding then minimizing "
          f"{theirs / args.boards * 1e3:.1f} ms (x{ours / theirs:.2f})")


if __name__ == "__main__":
    main()
