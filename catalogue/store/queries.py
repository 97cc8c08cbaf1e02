"""Read-side queries on the catalogue: puzzles by filter, samples' ids, one board (the `stats` report is in
summary.py).

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

import sqlite3
from typing import Any, Iterator, Optional, Sequence

from .columns import NULLABLE_KEYS, ORDER_KEYS, RESULT_COLUMNS
from .fields import BOARD_FIELDS, BY_NAME, PUZZLE_FIELDS

#: (query option, SQL condition, the same condition hidden from indexes) in the order filters are applied;
#: values are always bound parameters. The hidden forms (`+ 0`, `|| ''`) select the same rows.
_FILTERS = (
    ("min_clues", "p.clues >= :min_clues", "p.clues + 0 >= :min_clues"),
    ("max_clues", "p.clues <= :max_clues", "p.clues + 0 <= :max_clues"),
    # always hidden: the leading column of UNIQUE(size, equivalence, key) (before migration 0009) matches nearly every board, but SQLite
    # without statistics took it for selective and sorted all 50,000 boards (far slower for
    # `--size 9` on bench/bench_query.py's catalogue)
    ("size", "b.size + 0 = :size", "b.size + 0 = :size"),
    # a shape's name (2x3, latin5, 3x3+x) or spec; a jigsaw's name matches every layout of that name (its spec is
    # the name, a colon and the layout). Hidden for the size's reason: the UNIQUE index now leads with shape
    ("shape", "(b.shape || '' = :shape OR b.shape LIKE :shape || ':%')",
     "(b.shape || '' = :shape OR b.shape LIKE :shape || ':%')"),
    ("equivalence", "b.equivalence = :equivalence", "b.equivalence = :equivalence"),
    ("method", "b.method = :method", "b.method = :method"),
    # no index: imported puzzles are few beside a fill's, and a source's are read whole
    ("source", "p.source = :source", "p.source = :source"),
    ("level", "p.level = :level", "p.level || '' = :level"),
    ("technique", "p.technique = :technique", "p.technique || '' = :technique"),
    # no index on score: these are checked on the rows the other conditions (or the scan) reach
    ("min_score", "p.score >= :min_score", "p.score >= :min_score"),
    ("max_score", "p.score <= :max_score", "p.score <= :max_score"),
)

#: the filter names `query_puzzles` and `Catalogue.puzzles` take (``PuzzleFilter``'s fields, in this order)
FILTER_NAMES = tuple(name for name, _, _ in _FILTERS)
#: filters on the board's columns: a query that uses one joins boards before choosing its rows
_BOARD_FILTERS = ("size", "shape", "equivalence", "method")

#: What a row read through an index costs, in rows of a sequential scan, in SQLite (measured on 50,000 puzzles,
#: bench/bench_query.py's catalogue: index lookups plus the sort cost a few times a scanned row)
INDEX_ROW_COST = 4
#: the filters each puzzle index answers (ix_puzzles_clues, ix_puzzles_level, ix_puzzles_technique)
_INDEX_GROUPS = (("min_clues", "max_clues"), ("level",), ("technique",))
_INDEXED_FILTERS = tuple(name for group in _INDEX_GROUPS for name in group)

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


def query_puzzles(conn, *, order_by: str = "number", desc: bool = False, limit: Optional[int] = None,
                  offset: int = 0, ids: Optional[Sequence[int]] = None, **filters) -> list[dict[str, Any]]:
    """Puzzles with their board's number and solution, filtered, ordered and limited.

    ``filters`` are named in ``FILTER_NAMES`` (``min_clues``, ``max_clues``, ``size``, ``equivalence``,
    ``method``, ``level``, ``technique``, ``min_score``, ``max_score``; None is no filter). ``technique`` matches
    the puzzle's hardest technique (the one that decides its grade). Ties in the sort key are broken by board
    number, then puzzle id, so the same query always returns the same rows; ``offset`` skips that many of them.
    ``ids`` keeps only the puzzles with these ids (what a sample chose). Raises KeyError for an ``order_by``
    outside ``ORDER_KEYS`` and TypeError for an unknown filter.
    """
    return list(iter_query_puzzles(conn, order_by=order_by, desc=desc, limit=limit, offset=offset, ids=ids,
                                   **filters))


def iter_query_puzzles(conn, **options) -> Iterator[dict[str, Any]]:
    """The rows of ``query_puzzles(conn, **options)`` one at a time, read from the cursor as they are consumed:
    printing every puzzle of a large catalogue takes constant memory. ``conn`` must stay open while iterating."""
    sql, params = _puzzles_sql(conn, **options)
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


def _check_names(filters: dict[str, Any]) -> None:
    unknown = set(filters) - set(FILTER_NAMES)
    if unknown:
        raise TypeError(f"unknown puzzle filter(s): {', '.join(sorted(unknown))}; known: {', '.join(FILTER_NAMES)}")


def _conditions(conn, filters: dict[str, Any], order_by: str, limit: Optional[int],
                hidden: Optional[bool] = None) -> tuple[str, dict, bool]:
    """The WHERE clause (with its leading space, or empty) of ``filters``, their bound parameters, and whether a
    condition needs the boards joined. ``hidden`` (default: ``_prefer_scan`` decides) hides the conditions from
    the indexes."""
    _check_names(filters)
    params = {name: value for name, value in filters.items() if value is not None}
    if hidden is None:
        hidden = _prefer_scan(conn, params, order_by, limit)
    conditions = [scan if hidden else indexed for name, indexed, scan in _FILTERS if name in params]
    where = " WHERE " + " AND ".join(conditions) if conditions else ""
    return where, params, any(name in params for name in _BOARD_FILTERS)


def after_sql(order_by: str, desc: bool, after: tuple[Any, int, int]) -> tuple[str, dict[str, Any]]:
    """The condition (and its parameters) of the rows past the cursor ``after`` in the query's order (keyset
    paging: :mod:`catalogue.store.keyset`; a cursor is the sort key's value, the board number and the variant)."""
    key = ORDER_KEYS[order_by]
    value, number, variant = after
    cmp = "<" if desc else ">"
    tie = f"(p.board_number {cmp} :after_number OR (p.board_number = :after_number AND p.variant > :after_variant))"
    params: dict[str, Any] = {"after_number": int(number), "after_variant": int(variant)}
    if value is None:
        return f"({key} IS NULL AND {tie})", params
    params["after_key"] = value
    nulls_after = f" OR {key} IS NULL" if order_by in NULLABLE_KEYS else ""
    return f"({key} {cmp} :after_key OR ({key} = :after_key AND {tie}){nulls_after})", params


