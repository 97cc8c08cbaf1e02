"""Typed records of what the catalogue's reads return: frozen dataclasses named with the database's columns.

Made from the field list (:mod:`catalogue.store.fields`): ``PuzzleRecord``'s fields are ``RESULT_FIELDS`` in their
order (what `catalogue query` prints, under the same names); ``BoardRecord`` is one board with its first puzzle
(``BoardPuzzle``: the puzzle row's fields of a full record), and its :meth:`record` the one full record shape
(``RECORD_FIELDS``: query's fields, then how it was made) that `catalogue export` and the API print. Grids are
text in the line format (``engine.formats``: ``.`` for a blank). ``to_dict()`` gives the plain
dict the printers take, with exactly the keys and values the query used to return.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, make_dataclass
from typing import Any, Optional

from .fields import BOARD_FIELDS, BY_NAME, PUZZLE_FIELDS, RECORD_FIELDS, RESULT_FIELDS

#: the columns of a puzzle row that hold its grade
#: the columns a grade fills (and regrade rewrites): grade_columns' keys
GRADE_COLUMNS = ("level", "score", "hardest", "technique", "techniques")


def grade_columns(grade) -> dict[str, Any]:
    """The grade columns of a puzzle row from an ``engine.grade.Grade`` (the steps per technique as JSON text with
    sorted keys): what the fill, the import and ``regrade`` all store. None stores no grade, as a puzzle stored
    before grading has none."""
    if grade is None:
        return dict.fromkeys(GRADE_COLUMNS)
    return {"level": grade.level, "score": float(grade.score), "hardest": grade.hardest, "technique": grade.technique,
            "techniques": json.dumps(grade.steps_by_technique, sort_keys=True)}


class _PuzzleRecord:
    """The methods of :class:`PuzzleRecord`, whose fields are made from the field list."""

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> "PuzzleRecord":
        return cls(**{name: row[name] for name in RESULT_FIELDS})

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in RESULT_FIELDS}

    @property
    def name(self) -> str:
        """How the puzzle is named: ``N``, or ``N.K`` for a board's K-th puzzle (:func:`puzzle_name`)."""
        return puzzle_name(self.number, self.variant)


class _BoardPuzzle:
    """The methods of :class:`BoardPuzzle`, whose fields are made from the field list."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _record_class(name: str, names: tuple[str, ...], doc: str, base: type = object) -> type:
    """A frozen dataclass with the fields ``names`` of :data:`catalogue.store.fields.FIELDS`, typed as there."""
    stored = {"techniques": Optional[str]}  # JSON text as stored; a dict only in the full record
    cls = make_dataclass(name, [(n, stored.get(n, BY_NAME[n].annotation)) for n in names], bases=(base,),
                         frozen=True)
    cls.__module__ = __name__  # (pickle and the docs find it here)
    cls.__doc__ = doc + "\n\n" + "\n".join(f"- ``{n}``: {BY_NAME[n].about}" for n in names)
    return cls


#: One puzzle with its board: the fields of `catalogue query` (``fields.RESULT_FIELDS``), in order.
PuzzleRecord = _record_class("PuzzleRecord", RESULT_FIELDS, "One puzzle with its board: the fields of "
                             "`catalogue query`, in order.", _PuzzleRecord)
#: A puzzle stored with a board (its first, or the variant asked for): every field of a full record that the
#: puzzle's row holds; ``techniques`` is JSON text.
BoardPuzzle = _record_class("BoardPuzzle", PUZZLE_FIELDS, "A puzzle stored with a board (its first, or the variant "
                            "asked for), everything known about it; ``techniques`` is JSON text.", _BoardPuzzle)


@dataclass(frozen=True)
class BoardRecord:
    """One board (``board``: the complete grid, line format) and its first puzzle (None if it has none)."""

    number: int
    size: int
    shape: str  #: the shape's spec (catalogue.shapes)
    equivalence: str
    method: str
    seed: int  #: `generate(box, seed)` with this method remakes the board
    restarts: int
    generate_seconds: float
    run_id: int
    board: str
    puzzle: Optional[BoardPuzzle]  # type: ignore[valid-type]

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
        values = {**puzzle, **{name: getattr(self, BY_NAME[name].stored) for name in BOARD_FIELDS}}
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
