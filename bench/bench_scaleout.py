"""Scale-out benchmark: several writer processes storing into one PostgreSQL catalogue, and the writer's capacity
as the catalogue grows.

    python bench/bench_scaleout.py scaleout [--processes 1 2 4 8] [--boards 40960] [--runs 3]
    python bench/bench_scaleout.py capacity [--existing 50000 200000 500000] [--db sqlite|postgresql] [--runs 3]

``scaleout``: 1, 2, 4 and 8 processes each store their share of pre-made batches (real 9x9 boards with their keys,
carved and graded puzzles, rows built by the fill's own ``batch_rows``; made once, before any timing, and cached
in the temp folder) into one PostgreSQL catalogue, then write the batch's ``N.txt`` files into the catalogue's
folder, exactly as the fill's writer does (``Catalogue.store_batch``, then ``write_board_files``). The database
``catalogue_scaleout_bench`` on 127.0.0.1:5432 (user postgres) is made for the bench and dropped at the end.
Printed per process count (medians of ``--runs``): boards/s in all and per process, the time each process spent
waiting for the write lock and holding it, the lock's busy share (holding time of all processes / wall time: near
1.0 the lock is saturated), the writers' CPU per board and their PostgreSQL backends' CPU per board. From the
lock's capacity (boards per second of lock holding) and a 2-core host's fill rate it derives how many hosts one
catalogue takes.

``capacity``: the writer's capacity (boards per second of store + files) with 50,000, 200,000 and 500,000
boards already in the catalogue (added by direct inserts, with their files), on SQLite or PostgreSQL.

The machine is shared: the load average is printed before every run.
"""
from __future__ import annotations

import argparse
import os
import pickle
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import _common  # puts the repository first on the path and enables the kernel cache
from _checked_batches import make_batches, rows_of

REPOSITORY = _common.ROOT

PG_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432"
BENCH_DB = "catalogue_scaleout_bench"
#: a 2-core host's fill rate: the check stage with 2 threads, `bench/bench_fill.py scaling` (docs/benchmarks.md,
#: Filling: the two-threads line), with grading on Sudoku Explainer's full scale
HOST_RATE = 2200
#: the top of the range the issue gives for a host (3,000-5,000 checked boards/s): the conservative count
HOST_RATE_HIGH = 5000


