"""The puzzle's columns as the read side names and sorts them: the fields of a query result and the sort keys.

The fields themselves are :mod:`catalogue.store.fields`; made here from them: the query's SELECT
(``RESULT_COLUMNS``), ``--order-by``'s choices and the keyset cursor (``ORDER_KEYS``, ``rank_of``).
"""
from __future__ import annotations

from typing import Optional

from engine.vocabulary import (  # plain data: no engine code
    GUESSING,
    LEVELS,
    STEP_NAMES,
    TECHNIQUES,
)

from .fields import BY_NAME, MEASURES, RESULT_FIELDS


def _select(name: str) -> str:
    field = BY_NAME[name]
    alias = "b" if field.table == "boards" else "p"
    return f"{alias}.{field.stored}" + (f" AS {name}" if field.column else "")


#: the query's SELECT list: each result field from its table (engine grids in the line format)
RESULT_COLUMNS = ", ".join(_select(name) for name in RESULT_FIELDS)

#: the columns sorted by rank, not by their text: a level by difficulty; the hardest step by its technique, in the
#: technique table's order (easiest first), then its kind (engine.vocabulary.STEPS), guessing after them; a row's
#: name (stored before migration 0008 where only a regrade can name the step) just before its steps; ungraded
#: (no value) last
RANKED = {"level": LEVELS,
          "hardest": (*dict.fromkeys(name for t in TECHNIQUES for name in (t, *STEP_NAMES[t]) if name), GUESSING)}


def rank_of(column: str, value: Optional[str]) -> int:
    """A ranked column's value as the sort uses it (``RANKED``; no value, or an unknown one, ranks last)."""
    names = RANKED[column]
    return names.index(value) if value in names else len(names)


def _rank_sql(column: str) -> str:
    names = RANKED[column]
    return (f"CASE p.{column} " + " ".join(f"WHEN '{name}' THEN {rank}" for rank, name in enumerate(names))
            + f" ELSE {len(names)} END")


#: --order-by keys -> SQL expressions. The only way a sort key reaches SQL: anything else is refused.
ORDER_KEYS = {
    "number": "p.board_number",  # = b.number; see queries.query_puzzles
    "size": "b.size + 0",  # not through UNIQUE(size, ...): see the size filter in queries.py
    "clues": "p.clues",
    **{name: f"p.{BY_NAME[name].stored}" for name in MEASURES if BY_NAME[name].table == "puzzles"},
    **{column: _rank_sql(column) for column in RANKED},
}

#: sort keys that can be NULL (puzzles stored before grading): those rows go last in either direction
NULLABLE_KEYS = frozenset(name for name in MEASURES if name in ORDER_KEYS and BY_NAME[name].optional)
