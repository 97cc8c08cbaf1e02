"""Read-side benchmark: `catalogue query` (samples too), `daily` and `export` on a 50,000-board catalogue (or
500,000), from the shell and in-process.

Targets (catalogue issue): a query answers in <= 200 ms and an export of one board in <= 300 ms, each measured
as a whole `catalogue` process started from the shell. The catalogue is built by direct inserts through the
models (valid boards, carved-looking puzzles, plausible metrics and grades), because this bench measures reading,
not filling. Prints the median of several runs of each command, and, for scale, the cost of starting Python and
of importing the CLI, which every command pays before it reads anything.

    python bench/bench_query.py [--rows 50000] [--runs 7] [--db URL|PATH] [--only TEXT]

The figures of docs/benchmarks.md, "Sampling and the daily puzzle", come from ``--rows 500000 --only sample``
(and ``--only daily``).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QUERY_TARGET_S = 0.200
EXPORT_TARGET_S = 0.300
LEVELS = ("easy", "medium", "hard", "expert", "extreme")
HARDEST = {"easy": "hidden-single", "medium": "naked-pair", "hard": "x-wing", "expert": "xy-wing",
           "extreme": "x-chain"}


def random_board(rng: random.Random) -> str:
    """A valid 9x9 board: the band pattern, with bands, stacks, rows, columns and digits shuffled."""
    def order():
        bands = rng.sample(range(3), 3)
        return [3 * band + r for band in bands for r in rng.sample(range(3), 3)]
    rows, cols, digits = order(), order(), rng.sample(range(1, 10), 9)
    return "".join(str(digits[((r % 3) * 3 + r // 3 + c) % 9]) for r in rows for c in cols)


def build(url: str, rows: int, seed: int = 1) -> None:
    """``rows`` boards with one puzzle each, inserted in one transaction per 5,000 rows."""
    import datetime as dt

    from sqlalchemy import func, insert, select

    from catalogue.store import Catalogue
    from catalogue.store.database import write_transaction
    from catalogue.store.models import Board, Puzzle, Run

    engine = Catalogue.open(url).engine
    with engine.connect() as conn:
        have = conn.execute(select(func.count()).select_from(Board)).scalar()
    if have >= rows:
        print(f"reusing {have} boards in {url}")
        return
    rng = random.Random(seed)
    now = dt.datetime.now(dt.timezone.utc)
    started = time.perf_counter()
    with write_transaction(engine) as conn:
        run_id = conn.execute(insert(Run).values(
            started_at=now, finished_at=now, status="completed", program_version="bench", command="bench_query",
            size=9, method="wfc", equivalence="d4", symmetry="none", seed=seed, generators=2, checkers=2,
            queue_size=256, parameters="{}", generated=rows, accepted=rows, duplicates=0, contradictions=0,
            elapsed_seconds=10.0, stage_stats="{}").returning(Run.id)).scalar_one()
    seen: set[str] = set()
    for start in range(have, rows, 5000):
        boards, puzzles = [], []
        for number in range(start, min(rows, start + 5000)):
            board = random_board(rng)
            while board in seen:
                board = random_board(rng)
            seen.add(board)
            clues = max(17, min(35, int(rng.gauss(24, 2))))
            keep = set(rng.sample(range(81), clues))
            puzzle = "".join(ch if i in keep else "." for i, ch in enumerate(board))
            level = rng.choices(LEVELS, weights=(50, 25, 15, 7, 3))[0]
            nodes = int(rng.lognormvariate(4.5, 1.0)) + 1
            guesses = nodes // 8
            boards.append(dict(number=number, size=9, equivalence="d4", key=board, board=board, method="wfc",
                               seed=rng.getrandbits(62), restarts=rng.randint(0, 3),
                               generate_seconds=rng.uniform(1e-4, 1e-3), run_id=run_id, created_at=now))
            puzzles.append(dict(board_number=number, puzzle=puzzle, clues=clues, symmetry="none", target_clues=None,
                                carve_seed=rng.getrandbits(62), carve_checks=rng.randint(60, 120),
                                carve_seconds=rng.uniform(1e-4, 5e-4), attempts=1, nodes=nodes, guesses=guesses,
                                backtracks=guesses // 2, checks=nodes * 9, max_depth=min(guesses, 12),
                                solve_seconds=nodes * 2e-7, level=level, score=round(rng.uniform(1, 9), 1),
                                hardest=HARDEST[level], techniques=json.dumps({HARDEST[level]: 1})))
        with write_transaction(engine) as conn:
            conn.execute(insert(Board), boards)
            conn.execute(insert(Puzzle), puzzles)
    engine.dispose()
    print(f"built {rows - have} boards in {time.perf_counter() - started:.1f} s")


def median_seconds(argv: list[str], runs: int) -> tuple[float, float]:
    """Median wall time and median CPU time (user + system) of the command as a whole process.

    CPU time is reported too because on a shared machine wall time mostly measures the other processes."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        walls.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode != 0:
            sys.exit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()}")
    return statistics.median(walls), statistics.median(cpus)


