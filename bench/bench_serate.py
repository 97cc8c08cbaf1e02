"""Our grader beside Sudoku Explainer's ``serate`` (SukakuExplainer, classic SE 1.2.1 rules): ratings and speed.

    python bench/bench_serate.py --set random500=FILE --top1465 FILE --ratings random500=FILE.serate.tsv ...
    python bench/bench_serate.py --top1465 FILE --serate-jar PATH/SukakuExplainer.jar [--limit 100]

Per set it prints: how many puzzles both rated, the share whose ER is within 0.1 of serate's, the Spearman rank
correlation of ER (EP and ED too when our Grade has ``ep``/``ed``), how many puzzles we still rate as guessing, a
table of (our hardest technique, serate's hardest technique) for the puzzles that disagree by more than 0.1,
and speeds: ours is ``grade_many`` in batches (median of ``--runs`` runs, after one warm-up run), serate's is
one live run (``--serate-jar``; CPU is the JVM's whole process, every thread, from getrusage of the child).

serate is not shipped; bench/README.md says how to build the jar. Its ratings are slow (seconds a puzzle on hard
sets), so they can be cached: ``--ratings NAME=FILE`` reads a TSV of serate's output (the format this script
asks serate for: puzzle, ER, EP, ED, ER technique, EP technique, ED technique, elapsed; lines starting with
``#`` skipped), and ``--serate-out DIR`` writes the live run's output in that form. Without either, only our
side is printed.
"""
from __future__ import annotations

import argparse
import collections
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tabulate import tabulate

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _common  # noqa: E402,F401  (first: it enables the kernel cache before kernels load)
from engine.grade import grade_many  # noqa: E402
from engine.solvers import fast  # noqa: E402

#: serate's technique switches (--techs, one character per SolvingTechnique in its enum order): the Sudoku
#: Explainer 1.2.1 set only. Off: the non-consecutive rules, Generalized Intersections (VLocking), the
#: generalized naked sets, Turbot fish, the strong-linked fishes and the WXYZ..TUVWXYZ wings.
CLASSIC_TECHS = "1111000011010111011011011011000010100010111111"
#: the rest of the classic setup: SE 1.2.1's order and ratings (revisedRating=0), lkSudoku's BUG and UR/UL
#: extensions off, forcing chains (+) as in 1.2.1 (FCPlus=0), one thread
CLASSIC_OPTIONS = ["--revisedRating=0", "--islkSudokuBUG=0", "--islkSudokuURUL=0", "--FCPlus=0", "--threads=1",
                   f"--techs={CLASSIC_TECHS}"]
#: one line per puzzle: the input line, ER, EP, ED, the technique behind each, the time serate took
FORMAT = "%g%t%r%t%p%t%d%t%R%t%P%t%D%t%e"
TSV_HEADER = "# puzzle\ter\tep\ted\ter_technique\tep_technique\ted_technique\telapsed"
CLOSE = 0.1 + 1e-9


@dataclass
class SeRating:
    er: float
    ep: float
    ed: float
    er_tech: str = ""
    ep_tech: str = ""
    ed_tech: str = ""
    seconds: float = float("nan")


def load() -> str:
    return "load average %.2f %.2f %.2f" % os.getloadavg()


def rate(x: float) -> str:
    """A rate per second: one decimal, or three significant digits below 1 (the hardest puzzles take minutes)."""
    return f"{x:,.1f}" if x >= 1 else f"{x:.3g}"


def norm(line: str) -> str:
    return "".join(ch if ch in "123456789" else "." for ch in line[:81])


def read_set(path: Path) -> list[str]:
    return [norm(line.strip()) for line in path.read_text().splitlines() if len(line.strip()) >= 81]


def to_array(puzzles: list[str]) -> np.ndarray:
    return np.array([[int(ch) if ch != "." else 0 for ch in p] for p in puzzles], dtype=np.int8).reshape(-1, 81)


def elapsed_seconds(text: str) -> float:
    """serate's %e: ``1.97s``, ``2m05s``, ``1h02m``, ``1d03h``."""
    units = {"d": 86400.0, "h": 3600.0, "m": 60.0, "s": 1.0}
    parts = re.findall(r"(\d+(?:\.\d+)?)([dhms])", text.strip())
    return sum(float(v) * units[u] for v, u in parts) if parts else float("nan")


