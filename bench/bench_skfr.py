"""Our grader beside skfr, the fast C++ rater of the puzzle community, and beside serate's own ratings.

    python bench/bench_skfr.py --skfr PATH/skfr [--count 300] [--top1465 FILE] [--set NAME=FILE ...]
                               [--serate bench/hardest-sample.tsv] [--no-hardest] [--runs 1]

skfr (github.com/dobrichev/skfr, "Sudoku fast rater": Sudoku Explainer's rating ported to C++) is not shipped;
build it from a checkout (bench/README.md). Sets: ``random`` (``--count`` random minimal 9x9 puzzles made here),
``hardest`` (bench/hardest-sample.tsv: a sample of the forum's hardest list, with serate's ratings), top1465 when
given, and any ``--set``. Per set, both rate the same puzzles in one thread: ours with ``grade_many`` in this
process (CPU of the call), skfr as a child (``OMP_NUM_THREADS=1 skfr -iNAME``, CPU from getrusage, its start-up
measured apart on one puzzle and taken off), ``--runs`` times in turns (the first of each pair alternating).
Printed: puzzles per CPU second each and milliseconds a puzzle, CPU and wall (medians of the runs), our speed as a
multiple of skfr's (the median of the runs' ratios, and their range: this host's speed moves by tens of per cent
from one minute to the next, both peers' alike), and how many ratings agree: ours and skfr's ER, and where serate's ratings are known (``--serate``: a
TSV of puzzle, ER, EP, ED), ours and skfr's against them (ER, EP and ED all equal; ER within 0.1). Where skfr and
serate differ, serate is the reference (issue 48).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from _common import host_line  # (and the repository on sys.path, the kernel cache)
import numpy as np
from tabulate import tabulate

HERE = Path(__file__).resolve().parent
SAMPLE = HERE / "hardest-sample.tsv"


def read_puzzles(path: Path) -> list[str]:
    out = []
    for line in path.read_text().splitlines():
        text = line.split("\t")[0].split()[0] if line.strip() and not line.startswith("#") else ""
        if len(text) == 81:
            out.append(text.replace("0", "."))
    return out


def read_serate(path: Path) -> dict[str, tuple[float, float, float]]:
    """puzzle -> serate's (ER, EP, ED), from a TSV whose first four columns are puzzle, ER, EP, ED."""
    out = {}
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#") or line.startswith("puzzle\t"):
            continue
        cells = line.split("\t")
        out[cells[0]] = (float(cells[1]), float(cells[2]), float(cells[3]))
    return out


def random_minimal(count: int, seed: int = 48) -> list[str]:
    from engine.carve import carve_many
    from engine.formats.batch import lines
    from engine.generators import get_generator

    boards, seeds, _ = get_generator("backtrack").generate_array(3, count, seed)
    return list(lines(np.stack([r.puzzle for r in carve_many(boards, 3, np.asarray(seeds, dtype=np.int64))])))


def ours(puzzles: list[str]) -> tuple[float, float, list[tuple[float, float, float]]]:
    """CPU and wall seconds of one grade_many call, and each puzzle's (ER, EP, ED)."""
    from engine.formats import from_line
    from engine.grade import grade_many
    from engine.warmup import prepare
    from engine.warmup.jobs import NESTED_JOB

    cells = np.stack([from_line(p, 3) for p in puzzles])
    # every kernel of the grader and of the nested chains compiled and loaded before the clock: grading the first
    # puzzle alone left nine (_collect, _reuse...) to the timed call, whose compile a first run on a new cache
    # counted as ours (44 s of CPU for the hardest sample instead of 25-30)
    prepare(["grade@3", NESTED_JOB])
    grade_many(cells[:1], 3)
    started, wall = time.process_time(), time.perf_counter()
    grades = grade_many(cells, 3)
    return time.process_time() - started, time.perf_counter() - wall, [(g.score, g.ep, g.ed) for g in grades]


def _run_skfr(skfr: str, puzzles: list[str], folder: Path, name: str) -> tuple[float, float, dict]:
    (folder / f"{name}.txt").write_text("".join(p + "\n" for p in puzzles))
    before, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run([skfr, f"-i{name}"], cwd=folder, env={**os.environ, "OMP_NUM_THREADS": "1"},
                   capture_output=True, check=True)
    after, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter() - wall
    ratings = {}
    for line in (folder / f"{name}_rat.txt").read_text().splitlines():
        puzzle, _, rest = line.partition(" ED=")
        if rest:
            er, ep, ed = (float(x) for x in rest.split()[0].split("/"))
            ratings[puzzle.strip()] = (er, ep, ed)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), wall, ratings