def _puzzles_sql(conn, *, order_by: str = "number", desc: bool = False, limit: Optional[int] = None,
                 offset: int = 0, ids: Optional[Sequence[int]] = None, with_id: bool = False,
                 after: Optional[tuple[Any, int, int]] = None, **filters) -> tuple[str, dict[str, Any]]:
    """The SQL text and parameters of ``query_puzzles`` (``with_id``: each row also has ``puzzle_id``; ``after``:
    only the rows past that cursor, :mod:`catalogue.store.keyset`)."""
    columns = RESULT_COLUMNS + (", p.id AS puzzle_id" if with_id else "")
    key = ORDER_KEYS[order_by]  # KeyError before any SQL is built
    offset = int(offset or 0)
    if offset < 0 or (limit is not None and limit < 0):
        raise ValueError(f"offset and limit must not be negative (offset {offset}, limit {limit})")
    # the rows a walk in board order must reach: the heuristic's limit
    reach = None if limit is None else offset + int(limit)
    if ids is None:
        where, params, board_filter = _conditions(conn, filters, order_by, reach)
    else:
        # the ids were chosen among the matches already (by matching_ids, in the same read): the filters would
        # only tempt SQLite, which has no statistics, into reading an index instead of the ids' rows
        _check_names(filters)
        chosen = [int(i) for i in ids]
        marks = ", ".join(f":id{i}" for i in range(len(chosen)))
        where = f" WHERE p.id IN ({marks})" if chosen else " WHERE 1 = 0"
        params, board_filter = {f"id{i}": value for i, value in enumerate(chosen)}, False
    if after is not None:
        condition, more = after_sql(order_by, desc, after)
        where = (where + " AND " if where else " WHERE ") + condition
        params.update(more)
    direction = "DESC" if desc else "ASC"
    # p.board_number equals b.number, and ordering by it lets SQLite walk ix_puzzles_board_number and stop at
    # the limit instead of sorting every match
    order = [f"{key} {direction}", f"p.board_number {direction}", "p.id ASC"]
    if order_by in NULLABLE_KEYS:
        order.insert(0, f"({key} IS NULL) ASC")  # false (0) before true (1) on both databases
    order_sql = " ORDER BY " + ", ".join(order)
    join = " JOIN boards b ON b.number = p.board_number"
    if limit is None and not offset:
        sql = f"SELECT {columns} FROM puzzles p{join}{where}{order_sql}"
    else:
        # Pick the puzzle ids first, then fetch the few chosen rows with their boards: the sort carries ids
        # instead of whole rows, and boards are joined for the winners only unless a filter or the sort key is
        # a board column (`--order-by score --limit 10` on 50,000 puzzles: much faster). LIMIT and OFFSET
        # are in the subset both databases share: an offset without a limit takes the largest one
        board_needed = order_by == "size" or board_filter
        window = " LIMIT :limit OFFSET :offset"
        chosen = f"SELECT p.id FROM puzzles p{join if board_needed else ''}{where}{order_sql}{window}"
        sql = f"SELECT {columns} FROM puzzles p{join} WHERE p.id IN ({chosen}){order_sql}"
        params["limit"] = INT64_MAX if limit is None else int(limit)
        params["offset"] = offset
    return sql, params