def parse_serate(text: str) -> dict[str, SeRating]:
    """Ratings by puzzle from serate's output in FORMAT (or a TSV of it). Lines that do not start with a puzzle
    and three numbers (warnings, a totalTime line, a header) are skipped; ER 0.0 (serate's error mark) too."""
    out = {}
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        f = line.rstrip("\r\n").split("\t")
        if len(f) < 4 or len(f[0].strip()) < 81:
            continue
        try:
            er, ep, ed = (float(x) for x in f[1:4])
        except ValueError:
            continue
        if er <= 0.0:
            continue
        names = (f[4:7] + ["", "", ""])[:3]
        out[norm(f[0].strip())] = SeRating(er, ep, ed, *(n.strip() for n in names),
                                           elapsed_seconds(f[7]) if len(f) > 7 else float("nan"))
    return out


def serate_command(java: str, jar: Path, infile: Path, outfile: Path) -> list[str]:
    return [java, "-Xrs", "-Xmx1g", "-cp", str(jar), "diuf.sudoku.test.serate", *CLASSIC_OPTIONS,
            f"--format={FORMAT}", f"--input={infile}", f"--output={outfile}"]


def run_serate(java: str, jar: Path, puzzles: list[str], tmp: Path, name: str) -> tuple[str, float, float]:
    """serate's output on ``puzzles`` and the wall and CPU seconds (user + system of the JVM, every thread)."""
    infile, outfile = tmp / f"{name}.txt", tmp / f"{name}.serate.out"
    infile.write_text("".join(p + "\n" for p in puzzles))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    w = time.perf_counter()
    done = subprocess.run(serate_command(java, jar, infile, outfile), capture_output=True, text=True)
    wall = time.perf_counter() - w
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"bench_serate: serate failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return (outfile.read_text() if outfile.exists() else ""), wall, cpu


def spearman(a, b) -> float:
    """Spearman's rho: Pearson's r of the ranks, ties given their average rank."""
    def ranks(x):
        x = np.asarray(x, dtype=float)
        order = np.argsort(x, kind="mergesort")
        inv = np.empty(len(x), dtype=np.intp)
        inv[order] = np.arange(len(x))
        xs = x[order]
        first = np.r_[True, xs[1:] != xs[:-1]]
        dense = np.cumsum(first)[inv]
        bounds = np.r_[np.nonzero(first)[0], len(x)]
        return 0.5 * (bounds[dense] + bounds[dense - 1] + 1)

    if len(a) < 2:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    if ra.std() == 0 or rb.std() == 0:
        return float("nan")
    return float(np.corrcoef(ra, rb)[0, 1])


def grade_batches(arr: np.ndarray, batch: int) -> list:
    grades = []
    for i in range(0, len(arr), batch):
        grades += grade_many(arr[i:i + batch], 3)
    return grades


def time_ours(arr: np.ndarray, batch: int, runs: int) -> tuple[list, float, float]:
    """Our grades and the median wall and CPU seconds of ``runs`` runs after the first (the warm-up, which grades);
    with ``runs`` 0 the first run's times (it may include compiling kernels the warm-up call did not reach)."""
    w, c = time.perf_counter(), time.process_time()
    grades = grade_batches(arr, batch)
    walls, cpus = [time.perf_counter() - w], [time.process_time() - c]
    if runs > 0:
        walls, cpus = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        grade_batches(arr, batch)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return grades, statistics.median(walls), statistics.median(cpus)


def our_scales(g) -> dict[str, float | None]:
    return {"er": float(getattr(g, "er", g.score)), "ep": getattr(g, "ep", None), "ed": getattr(g, "ed", None)}


def fmt(x: float, digits: int = 3) -> str:
    return "-" if x is None or x != x else f"{x:.{digits}f}"


