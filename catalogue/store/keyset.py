"""Keyset paging: a page of a query starts past the last row of the page before, named by a cursor.

Why not an offset: ``OFFSET 499950`` walks and drops every row before it (on 500,000 puzzles, the last page costs
the whole list), and a puzzle added meanwhile shifts every later page by one, so a row is shown twice or never.
A cursor (the row's sort key value, its board number and its variant) is a seek in the query's own order, and
rows added before it do not move it. The order is ``queries``': the sort key, then the board number, both in the
query's direction, then the puzzle's variant on its board (the order of its id); NULL keys come last either way.
The condition of the rows past a cursor is SQL, written with the rest of the query (``queries.after_sql``).
"""
from __future__ import annotations

from typing import Any

from .columns import RANKED, rank_of

#: (sort key value, board number, variant)
Cursor = tuple[Any, int, int]


def cursor_of(row: dict[str, Any], order_by: str) -> Cursor:
    """Where ``row`` (a query row) stands in the order of ``order_by``: what ``after`` takes to start past it. A
    ranked key (level, hardest) is its rank, as the sort uses it."""
    value = rank_of(order_by, row[order_by]) if order_by in RANKED else row[order_by]
    return value, int(row["number"]), int(row["variant"])