def sources(conn, limit: int = 500) -> list[str]:
    """The sources of the imported puzzles, sorted; at most ``limit``."""
    rows = fetch(conn, "SELECT DISTINCT source FROM puzzles WHERE source IS NOT NULL ORDER BY source LIMIT :n",
                 {"n": int(limit)})
    return [row["source"] for row in rows]


def shape_specs(conn, limit: int = 500) -> list[str]:
    """The distinct shapes of the boards (their specs), sorted; at most ``limit``. A loose scan of the UNIQUE
    index, which leads with the shape: one descent per shape, where DISTINCT would walk every board."""
    found = fetch(conn, "SELECT shape FROM boards ORDER BY shape LIMIT 1")
    out: list[str] = []
    while found and len(out) < limit:
        out.append(found[0]["shape"])
        found = fetch(conn, "SELECT shape FROM boards WHERE shape > :shape ORDER BY shape LIMIT 1",
                      {"shape": out[-1]})
    return out


def count_puzzles(conn, **filters) -> int:
    """How many puzzles match ``filters`` (the names of ``FILTER_NAMES``)."""
    given = [name for name, value in filters.items() if value is not None]
    # the filters of one index alone: counted from that index (on 250,000 matches, far cheaper than a scan)
    one_index = bool(given) and any(set(given) <= set(group) for group in _INDEX_GROUPS)
    where, params, board_filter = _conditions(conn, filters, "number", None, hidden=False if one_index else None)
    join = " JOIN boards b ON b.number = p.board_number" if board_filter else ""
    return int(fetch(conn, f"SELECT count(*) AS n FROM puzzles p{join}{where}", params)[0]["n"])


def matching_ids(conn, **filters) -> list[int]:
    """The ids of the puzzles matching ``filters``, in the query's default order (board number, then puzzle id):
    position i of this list is row i of ``query_puzzles(conn, **filters)``. One integer column, read in bulk
    (bench/bench_query.py times it on 500,000 puzzles)."""
    where, params, board_filter = _conditions(conn, filters, "number", None)
    join = " JOIN boards b ON b.number = p.board_number" if board_filter else ""
    sql = f"SELECT p.id FROM puzzles p{join}{where} ORDER BY p.board_number ASC, p.id ASC"
    params = {name: _in_int64(value) for name, value in params.items()}
    if isinstance(conn, sqlite3.Connection):
        return [row[0] for row in conn.execute(sql, params).fetchall()]
    from sqlalchemy import text

    return list(conn.execute(text(sql), params).scalars())


def index_narrows(conn, **filters) -> bool:
    """Whether an index finds the matches of ``filters`` faster than a walk through every puzzle would (what
    ``query_puzzles`` decides too): an indexed filter is given and matches few enough puzzles."""
    params = {name: value for name, value in filters.items() if value is not None}
    return any(name in params for name in _INDEXED_FILTERS) and not _prefer_scan(conn, params, "number", None)


def ids_at(conn, positions: Sequence[int], **filters) -> list[int]:
    """The ids at ``positions`` (sorted, distinct, each below the number of matches) of
    ``matching_ids(conn, **filters)``, without reading the others: one query per position seeks past the
    previous one in board order and skips the gap (``LIMIT 1 OFFSET gap``), so the database walks the board
    number index once in all and returns one row per position, where ``matching_ids`` hands every id to Python
    (far slower on 500,000 puzzles: docs/benchmarks.md, "Sampling and the daily puzzle"). The
    conditions are hidden from the other indexes: the walk
    must follow board order."""
    where, params, board_filter = _conditions(conn, filters, "number", None, hidden=True)
    join = " JOIN boards b ON b.number = p.board_number" if board_filter else ""
    seek = (" AND " if where else " WHERE ") + "(p.board_number, p.id) > (:after_number, :after_id)"
    sql = (f"SELECT p.board_number AS number, p.id AS id FROM puzzles p{join}{where}{seek} "
           f"ORDER BY p.board_number ASC, p.id ASC LIMIT 1 OFFSET :gap")
    out: list[int] = []
    after, previous = (-1, -1), -1  # board numbers and ids are never negative
    for position in positions:
        rows = fetch(conn, sql, {**params, "after_number": after[0], "after_id": after[1],
                                 "gap": position - previous - 1})
        if not rows:
            raise LookupError(f"no match at position {position}: the catalogue changed while it was read")
        after, previous = (rows[0]["number"], rows[0]["id"]), position
        out.append(after[1])
    return out