def compare(name: str, puzzles: list[str], grades: list, se: dict[str, SeRating], worst: int,
            confusion: int) -> tuple[list, list[str]]:
    """The summary row of one set and the lines of its detail (confusion table, worst puzzles)."""
    guessing = sum(bool(g.needs_guessing) for g in grades)
    both = [(p, g, se[p]) for p, g in zip(puzzles, grades) if p in se]
    row = [name, f"{len(puzzles):,}", f"{len(both):,}"]
    lines = []
    if not both:
        return row + ["-"] * 6 + [f"{guessing}"], lines
    ours = np.array([our_scales(g)["er"] for _, g, _ in both])
    theirs = np.array([s.er for _, _, s in both])
    close = np.abs(ours - theirs) <= CLOSE
    row += [f"{close.mean():.1%}", fmt(spearman(ours, theirs)), f"{np.mean(ours - theirs):+.2f}",
            f"{np.mean(np.abs(ours - theirs)):.2f}"]
    for scale in ("ep", "ed"):
        vals = [our_scales(g)[scale] for _, g, _ in both]
        if all(v is not None for v in vals):
            o = np.array(vals, dtype=float)
            t = np.array([getattr(s, scale) for _, _, s in both])
            row.append(f"{(np.abs(o - t) <= CLOSE).mean():.1%} / {fmt(spearman(o, t))}")
        else:
            row.append("-")
    row.append(f"{guessing} ({guessing / len(grades):.1%})")

    pairs = collections.defaultdict(list)
    for (p, g, s), ok in zip(both, close):
        if not ok:
            pairs[(g.hardest, s.er_tech or "?")].append((our_scales(g)["er"], s.er))
    if pairs:
        table = []
        for (mine, theirs_name), ers in sorted(pairs.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            o = [e[0] for e in ers]
            t = [e[1] for e in ers]
            common = collections.Counter(f"{a:.1f}/{b:.1f}" for a, b in ers).most_common(3)
            table.append([mine, theirs_name, len(ers), f"{statistics.median(o):.1f}", f"{statistics.median(t):.1f}",
                          ", ".join(f"{k} x{v}" for k, v in common)])
        shown = table[:confusion] if confusion > 0 else table
        lines.append(f"{name}: {int((~close).sum()):,} puzzles off by more than 0.1, by (our hardest, serate's "
                     f"hardest); {len(table)} pairs" + (f", the {len(shown)} most common" if len(shown) < len(table)
                                                       else ""))
        lines.append(tabulate(shown, headers=["ours: hardest", "serate: hardest", "puzzles", "ours ER (med)",
                                              "serate ER (med)", "common ER pairs ours/serate"],
                              disable_numparse=True, colalign=["left", "left"] + ["right"] * 4))
    if worst > 0:
        diffs = sorted(both, key=lambda t: -abs(our_scales(t[1])["er"] - t[2].er))[:worst]
        lines.append(f"{name}: the {len(diffs)} puzzles with the largest |ours - serate| (ER)")
        lines.append(tabulate([[p, f"{our_scales(g)['er']:.1f}", f"{s.er:.1f}", g.hardest, s.er_tech]
                               for p, g, s in diffs],
                              headers=["puzzle", "ours", "serate", "ours: hardest", "serate: hardest"],
                              disable_numparse=True, colalign=["left", "right", "right", "left", "left"]))
    return row, lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", action="append", default=[], metavar="NAME=FILE",
                    help="a puzzle file (81-character lines, '.' or '0' for blanks); repeatable")
    ap.add_argument("--top1465", type=Path, help="the magictour top1465 list (81-character lines)")
    ap.add_argument("--ratings", action="append", default=[], metavar="[NAME=]FILE",
                    help="serate's cached ratings of a set (TSV); a bare FILE goes to the sets in order")
    ap.add_argument("--serate-jar", type=Path, help="SukakuExplainer.jar: rate the sets with serate live and time it")
    ap.add_argument("--java", default="java", help="the java to run serate with (default: java on the PATH)")
    ap.add_argument("--serate-out", type=Path, metavar="DIR", help="write live serate ratings as DIR/NAME.serate.tsv")
    ap.add_argument("--limit", type=int, default=None, help="only the first N puzzles of each set")
    ap.add_argument("--runs", type=int, default=5, help="timed runs of our grader per set after a warm-up run (median; default 5; 0: time the warm-up run)")
    ap.add_argument("--batch", type=int, default=256, help="puzzles per grade_many call (default 256)")
    ap.add_argument("--worst", type=int, default=0, metavar="K", help="print the K puzzles that disagree most")
    ap.add_argument("--confusion", type=int, default=15, metavar="K",
                    help="rows of the disagreement table per set (default 15; 0 for all)")
    ap.add_argument("--save", type=Path, help="write our ratings as TSV")
    args = ap.parse_args()

    sets: list[tuple[str, list[str]]] = []
    for spec in args.set:
        name, sep, file = spec.partition("=")
        if not sep:
            name, file = Path(spec).stem, spec
        sets.append((name, read_set(Path(file))))
    if args.top1465:
        sets.append(("top1465", read_set(args.top1465)))
    if not sets:
        ap.error("no puzzles: give --set NAME=FILE and/or --top1465 FILE")
    if args.limit:
        sets = [(name, p[:args.limit]) for name, p in sets]

    cached: dict[str, dict[str, SeRating]] = {}
    names = [name for name, _ in sets]
    bare = 0
    for spec in args.ratings:
        name, sep, file = spec.partition("=")
        if not sep or name not in names:
            if bare >= len(names):
                ap.error(f"--ratings {spec}: more rating files than sets")
            name, file, bare = names[bare], spec, bare + 1
        cached[name] = parse_serate(Path(file).read_text())

    kept = []
    for name, puzzles in sets:  # both sides get the same puzzles: exactly one solution each
        counts = fast.count_many(to_array(puzzles), 3)
        if not (counts == 1).all():
            print(f"  {name}: {int((counts != 1).sum())} of {len(puzzles):,} puzzles have no unique solution: "
                  "left out")
        kept.append((name, [p for p, c in zip(puzzles, counts) if c == 1]))
    sets = kept
    timing = f"median of {args.runs} runs" if args.runs > 0 else "one run, the first"
    print(f"bench_serate: ours {timing} (grade_many, batches of {args.batch}); sets: "
          + ", ".join(f"{name} ({len(p):,})" for name, p in sets))

    grade_many(to_array(sets[0][1][:8]), 3)  # warm: compile or load the kernels
    summary, details, speed, saved = [], [], [], []
    jvm = None
    with tempfile.TemporaryDirectory() as tmpname:
        tmp = Path(tmpname)
        if args.serate_jar:
            print(f"  serate JVM start (empty input): {load()}", flush=True)
            _, jwall, jcpu = run_serate(args.java, args.serate_jar, [], tmp, "empty")
            jvm = (jwall, jcpu)
        for name, puzzles in sets:
            arr = to_array(puzzles)
            print(f"  {name} ours: {load()}", flush=True)
            grades, wall, cpu = time_ours(arr, args.batch, args.runs)
            n = len(puzzles)
            row = [name, f"{n:,}", rate(n / cpu), rate(n / wall), f"{1e3 * cpu / n:,.2f}"]
            se = cached.get(name)
            if args.serate_jar:
                print(f"  {name} serate: {load()}", flush=True)
                text, swall, scpu = run_serate(args.java, args.serate_jar, puzzles, tmp, name)
                se = parse_serate(text)
                if len(se) < n:
                    print(f"  {name}: serate rated {len(se):,} of {n:,} puzzles")
                if args.serate_out:
                    args.serate_out.mkdir(parents=True, exist_ok=True)
                    (args.serate_out / f"{name}.serate.tsv").write_text(
                        TSV_HEADER + "\n" + "".join(line + "\n" for line in text.splitlines()
                                                    if len(line) >= 81 and "\t" in line))
                net = max(scpu - jvm[1], 1e-9)
                row += [rate(n / scpu), rate(n / swall), rate(n / net), f"x{(n / cpu) / (n / scpu):,.1f}"]
            elif se:
                secs = [se[p].seconds for p in puzzles if p in se and se[p].seconds == se[p].seconds]
                if secs and sum(secs) > 0:  # serate's own per-puzzle wall clock from the cache (%e, 10 ms steps)
                    row += ["-", f"{rate(len(secs) / sum(secs))} (cached %e)", "-",
                            f"x{(n / wall) / (len(secs) / sum(secs)):,.1f} (wall)"]
            speed.append(row)
            r, lines = compare(name, puzzles, grades, se or {}, args.worst, args.confusion)
            summary.append(r)
            details += lines
            for p, g in zip(puzzles, grades):
                s = our_scales(g)
                saved.append([name, p, f"{s['er']:.1f}", fmt(s["ep"], 1), fmt(s["ed"], 1), g.hardest,
                              int(bool(g.needs_guessing)), g.level])

    print()
    print(tabulate(summary, headers=["set", "puzzles", "rated by both", "ER within 0.1", "ER Spearman",
                                     "ER ours-serate (mean)", "ER |diff| (mean)", "EP within 0.1 / rho",
                                     "ED within 0.1 / rho", "ours: guessing"],
                   disable_numparse=True, colalign=["left"] + ["right"] * 9))
    print()
    headers = ["set", "puzzles", "ours /s (CPU)", "ours /s (wall)", "ours ms (CPU)"]
    if args.serate_jar or any(len(r) > 5 for r in speed):
        headers += ["serate /s (CPU)", "serate /s (wall)", "serate /s (CPU, less JVM start)", "ours / serate"]
        speed = [r + ["-"] * (len(headers) - len(r)) for r in speed]
    print(tabulate(speed, headers=headers, disable_numparse=True, colalign=["left"] + ["right"] * (len(headers) - 1)))
    if jvm:
        print(f"serate JVM start and exit (no puzzles): {jvm[0]:.2f} s wall, {jvm[1]:.2f} s CPU")
    if not args.serate_jar:
        print("serate was not run (no --serate-jar); its speed, where shown, is its own per-puzzle %e wall clock "
              "from the cached ratings, and the ratio is ours per wall second over it")
    for line in details:
        print()
        print(line)
    if args.save:
        args.save.write_text("set\tpuzzle\ter\tep\ted\thardest\tneeds_guessing\tlevel\n"
                             + "".join("\t".join(map(str, r)) + "\n" for r in saved))
        print(f"\nour ratings: {args.save}")


if __name__ == "__main__":
    main()
