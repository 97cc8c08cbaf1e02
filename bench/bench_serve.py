"""The web server under load: requests/s and p50/p99 latency of ``/api/puzzles?limit=50`` with 200 concurrent
connections on a 500,000-board catalogue, side by side with datasette serving the same rows from the same file.

The catalogue is built by bench_query.py's direct inserts (this bench measures serving, not filling). Load comes
from wrk (Debian's ``wrk``: 2 threads, 200 connections) on the same 2-core machine, so the server and the load
share the cores: the figures are a floor. Each configuration runs ``--runs`` times; the medians are printed with
the server's CPU seconds per request (read from /proc, so the load generator's CPU is not counted) and the load
average before each run.

    python bench/bench_serve.py [--rows 500000] [--runs 3] [--seconds 10] [--db PATH] [--datasette PATH]

``--datasette`` is the path of a ``datasette`` executable (it is not a dependency: ``pip install datasette`` in
another venv); without one that column is skipped with a note.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

import _common  # noqa: F401  (puts the repository on the path)
from bench_query import build

CONNECTIONS = 200
QUERY = "/api/puzzles?limit=50"
#: the same 50 rows and fields through datasette's SQL API
DATASETTE_SQL = ("SELECT b.number, b.size, b.equivalence, b.method, p.clues, p.symmetry, p.nodes, p.guesses, "
                 "p.backtracks, p.checks, p.max_depth, p.solve_seconds, p.carve_checks, p.carve_seconds, p.minimal, "
                 "p.undecided, p.level, p.score, p.hardest, p.puzzle, b.board AS solution FROM puzzles p JOIN boards "
                 "b ON b.number = p.board_number ORDER BY p.board_number LIMIT 50")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its threads, from /proc (clock ticks)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for(url: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                answer.read()
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"{url} did not answer within {timeout:.0f} s")


def wrk(url: str, seconds: int) -> dict[str, float]:
    # --timeout 10s: wrk's default (2 s) counts a request queued behind 200 others as lost; here a timeout means
    # a request that got no answer in 10 s
    done = subprocess.run(["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s", "--timeout", "10s", "--latency", url],
                          capture_output=True, text=True, check=True)
    out = done.stdout

    def latency(label: str) -> float:
        value, unit = re.search(rf"^\s+{label}\s+([\d.]+)(us|ms|s)\s*$", out, re.M).groups()
        return float(value) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[unit]

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket_errors = re.search(r"Socket errors: (.*)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "requests": int(re.search(r"(\d+) requests in", out).group(1)),
            "p50_ms": latency("50%"), "p99_ms": latency("99%"),
            "non_2xx": int(errors.group(1)) if errors else 0, "socket_errors": socket_errors.group(1) if socket_errors
            else "none"}


def measure(name: str, command: list[str], url: str, runs: int, seconds: int) -> dict[str, float] | None:
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(url)
        wrk(url, 2)  # warm-up: connections, caches, the first query plans
        results = []
        for _ in range(runs):
            load = os.getloadavg()[0]
            before = cpu_seconds(proc.pid)
            result = wrk(url, seconds)
            result["cpu_us_per_request"] = (cpu_seconds(proc.pid) - before) / max(1, result["requests"]) * 1e6
            result["load"] = load
            results.append(result)
            print(f"  {name}: load {load:.2f}  {result['rps']:8.1f} req/s  p50 {result['p50_ms']:7.1f} ms  "
                  f"p99 {result['p99_ms']:7.1f} ms  server CPU {result['cpu_us_per_request']:6.0f} us/req  "
                  f"non-2xx {result['non_2xx']}  socket errors {result['socket_errors']}", flush=True)
        return {key: statistics.median(r[key] for r in results)
                for key in ("rps", "p50_ms", "p99_ms", "cpu_us_per_request")}
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=500_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--db", default=str(Path(tempfile.gettempdir()) / "bench-serve" / "catalogue.db"))
    parser.add_argument("--datasette", default=shutil.which("datasette"))
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is needed for the load (apt-get install wrk)")
    Path(args.db).parent.mkdir(parents=True, exist_ok=True)
    build(args.db, args.rows)
    print(f"{args.rows:,} boards in {args.db} ({Path(args.db).stat().st_size / 2**20:.0f} MiB); {CONNECTIONS} "
          f"connections, {args.seconds} s per run, {args.runs} runs; load average {os.getloadavg()[0]:.2f}")

    port = free_port()
    ours = measure("catalogue serve", [sys.executable, "-m", "catalogue", "serve", "--port", str(port), "--db",
                                       args.db], f"http://127.0.0.1:{port}{QUERY}", args.runs, args.seconds)
    peer = None
    if args.datasette:
        port = free_port()
        sql = urllib.parse.urlencode({"sql": DATASETTE_SQL, "_shape": "array"})
        peer = measure("datasette", [args.datasette, "serve", args.db, "-p", str(port), "--setting", "num_sql_threads",
                                     "3"], f"http://127.0.0.1:{port}/catalogue.json?{sql}", args.runs, args.seconds)
    else:
        print("  datasette: skipped (no datasette executable: --datasette PATH)")

    print(f"\nmedians of {args.runs} runs: /api/puzzles?limit=50, {CONNECTIONS} concurrent connections")
    print(f"{'server':<16} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'CPU us/req':>11}")
    for name, r in (("catalogue serve", ours), ("datasette", peer)):
        if r:
            print(f"{name:<16} {r['rps']:9.1f} {r['p50_ms']:8.1f} {r['p99_ms']:8.1f} {r['cpu_us_per_request']:11.0f}")
    if peer:
        print(f"ratio (ours / datasette): {ours['rps'] / peer['rps']:.2f}x the requests per second")


if __name__ == "__main__":
    main()
