"""Tables for people: ``--format table`` drawn with rich, fitted to the terminal, never cut.

The one format of :mod:`catalogue.output` that is laid out rather than written a row at a time, so it is a
module of its own: a column's values decide its format and width, and the terminal's width decides the drawing.
Integers are grouped (``55,143``) but for the numbers a person may paste back (a board's number, a seed:
:data:`IDENTIFIERS`), the floats of one column share one fixed-point format, None is ``-``. Nothing is ever left
out, cut or folded: a table with a line per row that would not fit draws its grids (puzzle, solution) as squares,
and if that does not fit either the rows are printed as records, a field a line (:func:`table_text`). A long
table is drawn a part at a time with the layout of all its rows (:func:`table_parts`), so memory stays bounded.

Nothing here imports rich until a table is drawn (``catalogue query`` must start in under 200 ms).
"""
from __future__ import annotations

import json
import math
import os
import sys
from typing import Any, Iterable, Iterator, Optional, Sequence, TextIO

#: the grid columns: drawn as squares (a row of the grid a line) where a line per table row would not fit
WIDE_FIELDS = ("puzzle", "solution")
#: integer columns a person may paste back into a command (``catalogue export 10657``): never grouped
IDENTIFIERS = frozenset({"number", "id", "run", "run_id", "seed", "board_number", "source_line"})


# ----------------------------------------------------------------------------------------------- column formats


def float_decimals(values: Iterable[float]) -> int:
    """How many decimals one column of floats needs: two significant digits of its smallest nonzero magnitude,
    at least one decimal, at most eight (0.5 and 2.869e-06 print as 0.5000000 and 0.0000029)."""
    smallest = min((abs(v) for v in values if v), default=None)
    if smallest is None:
        return 1
    return max(1, min(8, 1 - math.floor(math.log10(smallest))))


def column_formatter(values: Iterable[Any], grouped: bool = True):
    """A function giving a table cell's text for one column's values: one format for the whole column; integers
    grouped (``55,143``) unless ``grouped`` is False (an identifier: :data:`IDENTIFIERS`)."""
    column = _Column()
    for v in values:
        column.add(v)
    return column.formatter(grouped)


class _Column:
    """What a column's format depends on, gathered a value at a time: whether it holds a float, its smallest
    nonzero magnitude, whether all its values are numbers (or None)."""

    def __init__(self):
        self.floats, self.smallest, self.numeric = False, None, True

    def add(self, v: Any) -> None:
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            self.floats = self.floats or isinstance(v, float)
            if v and (self.smallest is None or abs(v) < self.smallest):
                self.smallest = abs(v)
        elif v is not None:
            self.numeric = False

    def formatter(self, grouped: bool = True):
        return _formatter(self.floats, self.smallest, grouped)


def _formatter(floats: bool, smallest: float | None, grouped: bool):
    if floats:
        decimals = float_decimals([] if smallest is None else [smallest])
        return lambda v: "-" if v is None else (f"{v:,.{decimals}f}" if isinstance(v, (int, float))
                                                and not isinstance(v, bool) else cell_text(v))
    spec = "," if grouped else ""
    return lambda v: "-" if v is None else (f"{v:{spec}}" if isinstance(v, int) and not isinstance(v, bool)
                                            else cell_text(v))


def cell_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else json.dumps(value)


# ----------------------------------------------------------------------------------------------- the table


def terminal_width(out: TextIO) -> Optional[int]:
    """The width a table must fit: $COLUMNS if set, the terminal's if ``out`` is one, else None (no limit)."""
    if os.environ.get("COLUMNS", "").isdigit():
        return int(os.environ["COLUMNS"])
    try:
        if out.isatty():
            return os.get_terminal_size(out.fileno()).columns
    except (AttributeError, OSError, ValueError):
        pass
    return None


def grid_lines(value: Any) -> Optional[list[str]]:
    """A grid's text (``puzzle``, ``solution``: n*n symbols, one a cell) cut into its n rows; None for a value that
    is not a grid's text."""
    if not isinstance(value, str) or len(value) < 16:
        return None
    n = math.isqrt(len(value))
    return [value[i:i + n] for i in range(0, n * n, n)] if n * n == len(value) else None


