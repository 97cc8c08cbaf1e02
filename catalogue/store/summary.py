"""The `catalogue stats` report: totals, per-shape counts, the clue histogram, metric summaries, levels and runs.

Runs on either kind of read connection, like :mod:`catalogue.store.queries` (whose ``fetch`` it uses): the same
SQL text on a stdlib ``sqlite3`` connection and on a SQLAlchemy one.
"""
from __future__ import annotations

import datetime as dt
import json
import sqlite3
from typing import Any, Optional

from engine.vocabulary import LEVELS

from .fields import BY_NAME, MEASURES
from .queries import fetch

#: metrics that `stats` summarises (min / median / max): name -> (table, column)
SUMMARY_METRICS = {name: (BY_NAME[name].table, BY_NAME[name].stored) for name in MEASURES}


def _rows(conn, sql: str) -> list[tuple]:
    """Rows of ``sql`` as plain tuples."""
    if isinstance(conn, sqlite3.Connection):
        return conn.execute(sql).fetchall()
    from sqlalchemy import text

    return [tuple(row) for row in conn.execute(text(sql))]


def _in_order(value) -> tuple:
    """A sort key that takes what SQLite lets a column hold: numbers in order, then anything else by its text (a
    clue count of 'abc', written by hand, is shown, not a crash: `catalogue verify` names the row)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (0, value, "")
    return (1, 0, str(value))


def median_of_middle(middle: list) -> Any:
    """The median from the one (odd count) or two (even count) middle values of the sorted non-NULL values: the
    mean of two, which stays a whole number (int) when both are ints and the mean is whole."""
    median = middle[0] if len(middle) == 1 else (middle[0] + middle[1]) / 2
    if isinstance(median, float) and median.is_integer() and all(isinstance(v, int) for v in middle):
        median = int(median)
    return median


def _summaries(conn, rows: dict[str, int]) -> dict[str, dict[str, Any]]:
    """min / median / max of each SUMMARY_METRICS column over its non-NULL values, all in SQL; ``rows`` holds
    each table's row count.

    Every metric has its own index (migration 0006), so min and max are one index descent each, the NULLs are
    counted on the index's NULL range, and the median is ``ORDER BY column LIMIT 1 or 2 OFFSET (n - 1) // 2``:
    a walk over half of one narrow index. Without the indexes every metric cost a scan of the wide table plus a
    sort (``percentile_disc`` on PostgreSQL); reading the columns into Python and sorting them there, as before,
    made the report and its memory many times larger (bench/bench_stats.py; docs/benchmarks.md, "Stats on 500,000
    boards")."""
    parts = []
    for name, (table, column) in SUMMARY_METRICS.items():
        # separate scalar subqueries: `min(x), max(x)` in one SELECT would not use the index's ends on SQLite
        parts += [f"(SELECT min({column}) FROM {table}) AS {name}_min",
                  f"(SELECT max({column}) FROM {table}) AS {name}_max",
                  f"(SELECT count(*) FROM {table} WHERE {column} IS NULL) AS {name}_nulls"]
    ends = fetch(conn, "SELECT " + ", ".join(parts))[0]
    out = {}
    for name, (table, column) in SUMMARY_METRICS.items():
        n = rows[table] - ends[f"{name}_nulls"]
        middle = [] if n <= 0 else [value for (value,) in _rows(
            conn, f"SELECT {column} FROM {table} WHERE {column} IS NOT NULL ORDER BY {column} "
                  f"LIMIT {2 - n % 2} OFFSET {(n - 1) // 2}")]
        if not middle:
            out[name] = {"min": None, "median": None, "max": None}
            continue
        out[name] = {"min": ends[f"{name}_min"], "median": median_of_middle(middle), "max": ends[f"{name}_max"]}
    return out


def _board_groups(conn) -> list[tuple[str, str]]:
    """The distinct (shape, equivalence) of the boards in order, each found by one descent of the index of
    UNIQUE (shape, equivalence, key): a loose index scan, where GROUP BY walks every entry (on 500,000 boards, most
    of the report's time, on either database). Two queries per step because SQLite seeks a row-value range
    ``(shape, equivalence) > (?, ?)`` on ``shape`` alone and would walk the rest of that shape."""
    groups = []
    found = fetch(conn, "SELECT shape, equivalence FROM boards ORDER BY shape, equivalence LIMIT 1")
    while found:
        shape, equivalence = found[0]["shape"], found[0]["equivalence"]
        groups.append((shape, equivalence))
        found = (fetch(conn, "SELECT shape, equivalence FROM boards WHERE shape = :shape "
                             "AND equivalence > :equivalence ORDER BY equivalence LIMIT 1",
                       {"shape": shape, "equivalence": equivalence})
                 or fetch(conn, "SELECT shape, equivalence FROM boards WHERE shape > :shape "
                                "ORDER BY shape, equivalence LIMIT 1", {"shape": shape}))
    return groups


def _shape_name(spec: str) -> tuple[str, int]:
    """A stored spec as the report groups it: its name (every layout of a jigsaw together) and its side."""
    from ..shapes import shape_of

    try:
        return spec.partition(":")[0], shape_of(spec).size
    except ValueError:  # a damaged row's shape: shown as stored (catalogue verify names the row)
        return spec, 0


def _by_shape_and_clues(conn) -> tuple[int, int, list[dict], list[dict]]:
    """The numbers of boards and of puzzles, the counts per shape and equivalence and the clue histogram per
    shape, without joining every puzzle to its board.

    Joining each puzzle to its board (for its shape) and grouping took longer than the whole report's target on
    500,000 puzzles (docs/benchmarks.md, "Stats on 500,000 boards"). Instead one
    (shape, equivalence) group, the one the runs say is largest, gets what remains of the catalogue-wide counts
    (``count(*)``, and walks of the clues and minimal indexes) once the other groups are taken away, and only
    those others are counted and joined: on a catalogue of one shape and equivalence nothing is joined, and the
    cost grows with the boards outside that group. Which group is left out changes the cost, never the result.
    The groups are then shown by the shape's name: a jigsaw's layouts add up under ``jigsawN``."""
    groups = _board_groups(conn)
    if not groups:
        return 0, 0, [], []
    boards = fetch(conn, "SELECT count(*) AS n FROM boards")[0]["n"]
    accepted = {(row["shape"], row["equivalence"]): row["n"] or 0 for row in fetch(
        conn, "SELECT shape, equivalence, sum(accepted) AS n FROM runs GROUP BY shape, equivalence")}
    rest = max(range(len(groups)), key=lambda i: accepted.get(groups[i], -1))
    others = [i for i in range(len(groups)) if i != rest]
    # per group: boards, clues -> puzzles, and the counts of puzzles not proven minimal (minimal false) and of
    # unknown minimality (NULL); `minimal` reads back as 0 / 1 on SQLite and as a bool on PostgreSQL
    counts = [0] * len(groups)
    clues: list[dict[int, int]] = [{} for _ in groups]
    unproven, unknown = [0] * len(groups), [0] * len(groups)
    for i in others:
        group = {"shape": groups[i][0], "equivalence": groups[i][1]}
        counts[i] = fetch(conn, "SELECT count(*) AS n FROM boards WHERE shape = :shape "
                                "AND equivalence = :equivalence", group)[0]["n"]
        for row in fetch(conn, "SELECT p.clues, p.minimal, count(*) AS n FROM boards b "
                               "JOIN puzzles p ON p.board_number = b.number "
                               "WHERE b.shape = :shape AND b.equivalence = :equivalence GROUP BY p.clues, p.minimal",
                         group):
            clues[i][row["clues"]] = clues[i].get(row["clues"], 0) + row["n"]
            unproven[i] += row["n"] if row["minimal"] is not None and not row["minimal"] else 0
            unknown[i] += row["n"] if row["minimal"] is None else 0
    whole = {row["clues"]: row["n"] for row in fetch(conn, "SELECT clues, count(*) AS n FROM puzzles GROUP BY clues")}
    minimality = fetch(conn, "SELECT (SELECT count(*) FROM puzzles WHERE minimal = FALSE) AS unproven, "
                             "(SELECT count(*) FROM puzzles WHERE minimal IS NULL) AS unknown")[0]
    counts[rest] = boards - sum(counts[i] for i in others)
    clues[rest] = {c: whole[c] - sum(clues[i].get(c, 0) for i in others) for c in whole}
    unproven[rest] = minimality["unproven"] - sum(unproven[i] for i in others)
    unknown[rest] = minimality["unknown"] - sum(unknown[i] for i in others)
    rows: dict[tuple, dict] = {}
    per_shape: dict[tuple, dict[int, int]] = {}
    for i, (spec, equivalence) in enumerate(groups):
        name, size = _shape_name(spec)
        row = rows.setdefault((size, name, equivalence), {
            "size": size, "shape": name, "equivalence": equivalence, "boards": 0, "puzzles": 0,
            "not_proven_minimal": 0, "minimal_unknown": 0})
        row["boards"] += int(counts[i])
        row["puzzles"] += int(sum(clues[i].values()))
        row["not_proven_minimal"] += int(unproven[i])
        row["minimal_unknown"] += int(unknown[i])
        histogram = per_shape.setdefault((size, name), {})
        for c, n in clues[i].items():
            histogram[c] = histogram.get(c, 0) + n
    by_shape = [rows[k] for k in sorted(rows)]
    histogram_rows = [{"size": size, "shape": name, "clues": c, "puzzles": int(n)}
                      for size, name in sorted(per_shape)
                      for c, n in sorted(per_shape[size, name].items(), key=lambda item: _in_order(item[0])) if n]
    # every puzzle has a clue count: the histogram's total is the number of puzzles (one walk fewer)
    return int(boards), int(sum(whole.values())), by_shape, histogram_rows


def stats(conn) -> dict[str, Any]:
    """Totals, per shape and equivalence, the clue histogram, metric summaries, levels and each run's throughput.

    ``boards`` is the total number of boards; generated, duplicates and contradictions are summed over runs.
    Per shape and equivalence, ``not_proven_minimal`` counts the puzzles whose carving hit the node limit
    (``minimal`` False: unique, but maybe a clue could still go) and ``minimal_unknown`` those stored before
    migration 0003 recorded minimality (``minimal`` NULL). Every figure is an aggregate in SQL over indexes (no
    query reads every row of a table), far faster than reading the columns into Python on 500,000
    boards (bench/bench_stats.py; docs/benchmarks.md, "Stats on 500,000 boards").
    On PostgreSQL it reads one snapshot (REPEATABLE READ) when it opens the transaction itself, so the counts
    and the medians' offsets agree while a fill is writing.
    """
    if not isinstance(conn, sqlite3.Connection) and conn.dialect.name == "postgresql" and not conn.in_transaction():
        conn.execution_options(isolation_level="REPEATABLE READ")
    boards, puzzles, by_shape, clues = _by_shape_and_clues(conn)
    graded = {row["level"]: row["n"] for row in
              fetch(conn, "SELECT level, count(*) AS n FROM puzzles GROUP BY level")}
    levels = {name: graded.pop(name, 0) for name in LEVELS}
    ungraded = graded.pop(None, 0)
    levels.update(sorted(graded.items()))  # a level this version does not know is still counted
    levels["ungraded"] = ungraded
    totals = fetch(conn, "SELECT coalesce(sum(generated), 0) AS generated, coalesce(sum(duplicates), 0) AS "
                         "duplicates, coalesce(sum(contradictions), 0) AS contradictions FROM runs")[0]
    return {
        "boards": boards,
        "puzzles": puzzles,
        "by_shape": by_shape,
        "clues": clues,
        "metrics": _summaries(conn, {"puzzles": puzzles, "boards": boards}),
        "generated": int(totals["generated"]),
        "duplicates": int(totals["duplicates"]),
        "contradictions": int(totals["contradictions"]),
        "levels": levels,
        "runs": runs(conn),
    }


def runs(conn) -> list[dict[str, Any]]:
    """Every fill run, oldest first, with its throughput (accepted boards per second of elapsed time)."""
    out = []
    for run in fetch(conn, "SELECT id, started_at, finished_at, status, size, shape, method, equivalence, symmetry, "
                           "level, seed, generators, checkers, generated, accepted, duplicates, contradictions, "
                           "elapsed_seconds, stage_stats FROM runs ORDER BY id"):
        run["started_at"] = utc_text(run["started_at"])
        run["finished_at"] = utc_text(run["finished_at"])
        elapsed = run["elapsed_seconds"] or 0.0
        run["boards_per_second"] = round(run["accepted"] / elapsed, 1) if elapsed > 0 else None
        run["stage_stats"] = _json_or_text(run["stage_stats"])
        out.append(run)
    return out


def utc_text(value: Any) -> Optional[str]:
    """A stored time as ``YYYY-MM-DDTHH:MM:SSZ``. Times are stored in UTC; SQLite keeps them as naive text
    and PostgreSQL as aware datetimes, so both are normalised here to print the same."""
    if value is None:
        return None
    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value)
    if value.tzinfo is not None:
        value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return value.isoformat(timespec="seconds") + "Z"


def _json_or_text(value: Optional[str]) -> Any:
    if not value:
        return {}
    try:
        return json.loads(value)
    except ValueError:  # written by hand or by an older version: show it rather than fail the whole report
        return value
