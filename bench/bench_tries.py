"""One technique's compiled kernel on the grids the grader actually tries it on: CPU us a try.

    python bench/bench_tries.py chains-and-cycles [--count 1000] [--seed 7] [--levels expert,extreme] [--runs 5]
    python bench/bench_tries.py aligned-triple-exclusion --puzzles top1465.txt --count 60
    python bench/bench_tries.py x-wing --quick
    python bench/bench_tries.py chains-and-cycles --levels extreme --by-answer

The grids: puzzles (``--count`` random minimal 9x9 puzzles made as bench_grade makes them, or the first ``--count``
81-character lines of ``--puzzles``; with ``--levels`` only those the fast path grades at these levels) are solved
step by step on the Python path (engine.grade.grader.solve_logically), and the candidates are recorded each time
the technique is tried. Each grid is then given to the technique's kernel alone, in the order recorded (so a
technique that remembers its misses carries its memo from try to try, as in the grader), ``--runs`` times; the
median is printed with how many tries found a step, and a digest of every try's result, so that two versions of
a kernel can be compared for equal results as well as for time.

Kernels timed: chains-and-cycles, aligned-pair-exclusion, aligned-triple-exclusion, unique-loop, direct-pointing,
direct-claiming, x-wing, swordfish, jellyfish, and the forcing producers: nishio, multiple-forcing-chains,
dynamic-forcing-chains, dynamic-forcing-chains-plus. Why this script: a kernel's cost on grids that occur, apart from
everything the grader does around it, is what a change to it changes (the benchmarks diary in git:
`git show eb9b7e6:docs/benchmarks.md`, "Halfway forcing walks, remembered misses, fish by digit").

``--by-answer`` (chains-and-cycles only) also times each grid's search alone and groups the tries by what the
search concluded: the pass (X, Y, XY) and kind (cycle, forcing chain) of the conclusion, or a miss. It says which
answers the search's time goes to (`git show eb9b7e6:docs/benchmarks.md`, "Three orders of the static chain
search").

``--perfect-bound`` (chains-and-cycles only) times each grid's search twice in turn: as the grader runs it, and
started with its own answer as the bound (a chain rated as the answer with one state more), the tightest bound any
order of the search could reach early. It checks that both conclude the same and prints both times
(`git show eb9b7e6:docs/benchmarks.md`, "A perfect bound").
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _common  # noqa: E402,F401  (first: it enables the kernel cache before kernels load)
from bench_grade import make_puzzles  # noqa: E402
from bench_serate import read_set, to_array  # noqa: E402
from engine.geometry import geometry  # noqa: E402
from engine.grade import grade_many  # noqa: E402
from engine.grade.kernels import aligned as aligned_kernel, fish as fish_kernel, locked, misses  # noqa: E402
from engine.grade.kernels import unique_loops  # noqa: E402
from engine.grade.kernels.chains import cycles, forcing as forcing_kernel  # noqa: E402
from engine.grade.kernels.chains.space import shared_space  # noqa: E402
from engine.grade.kernels.state import _places_table, grader_units  # noqa: E402
from engine.grade.grader import solve_logically  # noqa: E402
from engine.grade.state import State  # noqa: E402
from engine.grade.techniques import REGISTRY  # noqa: E402
from engine.grade.techniques import INDEX  # noqa: E402
from engine.vocabulary import STEP_PATH_ONLY  # noqa: E402


def nine_by_nine():
    """The 9x9 grid's shape as the chain kernels read it: ``(geometry, n, cell_houses, sees)``, the houses' bitsets
    made once, as the grader does."""
    g = geometry(3)
    ch = grader_units(g)
    return g, g.size, ch, cycles.cycle_sees(g.houses, ch, g.houses.shape[1] ** 2)


def kernel(name: str):
    """``try_(cells, cands, memo) -> found`` for the technique ``name`` on 9x9 grids (changes cells and cands);
    ``memo`` is the whole memo of misses, of which each kernel takes its row's, as the driver does."""
    g, n, ch, sees = nine_by_nine()
    table = np.empty((g.houses.shape[0] + 1, n), np.int64)
    table[-1, 0] = 3  # the cells a 9x9 box and a line share (kernels.locked._direct_locking_on reads it there)
    hint = np.empty(cycles.C_SIZE, np.int64)

    def chains(cells, cands, memo):
        return cycles._cycles_on(cells, cands, g.houses, ch, g.peers, n, hint, sees) != 0

    def aligned(k):
        return lambda cells, cands, memo: aligned_kernel._aligned(cands, g.peers, grader_units(g), k,
                                                                  memo)

    def direct(claiming):
        def try_(cells, cands, memo):
            _places_table(cands, g.houses, n, table)
            return locked._direct_locking(cells, cands, g.houses, g.peers, grader_units(g), n,
                                          claiming, table, memo)
        return try_

    def fish(k):
        def try_(cells, cands, memo):
            _places_table(cands, g.houses, n, table)
            found = fish_kernel._fish(cands, g.houses, n, k, table, misses._changed_digits(memo, cands))
            misses._remember(memo, cands, not found)
            return found
        return try_

    def forcing(producer):
        space = shared_space(81, n, 1000)
        forcing_hint = np.empty(forcing_kernel.HINT_SIZE, np.int64)

        def try_(cells, cands, memo):
            return forcing_kernel._forcing(producer, cells, cands, g.houses, ch, g.peers, n, forcing_hint, memo,
                                           space)
        return try_

    kernels = {
        "chains-and-cycles": chains,
        "nishio": forcing(forcing_kernel.NISHIO),
        "multiple-forcing-chains": forcing(forcing_kernel.MULTIPLE),
        "dynamic-forcing-chains": forcing(forcing_kernel.DYNAMIC),
        "dynamic-forcing-chains-plus": forcing(forcing_kernel.DYNAMIC_PLUS),
        "aligned-pair-exclusion": aligned(2),
        "aligned-triple-exclusion": aligned(3),
        "unique-loop": lambda cells, cands, memo: unique_loops._unique_loop(cells, cands, g.houses, g.peers,
                                                                            grader_units(g), n) != 0,
        "direct-pointing": direct(False),
        "direct-claiming": direct(True),
        "x-wing": fish(2),
        "swordfish": fish(3),
        "jellyfish": fish(4),
    }
    if name not in kernels:
        sys.exit(f"bench_tries: no kernel timed for {name!r}; one of: {', '.join(kernels)}")
    try_, row = kernels[name], INDEX[name]
    return lambda cells, cands, memo: try_(cells, cands, memo[row])


