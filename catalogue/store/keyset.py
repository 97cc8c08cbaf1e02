"""Keyset paging: a page of a query starts past the last row of the page before, named by a cursor.

Why not an offset: ``OFFSET 499950`` walks and drops every row before it (on 500,000 puzzles, the last page costs
the whole list), and a puzzle added meanwhile shifts every later page by one, so a row is shown twice or never.
A cursor (the row's sort key value, its board number and its variant) is a seek in the query's own order, and
rows added before it do not move it. The order is ``queries``': the sort key, then the board number, both in the
query's direction, then the puzzle's variant on its board (the order of its id); NULL keys come last either way.
"""
from __future__ import annotations

from typing import Any

from .queries import NULLABLE_KEYS, ORDER_KEYS, RANKED, rank_of

#: (sort key value, board number, variant)
Cursor = tuple[Any, int, int]


def cursor_of(row: dict[str, Any], order_by: str) -> Cursor:
    """Where ``row`` (a query row) stands in the order of ``order_by``: what ``after`` takes to start past it. A
    ranked key (level, hardest) is its rank, as the sort uses it."""
    value = rank_of(order_by, row[order_by]) if order_by in RANKED else row[order_by]
    return value, int(row["number"]), int(row["variant"])


def after_sql(order_by: str, desc: bool, after: Cursor) -> tuple[str, dict[str, Any]]:
    """The condition (and its parameters) of the rows past ``after`` in the query's order."""
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
