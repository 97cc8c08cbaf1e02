"""Read-side queries on the catalogue: puzzles by filter, one board, and summary statistics.

Every function takes a connection and returns plain dicts. The connection is either a SQLAlchemy
``Connection``/``Session`` (PostgreSQL, tests, the pipeline) or a stdlib ``sqlite3.Connection`` (what
``Catalogue.reading()`` hands the read commands on SQLite: importing SQLAlchemy alone takes longer than the
200 ms `catalogue query` may take). Both run the same SQL text, written in the subset SQLite and PostgreSQL
share, with ``:name`` parameters, which both drivers bind.

Safety: every value a user gives is a bound parameter; sort keys map through the allow-list ``ORDER_KEYS`` to
SQL written here, so nothing the user types ever becomes SQL text. Column names are checked against the models
by tests/catalogue/store/test_queries.py (the queries run on a migrated database). Writes are in insert.py,
files.py and catalogue.py, reached only through the Catalogue's write path.
"""
from __future__ import annotations

import datetime as dt
import json
import sqlite3
from typing import Any, Iterator, Optional

from engine.vocabulary import LEVELS, METRICS  # plain data: reading the catalogue imports no engine code

#: the solver metrics stored with every puzzle (engine/solvers/base.py defines them; seconds as solve_seconds)
SOLVER_METRICS = (*METRICS[:-1], "solve_seconds")

#: the fields of a query result, in order; `puzzle` and `solution` are in the line format. `minimal` is True
#: when the carving proved the puzzle minimal, False when removal tests hit the node limit (`undecided` of them;
#: the default on 25x25), None for puzzles stored before migration 0003
RESULT_FIELDS = ("number", "size", "equivalence", "method", "clues", "symmetry", *SOLVER_METRICS,
                 "carve_checks", "carve_seconds", "minimal", "undecided", "level", "score", "hardest", "puzzle",
                 "solution")

#: the fields that come from the board (all others are the puzzle's columns of the same name)
_BOARD_FIELDS = {"number": "b.number", "size": "b.size", "equivalence": "b.equivalence", "method": "b.method",
                 "solution": "b.board AS solution"}
_RESULT_COLUMNS = ", ".join(_BOARD_FIELDS.get(name, f"p.{name}") for name in RESULT_FIELDS)

_LEVEL_RANK = "CASE p.level " + " ".join(f"WHEN '{name}' THEN {rank}" for rank, name in enumerate(LEVELS)) \
    + f" ELSE {len(LEVELS)} END"

#: --order-by keys -> SQL expressions. The only way a sort key reaches SQL: anything else is refused.
ORDER_KEYS = {
    "number": "p.board_number",  # = b.number; see query_puzzles
    "size": "b.size + 0",  # not through UNIQUE(size, ...): see the size filter below
    "clues": "p.clues",
    **{name: f"p.{name}" for name in SOLVER_METRICS},
    "carve_checks": "p.carve_checks",
    "carve_seconds": "p.carve_seconds",
    "score": "p.score",
    "level": _LEVEL_RANK,
}

#: sort keys that can be NULL (puzzles stored before grading): those rows go last in either direction
NULLABLE_KEYS = frozenset({"score"})

#: (query option, SQL condition, the same condition hidden from indexes) in the order filters are applied;
#: values are always bound parameters. The hidden forms (`+ 0`, `|| ''`) select the same rows.
_FILTERS = (
    ("min_clues", "p.clues >= :min_clues", "p.clues + 0 >= :min_clues"),
    ("max_clues", "p.clues <= :max_clues", "p.clues + 0 <= :max_clues"),
    # always hidden: the leading column of UNIQUE(size, equivalence, key) matches nearly every board, but SQLite
    # without statistics took it for selective and sorted all 50,000 boards (178 ms instead of 0.4 ms for
    # `--size 9` on bench/bench_query.py's catalogue)
    ("size", "b.size + 0 = :size", "b.size + 0 = :size"),
    ("equivalence", "b.equivalence = :equivalence", "b.equivalence = :equivalence"),
    ("method", "b.method = :method", "b.method = :method"),
    ("level", "p.level = :level", "p.level || '' = :level"),
    ("technique", "p.hardest = :technique", "p.hardest || '' = :technique"),
)

#: What a row read through an index costs, in rows of a sequential scan, in SQLite (50,000 puzzles: a scan
#: reads a row in ~0.3 us, index lookups plus the sort ~1.5 us; bench/bench_query.py's catalogue)
INDEX_ROW_COST = 4
#: the filters each puzzle index answers (ix_puzzles_clues, ix_puzzles_level, ix_puzzles_hardest)
_INDEX_GROUPS = (("min_clues", "max_clues"), ("level",), ("technique",))
_INDEXED_FILTERS = tuple(name for group in _INDEX_GROUPS for name in group)

