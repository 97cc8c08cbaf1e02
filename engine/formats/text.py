"""Plain-text formats: one grid per line, blocks of rows, the catalogue's N.txt style, and row-column-value triples.

Every reader takes the whole text and yields, in file order, either ``(line, cells, box)`` for a grid or a
:class:`FormatError` for a grid it could not read, then goes on with the next grid. A reader holds one grid's
lines at a time, never the file's: a run of rows (block, txt) or a group of triples (rcv) longer than
:data:`KEPT_ROWS` is kept as where it starts and what its rows count, and read a second time to make its grids.
Blank lines and ``#`` comment lines are ignored everywhere (the row-column-value reader also reads a ``# size N``
comment as the grid size), and a line of the line format may end in a ``# comment`` too.
"""
from __future__ import annotations

import csv
import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import islice
from typing import Callable, Iterator

import numpy as np

from .base import (NCELLS, NOT_A_SYMBOL, SIZES, SYMBOLS, FormatError, as_cells, check_symbols,
                           decode_symbols, is_skipped, not_a_symbol, numbered_lines, out_of_range,
                           size_for_ncells_message)
from .limits import MAX_NUMBER_DIGITS, MAX_ROW_CELLS, echo, too_long_number
from ..geometry import box_for_ncells, box_for_size

Entry = "tuple[int, np.ndarray, int] | FormatError"


# -- one grid per line (.sdm style, tdoku's puzzle:count:solution data files, CSV with a puzzle column) --------
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


def read_line_file(text: str, source: str, box: int | None = None) -> Iterator[Entry]:
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
            yield number, cells, box_for_ncells(cells.size)


def cells_from_field(field: str, source: str, line: int, column: int, box: int | None) -> np.ndarray:
    """The cells of one line of symbols starting at ``column``; FormatError at the first bad character."""
    values = decode_symbols(field)
    check_symbols(values, field, None, source, line, column)
    got = len(field)
    # without a box, measure against the nearest size so the column points where the line went wrong
    expected = (box * box) ** 2 if box is not None else min(NCELLS, key=lambda k: abs(k - got))
    if got != expected:
        # point at the first missing symbol (end of a short line) or at the first extra one
        raise FormatError(source, line, column + min(got, expected), size_for_ncells_message(got, box))
    check_symbols(values, field, box_for_ncells(got) ** 2, source, line, column)
    return values.astype(np.int8)


# -- rows of symbols (block) or of numbers (txt), grouped into grids --------------------------------------------
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


def count_words(text: str, chunk: int = 1 << 20) -> int:
    """``len(text.split())`` without a string per word (a 10 MB line of ``1 1 1 ...`` made 5 million of them):
    split a chunk at a time, not counting twice a word that a chunk boundary cuts."""
    words = 0
    for start in range(0, len(text), chunk):
        words += len(text[start:start + chunk].split())
        if start and not text[start - 1].isspace() and not text[start].isspace():
            words -= 1
    return words


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


#: rows of a run (triples of a group) kept as they are read; a longer run is read a second time instead
KEPT_ROWS = 1024


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
        n = box * box
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
                box_for_size(n)
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


# -- row column value triples (seed 002) ------------------------------------------------------------------------
_RCV_TOKEN = re.compile(r"[^\s,;]+")
_SIZE_DIRECTIVE = re.compile(r"^\s*#\s*size\s+(\d+)\b", re.IGNORECASE)
_RCV_HEADER = ("row", "column", "value")


# three whole numbers and nothing else: the tokens of _RCV_TOKEN, all ASCII digits (possessive: no backtracking)
_TRIPLE = re.compile(r"[\s,;]*+([0-9]++)[\s,;]++([0-9]++)[\s,;]++([0-9]++)[\s,;]*+")


def is_triple(line: str) -> bool:
    return _TRIPLE.fullmatch(line) is not None


def size_directive(line: str) -> int | None:
    """N of a ``# size N`` comment (a number too long to be a size reads as 0, which no grid has; the reader
    names it)."""
    m = _SIZE_DIRECTIVE.match(line)
    if not m:
        return None
    return int(m.group(1)) if len(m.group(1)) <= MAX_NUMBER_DIGITS else 0


