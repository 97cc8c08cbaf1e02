"""Typed records of what the catalogue's reads return: frozen dataclasses named with the database's columns.

``PuzzleRecord``'s fields are ``columns.RESULT_FIELDS`` in their order (what `catalogue query` prints, under the
same names); ``BoardRecord`` is one board with its first puzzle (``BoardPuzzle``), and its :meth:`record` the
one full record shape (:data:`RECORD_FIELDS`: query's fields, then how it was made) that `catalogue export` and the
API print. Grids are text in the line format (``engine.formats``: ``.`` for a blank). ``to_dict()`` gives the plain
dict the printers take, with exactly the keys and values the query used to return.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from typing import Any, Optional

#: the columns of a puzzle row that hold its grade
GRADE_COLUMNS = ("level", "score", "hardest", "technique", "techniques")


def grade_columns(grade) -> dict[str, Any]:
    """The grade columns of a puzzle row from an ``engine.grade.Grade`` (the steps per technique as JSON text with
    sorted keys): what the fill, the import and ``regrade`` all store."""
    return {"level": grade.level, "score": float(grade.score), "hardest": grade.hardest, "technique": grade.technique,
            "techniques": json.dumps(grade.steps_by_technique, sort_keys=True)}


@dataclass(frozen=True)
class PuzzleRecord:
    """One puzzle with its board: the fields of `catalogue query` (``columns.RESULT_FIELDS``), in order."""

    number: int  #: the board's number (its public id)
    variant: int  #: the puzzle's number on its board: 1 for its first (the puzzle is named N), 2, ... (N.2, ...)
    size: int  #: rows of the grid (4, 9, 16, 25)
    equivalence: str
    method: str  #: the generator that made the board
    clues: int
    symmetry: str  #: of the clue pattern
    nodes: int
    guesses: int
    backtracks: int
    checks: int
    max_depth: int
    solve_seconds: float
    carve_checks: int
    carve_seconds: float
    minimal: Optional[bool]  #: None: stored before migration 0003 recorded it
    undecided: Optional[int]
    level: Optional[str]  #: None: stored before grading existed
    score: Optional[float]
    hardest: Optional[str]  #: the hardest step's own name (``forcing X-chain``), or ``guessing``
    technique: Optional[str]  #: the technique row that made it (``chains-and-cycles``; ``--technique``)
    source: Optional[str]  #: an imported puzzle's file (or ``import --source``); None for a carved one
    source_line: Optional[int]  #: its line in that file
    puzzle: str  #: the givens, line format
    solution: str  #: the board, line format

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> "PuzzleRecord":
        return cls(**{name: row[name] for name in _PUZZLE_FIELDS})

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _PUZZLE_FIELDS}

    @property
    def name(self) -> str:
        """How the puzzle is named: ``N``, or ``N.K`` for a board's K-th puzzle (:func:`puzzle_name`)."""
        return puzzle_name(self.number, self.variant)


@dataclass(frozen=True)
class BoardPuzzle:
    """A puzzle stored with a board (its first, or the variant asked for), everything known about it;
    ``techniques`` is JSON text."""

    variant: int
    puzzle: str
    clues: int
    symmetry: str
    nodes: int
    guesses: int
    backtracks: int
    checks: int
    max_depth: int
    solve_seconds: float
    carve_seed: int
    carve_checks: int
    carve_seconds: float
    minimal: Optional[bool]
    undecided: Optional[int]
    level: Optional[str]
    score: Optional[float]
    hardest: Optional[str]
    technique: Optional[str]
    techniques: Optional[str]
    source: Optional[str]  #: an imported puzzle's file (or ``import --source``); None for a carved one
    source_line: Optional[int]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class BoardRecord:
    """One board (``board``: the complete grid, line format) and its first puzzle (None if it has none)."""

    number: int
    size: int
    equivalence: str
    method: str
    seed: int  #: `generate(box, seed)` with this method remakes the board
    restarts: int
    generate_seconds: float
    run_id: int
    board: str
    puzzle: Optional[BoardPuzzle]

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> "BoardRecord":
        puzzle = row["puzzle"]
        return cls(**{**row, "puzzle": None if puzzle is None else BoardPuzzle(**puzzle)})

    def to_dict(self) -> dict[str, Any]:
        """The board's columns, and ``puzzle`` as a dict of its columns (or None)."""
        return asdict(self)

    def record(self) -> dict[str, Any]:
        """The one record shape (:data:`RECORD_FIELDS`, flat): `catalogue query`'s fields, then how the board and
        its puzzle were made. `export --format json`, ``/api/puzzles/N`` and ``/api/boards/N`` print it; a board
        without a puzzle has its puzzle's fields null."""
        puzzle = self.puzzle.to_dict() if self.puzzle is not None else {}
        values = {**puzzle, "number": self.number, "size": self.size, "equivalence": self.equivalence,
                  "method": self.method, "solution": self.board, "seed": self.seed, "restarts": self.restarts,
                  "generate_seconds": self.generate_seconds, "run_id": self.run_id}
        if values.get("techniques"):
            values["techniques"] = json.loads(values["techniques"])
        return {name: values.get(name) for name in RECORD_FIELDS}


def puzzle_name(number: int, variant: Optional[int]) -> str:
    """A puzzle's name: its board's number ``N`` for the board's first puzzle (the usual case: a board and its
    carved puzzle share a name), ``N.K`` for its K-th (a puzzle imported onto a stored board). Stable: a stored
    puzzle keeps its variant, and a new one takes the next of its board."""
    return str(number) if variant in (None, 1) else f"{number}.{variant}"


def parse_puzzle_name(text: str) -> tuple[int, int]:
    """``"17"`` -> (17, 1), ``"17.2"`` -> (17, 2); ValueError for anything else (a sign, a blank, ``17.0``)."""
    number, dot, variant = str(text).strip().partition(".")
    if not number.isdigit() or (dot and (not variant.isdigit() or int(variant) < 1)) or not number.isascii() \
            or not variant.isascii():
        raise ValueError(f"not a puzzle number (N, or N.K for a board's K-th puzzle): {text!r}")
    return int(number), int(variant) if dot else 1


def parse_reference(text: str) -> tuple[int, int]:
    """What a user's ID names: any whole number is a board (and its first puzzle), even one no board has (a
    negative one, one beyond 64 bits: not found, rather than not understood); else ``N.K`` (parse_puzzle_name)."""
    try:
        return int(str(text).strip()), 1
    except ValueError:
        return parse_puzzle_name(text)


_PUZZLE_FIELDS = tuple(f.name for f in fields(PuzzleRecord))
#: how a board and its puzzle were made: the fields a full record adds to `catalogue query`'s (the generator's
#: seed remakes the board, the carver's seed its puzzle; ``techniques``: the steps per technique of its grade)
MAKING_FIELDS = ("seed", "restarts", "generate_seconds", "run_id", "carve_seed", "techniques")
#: the one record shape: `catalogue query`'s fields (a prefix of it: csv, json, the API's lists), then these
RECORD_FIELDS = (*_PUZZLE_FIELDS, *MAKING_FIELDS)