#: metrics that `stats` summarises (min / median / max): name -> (table, column)
SUMMARY_METRICS = {
    **{name: ("puzzles", name) for name in SOLVER_METRICS},
    "carve_checks": ("puzzles", "carve_checks"),
    "carve_seconds": ("puzzles", "carve_seconds"),
    "score": ("puzzles", "score"),
    "generate_seconds": ("boards", "generate_seconds"),
    "restarts": ("boards", "restarts"),
}


#: SQLite's INTEGER range (8 bytes, signed): every integer the catalogue stores lies inside it
INT64_MIN, INT64_MAX = -2 ** 63, 2 ** 63 - 1


def _in_int64(value: Any) -> Any:
    """An integer clamped into SQLite's range, anything else unchanged.

    SQLite's driver refuses a bound Python int beyond 8 bytes with OverflowError (`export 99999999999999999999`,
    `--max-clues 1e20` typed as digits). Every stored integer lies inside the range, so comparing a column with
    the clamped bound selects the same rows as with the true one: such an id is simply not there.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return min(max(value, INT64_MIN), INT64_MAX)
    return value


def fetch(conn, sql: str, params: Optional[dict[str, Any]] = None) -> list[dict[str, Any]]:
    """Rows of ``sql`` as dicts, on a sqlite3 connection or a SQLAlchemy Connection/Session."""
    params = {name: _in_int64(value) for name, value in (params or {}).items()}
    if isinstance(conn, sqlite3.Connection):
        cursor = conn.execute(sql, params)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]
    from sqlalchemy import text

    return [dict(row) for row in conn.execute(text(sql), params).mappings()]


def _booleans(rows: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """Column ``name`` as True / False / None: SQLite stores a Boolean as 0 / 1 and raw SQL text gets it back as
    an int on SQLite (either driver) but as a bool on PostgreSQL, and JSON and CSV must not differ by database."""
    for row in rows:
        if row[name] is not None:
            row[name] = bool(row[name])
    return rows


def query_puzzles(conn, *, min_clues: Optional[int] = None, max_clues: Optional[int] = None,
                  size: Optional[int] = None, equivalence: Optional[str] = None, method: Optional[str] = None,
                  level: Optional[str] = None, technique: Optional[str] = None, order_by: str = "number",
                  desc: bool = False, limit: Optional[int] = None) -> list[dict[str, Any]]:
    """Puzzles with their board's number and solution, filtered, ordered and limited.

    ``technique`` matches the puzzle's hardest technique (the one that decides its grade). Ties in the sort
    key are broken by board number, then puzzle id, so the same query always returns the same rows.
    Raises KeyError for an ``order_by`` outside ``ORDER_KEYS``.
    """
    sql, params = _puzzles_sql(conn, min_clues=min_clues, max_clues=max_clues, size=size, equivalence=equivalence,
                               method=method, level=level, technique=technique, order_by=order_by, desc=desc,
                               limit=limit)
    return _booleans(fetch(conn, sql, params), "minimal")


def iter_query_puzzles(conn, **filters) -> Iterator[dict[str, Any]]:
    """The rows of ``query_puzzles(conn, **filters)`` one at a time, read from the cursor as they are consumed:
    printing every puzzle of a large catalogue takes constant memory. ``conn`` must stay open while iterating."""
    sql, params = _puzzles_sql(conn, **filters)
    params = {name: _in_int64(value) for name, value in params.items()}
    if isinstance(conn, sqlite3.Connection):
        cursor = conn.execute(sql, params)
        names = [d[0] for d in cursor.description]
        rows = (dict(zip(names, row)) for batch in iter(lambda: cursor.fetchmany(1000), []) for row in batch)
    else:
        from sqlalchemy import text

        result = conn.execution_options(stream_results=True).execute(text(sql), params)
        rows = (dict(row) for row in result.mappings())
    for row in rows:
        if row["minimal"] is not None:
            row["minimal"] = bool(row["minimal"])
        yield row


def _puzzles_sql(conn, *, min_clues: Optional[int] = None, max_clues: Optional[int] = None,
                 size: Optional[int] = None, equivalence: Optional[str] = None, method: Optional[str] = None,
                 level: Optional[str] = None, technique: Optional[str] = None, order_by: str = "number",
                 desc: bool = False, limit: Optional[int] = None) -> tuple[str, dict[str, Any]]:
    """The SQL text and parameters of ``query_puzzles``."""
    key = ORDER_KEYS[order_by]  # KeyError before any SQL is built
    given = {"min_clues": min_clues, "max_clues": max_clues, "size": size, "equivalence": equivalence,
             "method": method, "level": level, "technique": technique}
    params = {name: value for name, value in given.items() if value is not None}
    hidden = _prefer_scan(conn, params, order_by, limit)
    conditions = [scan if hidden else indexed for name, indexed, scan in _FILTERS if name in params]
    direction = "DESC" if desc else "ASC"
    # p.board_number equals b.number, and ordering by it lets SQLite walk ix_puzzles_board_number and stop at
    # the limit instead of sorting every match
    order = [f"{key} {direction}", f"p.board_number {direction}", "p.id ASC"]
    if order_by in NULLABLE_KEYS:
        order.insert(0, f"({key} IS NULL) ASC")  # false (0) before true (1) on both databases
    where = " WHERE " + " AND ".join(conditions) if conditions else ""
    order_sql = " ORDER BY " + ", ".join(order)
    join = " JOIN boards b ON b.number = p.board_number"
    if limit is None:
        sql = f"SELECT {_RESULT_COLUMNS} FROM puzzles p{join}{where}{order_sql}"
    else:
        # Pick the puzzle ids first, then fetch the few chosen rows with their boards: the sort carries ids
        # instead of whole rows, and boards are joined for the winners only unless a filter or the sort key is
        # a board column (`--order-by score --limit 10` on 50,000 puzzles: 52 ms -> 24 ms)
        board_needed = order_by == "size" or any(name in params for name in ("size", "equivalence", "method"))
        chosen = f"SELECT p.id FROM puzzles p{join if board_needed else ''}{where}{order_sql} LIMIT :limit"
        sql = f"SELECT {_RESULT_COLUMNS} FROM puzzles p{join} WHERE p.id IN ({chosen}){order_sql}"
        params["limit"] = int(limit)
    return sql, params


def _is_sqlite(conn) -> bool:
    if isinstance(conn, sqlite3.Connection):
        return True
    bind = conn.get_bind() if hasattr(conn, "get_bind") else conn  # a Session, or a Connection
    return bind.dialect.name == "sqlite"


def _count(conn, names: list[str], params: dict[str, Any]) -> int:
    conditions = " AND ".join(indexed for name, indexed, _ in _FILTERS if name in names)
    return fetch(conn, f"SELECT count(*) AS n FROM puzzles p WHERE {conditions}",
                 {name: params[name] for name in names})[0]["n"]


def _prefer_scan(conn, params: dict[str, Any], order_by: str, limit: Optional[int]) -> bool:
    """Whether SQLite should scan puzzles instead of reading the clues / level / hardest index.

    Without statistics SQLite always takes the index, which is slow when many puzzles match: on 50,000 puzzles,
    `--min-clues 24 --max-clues 26` took 33 ms through ix_puzzles_clues and 0.06 ms by walking puzzles in board
    order until the limit was reached. Counting the matches through the index first costs under a millisecond.
    PostgreSQL keeps statistics and plans well by itself, so it is left alone.
    """
    used = [name for name in _INDEXED_FILTERS if name in params]
    if not used or not _is_sqlite(conn):
        return False
    # one count per index, each answered from the index alone (a count over two indexed columns would read
    # the rows); the smallest is an upper bound of the matches, which errs towards the scan
    groups = [[name for name in group if name in used] for group in _INDEX_GROUPS]
    matched = min(_count(conn, group, params) for group in groups if group)
    total = fetch(conn, "SELECT count(*) AS n FROM puzzles")[0]["n"]
    if matched == 0:
        return False
    if order_by == "number" and limit is not None:
        # walking in board order stops after about limit / share rows; the index reads every match, then sorts
        return limit * total / matched < INDEX_ROW_COST * matched
    return matched * INDEX_ROW_COST > total  # every match is needed: one scan, or one lookup per match


def get_board(conn, number: int) -> Optional[dict[str, Any]]:
    """Board ``number`` with its first puzzle (and that puzzle's metrics and grade); None if there is none."""
    rows = fetch(conn, "SELECT number, size, equivalence, method, seed, restarts, generate_seconds, run_id, "
                       "board FROM boards WHERE number = :number", {"number": int(number)})
    if not rows:
        return None
    board = rows[0]
    metrics = ", ".join(SOLVER_METRICS)
    puzzles = _booleans(fetch(conn, f"SELECT puzzle, clues, symmetry, {metrics}, carve_seed, carve_checks, "
                                    f"carve_seconds, minimal, undecided, level, score, hardest, techniques "
                                    f"FROM puzzles WHERE board_number = :number ORDER BY id LIMIT 1",
                                    {"number": int(number)}), "minimal")
    board["puzzle"] = puzzles[0] if puzzles else None
    return board


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
