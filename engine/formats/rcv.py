"""The ``rcv`` format (seed 002): ``row column value`` triples, 1-based, a grid per group of non-blank lines; read
and written.

A module of its own because a grid's size is not in its layout: it is the ``# size N`` comment, else the box asked
for, else the group's largest number rounded up to a size, so every triple of a group is checked before any cell
is placed (a group longer than :data:`~engine.formats.text.KEPT_ROWS` is read a second time rather than kept).
"""
from __future__ import annotations

import re
from itertools import islice
from typing import Iterator

import numpy as np

from ..geometry import box_for_size
from ..shape import Shape
from .base import SIZES, FormatError, as_cells, is_skipped, numbered_lines
from .limits import MAX_NUMBER_DIGITS, echo, too_long_number
from .shapes import directive, side
from .text import KEPT_ROWS, Entry, count_words

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
        yield first, cells, box if box is not None else box_for_size(n)
    except FormatError as e:
        yield e


def _rcv_size(largest: int, too_big: tuple | None, size: int | None, size_line: int, box: int | None,
              source: str) -> int:
    """The grid size: ``box`` if given, else the ``# size`` comment, else the largest number rounded up
    (``too_big``: the first number above every size, named when there is one)."""
    if box is not None:
        if size is not None and size != side(box):
            asked = f"shape {box.name}" if isinstance(box, Shape) else f"box {box}"
            raise FormatError(source, size_line, 1, f"the file says size {size} but {asked} was asked for")
        return side(box)
    if size is not None and size not in SIZES:
        raise FormatError(source, size_line, 1, f"size {size} is not 4, 9, 16 or 25")
    if size is not None:
        return size
    for n in SIZES:
        if largest <= n:
            return n
    number, column, x, what = too_big  # name the first number no grid can hold
    raise FormatError(source, number, column, f"{what} {x} is out of range 1-25 (largest grid 25x25)")


def to_rcv(grid_or_cells, box: int | None = None, header: bool = True) -> str:
    """``row column value`` lines (1-based) for the filled cells, after a ``# size N`` comment that keeps the size
    of a sparse grid (or an empty one) when read back. No final newline."""
    cells, b = as_cells(grid_or_cells, box)
    n = side(b)
    what = f"shape {b.name}" if isinstance(b, Shape) else f"box {b}"
    lines = directive(b) + [f"# size {n} ({what}): row column value, 1-based"] if header else []
    lines += [f"{c // n + 1} {c % n + 1} {int(cells[c])}" for c in np.flatnonzero(cells)]
    return "\n".join(lines)