def id_stored_at(conn, position: int, **filters) -> int:
    """The id at ``position`` among the puzzles matching ``filters`` in the order they were stored (puzzle id):
    the daily puzzle's order, where every puzzle added later, on a new board or on a stored one, comes after the
    ones before it. With a level filter the database walks that level's index, which holds its puzzles in id
    order; the conditions stay visible to the planner."""
    where, params, board_filter = _conditions(conn, filters, "number", None, hidden=False)
    join = " JOIN boards b ON b.number = p.board_number" if board_filter else ""
    rows = fetch(conn, f"SELECT p.id AS id FROM puzzles p{join}{where} ORDER BY p.id ASC LIMIT 1 OFFSET :position",
                 {**{name: _in_int64(value) for name, value in params.items()}, "position": int(position)})
    if not rows:
        raise LookupError(f"no match at position {position}: the catalogue changed while it was read")
    return int(rows[0]["id"])


def ids_numbered(conn, positions: Sequence[int], **filters) -> list[int]:
    """``ids_at`` in one statement: the database numbers the matches in board order (``row_number()``) and
    returns the ids at ``positions``. What PostgreSQL should use: a seek there is a round trip and a walk of its
    own, so one numbering beats a seek per position (docs/benchmarks.md, "Sampling and the daily puzzle"). SQLite
    numbers rows slowly and seeks fast."""
    where, params, board_filter = _conditions(conn, filters, "number", None)
    join = " JOIN boards b ON b.number = p.board_number" if board_filter else ""
    marks = ", ".join(f":position{i}" for i in range(len(positions)))
    params.update({f"position{i}": int(position) for i, position in enumerate(positions)})
    sql = (f"SELECT t.id AS id FROM (SELECT p.id AS id, row_number() OVER (ORDER BY p.board_number ASC, p.id ASC) "
           f"- 1 AS position FROM puzzles p{join}{where}) t WHERE t.position IN ({marks}) ORDER BY t.position")
    ids = [row["id"] for row in fetch(conn, sql, params)] if positions else []
    if len(ids) != len(positions):
        raise LookupError("the catalogue changed while it was read: try again")
    return ids


def is_sqlite(conn) -> bool:
    """Whether ``conn`` reads a SQLite database (either driver)."""
    return _is_sqlite(conn)


def catalogue_id(conn) -> str:
    """The catalogue's id (its one ``catalogue`` row), read on any connection without loading SQLAlchemy."""
    rows = fetch(conn, "SELECT id FROM catalogue")
    if not rows:
        raise LookupError("the catalogue has no catalogue row (its id)")
    return rows[0]["id"]


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
    """Whether SQLite should scan puzzles instead of reading the clues / level / technique index.

    Without statistics SQLite always takes the index, which is slow when many puzzles match: on 50,000 puzzles,
    `--min-clues 24 --max-clues 26` took far longer through ix_puzzles_clues than by walking puzzles
    in board order until the limit was reached. Counting the matches through the index first costs far less.
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


def get_board(conn, number: int, variant: Optional[int] = None) -> Optional[dict[str, Any]]:
    """Board ``number`` with its puzzle ``variant`` (None: its first), that puzzle's metrics and grade; None if
    there is no such board. The puzzle is None when the board has no puzzle of that variant."""
    rows = fetch(conn, f"SELECT {', '.join(BY_NAME[name].stored for name in BOARD_FIELDS)} FROM boards "
                       f"WHERE number = :number", {"number": int(number)})
    if not rows:
        return None
    board = rows[0]
    which = "" if variant is None else " AND variant = :variant"
    puzzles = _booleans(fetch(conn, f"SELECT {', '.join(PUZZLE_FIELDS)} FROM puzzles "
                                    f"WHERE board_number = :number{which} ORDER BY variant LIMIT 1",
                                    {"number": int(number), **({} if variant is None else {"variant": variant})}),
                        "minimal")
    board["puzzle"] = puzzles[0] if puzzles else None
    return board
