"""The line format: one grid per line (.sdm style, tdoku's ``puzzle:count:solution`` data files, CSV with a puzzle
column).

A module of its own because a line is read whole, a field of it, where the other plain-text formats gather a grid
from several lines (``blocks``, ``rcv``): the puzzle is the text before a ``# comment``, then before the first
``:`` or ``,``; a CSV file's header line may name the puzzles' column instead. :func:`cells_from_field` also reads
a JSON string of symbols (``json``).
"""
from __future__ import annotations

import csv
import re
from typing import Iterator

import numpy as np

from ..geometry import box_for_ncells
from ..shape import Shape
from .base import (
    NCELLS,
    FormatError,
    check_symbols,
    decode_symbols,
    is_skipped,
    numbered_lines,
    size_for_ncells_message,
)
from .shapes import side
from .text import Entry

#: the names a CSV header gives the puzzles' column (QQWing's --csv: ``Puzzle,Solution,``; catalogue query's csv;
#: the Kaggle sets' ``quizzes,solutions``), compared without case
PUZZLE_COLUMNS = ("puzzle", "puzzles", "quizzes", "quiz")


def _csv_fields(text: str) -> list[str]:
    """The fields of one CSV row (quotes removed); split at every comma where the csv module refuses the text (a
    stray carriage return, say), so that bad input is reported as a bad grid, never raised."""
    try:
        return next(csv.reader([text]), [])
    except csv.Error:
        return text.split(",")


def puzzle_column(line: str) -> int | None:
    """The index of the puzzles' column when ``line`` is a CSV header naming one, else None."""
    if "," not in line:
        return None
    names = [name.strip().lower() for name in _csv_fields(line)]
    return next((i for i, name in enumerate(names) if name in PUZZLE_COLUMNS), None)


def line_field(line: str, index: int = 0) -> tuple[str, int]:
    """The puzzle field of a line and its 1-based column: the text before a ``#`` comment, then before the first
    ``:`` (tdoku's ``puzzle:count:solution``) or ``,`` (a CSV row), spaces trimmed; with ``index``, the CSV field
    of that index (quotes removed)."""
    text = line.split("#", 1)[0]
    if index:
        fields = _csv_fields(text)
        if index >= len(fields):
            return "", len(text.rstrip()) + 1
        field = fields[index].strip()
        return field, text.find(field) + 1 if field else len(text.rstrip()) + 1
    stripped = text.lstrip()
    return _FIELD_END.split(stripped, 1)[0].rstrip(), len(text) - len(stripped) + 1


_FIELD_END = re.compile("[:,]")


def read_line_file(text: str, source: str, box: "int | Shape | None" = None) -> Iterator[Entry]:
    index, first = 0, True
    for number, _, line in numbered_lines(text):
        if is_skipped(line):
            continue
        if first:  # a CSV file's header says which column holds the puzzles
            first = False
            found = puzzle_column(line)
            if found is not None:
                index = found
                continue
        field, column = line_field(line, index)
        try:
            cells = cells_from_field(field, source, number, column, box)
        except FormatError as e:
            yield e
        else:
            yield number, cells, box if box is not None else box_for_ncells(cells.size)


def cells_from_field(field: str, source: str, line: int, column: int, box: "int | Shape | None") -> np.ndarray:
    """The cells of one line of symbols starting at ``column``; FormatError at the first bad character."""
    values = decode_symbols(field)
    check_symbols(values, field, None, source, line, column)
    got = len(field)
    # without a box, measure against the nearest size so the column points where the line went wrong
    expected = side(box) ** 2 if box is not None else min(NCELLS, key=lambda k: abs(k - got))
    if got != expected:
        # point at the first missing symbol (end of a short line) or at the first extra one
        raise FormatError(source, line, column + min(got, expected), size_for_ncells_message(got, box))
    check_symbols(values, field, side(box) if box is not None else box_for_ncells(got) ** 2, source, line, column)
    return values.astype(np.int8)