def read_rcv(text: str, source: str, box: int | None = None) -> Iterator[Entry]:
    """One grid per group of non-blank lines; ``# size N`` in a group fixes its size."""
    group: tuple[int, int] | None = None  # (offset, number) of the group's first line
    lines = 0
    for number, start, line in numbered_lines(text):
        if line.strip():
            if group is None:
                group, lines = (start, number), 0
            lines += 1
            continue
        if group is not None:
            yield from _rcv_grid(text, *group, lines, source, box)
        group = None
    if group is not None:
        yield from _rcv_grid(text, *group, lines, source, box)


def _rcv_triple(line: str, number: int, source: str) -> tuple | None:
    """``(line, (column, row), (column, column), (column, value))`` of a triple line; None for a ``row column
    value`` header; a FormatError for anything else."""
    m = _TRIPLE.fullmatch(line)
    if m is not None and m.end(1) - m.start(1) <= MAX_NUMBER_DIGITS and m.end(2) - m.start(2) <= MAX_NUMBER_DIGITS \
            and m.end(3) - m.start(3) <= MAX_NUMBER_DIGITS:  # the common case, in one match
        return number, (m.start(1) + 1, int(m[1])), (m.start(2) + 1, int(m[2])), (m.start(3) + 1, int(m[3]))
    tokens = [(m.start() + 1, m.group()) for m in islice(_RCV_TOKEN.finditer(line), 4)]  # a triple, and one more if any
    if len(tokens) == 3 and all(t.lower().startswith(p) for (_, t), p in zip(tokens, ("row", "col", "val"))):
        return None
    for column, word in tokens[:3]:
        if not (word.isdigit() and word.isascii()):
            raise FormatError(source, number, column, f"expected \"row column value\" (3 whole numbers), "
                                                      f"got {echo(word)}")
        if len(word) > MAX_NUMBER_DIGITS:
            raise FormatError(source, number, column, too_long_number(len(word)))
    if len(tokens) != 3:
        column = tokens[3][0] if len(tokens) > 3 else len(line.rstrip()) + 1
        got = len(tokens) if len(tokens) < 4 else count_words(line.replace(",", " ").replace(";", " "))
        raise FormatError(source, number, column, f"expected \"row column value\" (3 whole numbers), got {got:,}")
    return (number, *((column, int(word)) for column, word in tokens))


def _rcv_grid(text: str, start: int, first: int, lines: int, source: str, box: int | None) -> Iterator[Entry]:
    """The grid of the group of ``lines`` lines from offset ``start`` (line ``first``). Every triple is checked
    and the size found (the largest number) before any cell is placed; the triples of a group longer than
    :data:`KEPT_ROWS` are not kept but read a second time (a group of three million triples held three million
    lists)."""
    def group() -> Iterator[tuple[int, str]]:
        return ((number, line) for number, _, line in islice(numbered_lines(text, start, first), lines))

    kept: list | None = []  # (line, (column, row), (column, column), (column, value)) of each triple
    largest, too_big = 0, None  # the largest number, and the first no grid can hold: (line, column, x, what)
    size, size_line, triples = None, 0, 0
    try:
        for number, line in group():
            if is_skipped(line):
                if size_directive(line) is not None and size is None:
                    size, size_line = size_directive(line), number
                    digits = _SIZE_DIRECTIVE.match(line).group(1)
                    if len(digits) > MAX_NUMBER_DIGITS:
                        raise FormatError(source, number, line.index(digits) + 1, too_long_number(len(digits)))
                continue
            triple = _rcv_triple(line, number, source)
            if triple is None:
                continue  # a "row column value" header line
            triples += 1
            if kept is not None and len(kept) < KEPT_ROWS:
                kept.append(triple)
            else:
                kept = None
            numbers = (triple[1][1], triple[2][1], triple[3][1])
            if max(numbers) > largest:
                largest = max(numbers)
                if largest > SIZES[-1] and too_big is None:
                    too_big = next((number, column, x, what) for (column, x), what in zip(triple[1:], _RCV_HEADER)
                                   if x > SIZES[-1])
        if not triples and size is None:
            return  # only comments: no grid here
        n = _rcv_size(largest, too_big, size, size_line, box, source)
        if kept is None:  # read again
            kept = (t for t in (_rcv_triple(line, number, source) for number, line in group()
                                if not is_skipped(line)) if t is not None)
        cells = np.zeros(n * n, dtype=np.int8)
        seen: dict[int, int] = {}  # at most n * n cells: a cell given twice ends the grid
        for number, (rc, r), (cc, c), (vc, v) in kept:
            for what, column, x in (("row", rc, r), ("column", cc, c), ("value", vc, v)):
                if not 1 <= x <= n:
                    raise FormatError(source, number, column, f"{what} {x} is out of range 1-{n} for a {n}x{n} grid")
            cell = (r - 1) * n + (c - 1)
            if cell in seen:
                raise FormatError(source, number, rc, f"r{r}c{c} is given twice (first on line {seen[cell]})")
            seen[cell] = number
            cells[cell] = v
        yield first, cells, box_for_size(n)
    except FormatError as e:
        yield e


