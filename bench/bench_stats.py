"""Stats benchmark: `catalogue stats` on a 500,000-board catalogue, on SQLite and on PostgreSQL, beside the old
implementation (metric columns read into Python and sorted there, per-board join for the per-size counts).

Target (catalogue issue 11): the whole `catalogue stats` command <= 1 s and under 100 MB resident on 500,000
boards, on SQLite and PostgreSQL alike. The catalogue is built as bench_query.py builds it (direct inserts through
the models, one puzzle per board, plausible metrics; ``minimal`` is NULL everywhere, the costliest case for the
minimality counts). On PostgreSQL the tables are then vacuumed and analysed, which autovacuum does on its own
after a bulk insert: index-only scans need the visibility map.

For each database it prints the median wall and CPU time of ``stats()`` in-process (a new connection each run),
and of ``catalogue stats`` (table and JSON) as a whole process from the shell with its peak resident memory
(ru_maxrss of that child), the load average before each run, and the old implementation measured the same way
(in-process, and from the shell through the same CLI with the old function patched in), with the ratio; and the
cost of starting Python and of opening the catalogue (what every command pays before `stats` reads anything).

    python bench/bench_stats.py [--rows 500000] [--runs 5] [--quick] [--db PATH] [--pg URL | --no-pg] [--no-old]

``--quick``: 50,000 boards, 3 runs. ``--db`` / ``--pg`` reuse (or build into) a given catalogue; by default a
file in a temporary folder and a new schema in the database ``test`` on 127.0.0.1:5432, both removed at the end.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from bench_query import build

# the catalogue package first: once tests/ is on the path, its catalogue/ folder (test files, no __init__.py) would
# be taken for a namespace package before an editable install's finder is asked
import catalogue.store  # noqa: E402,F401

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from naive.stats import summarise as old_summarise  # noqa: E402  the old median code, kept as the tests' twin

TARGET_S = 1.0
TARGET_MB = 100
PG_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


# --- the old implementation, kept here as the peer (catalogue/store/summary.py before migration 0006) ---------

def old_stats(conn) -> dict:
    """`stats` as it was: per-board join for the per-size counts, a join for the clue histogram, and the metric
    columns read into Python and sorted there."""
    from catalogue.store import summary
    from catalogue.store.queries import fetch

    count = lambda table: fetch(conn, f"SELECT count(*) AS n FROM {table}")[0]["n"]  # noqa: E731
    by_shape = fetch(conn, "SELECT b.size, b.shape, b.equivalence, count(*) AS boards, "
                          "CAST(coalesce(sum(pc.n), 0) AS BIGINT) AS puzzles, "
                          "CAST(coalesce(sum(pc.unproven), 0) AS BIGINT) AS not_proven_minimal, "
                          "CAST(coalesce(sum(pc.unknown), 0) AS BIGINT) AS minimal_unknown FROM boards b LEFT JOIN "
                          "(SELECT board_number, count(*) AS n, "
                          "sum(CASE WHEN NOT minimal THEN 1 ELSE 0 END) AS unproven, "
                          "sum(CASE WHEN minimal IS NULL THEN 1 ELSE 0 END) AS unknown "
                          "FROM puzzles GROUP BY board_number) pc "
                          "ON pc.board_number = b.number GROUP BY b.size, b.shape, b.equivalence "
                          "ORDER BY b.size, b.shape, b.equivalence")
    clues = fetch(conn, "SELECT b.size, b.shape, p.clues, count(*) AS puzzles FROM puzzles p "
                        "JOIN boards b ON b.number = p.board_number GROUP BY b.size, b.shape, p.clues "
                        "ORDER BY b.size, b.shape, p.clues")
    for row in by_shape + clues:  # the shapes by name, as the report shows them (a jigsaw's layouts as one)
        row["shape"] = summary._shape_name(row["shape"])[0]
    graded = {row["level"]: row["n"] for row in fetch(conn, "SELECT level, count(*) AS n FROM puzzles GROUP BY level")}
    levels = {name: graded.pop(name, 0) for name in summary.LEVELS}
    levels["ungraded"] = graded.pop(None, 0)
    totals = fetch(conn, "SELECT coalesce(sum(generated), 0) AS generated, coalesce(sum(duplicates), 0) AS "
                         "duplicates, coalesce(sum(contradictions), 0) AS contradictions FROM runs")[0]
    metrics = {}
    for table in ("puzzles", "boards"):
        names = [name for name, (where, _) in summary.SUMMARY_METRICS.items() if where == table]
        rows = summary._rows(conn, f"SELECT {', '.join(summary.SUMMARY_METRICS[n][1] for n in names)} FROM {table}")
        columns = list(zip(*rows)) if rows else [()] * len(names)
        metrics.update({name: old_summarise(column) for name, column in zip(names, columns)})
    return {"boards": count("boards"), "puzzles": count("puzzles"), "by_shape": by_shape, "clues": clues,
            "metrics": {name: metrics[name] for name in summary.SUMMARY_METRICS},
            "generated": int(totals["generated"]), "duplicates": int(totals["duplicates"]),
            "contradictions": int(totals["contradictions"]), "levels": levels, "runs": summary.runs(conn)}


# the CLI with the old function patched in, as a child process
OLD_CLI = ("import sys; sys.path[:0] = [{bench!r}]; import bench_stats; from catalogue.store import summary; "
           "summary.stats = bench_stats.old_stats; from catalogue.cli import main; sys.argv[0] = 'catalogue'; main()")


# --- measuring ------------------------------------------------------------------------------------------------

#: runs argv[1:] and prints its wall seconds, CPU seconds, ru_maxrss (KiB) and exit code. A small process of its
#: own, because a child's ru_maxrss counts the pages its parent had when it was forked (or vforked: the memory is
#: shared until exec), and this benchmark's process is larger than `catalogue stats` should be
LAUNCHER = ("import os, sys, time; t = time.perf_counter(); "
            "pid = os.posix_spawnp(sys.argv[1], sys.argv[1:], os.environ, "
            "file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)]); "
            "_, status, ru = os.wait4(pid, 0); "
            "print(time.perf_counter() - t, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, os.waitstatus_to_exitcode(status))")


def shell_runs(argv: list[str], runs: int) -> dict:
    """Median wall and CPU seconds of ``argv`` as a whole process, the largest ru_maxrss (MB) of its runs, and the
    1-minute load average before each run."""
    walls, cpus, rss, loads = [], [], [], []
    for _ in range(runs):
        loads.append(os.getloadavg()[0])
        done = subprocess.run([sys.executable, "-c", LAUNCHER, *argv], capture_output=True, text=True)
        wall, cpu, maxrss, code = done.stdout.split()
        if done.returncode != 0 or int(code) != 0:
            sys.exit(f"{' '.join(argv)} failed ({code}): {done.stderr.strip()}")
        walls.append(float(wall))
        cpus.append(float(cpu))
        rss.append(int(maxrss) / 1024)
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus), "rss": max(rss), "loads": loads}


def in_process_runs(db: str, fn, runs: int) -> dict:
    """Median wall and CPU seconds of ``fn(conn)`` on a fresh read connection of the open catalogue, after one
    warm-up run (the page cache is warm in the shell runs too)."""
    from catalogue.store import Catalogue

    with Catalogue.open(db, create=False) as catalogue:
        def once():
            with catalogue.reading() as conn:
                return fn(conn)
        once()
        walls, cpus, loads = [], [], []
        for _ in range(runs):
            loads.append(os.getloadavg()[0])
            w, c = time.perf_counter(), time.process_time()
            once()
            walls.append(time.perf_counter() - w)
            cpus.append(time.process_time() - c)
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus), "rss": None, "loads": loads}


def row(name: str, new: dict, old: dict | None, target: bool) -> str:
    rss = f"{new['rss']:5.0f} MB" if new["rss"] is not None else " " * 8
    loads = "/".join(f"{x:.2f}" for x in new["loads"])
    verdict = ""
    if target:
        ok = new["wall"] <= TARGET_S and (new["rss"] is None or new["rss"] < TARGET_MB)
        verdict = "ok" if ok else "OVER"
    peer = ""
    if old is not None:
        old_rss = f", {old['rss']:.0f} MB" if old["rss"] is not None else ""
        peer = f"   old {old['wall'] * 1000:6.0f} ms wall {old['cpu'] * 1000:6.0f} ms cpu{old_rss}: " \
               f"x{old['wall'] / new['wall']:.1f} faster"
    return (f"  {name:38} {new['wall'] * 1000:6.0f} ms {new['cpu'] * 1000:6.0f} ms {rss}  {verdict:4} "
            f"load {loads}{peer}")


def pg_schema_url(schema: str) -> str:
    return f"{PG_SERVER}?options=-csearch_path%3D{schema}"


def pg_admin(sql: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(PG_SERVER, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(sql))
    engine.dispose()


def vacuum(url: str) -> None:
    """VACUUM ANALYZE both tables (what autovacuum does after a bulk insert), outside a transaction."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        for table in ("boards", "puzzles"):
            conn.execute(text(f"VACUUM ANALYZE {table}"))
    engine.dispose()


