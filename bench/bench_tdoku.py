"""The fast solver and the carver side by side with tdoku (the fastest public 9x9 solver), in one run.

    python bench/bench_tdoku.py --tdoku /path/to/libtdoku.so [--top1465 FILE] [--set NAME=FILE]
    python bench/bench_tdoku.py --quick ...

tdoku is not shipped (its source is public: github.com/t-dillon/tdoku); bench/README.md says how to build the
shared library this script loads. Without ``--tdoku`` (or ``$TDOKU_LIB``) the tdoku column is left out
with a note, and our own figures are still printed.

tdoku runs in a small C driver this script compiles with the system's C compiler and loads into its own
process: one call loops over a piece of the set in C, so tdoku pays no Python cost per puzzle; ours is one
``solve_many``/``count_many`` (or ``carve_many``) kernel call per piece, the batch path the fill and the commands
use. A round runs the two back to back on each piece of a few milliseconds (which goes first alternates), so both
meet the same moments of a shared host, whose speed drifts within a second; each figure is the median of
``--repeats`` rounds over the whole set, the ratio the median of the rounds' ratios, in CPU seconds of the process
(CLOCK_PROCESS_CPUTIME_ID / time.process_time); the load average is printed before every set.

Sets: random minimal 9x9 puzzles (random boards carved by engine.carve), and any puzzle files given: the
magictour top1465 list (``--top1465``), or any other file of 81-character lines (``--set NAME=FILE``).
Carving: tdoku's minimizer (``TdokuMinimize``: every clue of a full board tried once in random order, each
removal kept when a count to 2 says the puzzle stays unique) against ``engine.carve.carve_many`` on the same
boards; both give minimal puzzles with the same clue distribution (printed).
"""
from __future__ import annotations

import argparse
import ctypes
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from tabulate import tabulate

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _common import random_boards  # noqa: E402
from engine.carve import carve_many  # noqa: E402
from engine.solvers import fast  # noqa: E402

# The driver is ours: it only calls tdoku's public C functions (include/tdoku.h) in a loop. It is loaded into this
# process (ctypes), so that ours and tdoku run back to back on each piece of a set: a shared host's speed drifts by
# up to half within seconds (seen with our own load at 0), and a ratio of runs made seconds apart measured that.
DRIVER = r"""
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
size_t TdokuSolverDpllTriadSimd(const char *input, size_t limit, unsigned configuration, char *solution,
                                size_t *num_guesses);
bool TdokuMinimize(bool pencilmark, bool monotonic, char *puzzle);

static double cpu(void) {
    struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9;
}

/* One pass over n puzzles (82 bytes each, NUL-terminated): mode 0 solve, 1 count to 2, 2 minimize (the puzzles
   are copied to work first, and minimized there). Writes the pass's CPU seconds to seconds; returns the checksum
   (solutions found, or boards minimized). */
size_t tdoku_pass(int mode, const char *puzzles, size_t n, char *work, double *seconds) {
    size_t check = 0, guesses;
    char solution[82];
    if (mode == 2) memcpy(work, puzzles, n * 82);
    double c0 = cpu();
    for (size_t i = 0; i < n; i++) {
        if (mode == 2) check += TdokuMinimize(false, false, work + 82 * i);
        else check += TdokuSolverDpllTriadSimd(puzzles + 82 * i, mode == 0 ? 1 : 2, 0, solution, &guesses);
    }
    *seconds = cpu() - c0;
    return check;
}
"""
MODES = {"solve": 0, "count": 1, "minimize": 2}


def load() -> str:
    return "load average %.2f %.2f %.2f" % os.getloadavg()