# -- one writer process -----------------------------------------------------------------------------------------
def _backend_cpu(pids) -> float:
    """CPU seconds of the PostgreSQL backends ``pids`` (same machine: /proc), 0 where unreadable."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            pass
    return total


def use_design(design: str) -> None:
    """``blocks``: the store as it is. ``lock``: the design before blocks, for comparison: every batch in one
    transaction under the write lock (the SQLite path, ``insert._store_once``, on PostgreSQL too)."""
    if design == "blocks":
        return
    from catalogue.store import blocks, database, insert

    def whole_batch_under_the_lock(engine, boards, puzzles, limit, run_id, files_through):
        for attempt in range(insert.RETRIES + 1):
            try:
                return insert._store_once(engine, boards, puzzles, limit, run_id, files_through)
            except insert.NumberingConflict:
                if attempt == insert.RETRIES:
                    raise

    blocks.store_block = whole_batch_under_the_lock
    database.live_blocks = lambda conn: []  # no blocks: the lock's transaction as it was


def writer_process(url: str, folder: str, cache: str, share: list[int], run_id: int, start, results,
                   design: str) -> None:
    """Store this process's share of the batches as the fill's writer does; report its figures."""
    from sqlalchemy import event, text

    from catalogue.store import Catalogue
    from catalogue.store.database import lock_clock

    use_design(design)
    batches = pickle.loads(Path(cache).read_bytes())
    work = rows_of([batches[i] for i in share], run_id)
    catalogue = Catalogue(url, folder)
    engine = catalogue.engine
    pids: set[int] = set()
    event.listen(engine, "checkout", lambda dbapi, _rec, _proxy: pids.add(dbapi.info.backend_pid))
    with engine.connect() as conn:  # one connection made before the clock starts
        conn.execute(text("SELECT 1"))
    start.wait()
    lock_clock.reset()
    server_before = _backend_cpu(pids)
    cpu, wall = time.process_time(), time.perf_counter()
    stored = 0
    files_through = None
    file_cpu = 0.0
    for batch, boards, puzzles in work:
        numbers = catalogue.store_batch(boards, puzzles, run_id=run_id, files_through=files_through)
        kept = [i for i, n in enumerate(numbers) if n is not None]
        if kept:
            before = time.process_time()
            catalogue.write_board_files([numbers[i] for i in kept], batch.boards[kept], "3x3")
            file_cpu += time.process_time() - before
            files_through = numbers[kept[-1]]
        stored += len(kept)
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    results.put({"stored": stored, "wall": wall, "cpu": cpu, "file_cpu": file_cpu, "wait": lock_clock.waiting,
                 "turn": lock_clock.turn, "hold": lock_clock.holding, "taken": lock_clock.taken,
                 "server_cpu": _backend_cpu(pids) - server_before, "end": time.time()})
    catalogue.close()


# -- the scale-out run ------------------------------------------------------------------------------------------
def _admin():
    from sqlalchemy import create_engine

    return create_engine(f"{PG_SERVER}/postgres", isolation_level="AUTOCOMMIT")


def _drop(admin) -> None:
    from sqlalchemy import text

    with admin.connect() as conn:
        conn.execute(text(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)"))


def _fresh_catalogue(url: str, folder: Path) -> int:
    """A new, empty catalogue (schema migrated, folder claimed) and a run row; returns the run id."""
    from sqlalchemy import text

    from catalogue.store import Catalogue

    admin = _admin()
    _drop(admin)
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {BENCH_DB}"))
    admin.dispose()
    with Catalogue.open(url, folder) as cat:
        cat.claim_folder()
        return cat.start_run(program_version="bench", command="bench_scaleout", size=9, method="wfc",
                             equivalence="d4", symmetry="none", seed=1, generators=0, checkers=0, queue_size=0)


def one_run(url: str, cache: Path, nbatches: int, processes: int, folder: Path, design: str) -> dict:
    import multiprocessing as mp

    run_id = _fresh_catalogue(url, folder)
    ctx = mp.get_context("spawn")
    start, results = ctx.Event(), ctx.Queue()
    shares = [list(range(p, nbatches, processes)) for p in range(processes)]
    procs = [ctx.Process(target=writer_process, args=(url, str(folder), str(cache), share, run_id, start, results,
                                                              design))
             for share in shares]
    for p in procs:
        p.start()
    time.sleep(3.0 + 0.5 * processes)  # let every process load its batches and connect
    begun = time.time()
    start.set()
    reports = [results.get(timeout=600) for _ in procs]
    for p in procs:
        p.join()
    wall = max(r["end"] for r in reports) - begun
    stored = sum(r["stored"] for r in reports)
    check_result(url, folder, stored)
    return {"processes": processes, "stored": stored, "wall": wall, "rate": stored / wall,
            "per_process": statistics.mean(r["stored"] / r["wall"] for r in reports),
            "wait": statistics.mean(r["wait"] for r in reports), "hold": sum(r["hold"] for r in reports),
            "busy": sum(r["hold"] for r in reports) / wall,
            "turn": statistics.mean(r["turn"] for r in reports),
            "cpu_us": 1e6 * sum(r["cpu"] for r in reports) / stored,
            "file_us": 1e6 * sum(r["file_cpu"] for r in reports) / stored,
            "server_us": 1e6 * sum(r["server_cpu"] for r in reports) / stored,
            "taken": sum(r["taken"] for r in reports)}


def check_result(url: str, folder: Path, stored: int) -> None:
    """The run's result is a catalogue like any other: numbers 0..N-1, every key once, every file its row's."""
    from catalogue.store import Catalogue

    with Catalogue.open(url, folder) as cat:
        report = cat.check_database(sample=200)
        files = cat.check_files(full=True)
    if report.problems or report.boards != stored or files.problems or files.strays:
        raise SystemExit(f"the bench's catalogue is wrong: {report.problems} {report.boards} != {stored}? "
                         f"files: {files.describe()}")


def scaleout(args) -> None:
    url = f"{PG_SERVER}/{BENCH_DB}"
    nbatches = args.boards // args.batch
    made = time.perf_counter()
    make_batches(nbatches * args.batch, args.batch, args.seed)
    cache = Path(tempfile.gettempdir()) / f"catalogue-scaleout-{nbatches * args.batch}-{args.batch}-{args.seed}.pickle"
    print(f"{nbatches} batches of {args.batch} checked 9x9 boards ready ({time.perf_counter() - made:.1f} s, "
          f"made once and cached: {cache.name})")
    table = []
    parent = Path(tempfile.mkdtemp(prefix="scaleout-"))
    try:
        for processes in args.processes:
            runs = []
            for run in range(args.runs):
                load = os.getloadavg()
                r = one_run(url, cache, nbatches, processes, parent / f"p{processes}-r{run}", args.design)
                shutil.rmtree(parent / f"p{processes}-r{run}", ignore_errors=True)  # now, not in a later run
                runs.append(r)
                print(f"  {processes} process(es), run {run + 1}: load average before {load[0]:.2f}; "
                      f"{r['stored']:,} boards in {r['wall']:.2f} s = {r['rate']:,.0f}/s "
                      f"({r['per_process']:,.0f}/s a process); lock: waited {r['wait']:.2f} s a process "
                      f"(and {r['turn']:.2f} s for earlier blocks), held {r['hold']:.2f} s in all "
                      f"({r['busy']:.0%} of the wall time), {r['taken']} times; CPU {r['cpu_us']:.0f} us a board "
                      f"in the writers ({r['file_us']:.0f} of it writing files), {r['server_us']:.0f} us in their "
                      f"PostgreSQL backends", flush=True)
            table.append({k: statistics.median(r[k] for r in runs) for k in runs[0]})
    finally:
        _drop(_admin())
        shutil.rmtree(parent, ignore_errors=True)
    print(f"\ndesign: {args.design}; medians of {args.runs} runs, {nbatches * args.batch:,} boards a run, "
          f"batches of {args.batch}")
    print("(lock wait: a process's time waiting for the write lock; turn: waiting for earlier blocks to commit,\n"
          " without the lock; lock held: all processes; writer CPU: store + files (files alone); server: backends)")
    print(f"{'processes':>9} {'boards/s':>9} {'/process':>9} {'lock wait s':>12} {'turn s':>7} {'lock held s':>12} "
          f"{'lock busy':>9} {'lock capacity/s':>16} {'writer CPU us/board':>20} {'server CPU us/board':>20}")
    for r in table:
        capacity = r["stored"] / r["hold"]
        cpu = f"{r['cpu_us']:.0f} ({r['file_us']:.0f})"
        print(f"{r['processes']:9.0f} {r['rate']:9,.0f} {r['per_process']:9,.0f} {r['wait']:12.2f} "
              f"{r['turn']:7.2f} {r['hold']:12.2f} {r['busy']:9.0%} {capacity:16,.0f} {cpu:>20} "
              f"{r['server_us']:20.0f}")
    best = max(table, key=lambda r: r["rate"])
    capacity = min(r["stored"] / r["hold"] for r in table)  # the most pessimistic (most contended) figure
    print(f"\nhighest rate measured: {best['rate']:,.0f} boards/s with {best['processes']:.0f} processes "
          f"(this machine's 2 cores run the writers and the server: CPU-bound, not lock-bound, when the lock "
          f"is busy less than ~70% of the time)")
    print(f"lock capacity (boards per second of lock holding, the lowest of the rows): {capacity:,.0f}/s")
    print(f"hosts one catalogue takes, by the lock: {capacity / HOST_RATE:.1f} at {HOST_RATE:,} boards/s a 2-core "
          f"host (docs/benchmarks.md, check stage with 2 threads), {capacity / HOST_RATE_HIGH:.1f} at "
          f"{HOST_RATE_HIGH:,}/s")


# -- the writer's capacity as the catalogue grows ----------------------------------------------------------------
def prefill(url: str, folder: Path, existing: int, run_id: int) -> None:
    """``existing`` boards (distinct real-looking keys, one puzzle each) and their files, by direct inserts."""
    import datetime as dt
    import random

    from sqlalchemy import insert

    from catalogue.store import Catalogue
    from catalogue.store.files import write_files
    from catalogue.store.models import Board, Puzzle

    cat = Catalogue.open(url, folder)
    engine = cat.engine
    rng = random.Random(existing)
    now = dt.datetime.now(dt.timezone.utc)
    digits = "123456789"
    board = "".join(digits[(r * 3 + r // 3 + c) % 9] for r in range(9) for c in range(9))
    payload = (("\n".join(" ".join(board[r * 9:(r + 1) * 9]) for r in range(9))) + "\n").encode()
    chunk = 20_000
    for start in range(0, existing, chunk):
        n = min(chunk, existing - start)
        boards = [dict(number=start + i, size=9, equivalence="d4",
                       key=f"{rng.getrandbits(324):081x}", board=board, method="wfc",
                       seed=start + i, restarts=0, generate_seconds=0.001, run_id=run_id, created_at=now)
                  for i in range(n)]
        puzzles = [dict(board_number=start + i, puzzle=board, clues=25, symmetry="none", carve_seed=i,
                        carve_checks=81, carve_seconds=0.001, attempts=1, nodes=100, guesses=1, backtracks=0,
                        checks=1000, max_depth=1, solve_seconds=1e-5, level="medium", score=2.0,
                        hardest="hidden-single", techniques="{}", minimal=True, undecided=0) for i in range(n)]
        with engine.begin() as conn:
            conn.execute(insert(Board), boards)
            conn.execute(insert(Puzzle), puzzles)
        write_files(cat.folder, range(start, start + n), [payload] * n)
    # What a catalogue grown by fills would have had time for, and the timed runs must not pay for: the prefill's
    # files written back to disk, and on PostgreSQL the vacuum and statistics autovacuum runs after a bulk insert
    # (without them the runs at 500,000 boards ran beside autovacuum's pass over the prefill: load 1.6 before them)
    os.sync()
    if engine.dialect.name == "postgresql":
        from sqlalchemy import text

        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text("VACUUM ANALYZE boards, puzzles"))
    cat.close()


def capacity(args) -> None:
    from catalogue.store import Catalogue

    nbatches = args.batches
    pool = make_batches(args.boards, 256, args.seed)
    if nbatches * args.runs > len(pool):
        raise SystemExit(f"--batches {nbatches} x --runs {args.runs} needs more than the {len(pool)} batches made")
    pg = args.db == "postgresql"
    url_pg = f"{PG_SERVER}/{BENCH_DB}"
    print(f"writer capacity on {args.db}: {nbatches} batches of 256 new 9x9 boards stored (store_batch + files) "
          f"into a catalogue that holds N boards already; median of {args.runs}")
    parent = Path(tempfile.mkdtemp(prefix="capacity-"))
    lines = []
    try:
        for existing in args.existing:
            folder = parent / f"boards-{existing}"
            if pg:
                run_id = _fresh_catalogue(url_pg, folder)
                url = url_pg
            else:
                url = f"sqlite:///{parent / f'c{existing}.db'}"
                with Catalogue.open(url, folder) as cat:
                    cat.claim_folder()
                    run_id = cat.start_run(program_version="bench", command="capacity", size=9, method="wfc",
                                           equivalence="d4", symmetry="none", seed=1, generators=0, checkers=0,
                                           queue_size=0)
            prefill(url, folder, existing, run_id)
            rates, db_rates = [], []
            for run in range(args.runs):
                load = os.getloadavg()[0]
                # every run stores its own new boards, so nothing is deleted between runs: deleting thousands of
                # files makes the next run pay for the file system's cleanup (bench_fill.py says the same), and the
                # catalogue grows by a few per cent at most
                cat = Catalogue.open(url, folder)
                work = rows_of(pool[run * nbatches:(run + 1) * nbatches], run_id)
                db_s = file_s = 0.0
                cpu = time.process_time()
                stored = 0
                for batch, boards, puzzles in work:
                    t = time.perf_counter()
                    numbers = cat.store_batch(boards, puzzles, run_id=run_id)
                    db_s += time.perf_counter() - t
                    kept = [i for i, n in enumerate(numbers) if n is not None]
                    t = time.perf_counter()
                    cat.write_board_files([numbers[i] for i in kept], batch.boards[kept], "3x3")
                    file_s += time.perf_counter() - t
                    stored += len(kept)
                cpu = time.process_time() - cpu
                rates.append(stored / (db_s + file_s))
                db_rates.append(stored / db_s)
                print(f"  {existing:,} boards, run {run + 1}: load average before {load:.2f}; {stored:,} stored: "
                      f"db {db_s:.2f} s, files {file_s:.2f} s = {rates[-1]:,.0f} boards/s "
                      f"(db alone {db_rates[-1]:,.0f}/s), CPU {1e6 * cpu / stored:.0f} us a board", flush=True)
                cat.close()
            lines.append((existing, statistics.median(rates), statistics.median(db_rates)))
    finally:
        if pg:
            _drop(_admin())
        shutil.rmtree(parent, ignore_errors=True)
    print(f"\n{'existing boards':>15} {'writer boards/s':>16} {'db alone /s':>12}")
    for existing, rate, db_rate in lines:
        print(f"{existing:15,} {rate:16,.0f} {db_rate:12,.0f}")
    print(f"last / first: {lines[-1][1] / lines[0][1]:.2f} (writer), {lines[-1][2] / lines[0][2]:.2f} (db alone)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("scaleout")
    p.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4, 8])
    p.add_argument("--boards", type=int, default=40_960)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--design", choices=["blocks", "lock"], default="blocks",
                   help="lock: every batch under the write lock, as before blocks (for comparison)")
    p = sub.add_parser("capacity")
    p.add_argument("--existing", type=int, nargs="+", default=[50_000, 200_000, 500_000])
    p.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    p.add_argument("--boards", type=int, default=20_480, help="the pre-made batches to take them from")
    p.add_argument("--batches", type=int, default=26)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    for p in sub.choices.values():
        p.add_argument("--quick", action="store_true", help="one run of each")
    args = parser.parse_args()
    if args.quick:
        args.runs = 1
    {"scaleout": scaleout, "capacity": capacity}[args.what](args)


if __name__ == "__main__":
    main()
