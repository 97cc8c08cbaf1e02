"""The puzzle's columns as the read side names and sorts them: the fields of a query result and the sort keys.

One list each: the query's SELECT (``RESULT_COLUMNS``), the records (``records.PuzzleRecord`` holds to
``RESULT_FIELDS``), ``--order-by``'s choices and the keyset cursor (``ORDER_KEYS``, ``rank_of``) are made here.
"""
from __future__ import annotations

from typing import Optional

from engine.vocabulary import GUESSING, LEVELS, METRICS, STEP_NAMES, TECHNIQUES  # plain data: no engine code

#: the solver metrics stored with every puzzle (engine/solvers/base.py defines them; seconds as solve_seconds)
SOLVER_METRICS = (*METRICS[:-1], "solve_seconds")

#: the fields of a query result, in order; `puzzle` and `solution` are in the line format. `minimal` is True
#: when the carving proved the puzzle minimal, False when removal tests hit the node limit (`undecided` of them;
#: the default on 25x25) or `fill --level` put clues back, None for puzzles stored before migration 0003
RESULT_FIELDS = ("number", "variant", "size", "equivalence", "method", "clues", "symmetry", *SOLVER_METRICS,
                 "carve_checks", "carve_seconds", "minimal", "undecided", "level", "score", "hardest",
                 "technique", "source", "source_line", "puzzle", "solution")

#: the fields that come from the board (all others are the puzzle's columns of the same name)
_BOARD_FIELDS = {"number": "b.number", "size": "b.size", "equivalence": "b.equivalence", "method": "b.method",
                 "solution": "b.board AS solution"}
RESULT_COLUMNS = ", ".join(_BOARD_FIELDS.get(name, f"p.{name}") for name in RESULT_FIELDS)

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
    **{name: f"p.{name}" for name in SOLVER_METRICS},
    "carve_checks": "p.carve_checks",
    "carve_seconds": "p.carve_seconds",
    "score": "p.score",
    **{column: _rank_sql(column) for column in RANKED},
}

#: sort keys that can be NULL (puzzles stored before grading): those rows go last in either direction
NULLABLE_KEYS = frozenset({"score"})