def _rcv_size(largest: int, too_big: tuple | None, size: int | None, size_line: int, box: int | None,
              source: str) -> int:
    """The grid size: ``box`` if given, else the ``# size`` comment, else the largest number rounded up
    (``too_big``: the first number above every size, named when there is one)."""
    if size is not None and size not in SIZES:
        raise FormatError(source, size_line, 1, f"size {size} is not 4, 9, 16 or 25")
    if box is not None:
        if size is not None and size != box * box:
            raise FormatError(source, size_line, 1, f"the file says size {size} but box {box} was asked for")
        return box * box
    if size is not None:
        return size
    for n in SIZES:
        if largest <= n:
            return n
    number, column, x, what = too_big  # name the first number no grid can hold
    raise FormatError(source, number, column, f"{what} {x} is out of range 1-25 (largest grid 25x25)")


# -- writers ----------------------------------------------------------------------------------------------------
def to_block(grid_or_cells, box: int | None = None, spaced: bool = True) -> str:
    """n rows of symbols; ``spaced`` puts spaces between cells, ``|`` between boxes and ``-+-`` rules between
    bands (how people write grids), otherwise each row is n symbols in a row. No final newline."""
    cells, b = as_cells(grid_or_cells, box)
    n = b * b
    rows = ["".join(SYMBOLS[int(v)] for v in cells[r * n:(r + 1) * n]) for r in range(n)]
    if not spaced:
        return "\n".join(rows)
    out = []
    rule = "-+-".join("-" * (2 * b - 1) for _ in range(b))
    for r, row in enumerate(rows):
        if r and r % b == 0:
            out.append(rule)
        out.append(" | ".join(" ".join(row[s:s + b]) for s in range(0, n, b)))
    return "\n".join(out)


def to_txt(grid_or_cells, box: int | None = None) -> str:
    """The catalogue's N.txt style: n rows, digits run together for n <= 9, space-separated numbers above
    (0 = blank). No final newline."""
    cells, b = as_cells(grid_or_cells, box)
    n = b * b
    sep = "" if n <= 9 else " "
    return "\n".join(sep.join(str(int(v)) for v in cells[r * n:(r + 1) * n]) for r in range(n))


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


def to_rcv(grid_or_cells, box: int | None = None, header: bool = True) -> str:
    """``row column value`` lines (1-based) for the filled cells, after a ``# size N`` comment that keeps the size
    of a sparse grid (or an empty one) when read back. No final newline."""
    cells, b = as_cells(grid_or_cells, box)
    n = b * b
    lines = [f"# size {n} (box {b}): row column value, 1-based"] if header else []
    lines += [f"{c // n + 1} {c % n + 1} {int(cells[c])}" for c in np.flatnonzero(cells)]
    return "\n".join(lines)