def bench(label: str, db: str, runs: int, old: bool) -> None:
    from catalogue.store.summary import stats

    exe = [sys.executable, "-m", "catalogue.cli"] if os.environ.get("BENCH_MODULE") else ["catalogue"]
    old_cli = [sys.executable, "-c", OLD_CLI.format(bench=str(Path(__file__).resolve().parent))]
    print(f"{label}: {db}")
    print(f"  {'':38} {'wall':>9} {'cpu':>9} {'max rss':>8}")
    cases = [
        ("stats() in-process", lambda: in_process_runs(db, stats, runs),
         lambda: in_process_runs(db, old_stats, runs), False),
        ("catalogue stats (table), shell", lambda: shell_runs([*exe, "stats", "--db", db], runs),
         lambda: shell_runs([*old_cli, "stats", "--db", db], runs), True),
        ("catalogue stats --format json, shell", lambda: shell_runs([*exe, "stats", "--db", db, "--format", "json"],
                                                                    runs), None, True),
        ("catalogue db current, shell (opening)", lambda: shell_runs([*exe, "db", "current", "--db", db], runs),
         None, False),
    ]
    for name, new, peer, target in cases:
        print(row(name, new(), peer() if old and peer else None, target), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=500_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="50,000 boards, 3 runs")
    parser.add_argument("--db", help="SQLite catalogue path (default: a file in a temporary folder)")
    parser.add_argument("--pg", help="PostgreSQL catalogue URL (default: a new schema in `test`, dropped at the end)")
    parser.add_argument("--no-pg", action="store_true", help="SQLite only")
    parser.add_argument("--no-old", action="store_true", help="skip the old implementation (the slow peer)")
    args = parser.parse_args()
    if args.quick:
        args.rows, args.runs = 50_000, 3

    tmp = tempfile.TemporaryDirectory(prefix="bench_stats_")
    targets = [("SQLite", args.db or str(Path(tmp.name) / "catalogue.db"))]
    schema = None
    if not args.no_pg:
        if args.pg is None:
            schema = f"bench_stats_{uuid.uuid4().hex[:8]}"
            pg_admin(f'CREATE SCHEMA "{schema}"')
        targets.append(("PostgreSQL", args.pg or pg_schema_url(schema)))
    try:
        for label, db in targets:
            build(db, args.rows)
            if label == "PostgreSQL":
                vacuum(db)
        print(f"{args.rows} boards, median of {args.runs} runs, {os.cpu_count()} cores; target: the command "
              f"<= {TARGET_S:.0f} s and < {TARGET_MB} MB resident")
        python = shell_runs([sys.executable, "-c", "pass"], args.runs)
        cli = shell_runs([sys.executable, "-c", "import catalogue.cli"], args.runs)
        print(f"python start-up {python['wall'] * 1000:.0f} ms ({python['rss']:.0f} MB); import catalogue.cli "
              f"{cli['wall'] * 1000:.0f} ms ({cli['rss']:.0f} MB)")
        for label, db in targets:
            bench(label, db, args.runs, not args.no_old)
        print(f"load average at the end {os.getloadavg()[0]:.2f}")
    finally:
        if schema is not None:
            pg_admin(f'DROP SCHEMA "{schema}" CASCADE')
        tmp.cleanup()


if __name__ == "__main__":
    main()