class Tdoku:
    """tdoku's solver and minimizer through the driver, built against ``lib`` into ``tmp``."""

    def __init__(self, lib: Path, tmp: Path):
        cc = shutil.which("cc") or shutil.which("gcc")
        if cc is None:
            raise SystemExit("bench_tdoku: no C compiler (cc or gcc) to build the tdoku driver")
        src = tmp / "driver.c"
        src.write_text(DRIVER)
        so = tmp / "tdoku-driver.so"
        subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", str(so), str(src), str(lib),
                        f"-Wl,-rpath,{lib.parent}"], check=True)
        self.fn = ctypes.CDLL(str(so)).tdoku_pass
        self.fn.restype = ctypes.c_size_t
        self.fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                            ctypes.POINTER(ctypes.c_double)]

    @staticmethod
    def text(puzzles: np.ndarray) -> bytes:
        """The driver's input for ``puzzles``: 81 characters and a NUL each (made once per piece, outside the
        timing)."""
        return b"".join("".join(str(v) if v else "." for v in p).encode() + b"\0" for p in puzzles)

    def pass_(self, mode: str, text: bytes) -> tuple[float, int, list[str]]:
        """CPU seconds of one pass over ``text`` (:meth:`text`), its checksum, and the minimized puzzles (mode
        "minimize")."""
        n = len(text) // 82
        work = ctypes.create_string_buffer(len(text))
        seconds = ctypes.c_double()
        check = self.fn(MODES[mode], text, n, work, ctypes.byref(seconds))
        out = [work.raw[82 * i:82 * i + 81].decode() for i in range(n)] if mode == "minimize" else []
        return seconds.value, int(check), out


def rounds(ours, theirs, pieces: int, repeats: int) -> tuple[float, float, float | None, float | None]:
    """``repeats`` rounds over a set cut into ``pieces``: each piece by ``ours(k)`` and ``theirs(k)`` back to back
    (which goes first alternates), after one warm-up round. Returns the medians of a round's CPU and wall seconds
    of ours, of its CPU seconds of theirs, and of the rounds' ratios of theirs to ours (None without a peer).
    ``theirs(k)`` returns its own CPU seconds. Pieces of a few milliseconds let both sides meet the same moments of
    a shared host, whose speed drifts within a second."""
    walls, cpus, tcpus, ratios = [], [], [], []
    for r in range(repeats + 1):
        wall = cpu = tcpu = 0.0
        for k in range(pieces):
            if theirs is not None and (r + k) % 2:
                tcpu += theirs(k)
            w, c = time.perf_counter(), time.process_time()
            ours(k)
            wall += time.perf_counter() - w
            cpu += time.process_time() - c
            if theirs is not None and not (r + k) % 2:
                tcpu += theirs(k)
        if r == 0:
            continue  # the warm-up
        walls.append(wall)
        cpus.append(cpu)
        if theirs is not None:
            tcpus.append(tcpu)
            ratios.append(tcpu / cpu)
    med = statistics.median
    return med(walls), med(cpus), (med(tcpus) if tcpus else None), (med(ratios) if ratios else None)


def cut(rows: np.ndarray, size: int) -> list[np.ndarray]:
    """``rows`` in pieces of ``size`` (the last may be smaller)."""
    return [rows[i:i + size] for i in range(0, len(rows), size)]


def read_set(path: Path) -> np.ndarray:
    rows = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if len(line) >= 81:
            rows.append([int(ch) if ch in "123456789" else 0 for ch in line[:81]])
    return np.array(rows, dtype=np.int8)


def unique_only(name: str, puzzles: np.ndarray) -> np.ndarray:
    """The puzzles with exactly one solution (a list may carry a stray one; both solvers get the same set)."""
    counts = fast.count_many(puzzles, 3)
    if not (counts == 1).all():
        print(f"  {name}: {int((counts != 1).sum())} of {len(puzzles):,} puzzles have no unique solution: left out")
    return puzzles[counts == 1]


def solve_rows(name: str, puzzles: np.ndarray, tdoku: Tdoku | None, repeats: int) -> list[list]:
    # pieces of about 5 ms of ours (about 200 puzzles a ms when they take few guesses, 50 when many), so that a
    # hundredth of a second of the host's drift falls on both sides
    per_ms = 200 if len(puzzles) and fast.metrics_many(puzzles[:200], 3)[1][:, 1].mean() < 5 else 50
    pieces = cut(puzzles, 5 * per_ms)
    texts = [Tdoku.text(p) for p in pieces] if tdoku else []
    rows = []
    for mode, many in (("solve", fast.solve_many), ("count", fast.count_many)):
        print(f"  {name} {mode}: {load()}", flush=True)
        found = []

        def theirs(k):
            tcpu, check, _ = tdoku.pass_(mode, texts[k])
            found.append(check)
            return tcpu

        wall, cpu, tcpu, ratio = rounds(lambda k: many(pieces[k], 3), theirs if tdoku else None, len(pieces),
                                        repeats)
        row = [f"{name}, {'solve' if mode == 'solve' else 'count to 2'}", f"{len(puzzles) / cpu:,.0f}",
               f"{len(puzzles) / wall:,.0f}", f"{1e6 * cpu / len(puzzles):.2f}"]
        if tdoku is not None:
            if sum(found) != len(puzzles) * (repeats + 1):
                raise SystemExit(f"bench_tdoku: tdoku found {sum(found)} solutions on {name} ({mode}) in "
                                 f"{repeats + 1} rounds, not {len(puzzles)} each")
            row += [f"{len(puzzles) / tcpu:,.0f}", f"{1e6 * tcpu / len(puzzles):.2f}", f"x{ratio:.2f}"]
        rows.append(row)
    return rows


