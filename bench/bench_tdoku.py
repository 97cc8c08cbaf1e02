"""The fast solver and the carver side by side with tdoku (the fastest public 9x9 solver), in one run.

    python bench/bench_tdoku.py --tdoku /path/to/libtdoku.so [--top1465 FILE] [--hardest FILE]
    python bench/bench_tdoku.py --quick ...

tdoku is not shipped (its source is public: github.com/t-dillon/tdoku); bench/README.md says how to build the
shared library this script loads. Without ``--tdoku`` (or ``$TDOKU_LIB``) the tdoku column is left out
with a note, and our own figures are still printed.

tdoku runs in a small C driver this script compiles with the system's C compiler: it reads the puzzles once
and loops over them in C, so tdoku pays no Python cost per puzzle; ours is one ``solve_many``/``count_many``
kernel call for the whole set, the batch path the fill and the commands use. Both report CPU seconds of the
process (CLOCK_PROCESS_CPUTIME_ID / time.process_time) and wall seconds; each figure is the median of
``--repeats`` runs, and the load average is printed before every set.

Sets: random minimal 9x9 puzzles (random boards carved by engine.carve), and any puzzle files given: the
magictour top1465 list (``--top1465``), or any other file of 81-character lines (``--set NAME=FILE``).
Carving: tdoku's minimizer (``TdokuMinimize``: every clue of a full board tried once in random order, each
removal kept when a count to 2 says the puzzle stays unique) against ``engine.carve.carve_many`` on the same
boards; both give minimal puzzles with the same clue distribution (printed).
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from tabulate import tabulate

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _common import random_boards, timed  # noqa: E402
from engine.carve import carve_many  # noqa: E402
from engine.solvers import fast  # noqa: E402

# The driver is ours: it only calls tdoku's public C functions (include/tdoku.h) in a loop.
DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <time.h>
size_t TdokuSolverDpllTriadSimd(const char *input, size_t limit, unsigned configuration, char *solution,
                                size_t *num_guesses);
bool TdokuMinimize(bool pencilmark, bool monotonic, char *puzzle);

static double cpu(void) {
    struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9;
}
static double wall(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

int main(int argc, char **argv) {
    /* argv: mode (solve|count|minimize) file repeats; prints one line per run: cpu wall checksum */
    const char *mode = argv[1];
    int repeats = atoi(argv[3]);
    FILE *f = fopen(argv[2], "r");
    size_t cap = 1024, n = 0;
    char (*p)[82] = malloc(cap * 82);
    char line[256];
    while (fgets(line, sizeof line, f)) {
        if (strlen(line) < 81) continue;
        if (n == cap) { cap *= 2; p = realloc(p, cap * 82); }
        memcpy(p[n], line, 81); p[n][81] = 0;
        for (int i = 0; i < 81; i++) if (p[n][i] < '1' || p[n][i] > '9') p[n][i] = '.';
        n++;
    }
    char (*work)[82] = malloc(n * 82);
    char solution[82];
    for (int r = 0; r < repeats; r++) {
        size_t check = 0, guesses;
        if (strcmp(mode, "minimize") == 0) memcpy(work, p, n * 82);
        double c0 = cpu(), w0 = wall();
        for (size_t i = 0; i < n; i++) {
            if (strcmp(mode, "solve") == 0) check += TdokuSolverDpllTriadSimd(p[i], 1, 0, solution, &guesses);
            else if (strcmp(mode, "count") == 0) check += TdokuSolverDpllTriadSimd(p[i], 2, 0, solution, &guesses);
            else check += TdokuMinimize(false, false, work[i]);
        }
        double c1 = cpu(), w1 = wall();
        printf("%.6f %.6f %zu\n", c1 - c0, w1 - w0, check);
    }
    if (strcmp(mode, "minimize") == 0)
        for (size_t i = 0; i < n; i++) fprintf(stderr, "%s\n", work[i]);
    return 0;
}
"""


def load() -> str:
    return "load average %.2f %.2f %.2f" % os.getloadavg()


def build_driver(lib: Path, tmp: Path) -> Path:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise SystemExit("bench_tdoku: no C compiler (cc or gcc) to build the tdoku driver")
    src = tmp / "driver.c"
    src.write_text(DRIVER)
    exe = tmp / "tdoku-driver"
    subprocess.run([cc, "-O2", "-o", str(exe), str(src), str(lib), f"-Wl,-rpath,{lib.parent}"], check=True)
    return exe


def run_tdoku(exe: Path, mode: str, path: Path, repeats: int) -> tuple[float, float, int, list[str]]:
    """Median CPU and wall seconds of ``repeats`` runs, the checksum (solutions found), and minimized puzzles."""
    out = subprocess.run([str(exe), mode, str(path), str(repeats)], check=True, capture_output=True, text=True)
    runs = [tuple(map(float, line.split())) for line in out.stdout.splitlines()]
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), int(runs[0][2]),
            out.stderr.split())


def read_set(path: Path) -> np.ndarray:
    rows = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if len(line) >= 81:
            rows.append([int(ch) if ch in "123456789" else 0 for ch in line[:81]])
    return np.array(rows, dtype=np.int8)


def write_set(puzzles: np.ndarray, path: Path) -> None:
    path.write_text("".join("".join(str(v) if v else "." for v in p) + "\n" for p in puzzles))


