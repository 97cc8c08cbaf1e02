"""Where a carving's time goes, test by test: which removal tests pass or fail, their nodes and their time.

    python bench/carve_tests.py [--box 4] [--boards 40] [--seed 5] [--order spread] [--witnesses [--digits 3]]

Replays the carver on random boards (the fill's generator), in its own removal order (no symmetry; ``--order``
random or spread, default the carver's for the size), calling the
carver's removal test (``_removal_keeps_unique``, the kernel ``carve`` runs) once per cell from Python, so each
test's nodes and time can be read. The puzzles are the carver's: a test is the same call with the same state.
Prints, per board: the tests that fail (the clue stays: a second solution was found) and pass (the clue goes),
their share of the time, their nodes (median, 99th percentile, most); how concentrated the time is in the
costliest tests; and the time by eighth of the carving. The Python around each test is included. With
``--witnesses``, a second replay describes the second solutions the failing tests found (:func:`witnesses`).

A developer's tool for finding what to speed up (the benchmarks diary in git: `git show
eb9b7e6:docs/benchmarks.md`, "A stronger removal test"); it prints no target.
"""
from __future__ import annotations

import argparse
import collections
import itertools
import os
import time

import numpy as np

import _common  # noqa: F401  (first: it enables the kernel cache before kernels load)
from engine.carve._kernel import _shuffle
from engine.carve._removal import _removal_keeps_unique
from engine.carve._unavoidable import MAX_CYCLE, MAX_SETS, board_sets
from engine.carve.carver import DEFAULT_ORDER, POSTPONE_AFTER, orbits, stream_state
from engine.generators import generate_many
from engine.solvers import fast
from engine.solvers._stats import NODES


def carve_order(ncells: int, seed: int) -> np.ndarray:
    """The order in which the carver tries the cells of a board with ``seed`` (no symmetry: one cell an orbit)."""
    order = np.zeros(ncells, np.int64)
    _shuffle(order, np.array([stream_state(seed)], np.int64))
    return order


def replay(board: np.ndarray, box: int, seed: int, s, node_limit: int = 0, decide=None,
           found=None, order: str | None = None) -> list[tuple[int, int, int, float]]:
    """(step, verdict, nodes, seconds, cell) of each removal test of carving ``board`` with ``seed``, in ``order``
    ("random" or "spread"; default the carver's for the size, ``DEFAULT_ORDER``).

    A test that hits ``node_limit`` nodes (0: none) is undecided (-1) and keeps its clue, as in the carver, unless
    ``decide(puzzle, cell)`` is given: then its answer (1: the clue goes, 0: it stays) is the verdict.
    ``found(step, puzzle, cell, solution, nodes)``, if given, sees each second solution a search found."""
    n, ncells = box * box, board.size
    table, _ = orbits(box, "none")
    sets = np.empty((MAX_SETS, 2 * MAX_CYCLE), np.int64)
    sizes = np.empty(MAX_SETS, np.int64)
    cell_sets = np.empty(ncells, np.int64)
    board_sets(board, n, box, sets, sizes, cell_sets, np.empty(n + 1, np.int64))
    shuffled = carve_order(ncells, seed)
    spread = (order or DEFAULT_ORDER[box]) == "spread"
    seen = np.full(ncells, s.peers.shape[1], np.int64)  # the spread order's clue peers a cell (as the kernel's)
    untried = np.ones(ncells, bool)
    # the spread order's first round gives a test POSTPONE_AFTER nodes; those that need more go again at the end
    postpone = POSTPONE_AFTER[box] if spread else 0
    first = postpone if postpone > 0 and (node_limit == 0 or postpone < node_limit) else node_limit
    later: list[int] = []
    puzzle = board.copy()
    s.hmask[:] = (1 << n) - 1
    rows = []
    step = 0
    while step < ncells + len(later):
        if step < ncells:
            o = _spread_pick(shuffled, seen, untried) if spread else int(shuffled[step])
            untried[o] = False
            limit = first
        else:
            o = later[step - ncells]
            limit = node_limit
        here, step = step, step + 1
        c = int(table[o, 0])
        bit = 1 << (int(board[c]) - 1)
        puzzle[c] = 0
        for k in range(3):
            s.hmask[s.cell_houses[c, k]] ^= bit
        s.stats[:] = 0
        t0 = time.perf_counter()
        verdict = _removal_keeps_unique(puzzle, board, table[o], 1, n, limit, s.cell_houses, s.peers, s.houses,
                                        s.hmask, s.work, s.queue, s.stack, s.branch, s.solution, s.stats,
                                        s.no_trace, s.ntrace, s.shown, s.bands, sets, sizes, cell_sets)
        if verdict < 0 and limit != node_limit:
            later.append(o)  # postponed: the clue stays for now
        elif verdict < 0 and decide is not None:
            verdict = decide(puzzle, c)
        rows.append((here, int(verdict), int(s.stats[NODES]), time.perf_counter() - t0, c))
        if found is not None and verdict == 0 and s.stats[NODES] > 0 and s.solution[c] != board[c]:
            found(here, puzzle, c, s.solution.copy(), int(s.stats[NODES]))
        if verdict != 1:  # the clue stays
            puzzle[c] = board[c]
            for k in range(3):
                s.hmask[s.cell_houses[c, k]] ^= bit
        else:
            seen[s.peers[c]] -= 1
    return rows


