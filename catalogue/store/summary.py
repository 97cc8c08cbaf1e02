"""The `catalogue stats` report: totals, per-size counts, the clue histogram, metric summaries, levels and runs.

Runs on either kind of read connection, like :mod:`catalogue.store.queries` (whose ``fetch`` it uses): the same
SQL text on a stdlib ``sqlite3`` connection and on a SQLAlchemy one.
"""
from __future__ import annotations

import datetime as dt
import json
import sqlite3
from typing import Any, Optional

from engine.vocabulary import LEVELS

from .queries import SOLVER_METRICS, fetch

#: metrics that `stats` summarises (min / median / max): name -> (table, column)
SUMMARY_METRICS = {
    **{name: ("puzzles", name) for name in SOLVER_METRICS},
    "carve_checks": ("puzzles", "carve_checks"),
    "carve_seconds": ("puzzles", "carve_seconds"),
    "score": ("puzzles", "score"),
    "generate_seconds": ("boards", "generate_seconds"),
    "restarts": ("boards", "restarts"),
}



def _rows(conn, sql: str) -> list[tuple]:
    """Rows of ``sql`` as plain tuples (for bulk reads, where a dict per row would cost more than the query)."""
    if isinstance(conn, sqlite3.Connection):
        return conn.execute(sql).fetchall()
    from sqlalchemy import text

    return [tuple(row) for row in conn.execute(text(sql))]


def summarise(values) -> dict[str, Any]:
    """min / median / max of the values that are not None; the median of an even count is the mean of the two
    middle values (a whole number stays whole when that mean is one)."""
    ordered = sorted(v for v in values if v is not None)
    if not ordered:
        return {"min": None, "median": None, "max": None}
    middle = ordered[(len(ordered) - 1) // 2: len(ordered) // 2 + 1]
    median = middle[0] if len(middle) == 1 else (middle[0] + middle[1]) / 2
    if isinstance(median, float) and median.is_integer() and all(isinstance(v, int) for v in middle):
        median = int(median)
    return {"min": ordered[0], "median": median, "max": ordered[-1]}


def _summaries(conn) -> dict[str, dict[str, Any]]:
    """The SUMMARY_METRICS summaries: one read per table, medians in Python. Sorting in SQL took one ORDER BY +
    OFFSET per metric, 2 s for 50,000 puzzles; reading the columns once and sorting here takes a tenth of it."""
    out = {}
    for table in ("puzzles", "boards"):
        names = [name for name, (where, _) in SUMMARY_METRICS.items() if where == table]
        rows = _rows(conn, f"SELECT {', '.join(SUMMARY_METRICS[n][1] for n in names)} FROM {table}")
        columns = list(zip(*rows)) if rows else [()] * len(names)
        out.update({name: summarise(column) for name, column in zip(names, columns)})
    return {name: out[name] for name in SUMMARY_METRICS}


def stats(conn) -> dict[str, Any]:
    """Totals, per size and equivalence, the clue histogram, metric summaries, levels and each run's throughput.

    ``boards`` is the total number of boards; generated, duplicates and contradictions are summed over runs.
    Per size and equivalence, ``not_proven_minimal`` counts the puzzles whose carving hit the node limit
    (``minimal`` False: unique, but maybe a clue could still go) and ``minimal_unknown`` those stored before
    migration 0003 recorded minimality (``minimal`` NULL).
    """
    count = lambda table: fetch(conn, f"SELECT count(*) AS n FROM {table}")[0]["n"]  # noqa: E731
    # `NOT minimal` is true for 0 (SQLite) and false (PostgreSQL) alike, and NULL (so not counted) for NULL
    by_size = fetch(conn, "SELECT b.size, b.equivalence, count(*) AS boards, "
                          "CAST(coalesce(sum(pc.n), 0) AS BIGINT) AS puzzles, "
                          "CAST(coalesce(sum(pc.unproven), 0) AS BIGINT) AS not_proven_minimal, "
                          "CAST(coalesce(sum(pc.unknown), 0) AS BIGINT) AS minimal_unknown FROM boards b LEFT JOIN "
                          "(SELECT board_number, count(*) AS n, "
                          "sum(CASE WHEN NOT minimal THEN 1 ELSE 0 END) AS unproven, "
                          "sum(CASE WHEN minimal IS NULL THEN 1 ELSE 0 END) AS unknown "
                          "FROM puzzles GROUP BY board_number) pc "
                          "ON pc.board_number = b.number GROUP BY b.size, b.equivalence "
                          "ORDER BY b.size, b.equivalence")
    clues = fetch(conn, "SELECT b.size, p.clues, count(*) AS puzzles FROM puzzles p "
                        "JOIN boards b ON b.number = p.board_number GROUP BY b.size, p.clues "
                        "ORDER BY b.size, p.clues")
    graded = {row["level"]: row["n"] for row in
              fetch(conn, "SELECT level, count(*) AS n FROM puzzles GROUP BY level")}
    levels = {name: graded.pop(name, 0) for name in LEVELS}
    ungraded = graded.pop(None, 0)
    levels.update(sorted(graded.items()))  # a level this version does not know is still counted
    levels["ungraded"] = ungraded
    totals = fetch(conn, "SELECT coalesce(sum(generated), 0) AS generated, coalesce(sum(duplicates), 0) AS "
                         "duplicates, coalesce(sum(contradictions), 0) AS contradictions FROM runs")[0]
    return {
        "boards": count("boards"),
        "puzzles": count("puzzles"),
        "by_size": by_size,
        "clues": clues,
        "metrics": _summaries(conn),
        "generated": int(totals["generated"]),
        "duplicates": int(totals["duplicates"]),
        "contradictions": int(totals["contradictions"]),
        "levels": levels,
        "runs": runs(conn),
    }


def runs(conn) -> list[dict[str, Any]]:
    """Every fill run, oldest first, with its throughput (accepted boards per second of elapsed time)."""
    out = []
    for run in fetch(conn, "SELECT id, started_at, finished_at, status, size, method, equivalence, symmetry, "
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