def unique_only(name: str, puzzles: np.ndarray) -> np.ndarray:
    """The puzzles with exactly one solution (a list may carry a stray one; both solvers get the same set)."""
    counts = fast.count_many(puzzles, 3)
    if not (counts == 1).all():
        print(f"  {name}: {int((counts != 1).sum())} of {len(puzzles):,} puzzles have no unique solution: left out")
    return puzzles[counts == 1]


def solve_rows(name: str, puzzles: np.ndarray, exe, tmp: Path, repeats: int) -> list[list]:
    path = tmp / f"{name}.txt"
    write_set(puzzles, path)
    fast.solve_many(puzzles[:10], 3)  # warm
    rows = []
    for mode, fn in (("solve", lambda: fast.solve_many(puzzles, 3)), ("count", lambda: fast.count_many(puzzles, 3))):
        print(f"  {name} {mode}: {load()}", flush=True)
        wall, cpu = timed(fn, repeats)
        ours = len(puzzles) / cpu
        row = [f"{name}, {'solve' if mode == 'solve' else 'count to 2'}", f"{ours:,.0f}", f"{len(puzzles) / wall:,.0f}",
               f"{1e6 * cpu / len(puzzles):.2f}"]
        if exe is not None:
            tcpu, twall, found, _ = run_tdoku(exe, mode, path, repeats)
            expected = len(puzzles)
            if found != expected:
                raise SystemExit(f"bench_tdoku: tdoku found {found} solutions on {name} ({mode}), not {expected}")
            theirs = len(puzzles) / tcpu
            row += [f"{theirs:,.0f}", f"{1e6 * tcpu / len(puzzles):.2f}", f"x{ours / theirs:.2f}"]
        rows.append(row)
    return rows


def carve_rows(count: int, seed: int, exe, tmp: Path, repeats: int) -> tuple[list[list], str]:
    boards = random_boards(3, count, seed + 1000)
    seeds = np.arange(count) + seed
    carve_many(boards[:4], 3, seeds[:4])  # warm
    print(f"  carving: {load()}", flush=True)
    result = []
    wall, cpu = timed(lambda: result.append(carve_many(boards, 3, seeds)), repeats)
    clues = np.array([int((r.puzzle != 0).sum()) for r in result[0]])
    ours = count / cpu
    row = ["carve a board into a minimal puzzle", f"{ours:,.0f}", f"{count / wall:,.0f}", f"{1e6 * cpu / count:.1f}"]
    note = f"clues: ours mean {clues.mean():.2f} (sd {clues.std():.2f})"
    if exe is not None:
        path = tmp / "boards.txt"
        write_set(boards, path)
        tcpu, _, _, minimized = run_tdoku(exe, "minimize", path, repeats)
        tclues = np.array([sum(ch != "." for ch in p) for p in minimized[-count:]])
        theirs = count / tcpu
        row += [f"{theirs:,.0f}", f"{1e6 * tcpu / count:.1f}", f"x{ours / theirs:.2f}"]
        note += f", tdoku mean {tclues.mean():.2f} (sd {tclues.std():.2f})"
    return [row], note


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tdoku", type=Path, default=os.environ.get("TDOKU_LIB"),
                    help="path of tdoku's shared library (libtdoku.so); default $TDOKU_LIB")
    ap.add_argument("--top1465", type=Path, help="the magictour top1465 list (81-character lines)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=FILE", help="another puzzle file")
    ap.add_argument("--puzzles", type=int, default=None, help="random minimal puzzles (default 10000, quick 1000)")
    ap.add_argument("--boards", type=int, default=None, help="boards to carve (default 4000, quick 400)")
    ap.add_argument("--repeats", type=int, default=None, help="timed runs per figure (default 5, quick 3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    npuzzles = args.puzzles or (1000 if args.quick else 10000)
    nboards = args.boards or (400 if args.quick else 4000)
    repeats = args.repeats or (3 if args.quick else 5)

    with tempfile.TemporaryDirectory() as tmpname:
        tmp = Path(tmpname)
        exe = build_driver(args.tdoku.resolve(), tmp) if args.tdoku else None
        sets = [("random minimal", np.stack([r.puzzle for r in carve_many(
            random_boards(3, npuzzles, args.seed), 3, np.arange(npuzzles) + args.seed)]))]
        if args.top1465:
            sets.append(("top1465", read_set(args.top1465)))
        for spec in args.set:
            name, _, file = spec.partition("=")
            sets.append((name, read_set(Path(file))))
        print(f"bench_tdoku: median of {repeats} runs; sets: "
              + ", ".join(f"{name} ({len(p):,})" for name, p in sets))
        rows = []
        sets = [(name, unique_only(name, puzzles)) for name, puzzles in sets]
        for name, puzzles in sets:
            rows += solve_rows(name, puzzles, exe, tmp, repeats)
        carve, note = carve_rows(nboards, args.seed, exe, tmp, repeats)
        rows += carve
    headers = ["", "ours /s (CPU)", "ours /s (wall)", "ours us (CPU)"]
    if exe is not None:
        headers += ["tdoku /s (CPU)", "tdoku us (CPU)", "ours / tdoku"]
    print()
    print(tabulate(rows, headers=headers, disable_numparse=True, colalign=["left"] + ["right"] * (len(headers) - 1)))
    print(note)
    if exe is None:
        print("tdoku: no library given (--tdoku or $TDOKU_LIB), so its columns are left out; "
              "bench/README.md says how to build one")


if __name__ == "__main__":
    main()