def _spread_pick(shuffled: np.ndarray, seen: np.ndarray, untried: np.ndarray) -> int:
    """The spread order's next cell: the untried one that sees the most clues, the first in ``shuffled`` among
    equals (the kernel's ``_spread_pick`` with one cell an orbit)."""
    candidates = shuffled[untried[shuffled]]
    return int(candidates[np.argmax(seen[candidates])])



def witnesses(boards: np.ndarray, box: int, digits: int, costly: int, order: str | None = None) -> None:
    """What the second solutions that failing tests find look like: for the tests that took more than ``costly``
    nodes, how far the solution lies from the board and from the nearest earlier test's solution; for the failing
    tests of the carving's second half, whether a second solution exists that changes only 2..``digits`` digits
    of the board (a small search: the board's other digits stay where they are)."""
    far, near, by_digits, tested = [], [], collections.Counter(), 0
    s = fast.Scratch(box)  # a scratch of its own: exists_without, called in the replay, uses this thread's
    for i, board in enumerate(boards):
        earlier: list[np.ndarray] = []

        def found(step, puzzle, cell, solution, nodes):
            nonlocal tested
            if nodes > costly:
                far.append(int((solution != board).sum()))
                near.append(min((int((solution != e).sum()) for e in earlier), default=board.size))
            earlier.append(solution)
            if digits >= 2 and step >= board.size // 2:
                tested += 1
                d0 = int(board[cell])
                for k in range(2, digits + 1):
                    if any(_few_digit_witness(puzzle, board, box, cell, {d0, *others})
                           for others in itertools.combinations(
                               [d for d in range(1, box * box + 1) if d != d0], k - 1)):
                        by_digits[k] += 1
                        break

        replay(board, box, i, s, found=found, order=order)
    if far:
        print(f"  second solutions of the {len(far)} tests over {costly:,} nodes: median {np.median(far):.0f} cells "
              f"from the board, {np.median(near):.0f} from the nearest earlier test's")
    if tested:
        print(f"  failing tests in the carving's second half: {tested}; a second solution changing only "
              + ", ".join(f"{k} digits: {by_digits[k]}" for k in range(2, digits + 1))
              + f"; more digits: {tested - sum(by_digits.values())}")


def _few_digit_witness(puzzle, board, box, cell, digits) -> bool:
    """Whether a second solution exists that keeps every digit outside ``digits`` where the board has it."""
    restricted = puzzle.copy()
    keep = ~np.isin(board, list(digits))
    restricted[keep] = board[keep]
    return fast.exists_without(restricted, box, cell, int(board[cell]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--box", type=int, default=4, choices=(2, 3, 4, 5))
    parser.add_argument("--boards", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--order", choices=("random", "spread"), default=None,
                        help="the removal order (default: the carver's for the size)")
    parser.add_argument("--witnesses", action="store_true",
                        help="also describe the second solutions the failing tests find (a second replay)")
    parser.add_argument("--digits", type=int, default=3,
                        help="with --witnesses: look for second solutions changing 2..DIGITS digits (0: don't)")
    args = parser.parse_args()
    boards = np.stack([b.cells for b in generate_many(args.box, count=args.boards, seed=args.seed)])
    s = fast.scratch(args.box)
    replay(boards[0], args.box, 0, s)  # kernels compiled or loaded before timing
    load = os.getloadavg()[0]
    a = np.array([row for i, board in enumerate(boards) for row in replay(board, args.box, i, s, order=args.order)],
                 dtype=float)
    m = args.boards
    total = a[:, 3].sum()
    n = args.box * args.box
    order = args.order or DEFAULT_ORDER[args.box]
    print(f"carve_tests: {m} {n}x{n} boards, {order} order (load {load:.2f}): {total / m * 1e3:.2f} ms a board in the tests, "
          f"{a[:, 2].sum() / m:,.0f} nodes a board, {total / a[:, 2].sum() * 1e6:.3f} us a node")
    for verdict, name in ((0, "fail (clue stays)"), (1, "pass (clue goes)"), (-1, "postponed/undecided")):
        sel = a[:, 1] == verdict
        if not sel.any():
            continue
        nodes = a[sel, 2]
        print(f"  {name:<18} {sel.sum() / m:7.1f} a board, {a[sel, 3].sum() / total:4.0%} of the time; nodes: "
              f"median {np.median(nodes):,.0f}, p99 {np.percentile(nodes, 99):,.0f}, most {nodes.max():,.0f}")
    slowest = np.sort(a[:, 3])[::-1]
    print("  the costliest tests: " + ", ".join(
        f"{q:.0%} of them {slowest[:max(1, int(len(slowest) * q))].sum() / total:.0%} of the time"
        for q in (0.01, 0.05, 0.1)))
    ncells = boards.shape[1]
    eighth = ncells // 8
    print("  time by eighth of the carving: " + " ".join(
        f"{a[(a[:, 0] >= k) & (a[:, 0] < k + eighth), 3].sum() / total:.0%}" for k in range(0, ncells, eighth))
        + (f"; the second round {a[a[:, 0] >= ncells, 3].sum() / total:.0%}" if (a[:, 0] >= ncells).any() else ""))
    if args.witnesses:
        witnesses(boards, args.box, args.digits, 1000, args.order)


if __name__ == "__main__":
    main()
