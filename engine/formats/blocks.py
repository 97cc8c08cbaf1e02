"""Grids written as rows, read and written: ``block`` (rows of symbols; spaces, ``|`` and ``-+-`` rules allowed) and
``txt`` (the catalogue's N.txt: rows of numbers, digits run together for n <= 9).

The two are one reader: consecutive rows make a :class:`Run` (a blank or comment line ends it, separator lines are
skipped), and a run is cut into grids of n rows (:func:`grids_of_run`), n found from the rows' lengths so that one
short or long row is reported as such. ``pretty`` reads its cells into the same rows and runs.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import islice
from typing import Callable, Iterator

import numpy as np

from ..geometry import box_for_size
from .base import (
    NOT_A_SYMBOL,
    SIZES,
    SYMBOLS,
    FormatError,
    as_cells,
    decode_symbols,
    is_skipped,
    not_a_symbol,
    numbered_lines,
    out_of_range,
)
from .limits import MAX_NUMBER_DIGITS, MAX_ROW_CELLS, echo, too_long_number
from .shapes import box_rules, directive, side
from .text import KEPT_ROWS, Entry, count_words


@dataclass
class Row:
    """The cells of one row as written. Only the first :data:`MAX_ROW_CELLS` + 1 cells are kept (enough to say what
    is wrong with a row of any grid), so a 10 MB line costs no more than a row of 26; ``count`` is all of them."""

    line: int
    values: np.ndarray  # digit per cell, NOT_A_SYMBOL for an unreadable one
    texts: list[str]  # the text of each cell as written
    columns: list[int]  # 1-based column of each cell
    end: int  # 1-based column just after the last cell, where a missing one would go
    count: int = -1  # cells in the row (-1: len(values))

    def __post_init__(self):
        if self.count < 0:
            self.count = len(self.values)


_SEPARATOR_CHARS = frozenset(" \t\n\r\f\v|+=-")
_TOKEN = re.compile(r"\S+")
_SYMBOL_CELL = re.compile(r"[^ \t|]")


def is_separator(line: str) -> bool:
    """``------+-------+------`` style lines people put between bands: only ``-+=|`` and spaces, one of ``-+=``.

    Set operations, not a regular expression: ``^[\\s|+=-]*[+=-][\\s|+=-]*$`` backtracks quadratically on a long
    line of dashes with a letter at the end (its time grows with the square of the line's length)."""
    chars = set(line)
    return chars <= _SEPARATOR_CHARS and not chars.isdisjoint("+=-")


def symbol_row(line: str, number: int) -> Row:
    """Cells of a block row: every character except spaces, tabs and ``|``."""
    columns = [m.start() + 1 for m in islice(_SYMBOL_CELL.finditer(line), MAX_ROW_CELLS + 1)]
    texts = [line[c - 1] for c in columns]
    count = len(columns) if len(columns) <= MAX_ROW_CELLS else \
        len(line) - line.count(" ") - line.count("\t") - line.count("|")
    return Row(number, decode_symbols("".join(texts)), texts, columns, len(line.rstrip()) + 1, count)


def number_row(line: str, number: int) -> Row:
    """Cells of a txt row: whitespace-separated numbers, or one run of digits (the n <= 9 style)."""
    tokens = [(m.start() + 1, m.group()) for m in islice(_TOKEN.finditer(line), MAX_ROW_CELLS + 1)]
    if len(tokens) == 1 and len(tokens[0][1]) > 2:  # "530070000": one symbol per character
        start, word = tokens[0]
        head = word[:MAX_ROW_CELLS + 1]
        return Row(number, decode_symbols(head), list(head), list(range(start, start + len(head))),
                   start + len(word), len(word))
    values = np.array([number_value(w) for _, w in tokens], dtype=np.int16)
    count = len(tokens) if len(tokens) <= MAX_ROW_CELLS else count_words(line)  # the rest counted, not kept
    return Row(number, values, [w for _, w in tokens], [c for c, _ in tokens], len(line.rstrip()) + 1, count)


def number_value(word: str) -> int:
    """A whole number written in a cell; huge ones are capped (any value above 25 is out of range anyway), and
    one of more than MAX_NUMBER_DIGITS digits is not converted at all (int() refuses 4,300 digits and more)."""
    if not (word.isdigit() and word.isascii()):
        return NOT_A_SYMBOL
    return 999 if len(word) > MAX_NUMBER_DIGITS else min(int(word), 999)


def symbol_count(line: str) -> int:
    """The cells of a block row (:func:`symbol_row`'s count), without decoding any."""
    return len(line) - line.count(" ") - line.count("\t") - line.count("|")


def number_count(line: str) -> int:
    """The cells of a txt row (:func:`number_row`'s count), without a string per number."""
    words = count_words(line)
    if words == 1:  # "530070000": one symbol per character
        width = len(line.strip())
        return width if width > 2 else 1
    return words


@dataclass
class Run:
    """A run of consecutive rows. Up to :data:`KEPT_ROWS` rows are kept as :class:`Row` objects; a longer run is
    kept as where it starts and what its rows count (a run of three million rows held three million Row
    objects), and :meth:`again` reads its rows once more, a grid at a time, when the run's grids are made.
    ``counts``: rows by their number of cells; ``first``: the first row (where an error about the whole run
    points)."""

    text: str
    start: int  # offset of the first row's line
    number: int  # its line number
    make_row: Callable[[str, int], Row]
    is_row: Callable[[str], bool]  # which lines between the first row and the last are rows
    count: Callable[[str], int]  # a row's cells, without making the row
    first: Row | None = None
    lines: int = 0  # lines from the first row to the last
    rows: int = 0
    counts: Counter = field(default_factory=Counter)
    kept: list[Row] | None = field(default_factory=list)

    def add(self, line: str, number: int) -> None:
        """One more row: ``line``, line ``number``."""
        self.rows += 1
        self.lines = number - self.number + 1
        if self.kept is not None and len(self.kept) < KEPT_ROWS:
            row = self.make_row(line, number)
            self.kept.append(row)
            self.counts[row.count] += 1
            if self.first is None:
                self.first = row
        else:
            self.kept = None
            self.counts[self.count(line)] += 1

    def again(self) -> Iterator[Row]:
        if self.kept is not None:
            yield from self.kept
            return
        for number, _, line in islice(numbered_lines(self.text, self.start, self.number), self.lines):
            if self.is_row(line):
                yield self.make_row(line, number)


def _block_row(line: str) -> bool:
    return not is_separator(line)  # (blank and comment lines end a run: none is inside one)


def read_blocks(text: str, source: str, box: int | None = None, numbers: bool = False) -> Iterator[Entry]:
    """Grids of n rows; a blank or comment line ends a grid, separator lines are skipped.

    A run of rows with no blank line between grids is split every n rows.
    """
    make_row, count = (number_row, number_count) if numbers else (symbol_row, symbol_count)
    run: Run | None = None
    for number, start, line in numbered_lines(text):
        if is_skipped(line):
            if run is not None:
                yield from grids_of_run(run, source, box, numbers)
            run = None
        elif not is_separator(line):
            if run is None:
                run = Run(text, start, number, make_row, _block_row, count)
            run.add(line, number)
    if run is not None:
        yield from grids_of_run(run, source, box, numbers)


def read_txt(text: str, source: str, box: int | None = None) -> Iterator[Entry]:
    return read_blocks(text, source, box, numbers=True)


def grids_of_run(run: Run, source: str, box: int | None, numbers: bool = False) -> Iterator[Entry]:
    """The grids in a run of consecutive rows: n is the box's size if given, else the most common row length
    (or the number of rows), so one short or long row is reported as such rather than changing the size."""
    if not run.rows:
        return
    first = run.number
    if box is not None:
        n = side(box)
    else:
        common = run.counts.most_common(1)[0][0]
        n = common if common in SIZES else run.rows if run.rows in SIZES else 0
        if not n:
            yield FormatError(source, first, run.first.columns[0] if run.first.columns else 1,
                              f"rows of {common} cells: a grid has 4, 9, 16 or 25 rows of as many cells")
            return
    if run.rows % n:
        need = f"{n} rows" if run.rows < n else f"a multiple of {n} rows (separate grids with a blank line)"
        yield FormatError(source, first, 1, f"expected {need} for a {n}x{n} grid, got {run.rows}")
        return
    rows = run.again()
    for _ in range(run.rows // n):
        grid = list(islice(rows, n))
        try:
            yield grid[0].line, np.concatenate([_checked(r, n, source, numbers) for r in grid]).astype(np.int8), \
                box if box is not None else box_for_size(n)
        except FormatError as e:
            yield e


def _checked(row: Row, n: int, source: str, numbers: bool) -> np.ndarray:
    kind = "numbers" if numbers else "symbols"
    bad = np.flatnonzero(row.values == NOT_A_SYMBOL)
    if bad.size:
        i = int(bad[0])
        text = row.texts[i]
        message = f"{echo(text)} is not a number (0 = blank, 1-{n})" if numbers else not_a_symbol(text)
        raise FormatError(source, row.line, row.columns[i], message)
    if row.count != n:
        column = row.end if row.count < n else row.columns[n]
        raise FormatError(source, row.line, column, f"expected {n} {kind} in a row of a {n}x{n} grid, "
                                                    f"got {row.count:,}")
    high = np.flatnonzero(row.values > n)
    if high.size:
        i = int(high[0])
        text, value = row.texts[i], int(row.values[i])
        if numbers and text.isdigit() and len(text) > MAX_NUMBER_DIGITS:
            raise FormatError(source, row.line, row.columns[i], too_long_number(len(text)))
        message = (f"{text} is out of range for a {n}x{n} grid (0-{n}, 0 = blank)" if numbers and text.isdigit()
                   else out_of_range(text, value, n))
        raise FormatError(source, row.line, row.columns[i], message)
    return row.values

def to_block(grid_or_cells, box: int | None = None, spaced: bool = True) -> str:
    """n rows of symbols; ``spaced`` puts spaces between cells, ``|`` between boxes and ``-+-`` rules between
    bands (how people write grids), otherwise each row is n symbols in a row. No final newline."""
    cells, b = as_cells(grid_or_cells, box)
    n = side(b)
    rows = ["".join(SYMBOLS[int(v)] for v in cells[r * n:(r + 1) * n]) for r in range(n)]
    if not spaced:
        return "\n".join(directive(b) + rows)
    out = directive(b)
    high, wide = box_rules(b)  # a box's rows and columns (none: a Latin square or jigsaw, drawn without rules)
    wide = wide or n
    rule = "-+-".join("-" * (2 * wide - 1) for _ in range(n // wide))
    for r, row in enumerate(rows):
        if r and high and r % high == 0:
            out.append(rule)
        out.append(" | ".join(" ".join(row[s:s + wide]) for s in range(0, n, wide)))
    return "\n".join(out)


def to_txt(grid_or_cells, box: int | None = None) -> str:
    """The catalogue's N.txt style: n rows, digits run together for n <= 9, space-separated numbers above
    (0 = blank). No final newline."""
    cells, b = as_cells(grid_or_cells, box)
    n = side(b)
    sep = "" if n <= 9 else " "
    return "\n".join(directive(b) + [sep.join(str(int(v)) for v in cells[r * n:(r + 1) * n]) for r in range(n)])


def from_txt(text: str, box: int | None = None, source: str = "<txt>") -> np.ndarray:
    """The cells of one grid in txt style; FormatError if it holds no grid, a bad one, or several."""
    entries = list(read_txt(text, source, box))
    if not entries:
        raise FormatError(source, 1, 1, "no grid found")
    if isinstance(entries[0], FormatError):
        raise entries[0]
    if len(entries) > 1:
        second = entries[1]
        raise FormatError(source, second.line if isinstance(second, FormatError) else second[0], 1,
                          f"expected one grid, found {len(entries)}")
    return entries[0][1]