def carve_rows(count: int, seed: int, tdoku: Tdoku | None, repeats: int) -> tuple[list[list], str]:
    boards = random_boards(3, count, seed + 1000)
    seeds = np.arange(count) + seed
    pieces, seed_pieces = cut(boards, 40), cut(seeds, 40)  # about 6 ms of ours each
    texts = [Tdoku.text(p) for p in pieces] if tdoku else []
    print(f"  carving: {load()}", flush=True)
    carved, minimized = {}, {}

    def ours(k):
        carved[k] = carve_many(pieces[k], 3, seed_pieces[k])

    def theirs(k):
        tcpu, _, out = tdoku.pass_("minimize", texts[k])
        minimized[k] = out
        return tcpu

    wall, cpu, tcpu, ratio = rounds(ours, theirs if tdoku else None, len(pieces), repeats)
    clues = np.array([int((r.puzzle != 0).sum()) for k in sorted(carved) for r in carved[k]])
    row = ["carve a board into a minimal puzzle", f"{count / cpu:,.0f}", f"{count / wall:,.0f}",
           f"{1e6 * cpu / count:.1f}"]
    note = f"clues: ours mean {clues.mean():.2f} (sd {clues.std():.2f})"
    if tdoku is not None:
        tclues = np.array([sum(ch != "." for ch in p) for k in sorted(minimized) for p in minimized[k]])
        row += [f"{count / tcpu:,.0f}", f"{1e6 * tcpu / count:.1f}", f"x{ratio:.2f}"]
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
    ap.add_argument("--repeats", type=int, default=None, help="timed rounds per figure (default 5, quick 3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    npuzzles = args.puzzles or (1000 if args.quick else 10000)
    nboards = args.boards or (400 if args.quick else 4000)
    repeats = args.repeats or (3 if args.quick else 5)

    with tempfile.TemporaryDirectory() as tmpname:
        tmp = Path(tmpname)
        tdoku = Tdoku(args.tdoku.resolve(), tmp) if args.tdoku else None
        sets = [("random minimal", np.stack([r.puzzle for r in carve_many(
            random_boards(3, npuzzles, args.seed), 3, np.arange(npuzzles) + args.seed)]))]
        if args.top1465:
            sets.append(("top1465", read_set(args.top1465)))
        for spec in args.set:
            name, _, file = spec.partition("=")
            sets.append((name, read_set(Path(file))))
        print(f"bench_tdoku: median of {repeats} rounds (ours and tdoku back to back); sets: "
              + ", ".join(f"{name} ({len(p):,})" for name, p in sets))
        rows = []
        sets = [(name, unique_only(name, puzzles)) for name, puzzles in sets]
        for name, puzzles in sets:
            rows += solve_rows(name, puzzles, tdoku, repeats)
        carve, note = carve_rows(nboards, args.seed, tdoku, repeats)
        rows += carve
    headers = ["", "ours /s (CPU)", "ours /s (wall)", "ours us (CPU)"]
    if tdoku is not None:
        headers += ["tdoku /s (CPU)", "tdoku us (CPU)", "ours / tdoku"]
    print()
    print(tabulate(rows, headers=headers, disable_numparse=True, colalign=["left"] + ["right"] * (len(headers) - 1)))
    print(note)
    if tdoku is None:
        print("tdoku: no library given (--tdoku or $TDOKU_LIB), so its columns are left out; "
              "bench/README.md says how to build one")


if __name__ == "__main__":
    main()
