"""Big-grid carving against a CDCL SAT solver: could clause learning decide the removal tests our search cannot?

    python bench/bench_sat_carve.py [--box 5] [--boards 2] [--seed 1] [--solver cadical153] [--hybrid]

Issue 11 asks for 16x16 carving at 100 boards per core-second and for 25x25 carving with every removal test
decided (proven minimal) at one board per core-second. Our carver's search decides 16x16 tests at about 40 boards
per second and leaves about 220 tests a 25x25 board undecided at its node limit. This bench asks whether a
state-of-the-art general solver would do better, as a peer run side by side (needs ``pip install python-sat``,
in the ``bench`` extra).

For each random board (the fill's generator), in the carver's random removal order (its xorshift stream for the
board's seed, no symmetry; ``order="random"``, which the big grids no longer use by default: the SAT carving
follows a fixed order, and both sides must take the same one):

- **ours**: ``engine.carve.carve`` with its default node limit (none on 16x16, 2,000 nodes a test on 25x25);
- **SAT**: one incremental solver per board holding the board's constraints (one digit a cell, each digit once
  in each house), with the board's digits as preferred phases. Each removal test asks for a solution with the
  tested cell's digit ruled out, the clues not yet tested as assumptions; a clue that must stay is added as a
  unit clause. Learnt clauses carry over from test to test. Every test is decided (no limit), so the puzzle is
  proven minimal.

With ``--hybrid``, a third carving: our tests with the default node limit, and the SAT solver only for the tests
they leave undecided (on 25x25), in the same order; it gives the SAT carving's puzzle.

Printed: CPU seconds a board for each, the clues, the undecided tests (ours), and how the SAT solver's time is
spread over the tests (median, 99th percentile, the slowest, the share of the ten slowest). The load average is
printed before every board. The SAT puzzle's clues equal ours where ours decided every test (16x16), which
checks the encoding.
"""
from __future__ import annotations

import argparse
import itertools
import os
import statistics
import time

import numpy as np

import _common  # noqa: F401  (first: it enables the kernel cache before kernels load)
import carve_tests
from engine.carve import DEFAULT_NODE_LIMIT, carve
from engine.generators import generate_many
from engine.geometry import geometry
from engine.solvers import fast


def clauses(box: int) -> list[list[int]]:
    """CNF of a valid grid: variable ``cell * n + digit`` (digit 0-based, +1) is "digit in cell"."""
    geo = geometry(box)
    n = geo.size

    def var(c, d):
        return int(c) * n + d + 1

    out = []
    for c in range(geo.ncells):
        out.append([var(c, d) for d in range(n)])
        out.extend([-var(c, a), -var(c, b)] for a, b in itertools.combinations(range(n), 2))
    for house in geo.houses:
        for d in range(n):
            out.append([var(c, d) for c in house])
            out.extend([-var(a, d), -var(b, d)] for a, b in itertools.combinations(house, 2))
    return out


def _solver(board: np.ndarray, box: int, base: list[list[int]], name: str):
    """A SAT solver holding ``base``, the board's digits as its preferred phases, and each cell's literal "the
    board's digit is here" (a list, by cell)."""
    from pysat.solvers import Solver

    n = box * box
    lit = [c * n + int(board[c]) for c in range(board.size)]
    solver = Solver(name=name, bootstrap_with=base)
    solver.set_phases(lit)
    return solver, lit


def sat_carve(board: np.ndarray, box: int, seed: int, base: list[list[int]], name: str):
    """Carve ``board`` in the carver's order for ``seed``, deciding every removal test with the SAT solver
    ``name``: (clues, test times)."""
    solver, lit = _solver(board, box, base, name)
    state = np.zeros(board.size, np.int8)  # 0 untested, 1 removed, 2 kept
    times = []
    for c in (int(x) for x in carve_tests.carve_order(board.size, seed)):
        assumptions = [lit[x] for x in range(board.size) if state[x] == 0 and x != c] + [-lit[c]]
        t0 = time.process_time()
        second = solver.solve(assumptions=assumptions)
        times.append(time.process_time() - t0)
        if second:
            state[c] = 2
            solver.add_clause([lit[c]])
        else:
            state[c] = 1
    solver.delete()
    return int((state == 2).sum()), np.array(times)