def collect(name: str, puzzles: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """(cells, cands) each time the grader's step path tries ``name`` on ``puzzles``."""
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def recorded(technique):
        def find(state):
            cells, cands = state.to_arrays()
            seen.append((np.array(cells, np.int64), np.array(cands, np.int64)))
            return technique.find(state)
        return dataclasses.replace(technique, find=find)

    rows = tuple(recorded(t) if t.name == name else t for t in REGISTRY if t.name not in STEP_PATH_ONLY)
    for puzzle in puzzles:
        solve_logically(State.from_puzzle(puzzle, 3), rows)
    return seen


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("technique")
    p.add_argument("--count", type=int, default=1000, help="puzzles (default 1000)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--puzzles", default="", metavar="FILE", help="read puzzles from FILE instead of making them")
    p.add_argument("--levels", default="", help="only puzzles graded at these levels (comma-separated)")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--quick", action="store_true", help="200 puzzles, 1 run")
    p.add_argument("--by-answer", action="store_true",
                   help="chains-and-cycles: CPU us a try grouped by the search's conclusion (pass and kind, or none)")
    p.add_argument("--perfect-bound", action="store_true",
                   help="chains-and-cycles: the search against the same search bounded by its own answer")
    args = p.parse_args()
    if args.quick:
        args.count, args.runs = min(args.count, 200), 1
    try_ = kernel(args.technique)
    if args.puzzles:
        puzzles = to_array(read_set(Path(args.puzzles))[:args.count])
    else:
        puzzles = make_puzzles(3, args.count, args.seed)
    if args.levels:
        wanted = set(args.levels.split(","))
        puzzles = np.array([pz for pz, g in zip(puzzles, grade_many(puzzles, 3)) if g.level in wanted])
    grids = collect(args.technique, puzzles)
    if not grids:
        sys.exit(f"bench_tries: {args.technique} was never tried on these {len(puzzles)} puzzles")

    def run() -> tuple[float, int, str]:
        work = [(cells.copy(), cands.copy()) for cells, cands in grids]  # the kernels change them
        memo = misses.new_memo(81)
        started = time.process_time()
        hits = [bool(try_(cells, cands, memo)) for cells, cands in work]
        cpu = time.process_time() - started
        digest = hashlib.sha256()
        for hit, (cells, cands) in zip(hits, work):
            digest.update(bytes([hit]) + cells.tobytes() + cands.tobytes())
        return cpu, sum(hits), digest.hexdigest()[:16]

    run()  # loads (or compiles) the kernels
    results = [run() for _ in range(args.runs)]
    cpu = statistics.median(r[0] for r in results)
    print(f"load average {os.getloadavg()[0]:.2f}; {len(puzzles)} puzzles, {len(grids)} tries of {args.technique}")
    print(f"{args.technique}: {cpu / len(grids) * 1e6:.1f} us of CPU a try (median of {args.runs}), "
          f"{results[0][1]} found a step; results digest {results[0][2]}")
    if args.by_answer:
        by_answer(grids, args.runs)
    if args.perfect_bound:
        perfect_bound(grids, args.runs)


def perfect_bound(grids, runs: int) -> None:
    """The static chain search on each grid, from no bound and from its own answer, in turn (medians of ``runs``)."""
    g, n, ch, sees = nine_by_nine()
    C = cycles
    plain_total = bound_total = 0.0
    same = 0
    for _, cands in grids:
        answer = np.full(C.C_SIZE, C.NO_HINT, np.int64)
        elim = np.zeros(81 * n, np.int8)
        C._cycles_hint_on(cands, g.houses, ch, g.peers, n, answer, elim, sees)
        start = np.full(C.C_SIZE, C.NO_HINT, np.int64)
        if answer[C.C_TENTHS] != C.NO_HINT:
            start[C.C_TENTHS], start[C.C_COMPLEXITY] = answer[C.C_TENTHS], answer[C.C_COMPLEXITY] + 1
        plain, bound = [], []
        for _ in range(runs):
            for entry, times in ((np.full(C.C_SIZE, C.NO_HINT, np.int64), plain), (start, bound)):
                hint = entry.copy()
                got = np.zeros(81 * n, np.int8)
                started = time.process_time()
                C._cycles_hint_on(cands, g.houses, ch, g.peers, n, hint, got, sees)
                times.append(time.process_time() - started)
            same_elim = answer[C.C_KIND] != C.CYCLE or (got == elim).all()
        same += bool((hint == answer).all() and same_elim)
        plain_total += statistics.median(plain)
        bound_total += statistics.median(bound)
    print(f"no bound: {plain_total / len(grids) * 1e6:.1f} us a try; its own answer as the bound: "
          f"{bound_total / len(grids) * 1e6:.1f} us a try (x{plain_total / bound_total:.2f}); "
          f"same conclusion on {same} of {len(grids)}")


def by_answer(grids, runs: int) -> None:
    """The static chain search on each grid alone (``runs`` times, the median), grouped by its conclusion."""
    g, n, ch, sees = nine_by_nine()
    hint = np.empty(cycles.C_SIZE, np.int64)
    elim = np.zeros(81 * n, np.int8)
    passes = {cycles.X_PASS: "X", cycles.Y_PASS: "Y", cycles.XY_PASS: "XY"}
    kinds = {cycles.CYCLE: "cycle", cycles.FORCING: "forcing chain"}
    groups: dict[str, list[float]] = {}
    for _, cands in grids:
        times = []
        for _ in range(runs):
            hint[:] = cycles.NO_HINT  # no bound: the search looks for any conclusion
            started = time.process_time()
            cycles._cycles_hint_on(cands, g.houses, ch, g.peers, n, hint, elim, sees)
            times.append(time.process_time() - started)
        if hint[cycles.C_TENTHS] == cycles.NO_HINT:
            answer = "none (a miss)"
        else:
            answer = f"{passes[int(hint[cycles.C_PASS])]} {kinds[int(hint[cycles.C_KIND])]}"
        groups.setdefault(answer, []).append(statistics.median(times))
    total = sum(sum(t) for t in groups.values())
    print(f"{'conclusion':18s} {'tries':>6s} {'us a try':>9s} {'share of time':>14s}")
    for answer, times in sorted(groups.items(), key=lambda kv: -sum(kv[1])):
        print(f"{answer:18s} {len(times):6d} {statistics.mean(times) * 1e6:9.1f} {100 * sum(times) / total:13.1f} %")


if __name__ == "__main__":
    main()