def build_table(rows: list[dict], fields: Sequence[str], title: Optional[str] = None,
                right: Sequence[str] = (), grids: bool = False, layout: Optional["_Layout"] = None,
                header: bool = True):
    """A rich Table of ``rows``. ``grids``: each grid (puzzle, solution) is shown as the square it is, one grid row
    a line, and a blank line parts the table's rows; otherwise every value is on one line. ``layout``: the
    columns' formats and widths, when ``rows`` are a part of a longer table (:func:`table_parts`)."""
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left", pad_edge=False, show_edge=False,
                  padding=(0, 1), collapse_padding=True, show_lines=grids, show_header=header)
    formats = layout.formats if layout else [column_formatter([row.get(name) for row in rows],
                                                              name not in IDENTIFIERS) for name in fields]
    cells = [_cells(row, fields, formats, grids) for row in rows]
    for i, name in enumerate(fields):
        if layout:
            numeric, widest = layout.numeric[i], (layout.grid_widths if grids else layout.widths)[i]
        else:
            values = [row.get(name) for row in rows]
            numeric = all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)) for v in values)
            widest = max(max(map(len, row[i].split("\n"))) for row in cells)
        # a column is never narrower than its widest value or its header: nothing is cut or folded, and a table
        # that cannot fit so is shown as records instead (record_text)
        table.add_column(name, justify="right" if numeric or name in right or name in IDENTIFIERS else "left",
                         no_wrap=True,
                         min_width=max(widest, len(name)))
    for row in cells:
        table.add_row(*row)
    return table


def _cells(row: dict, fields: Sequence[str], formats: list, grids: bool) -> list[str]:
    texts = []
    for fmt, name in zip(formats, fields):
        lines = grid_lines(row.get(name)) if grids and name in WIDE_FIELDS else None
        texts.append("\n".join(lines) if lines else fmt(row.get(name)))
    return texts


def write_table(rows: Sequence[dict], fields: Sequence[str], *, out: TextIO, title: Optional[str] = None) -> None:
    """A table of ``rows`` that fits the terminal (:func:`table_text`), written a part at a time when long."""
    for text in table_parts(rows, fields, title=title, width=terminal_width(out)):
        out.write(text)


#: rows a table is drawn from at once. A longer table is drawn a part at a time (:func:`table_parts`), with the
#: formats and widths of all its rows, so that it prints as one table: rich holds an object per cell of what it
#: draws (200,000 rows of ``grade`` took a GB), and the rows may come from a file rather than memory
#: (catalogue.output.Spool)
TABLE_PART = 1000


def table_text(rows: Sequence[dict], fields: Sequence[str], *, title: Optional[str] = None,
               width: Optional[int] = None, right: Sequence[str] = ()) -> str:
    """The text of ``rows`` (lines without trailing blanks, each ending in a newline), at most ``width`` columns
    wide (None: as wide as it needs). In order of preference: a table with a line per row; a table whose grids
    are drawn as squares (a 9x9 puzzle is 9 columns wide, not 81); the rows as records, one field a line, as
    psql's expanded display (:func:`record_text`). Nothing is ever left out, cut or folded mid-word."""
    if len(rows) > TABLE_PART:
        return "".join(table_parts(rows, fields, title=title, width=width, right=right))
    rows = list(rows)
    console = _console()
    table = build_table(rows, fields, title, right)
    natural = console.measure(table).maximum  # measured on an unbounded console
    if width is not None and natural > width:
        if not any(name in WIDE_FIELDS and grid_lines(row.get(name)) for row in rows for name in fields):
            return record_text(rows, fields, width=width, title=title)
        table = build_table(rows, fields, title, right, grids=True)
        natural = console.measure(table).maximum
        if natural > width:
            return record_text(rows, fields, width=width, title=title)
    return _drawn(console, table, natural)


def _console():
    from rich.console import Console

    return Console(file=sys.stderr, width=10_000, highlight=False, color_system=None, emoji=False, markup=False,
                   soft_wrap=False)


def _drawn(console, table, width: int) -> str:
    console.width = max(width, 1)
    with console.capture() as captured:
        console.print(table)
    return "".join(line.rstrip() + "\n" for line in captured.get().splitlines())