def hybrid_carve(board: np.ndarray, box: int, seed: int, base: list[list[int]], name: str):
    """Our carver's tests (its default node limit), and the SAT solver for the tests they leave undecided:
    (clues, the SAT calls' times). The SAT solver sees only those tests, each with the puzzle as it stands."""
    solver, lit = _solver(board, box, base, name)
    times = []

    def decide(puzzle, cell):
        assumptions = [lit[x] for x in np.flatnonzero(puzzle) if x != cell] + [-lit[cell]]
        t0 = time.process_time()
        second = solver.solve(assumptions=assumptions)
        times.append(time.process_time() - t0)
        return 0 if second else 1

    rows = carve_tests.replay(board, box, seed, fast.scratch(box), DEFAULT_NODE_LIMIT[box], decide, order="random")
    solver.delete()
    clues = board.size - sum(1 for row in rows if row[1] == 1)
    return clues, np.array(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--box", type=int, default=5, choices=(3, 4, 5))
    parser.add_argument("--boards", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--solver", default="cadical153", help="a python-sat solver name")
    parser.add_argument("--hybrid", action="store_true",
                        help="also carve with our tests first and SAT only for the tests they leave undecided")
    args = parser.parse_args()
    n = args.box * args.box
    boards = np.stack([b.cells for b in generate_many(args.box, count=args.boards, seed=args.seed)])
    carve(boards[0], args.box, 0, order="random")  # kernels compiled or loaded before timing
    base = clauses(args.box)
    print(f"bench_sat_carve: {args.boards} {n}x{n} boards, SAT solver {args.solver} (python-sat), "
          f"{len(base):,} clauses; CPU seconds a board")
    ours_s, sat_s, hybrid_s = [], [], []
    for i, board in enumerate(boards):
        seed = args.seed + i
        load = os.getloadavg()[0]
        t0 = time.process_time()
        ours = carve(board, args.box, seed, order="random")
        ours_s.append(time.process_time() - t0)
        t0 = time.process_time()
        clues, times = sat_carve(board, args.box, seed, base, args.solver)
        sat_s.append(time.process_time() - t0)
        slowest = np.sort(times)[::-1]
        print(f"board {i} (load {load:.2f}): ours {ours_s[-1]:8.3f} s, {ours.clues} clues, {ours.undecided} "
              f"undecided | SAT {sat_s[-1]:8.2f} s, {clues} clues, 0 undecided; a test: median "
              f"{np.median(times) * 1e3:.2f} ms, p99 {np.percentile(times, 99) * 1e3:.1f} ms, slowest "
              f"{slowest[0]:.2f} s, the ten slowest {slowest[:10].sum() / times.sum():.0%} of the time")
        if args.hybrid and ours.undecided:
            t0 = time.process_time()
            clues, times = hybrid_carve(board, args.box, seed, base, args.solver)
            hybrid_s.append(time.process_time() - t0)
            print(f"  hybrid: ours, then SAT for the {len(times)} tests ours left undecided: {hybrid_s[-1]:8.2f} s, "
                  f"{clues} clues, 0 undecided; the SAT calls {times.sum():.2f} s, median "
                  f"{np.median(times) * 1e3:.1f} ms, slowest {times.max():.2f} s")
    print(f"median: ours {statistics.median(ours_s):.3f} s a board, SAT {statistics.median(sat_s):.2f} s a board "
          f"(x{statistics.median(sat_s) / statistics.median(ours_s):.0f} ours)"
          + (f", hybrid {statistics.median(hybrid_s):.2f} s" if hybrid_s else ""))


if __name__ == "__main__":
    main()
