"""The one list of a puzzle's fields: every column of the ``boards`` and ``puzzles`` tables, with its Python type,
whether it may be empty, and what it means.

Made from it: the query's SELECT and its result fields (:mod:`catalogue.store.columns`), the typed records and the
board reader (:mod:`catalogue.store.records`, ``queries.get_board``), the API's schemas with their descriptions
(:mod:`catalogue.web.schemas`) and datasette's column descriptions (``tools/datasette_metadata.py`` writes them into
catalogue/datasette/metadata.json). The tables themselves are :mod:`catalogue.store.models` (and the migrations):
a test holds the models' columns to this list, name, type and nullability. So a new column is its migration, its
model, its line here, and the code that computes it.

Plain data (no SQLAlchemy): ``catalogue query`` reads it and must start in a blink.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Iterable, Optional

#: no stand-in: whoever makes a row must give this column its value
MADE: Any = "<made>"


@dataclass(frozen=True)
class Field:
    name: str  #: the record's name; the column's too, unless ``column`` says otherwise
    type: Any  #: the Python type of a value (``techniques``: stored as JSON text, a dict in records)
    about: str  #: what it means: datasette's column description, the API's field description
    table: str  #: "boards" or "puzzles"
    optional: bool = False  #: may be None (NULL): unknown for rows stored before the migration that added it
    column: Optional[str] = None  #: the column's name when the record names it otherwise
    #: what an imported puzzle's row stores when the import makes no value here (it generates no board and carves
    #: nothing); MADE: the import makes it (an optional column it does not make stores None)
    imported: Any = MADE
    #: a measure: a number of how a board or puzzle was made, solved or graded, which ``stats`` summarises (min,
    #: median, max) and, a puzzle's, ``query --order-by`` sorts by
    measure: bool = False

    @property
    def stored(self) -> str:
        """The column it is read from."""
        return self.column or self.name

    @property
    def annotation(self) -> Any:
        return Optional[self.type] if self.optional else self.type


def _board(name, type_, about, **kw) -> Field:
    return Field(name, type_, about, "boards", **kw)


def _puzzle(name, type_, about, **kw) -> Field:
    return Field(name, type_, about, "puzzles", **kw)


#: every column of both tables, each table in its own order
FIELDS: tuple[Field, ...] = (
    _board("number", int, "The board's number: 0..N-1 without gaps, in the order boards were stored."),
    _board("size", int, "Rows of the grid: 4, 9, 16 or 25 for square boxes; 6, 8, 10, 12, ... for other shapes."),
    _board("shape", str, "The grid's rules: RxC for boxes of R rows by C columns (3x3 is 9x9 Sudoku), latinN for a "
                         "Latin square, jigsawN:LAYOUT for jigsaw regions (one letter a cell), +x when both "
                         "diagonals hold every digit too."),
    _board("equivalence", str, "When two boards count as the same: none, d4 (rotations and reflections) or full "
                               "(every validity-preserving transformation)."),
    _board("key", str, "The canonical key under the equivalence: the UNIQUE column that keeps boards unique."),
    _board("solution", str, "The board in the line format: one symbol per cell, row by row.", column="board"),
    _board("method", str, "The generator that made it: wfc, backtrack or pattern; import for the solution of an "
                          "imported puzzle."),
    _board("seed", int, "The generator's seed: the same method, size and seed make the same board again (0 for "
                        "method import).", imported=0),
    _board("restarts", int, "How many times the generator started over (Wave Function Collapse contradictions).",
           imported=0, measure=True),
    _board("generate_seconds", float, "Seconds spent generating the board.", imported=0.0, measure=True),
    _board("run_id", int, "The fill run that stored it."),
    _board("created_at", dt.datetime, "When it was stored (UTC)."),
    _puzzle("id", int, "The puzzle's own id."),
    _puzzle("board_number", int, "The board it was carved from, which is its solution."),
    _puzzle("variant", int, "The puzzle's number on its board: 1 for the board's first puzzle (named N), 2, 3, ... "
                            "for puzzles imported onto it later (named N.2, N.3, ...)."),
    _puzzle("puzzle", str, "The puzzle in the line format; '.' is a blank cell."),
    _puzzle("clues", int, "Given digits."),
    _puzzle("symmetry", str, "Symmetry of the clue pattern: none, rotational, mirror, ..."),
    _puzzle("target_clues", int, "The clue count the carver aimed at, if one was asked for.", optional=True),
    _puzzle("carve_seed", int, "The carver's seed (0 for an imported puzzle, which was not carved).", imported=0),
    _puzzle("carve_checks", int, "Removal tests the carver ran (each a count of solutions up to 2); for an "
                                 "imported puzzle, the tests of its minimality check.", measure=True),
    _puzzle("carve_seconds", float, "Seconds spent carving.", measure=True),
    _puzzle("attempts", int, "Carvings tried before one met the requested level or clue count (0 for an imported "
                             "puzzle).", imported=0),
    _puzzle("nodes", int, "Search nodes the solver visited.", measure=True),
    _puzzle("guesses", int, "Cells where the solver had to guess.", measure=True),
    _puzzle("backtracks", int, "Guesses the solver had to undo.", measure=True),
    _puzzle("checks", int, "Candidate checks the solver made.", measure=True),
    _puzzle("max_depth", int, "Deepest level of guessing.", measure=True),
    _puzzle("solve_seconds", float, "Seconds the solver took.", measure=True),
    _puzzle("level", str, "The grade's level: easy, medium, hard, expert or extreme.", optional=True),
    _puzzle("score", float, "The hardest step's rating on the Sudoku Explainer scale (1.0 .. 10.0).", optional=True,
            measure=True),
    _puzzle("hardest", str, "The hardest step a person needs, named as the literature writes it (forcing X-chain, "
                            "BUG+1, X-Wing), or guessing.", optional=True),
    _puzzle("technique", str, "The row of the grader's technique table that made the hardest step "
                              "(chains-and-cycles, bug, x-wing), or guessing.", optional=True),
    _puzzle("techniques", dict[str, int], "How many steps of each technique the grader used (JSON).", optional=True),
    _puzzle("minimal", bool, "1 when the carving (or, for an imported puzzle, the minimality check) proved that no "
                             "clue can be removed.", optional=True),
    _puzzle("undecided", int, "Removal tests that hit the node limit (0 for a proven minimal puzzle).",
            optional=True),
    _puzzle("source", str, "Where an imported puzzle came from: `catalogue import --source`, by default the file's "
                           "name (<stdin> for standard input); empty for carved puzzles.", optional=True),
    _puzzle("source_line", int, "The line of that file where the imported puzzle starts (1-based); empty for carved "
                                "puzzles.", optional=True),
)
BY_NAME: dict[str, Field] = {f.name: f for f in FIELDS}
#: given by the database as a row is stored, not by whoever makes the row: numbers (under the write lock), ids,
#: a puzzle's board and its variant there, the time
ASSIGNED = frozenset({"number", "id", "board_number", "variant", "created_at"})
if len(BY_NAME) != len(FIELDS):
    raise RuntimeError("catalogue.store.fields.FIELDS names a field twice")

#: the fields of a query result, in order (what `catalogue query` prints, csv's columns, the API's lists): the
#: puzzle's name and its board, how it was carved and solved, its grade, where it came from, then the grids
RESULT_FIELDS = ("number", "variant", "size", "shape", "equivalence", "method", "clues", "symmetry", "nodes", "guesses",
                 "backtracks", "checks", "max_depth", "solve_seconds", "carve_checks", "carve_seconds", "minimal",
                 "undecided", "level", "score", "hardest", "technique", "source", "source_line", "puzzle", "solution")
#: how a board and its puzzle were made: the fields a full record adds to a result's (the generator's seed remakes
#: the board, the carver's seed its puzzle; ``techniques``: the steps per technique of its grade)
MAKING_FIELDS = ("seed", "restarts", "generate_seconds", "run_id", "carve_seed", "techniques")
#: the one full record shape (export --format json, /api/puzzles/N): a result's fields, then how it was made
RECORD_FIELDS = (*RESULT_FIELDS, *MAKING_FIELDS)
#: the measures (Field.measure), in a record's order: the solver's, the carver's, the grade's, the generator's
MEASURES = tuple(name for name in RECORD_FIELDS if BY_NAME[name].measure)
#: the fields of a full record that a board row holds; the rest are its puzzle's
BOARD_FIELDS = tuple(name for name in RECORD_FIELDS if BY_NAME[name].table == "boards")
PUZZLE_FIELDS = tuple(name for name in RECORD_FIELDS if BY_NAME[name].table == "puzzles")
for _name in RECORD_FIELDS:
    if _name not in BY_NAME:
        raise RuntimeError(f"catalogue.store.fields: {_name} is in a record but not in FIELDS")


def stand_ins(table: str, made: Iterable[str], *, imported: bool = False) -> dict[str, Any]:
    """The values of the ``table`` columns that rows made with the columns ``made`` leave out: an imported row's
    ``imported`` value, None for an optional column. Fill and import complete their rows with these, once per
    batch, so a new column is computed where it is made and stood in for here, never forgotten: a column neither
    made nor stood in for, or a made name that is no column, raises RuntimeError naming it."""
    made = set(made)
    columns = {f.stored: f for f in FIELDS if f.table == table and f.name not in ASSIGNED}
    unknown = made - set(columns)
    if unknown:
        raise RuntimeError(f"rows of {table} name columns it does not have: {', '.join(sorted(unknown))}")
    out: dict[str, Any] = {}
    for name, f in columns.items():
        if name in made:
            continue
        if imported and f.imported is not MADE:
            out[name] = f.imported
        elif f.optional:
            out[name] = None
        else:
            raise RuntimeError(f"rows of {table} leave out {name}, which has no stand-in: compute it, or give it one "
                               f"in catalogue.store.fields")
    return out