class _Layout:
    """The columns of a whole table, found in two passes over its rows: each column's format and whether it is
    all numbers, then its widest text on one line and with grids drawn as squares."""

    def __init__(self, rows: Iterable[dict], fields: Sequence[str]):
        columns = [_Column() for _ in fields]
        for row in rows:
            for column, name in zip(columns, fields):
                column.add(row.get(name))
        self.formats = [c.formatter(name not in IDENTIFIERS) for c, name in zip(columns, fields)]
        self.numeric = [c.numeric for c in columns]
        self.widths, self.grid_widths = [0] * len(fields), [0] * len(fields)
        self.grids = False  # a row holds a grid that can be drawn as a square
        for row in rows:
            for i, (texts, grid) in enumerate(zip(_cells(row, fields, self.formats, False),
                                                  _cells(row, fields, self.formats, True))):
                self.widths[i] = max(self.widths[i], max(map(len, texts.split("\n"))))
                self.grid_widths[i] = max(self.grid_widths[i], max(map(len, grid.split("\n"))))
            self.grids = self.grids or any(name in WIDE_FIELDS and grid_lines(row.get(name)) for name in fields)


def table_parts(rows: Sequence[dict], fields: Sequence[str], *, title: Optional[str] = None,
                width: Optional[int] = None, right: Sequence[str] = ()) -> Iterator[str]:
    """:func:`table_text` of ``rows`` (a sequence that can be gone through more than once, such as a
    :class:`~catalogue.output.Spool`), a part of :data:`TABLE_PART` rows at a time: the same text, in pieces."""
    rows_list = rows if isinstance(rows, list) else None
    if len(rows) <= TABLE_PART:
        yield table_text(list(rows), fields, title=title, width=width, right=right)
        return
    layout = _Layout(rows, fields)
    console = _console()

    def parts() -> Iterator[list[dict]]:
        if rows_list is not None:
            yield from (rows_list[k:k + TABLE_PART] for k in range(0, len(rows_list), TABLE_PART))
            return
        part: list[dict] = []
        for row in rows:
            part.append(row)
            if len(part) == TABLE_PART:
                yield part
                part = []
        if part:
            yield part

    first = next(parts())
    grids = False
    natural = console.measure(build_table(first, fields, title, right, layout=layout)).maximum
    if width is not None and natural > width:
        grids = layout.grids
        if grids:
            natural = console.measure(build_table(first, fields, title, right, grids=True, layout=layout)).maximum
        if not grids or natural > width:
            for k, part in enumerate(parts()):  # as records, a blank line between two
                yield ("\n" if k else "") + record_text(part, fields, width=width, title=None if k else title,
                                                        formats=layout.formats)
            return
    for k, part in enumerate(parts()):
        # a part after the first: no title, no header; with grids drawn as squares, the blank line that parts two
        # rows of the table
        text = _drawn(console, build_table(part, fields, None if k else title, right, grids, layout,
                                           header=not k), natural)
        yield ("\n" if k and grids else "") + text


def record_text(rows: list[dict], fields: Sequence[str], *, width: Optional[int] = None,
                title: Optional[str] = None, formats: Optional[list] = None) -> str:
    """``rows`` as records: a field a line (``name  value``), names aligned, a blank line between records; a grid
    drawn as its square, long text wrapped between words to ``width``. ``formats``: the columns' (of a longer
    table)."""
    import textwrap

    formats = formats or [column_formatter([row.get(name) for row in rows], name not in IDENTIFIERS)
                          for name in fields]
    pad = max(map(len, fields)) + 2
    room = max(10, (width or 10_000) - pad)
    out = [title, ""] if title else []
    for k, row in enumerate(rows):
        if k:
            out.append("")
        for fmt, name in zip(formats, fields):
            value = row.get(name)
            lines = grid_lines(value) if name in WIDE_FIELDS else None
            if lines is None or len(value) <= room:
                lines = textwrap.wrap(fmt(value), room, break_long_words=False, break_on_hyphens=False) or [""]
            out.append(f"{name:<{pad}}{lines[0]}".rstrip())
            out.extend(" " * pad + line for line in lines[1:])
    return "".join(line + "\n" for line in out)
