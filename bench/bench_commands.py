"""The file commands from the shell on 20,000 random minimal 9x9 puzzles: one grid per kernel call vs chunks.

    python bench/bench_commands.py                      # before = f29544c (the last commit before catalogue/batches.py)
    python bench/bench_commands.py --before REV --runs 3 --count 20000
    python bench/bench_commands.py --quick              # 2,000 puzzles, 1 run
    python bench/bench_commands.py --conflicting --before HEAD --only check --runs 3   # complete grids, 2 cells swapped

`catalogue check`, `key`, `solve` and `grade --format line` run as whole processes (``python -m catalogue``) on one
file, with this checkout's code ("after") and with the code of ``--before`` exported by ``git archive`` to a temp
folder and put first on ``PYTHONPATH`` ("before"; it was one kernel call per grid in a worker thread). Each
command runs once untimed per side (that run pays a cold compile: the two sides' engines differ, so numba caches
them apart), then ``--runs`` times; printed: the medians of wall and CPU seconds (CPU of the child: user + system,
every thread), the ratio, and the load average before the timed runs (2 shared cores). Both sides must print the
same stdout, stderr and exit code (checked on every run; the bench stops if not).

The puzzles: random boards (``_common.random_boards``, randomized backtracking) carved by ``engine.carve.carve_many``
(one random removal order each, so minimal and unique, ~24 clues), written once to ``--cache`` and reused.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, random_boards  # puts the repository first on the path, enables the kernel cache

BEFORE = "f29544c"
COMMANDS = (("check", ["check"]), ("key", ["key"]), ("solve", ["solve"]), ("grade", ["grade", "--format", "line"]))


def puzzles_file(path: Path, count: int, seed: int = 2026) -> Path:
    """``count`` random minimal 9x9 puzzles, one per line (made once, then reused)."""
    if path.exists() and sum(1 for _ in path.open()) == count:
        return path
    from engine.carve import carve_many
    from engine.formats import to_line

    boards = random_boards(3, count, seed)
    lines: list[str] = []
    for start in range(0, count, 1000):
        chunk = boards[start:start + 1000]
        lines += [to_line(r.puzzle) for r in carve_many(chunk, 3, list(range(start, start + len(chunk))))]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    return path


def conflicting_file(path: Path, count: int, seed: int = 2026) -> Path:
    """``count`` complete 9x9 grids with conflicts: random boards with two cells of one row swapped across boxes
    (each digit then clashes in its new column and box), one per line (made once, then reused)."""
    if path.exists() and sum(1 for _ in path.open()) == count:
        return path
    import random

    from engine.formats import to_line

    rng = random.Random(seed)
    lines = []
    for board in random_boards(3, count, seed):
        grid = board.copy().reshape(9, 9)
        row, a = rng.randrange(9), rng.randrange(3)
        b = rng.randrange(3, 9)  # another box of the same band: the two columns differ
        grid[row, a], grid[row, b] = grid[row, b], grid[row, a]
        lines.append(to_line(grid.ravel()))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    return path


def export(rev: str, folder: Path) -> Path:
    """The source tree of ``rev`` (``git archive``) in ``folder``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def run(args: list[str], code: Path) -> tuple[float, float, tuple]:
    """Wall and CPU seconds of ``python -m catalogue ARGS`` with ``code`` first on the path, and what it printed."""
    env = dict(os.environ, PYTHONPATH=str(code))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "catalogue", *args], env=env, capture_output=True, cwd=tempfile.gettempdir())
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    digest = tuple(hashlib.sha1(x).hexdigest()[:12] for x in (p.stdout, p.stderr)) + (p.returncode,)
    return wall, cpu, digest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", default=BEFORE, help="git revision of the per-grid code [%(default)s]")
    ap.add_argument("--count", type=int, default=20_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="2,000 puzzles, 1 run")
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "catalogue-bench")
    ap.add_argument("--only", default="", help="only the commands whose name holds this text")
    ap.add_argument("--conflicting", action="store_true", help="complete grids with conflicts instead of puzzles")
    a = ap.parse_args()
    count, runs = (2_000, 1) if a.quick else (a.count, a.runs)
    if a.conflicting:
        path = conflicting_file(a.cache / f"conflicting-9x9-{count}.txt", count)
        what = "complete 9x9 grids with conflicts"
    else:
        path = puzzles_file(a.cache / f"minimal-9x9-{count}.txt", count)
        what = "random minimal 9x9 puzzles"
    print(f"{count:,} {what} ({path}); before = {a.before}, after = this checkout; median of {runs}")
    with tempfile.TemporaryDirectory() as tmp:
        sides = {"before": export(a.before, Path(tmp)), "after": ROOT}
        print(f"{'command':<22}{'load':>6}{'before wall':>13}{'cpu':>8}{'after wall':>12}{'cpu':>8}"
              f"{'wall x':>8}{'cpu x':>7}{'after /s':>10}")
        for name, args in COMMANDS:
            if a.only not in name:
                continue
            argv = [*args, str(path)]
            seen = {side: run(argv, code)[2] for side, code in sides.items()}  # warm-up (and a cold compile)
            if seen["before"] != seen["after"]:
                raise SystemExit(f"{name}: before and after print different things: {seen}")
            load = os.getloadavg()[0]
            times: dict[str, list[tuple[float, float]]] = {side: [] for side in sides}
            for _ in range(runs):
                for side, code in sides.items():
                    wall, cpu, digest = run(argv, code)
                    if digest != seen[side]:
                        raise SystemExit(f"{name}: {side} printed something else on a later run")
                    times[side].append((wall, cpu))
            med = {side: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t))
                   for side, t in times.items()}
            (bw, bc), (aw, ac) = med["before"], med["after"]
            print(f"{' '.join(args):<22}{load:>6.2f}{bw:>12.2f}s{bc:>7.2f}s{aw:>11.2f}s{ac:>7.2f}s"
                  f"{bw / aw:>8.2f}{bc / ac:>7.2f}{count / aw:>10,.0f}", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
