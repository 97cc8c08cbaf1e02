"""What both forms of the writer's batch insert share: which rows of a batch are new, the dialect's INSERT, and
the conflict that makes a batch try again.

:mod:`catalogue.store.insert` numbers a batch in one transaction under the write lock (SQLite), and
:mod:`catalogue.store.blocks` numbers it as a block (PostgreSQL); insert hands a PostgreSQL batch to blocks, and
both build on this module, which imports neither.
"""
from __future__ import annotations

from typing import Sequence

from sqlalchemy import select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from .models import Board


class NumberingConflict(RuntimeError):
    """A key appeared between the existence check and the insert: on SQLite, the lock was bypassed; on
    PostgreSQL, another block's writer stored it meanwhile."""


def dialect_insert(conn: Connection, table):
    """The dialect's own INSERT of ``table`` (it has ``ON CONFLICT DO NOTHING`` and ``RETURNING``)."""
    dialect = conn.dialect.name
    if dialect == "sqlite":
        return sqlite.insert(table)
    if dialect == "postgresql":
        return postgresql.insert(table)
    raise NotImplementedError(f"catalogue supports SQLite and PostgreSQL, not {dialect}")


def new_rows(existing: set[tuple], boards: Sequence[dict], limit: int | None) -> list[int]:
    """Indexes of the rows to store: not in ``existing``, not a repeat of an earlier row, at most ``limit``."""
    taken: list[int] = []
    seen: set[tuple] = set()
    for i, row in enumerate(boards):
        ident = (row["shape"], row["equivalence"], row["key"])
        if ident in existing or ident in seen:
            continue
        seen.add(ident)
        taken.append(i)
        if limit is not None and len(taken) == limit:
            break
    return taken


def existing_keys(conn: Connection, boards: Sequence[dict]) -> set[tuple]:
    """The (shape, equivalence, key) triples of the batch that are already stored (one query per group)."""
    groups: dict[tuple, list[str]] = {}
    for row in boards:
        groups.setdefault((row["shape"], row["equivalence"]), []).append(row["key"])
    found: set[tuple] = set()
    for (shape, equivalence), keys in groups.items():
        found.update((shape, equivalence, k) for k in known_keys(conn, shape, equivalence, keys))
    return found


def known_keys(conn: Connection, shape: str, equivalence: str, keys: Sequence[str]) -> set[str]:
    """Which of ``keys`` the catalogue already holds for this shape (its spec) and equivalence (uses the UNIQUE
    index)."""
    if not keys:
        return set()
    if conn.dialect.name == "postgresql":
        return set(conn.execute(PG_KNOWN, {"shape": shape, "equivalence": equivalence, "keys": list(keys)}).scalars())
    rows = conn.execute(select(Board.key).where(Board.shape == shape, Board.equivalence == equivalence,
                                                Board.key.in_(list(keys))))
    return set(rows.scalars())


# On PostgreSQL, ``key IN (...)`` is planned from statistics, and a catalogue's `boards` may have none (a server
# with autovacuum off, or a table that grew since it was last analysed): the planner then takes
# ``shape = '3x3' AND equivalence = 'd4'`` for a single row, uses only those two columns of the UNIQUE index and checks
# the keys as a filter, reading every board of the shape for every batch: the writer slowed down from 2,400 to 600
# boards/s between 0 and 20,000 boards (bench/bench_scaleout.py). One index probe per key instead, whatever the
# statistics say: a LATERAL subquery with LIMIT 1 is always a nested loop, and its plain equalities are always
# index conditions. One array parameter also spares psycopg the parsing of a statement with 256 placeholders.
PG_KNOWN = text("SELECT k.key FROM unnest(CAST(:keys AS text[])) AS k(key) CROSS JOIN LATERAL "
                "(SELECT 1 FROM boards b WHERE b.shape = :shape AND b.equivalence = :equivalence AND b.key = k.key "
                "LIMIT 1) AS found")
