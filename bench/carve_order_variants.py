"""Removal orders the carver does not use, and postponing costly tests: their nodes, clues and undecided tests.

    python bench/carve_order_variants.py [--box 4] [--boards 20] [--seed 5] [--node-limit 0]
    python bench/carve_order_variants.py --box 5 --boards 4 --postpone 2000,20000

Replays a carving from Python with the carver's removal test (``_removal_keeps_unique``, as :mod:`carve_tests`
does), choosing each next cell by one of several rules (ties broken in a random order):

- ``random``: the carver's random order (not its stream: numpy's, here);
- ``spread``: the most clued peers first (the carver's ``spread`` order);
- ``fewest clued peers``: the opposite (blank areas grow into empty regions);
- ``reading order``;
- ``densest box``, ``clues of the houses`` (the cell's three houses' clue counts summed), ``smoothed density``
  (the peers' own clued-peer counts as a second key), ``untested peers``.

With ``--postpone L1,L2,..`` it instead carves in the ``spread`` order with a node limit of L1 a test, tests the
clues left undecided again at the end with L2 (on the sparser puzzle), and so on (0: no limit).
Prints nodes a board (the time is not: the Python around each test is most of it on small grids), mean clues and
undecided tests a board. A developer's tool (the benchmarks diary in git: `git show eb9b7e6:docs/benchmarks.md`,
"The order of removal"); it prints no target.
"""
from __future__ import annotations

import argparse
import os

import numpy as np

import _common  # noqa: F401  (first: it enables the kernel cache before kernels load)
from engine.carve._removal import _removal_keeps_unique
from engine.carve._unavoidable import MAX_CYCLE, MAX_SETS, board_sets
from engine.generators import generate_many
from engine.solvers import fast
from engine.solvers._stats import NODES


def _clued(puzzle, cells, s):
    return (puzzle[s.peers[cells]] > 0).sum(axis=1)


def _house_clues(puzzle, s):
    return (puzzle[s.houses] > 0).sum(axis=1)


RULES = {
    "random": lambda puzzle, cells, untested, s: np.zeros(cells.size),
    "spread": lambda puzzle, cells, untested, s: _clued(puzzle, cells, s),
    "fewest clued peers": lambda puzzle, cells, untested, s: -_clued(puzzle, cells, s),
    "reading order": lambda puzzle, cells, untested, s: -cells.astype(float),
    "densest box": lambda puzzle, cells, untested, s: (_house_clues(puzzle, s)[s.cell_houses[cells, 2]] * 1000
                                                       + _clued(puzzle, cells, s)),
    "clues of the houses": lambda puzzle, cells, untested, s: _house_clues(puzzle, s)[s.cell_houses[cells]].sum(1),
    "smoothed density": lambda puzzle, cells, untested, s: (
        _clued(puzzle, cells, s) * 40 + (puzzle[s.peers] > 0).sum(axis=1)[s.peers[cells]].sum(axis=1)),
    "untested peers": lambda puzzle, cells, untested, s: untested[s.peers[cells]].sum(axis=1),
}


def carve(board, box, seed, s, rule, limits):
    """(nodes, clues, undecided) of carving ``board`` choosing cells by ``rule``, with the node limits ``limits``
    (more than one: the undecided tests are tried again with the next)."""
    n = box * box
    rng = np.random.default_rng(seed)
    sets = np.empty((MAX_SETS, 2 * MAX_CYCLE), np.int64)
    sizes = np.empty(MAX_SETS, np.int64)
    cell_sets = np.empty(board.size, np.int64)
    board_sets(board, n, box, sets, sizes, cell_sets, np.empty(n + 1, np.int64))
    puzzle = board.copy()
    s.hmask[:] = (1 << n) - 1
    orbit = np.zeros(1, np.int64)
    nodes = 0
    tie = rng.random(board.size) * 0.5  # scores are whole numbers: this only breaks ties
    todo = np.arange(board.size)
    for limit in limits:
        untested = np.zeros(board.size, bool)
        untested[todo] = True
        later = []
        while untested.any():
            cells = np.flatnonzero(untested)
            c = int(cells[np.argmax(rule(puzzle, cells, untested, s) + tie[cells])])
            untested[c] = False
            bit = 1 << (int(board[c]) - 1)
            puzzle[c] = 0
            for k in range(3):
                s.hmask[s.cell_houses[c, k]] ^= bit
            orbit[0] = c
            s.stats[:] = 0
            verdict = _removal_keeps_unique(puzzle, board, orbit, 1, n, limit, s.cell_houses, s.peers, s.houses,
                                            s.hmask, s.work, s.queue, s.stack, s.branch, s.solution, s.stats,
                                            s.no_trace, s.ntrace, s.shown, s.bands, sets, sizes, cell_sets)
            nodes += int(s.stats[NODES])
            if verdict != 1:
                puzzle[c] = board[c]
                for k in range(3):
                    s.hmask[s.cell_houses[c, k]] ^= bit
                if verdict < 0:
                    later.append(c)
        todo = np.array(later, dtype=np.int64)
    return nodes, int((puzzle > 0).sum()), len(todo)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--box", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--node-limit", type=int, default=None, help="default: the carver's for the size")
    parser.add_argument("--postpone", default=None, help="node limits of successive passes, e.g. 300,0")
    args = parser.parse_args()
    from engine.carve import DEFAULT_NODE_LIMIT

    n = args.box * args.box
    limit = DEFAULT_NODE_LIMIT[args.box] if args.node_limit is None else args.node_limit
    boards = np.stack([b.cells for b in generate_many(args.box, count=args.boards, seed=args.seed)])
    s = fast.scratch(args.box)
    if args.postpone:
        runs = [(f"spread, limits {args.postpone}", RULES["spread"], [int(x) for x in args.postpone.split(",")]),
                (f"spread, limit {limit}", RULES["spread"], [limit])]
    else:
        runs = [(name, rule, [limit]) for name, rule in RULES.items()]
    print(f"carve_order_variants: {args.boards} {n}x{n} boards (load {os.getloadavg()[0]:.2f})")
    for name, rule, limits in runs:
        got = np.array([carve(board, args.box, i, s, rule, limits) for i, board in enumerate(boards)])
        print(f"  {name:<28} {got[:, 0].mean():11,.0f} nodes a board, clues {got[:, 1].mean():6.1f}, "
              f"undecided {got[:, 2].mean():6.1f}", flush=True)


if __name__ == "__main__":
    main()