def in_process_ms(db: str, runs: int, only: str = "") -> dict[str, tuple[float, float]]:
    """The commands' own work without interpreter start and CLI import: open + SQL + formatting through the
    Python API (what the commands call), median wall and CPU ms. Run i of a sample uses seed i, so no run
    repeats another's reads."""
    import io

    from catalogue.output import write_records
    from catalogue.store import Catalogue
    from catalogue.store.columns import RESULT_FIELDS

    catalogue = Catalogue.open(db, create=False)

    def printed(query, fmt: str) -> None:
        write_records(query.dicts(), RESULT_FIELDS, fmt, out=io.StringIO())

    work = {
        "query --min-clues 24 --max-clues 26 --order-by nodes --desc --limit 20":
            lambda i: printed(catalogue.puzzles(min_clues=24, max_clues=26).order_by("nodes", desc=True).limit(21),
                              "table"),
        "query --order-by score --limit 10":
            lambda i: printed(catalogue.puzzles().order_by("score").limit(11), "csv"),
        "query --sample 10": lambda i: printed(catalogue.puzzles().sample(10, seed=i), "csv"),
        "query --sample 1000": lambda i: printed(catalogue.puzzles().sample(1000, seed=i), "csv"),
        "query --sample 10 --level extreme": lambda i: printed(catalogue.puzzles(level="extreme").sample(10, seed=i),
                                                              "csv"),
        "query --sample 10 --level easy": lambda i: printed(catalogue.puzzles(level="easy").sample(10, seed=i), "csv"),
        "query --sample 10 --min-score 8": lambda i: printed(catalogue.puzzles(min_score=8).sample(10, seed=i), "csv"),
        "query --offset N/2 --limit 10": lambda i: printed(catalogue.puzzles().offset(
            catalogue.puzzles().count() // 2 + i).limit(10), "csv"),
        "daily (5 levels)": lambda i: [catalogue.daily(f"2026-01-{i + 1:02d}", level) for level in LEVELS],
        "export (Catalogue.board)": lambda i: catalogue.board(1 + i),
    }
    out = {}
    for name, job in work.items():
        if only not in name:
            continue
        walls, cpus = [], []
        for i in range(runs):
            w, c = time.perf_counter(), time.process_time()
            job(i)
            walls.append(time.perf_counter() - w)
            cpus.append(time.process_time() - c)
        out[name] = (statistics.median(walls) * 1000, statistics.median(cpus) * 1000)
    catalogue.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--db", help="catalogue URL or path (default: a file in a temporary folder)")
    parser.add_argument("--only", default="", metavar="TEXT", help="run only the cases whose name holds TEXT")
    args = parser.parse_args()

    tmp = tempfile.TemporaryDirectory(prefix="bench_query_")
    db = args.db or str(Path(tmp.name) / "catalogue.db")
    build(db, args.rows)
    exe = [sys.executable, "-m", "catalogue.cli"] if os.environ.get("BENCH_MODULE") else ["catalogue"]
    middle = args.rows // 2
    # The same command in an app that registers only its own module: what `catalogue query` would cost if the CLI
    # imported command modules lazily (today catalogue.cli imports every command, and some import numpy/numba).
    alone = [sys.executable, "-c", "import sys, typer; from catalogue.cli.group import CatalogueGroup; "
             "from catalogue.cli.commands import query, export; app = typer.Typer(cls=CatalogueGroup); "
             "app.callback()(lambda: None); query.register(app); export.register(app); app(sys.argv[1:])"]
    cases = [
        ("python -c pass (interpreter start)", [sys.executable, "-c", "pass"], None),
        ("import catalogue.cli (every command pays this)", [sys.executable, "-c", "import catalogue.cli"], None),
        ("query --limit 20, app with only query/export registered",
         [*alone, "query", "--db", db, "--limit", "20"], QUERY_TARGET_S),
        (f"export {middle} --format pretty, app with only query/export registered",
         [*alone, "export", "--db", db, str(middle), "--format", "pretty"], EXPORT_TARGET_S),
        ("query (default: table, first 100)", [*exe, "query", "--db", db], QUERY_TARGET_S),
        ("query --min-clues 24 --max-clues 26 --order-by nodes --desc --limit 20",
         [*exe, "query", "--db", db, "--min-clues", "24", "--max-clues", "26", "--order-by", "nodes", "--desc",
          "--limit", "20"], QUERY_TARGET_S),
        ("query --level hard --technique x-wing --format json --limit 100",
         [*exe, "query", "--db", db, "--level", "hard", "--technique", "x-wing", "--format", "json", "--limit",
          "100"], QUERY_TARGET_S),
        ("query --order-by score --limit 10 --format csv",
         [*exe, "query", "--db", db, "--order-by", "score", "--limit", "10", "--format", "csv"], QUERY_TARGET_S),
        (f"export {middle} --format line --solution",
         [*exe, "export", "--db", db, str(middle), "--format", "line", "--solution"], EXPORT_TARGET_S),
        (f"export {middle} --format pretty", [*exe, "export", "--db", db, str(middle), "--format", "pretty"],
         EXPORT_TARGET_S),
        (f"export {middle} --format svg", [*exe, "export", "--db", db, str(middle), "--format", "svg"],
         EXPORT_TARGET_S),
        ("query --sample 10 --seed 1", [*exe, "query", "--db", db, "--sample", "10", "--seed", "1"],
         QUERY_TARGET_S),
        ("query --sample 1000 --seed 1 --format csv",
         [*exe, "query", "--db", db, "--sample", "1000", "--seed", "1", "--format", "csv"], QUERY_TARGET_S),
        ("query --sample 10 --seed 1 --level extreme",
         [*exe, "query", "--db", db, "--sample", "10", "--seed", "1", "--level", "extreme"], QUERY_TARGET_S),
        ("daily --date 2026-11-23 (5 levels)", [*exe, "daily", "--db", db, "--date", "2026-11-23"], QUERY_TARGET_S),
        ("stats --format json (no target)", [*exe, "stats", "--db", db, "--format", "json"], None),
    ]
    cases = [case for case in cases if args.only in case[0]]
    print(f"{args.rows} boards, median of {args.runs} runs, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'command':74} {'wall':>9} {'cpu':>9} {'target':>9}")
    for name, argv, target in cases:
        wall, cpu = median_seconds(argv, args.runs)
        verdict = "" if target is None else f"{target * 1000:6.0f} ms {'ok' if wall <= target else 'OVER'}"
        print(f"{name:74} {wall * 1000:6.0f} ms {cpu * 1000:6.0f} ms {verdict}")
    print("in-process (open + SQL + formatting; what the read commands add to start-up), wall and cpu:")
    for name, (wall_ms, cpu_ms) in in_process_ms(db, args.runs, args.only).items():
        print(f"  {name:72} {wall_ms:6.1f} ms {cpu_ms:6.1f} ms")
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    tmp.cleanup()


if __name__ == "__main__":
    main()