def skfr_rates(skfr: str, puzzles: list[str]) -> tuple[float, float, list]:
    """skfr's CPU and wall seconds on ``puzzles`` (its start-up on one puzzle taken off each) and each puzzle's
    (ER, EP, ED) (None where it wrote none)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ones = [_run_skfr(skfr, puzzles[:1], folder, f"one{k}") for k in range(3)]
        seconds, wall, ratings = _run_skfr(skfr, puzzles, folder, "set")
    start_up = statistics.median(one[0] for one in ones), statistics.median(one[1] for one in ones)
    return max(seconds - start_up[0], 1e-9), max(wall - start_up[1], 1e-9), [ratings.get(p) for p in puzzles]


def rate(x: float) -> str:
    """Puzzles a second: one decimal, three significant digits below 10 (the hardest take seconds each)."""
    return f"{x:,.1f}" if x >= 10 else f"{x:.3g}"


def ms(x: float) -> str:
    """Milliseconds a puzzle: three significant digits, whole ones from 100 (the hardest take a second or more)."""
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def agreement(mine: list, theirs: list) -> tuple[int, int, int]:
    """(all three equal, ER equal, ER within 0.1) over the puzzles both rated."""
    pairs = [(a, b) for a, b in zip(mine, theirs) if a is not None and b is not None]
    same = sum(1 for a, b in pairs if all(abs(x - y) < 1e-6 for x, y in zip(a, b)))
    er = sum(1 for a, b in pairs if abs(a[0] - b[0]) < 1e-6)
    near = sum(1 for a, b in pairs if abs(a[0] - b[0]) <= 0.1 + 1e-6)
    return same, er, near


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skfr", required=True, help="the skfr executable")
    parser.add_argument("--count", type=int, default=300, help="random minimal puzzles (0: none)")
    parser.add_argument("--top1465", type=Path)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=FILE")
    parser.add_argument("--serate", action="append", default=[], type=Path, metavar="TSV",
                        help=f"serate's ratings (puzzle, ER, EP, ED); {SAMPLE.name} is always read")
    parser.add_argument("--no-hardest", action="store_true", help="leave out the hardest sample")
    parser.add_argument("--runs", type=int, default=1, help="runs of each set, ours and skfr in turns (default 1)")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error(f"--runs {args.runs}: at least 1")
    # skfr runs in a folder of its own (it writes NAME_rat.txt beside its input): a relative path is resolved here,
    # and a wrong one stops the run before the minutes of our grading, not after
    found = shutil.which(args.skfr) if os.sep not in args.skfr else None
    args.skfr = found or str(Path(args.skfr).resolve())
    if not os.access(args.skfr, os.X_OK):
        parser.error(f"--skfr {args.skfr}: no such executable")
    serate: dict = {}
    for path in [SAMPLE, *args.serate]:
        serate.update(read_serate(path))
    sets: list[tuple[str, list[str]]] = []
    if args.count:
        sets.append((f"random{args.count}", random_minimal(args.count)))
    if args.top1465:
        sets.append(("top1465", read_puzzles(args.top1465)))
    for spec in args.set:
        name, _, path = spec.partition("=")
        sets.append((name, read_puzzles(Path(path))))
    if not args.no_hardest:
        sets.append(("hardest", read_puzzles(SAMPLE)))
    print(f"{host_line()}; one thread each; {args.runs} run{'s' if args.runs > 1 else ''} a set")
    rows = []
    for name, puzzles in sets:
        runs = []  # (our CPU, our wall, skfr's CPU, skfr's wall)
        for k in range(args.runs):
            if k % 2:  # skfr first on every other run: neither always meets the host's next mood first
                their_cpu, their_wall, theirs = skfr_rates(args.skfr, puzzles)
                our_cpu, our_wall, mine = ours(puzzles)
            else:
                our_cpu, our_wall, mine = ours(puzzles)
                their_cpu, their_wall, theirs = skfr_rates(args.skfr, puzzles)
            runs.append((our_cpu, our_wall, their_cpu, their_wall))
            print(f"  {name} run {k + 1}: ours {our_cpu:.2f} s of CPU ({our_wall:.2f} s wall), skfr {their_cpu:.2f} s "
                  f"({their_wall:.2f} s), x{their_cpu / our_cpu:.2f}; load average {os.getloadavg()[0]:.2f}",
                  flush=True)
        our_cpu, our_wall, their_cpu, their_wall = (statistics.median(r[i] for r in runs) for i in range(4))
        ratios = [r[2] / r[0] for r in runs]
        ratio = f"x{statistics.median(ratios):.2f}" + (
            f" (x{min(ratios):.2f}-{max(ratios):.2f})" if len(runs) > 1 else "")
        each = 1000 / len(puzzles)
        row = [name, len(puzzles), rate(len(puzzles) / our_cpu), rate(len(puzzles) / their_cpu),
               f"{ms(our_cpu * each)} / {ms(our_wall * each)}", f"{ms(their_cpu * each)} / {ms(their_wall * each)}",
               ratio, "%d / %d / %d" % agreement(mine, theirs)]
        known = [serate.get(p) for p in puzzles]
        if any(known):
            n = sum(1 for k in known if k)
            row += ["%d / %d / %d of %d" % (*agreement(mine, known), n),
                    "%d / %d / %d of %d" % (*agreement(theirs, known), n)]
        else:
            row += ["-", "-"]
        rows.append(row)
    print(tabulate(rows, headers=["set", "puzzles", "ours /CPU s", "skfr /CPU s", "ours ms CPU / wall",
                                  "skfr ms CPU / wall", "ours / skfr", "vs skfr: all, ER, ER±0.1",
                                  "ours vs serate", "skfr vs serate"]))
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
