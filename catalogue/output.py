"""One output vocabulary for records: ``--format table|csv|tsv|json|ndjson`` and one printer for all of them.

As sqlite-utils does with ``output_options`` / ``output_rows``, every command that prints records takes the same
option (:func:`catalogue.cli.options.format_option`) and hands its rows to :func:`write_records`. The contract, the
same in every format:

- the column names are the database's names (snake_case, units in the name: ``solve_seconds``);
- ``json`` is one valid JSON array, ``ndjson`` one JSON object per line; both are written row by row, so a
  generator of rows is printed in constant memory whatever its length;
- ``csv``: text fields (grids, names) are always quoted, so a 9x9 solution made only of digits stays text for
  any reader that honours quotes (Python's csv module; sqlite-utils and pandas guess types from the text
  whatever the quotes, so docs/commands/query.md gives the one option each needs for grids); numbers are bare;
  booleans are ``1`` / ``0``, as SQLite stores them and as sqlite-utils stores JSON's true and false (``true``
  would be stored as text); None is an empty field. ``tsv`` uses the same values, tab-separated, quoted only
  where a value needs it (none of ours does);
- ``table``: rich's table, fitted to the terminal's width: integers grouped (``55,143``) but for the numbers a
  person may paste back (a board's number, a seed: :data:`IDENTIFIERS`), the floats of one column share one
  fixed-point format, None is ``-``. Nothing is ever left out, cut or folded: a table with a line per row that
  would not fit draws its grids (puzzle, solution) as squares, and if that does not fit either the rows are
  printed as records, a field a line (:func:`table_text`).

Nothing here imports rich until a table is printed (``catalogue query`` must start in under 200 ms).
"""
from __future__ import annotations

import enum
import json
import math
import os
import sys
from typing import Any, Iterable, Iterator, Optional, Sequence, TextIO

from engine.vocabulary import RECORD_FORMATS  # plain data: the one list of names

RecordFormat = enum.Enum("RecordFormat", {name: name for name in RECORD_FORMATS}, type=str)

#: the grid columns: drawn as squares (a row of the grid a line) where a line per table row would not fit
WIDE_FIELDS = ("puzzle", "solution")
#: integer columns a person may paste back into a command (``catalogue export 10657``): never grouped
IDENTIFIERS = frozenset({"number", "id", "run", "run_id", "seed", "board_number", "source_line"})


# ----------------------------------------------------------------------------------------------- text values


def csv_field(value: Any) -> str:
    """One CSV field: text quoted (quotes doubled), numbers bare, booleans 1/0, None empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, float) else str(value)
    text = value if isinstance(value, str) else json.dumps(value)
    return '"' + text.replace('"', '""') + '"'


def tsv_field(value: Any) -> str:
    """One TSV field: the CSV value, quoted only if it holds a tab, a quote or a line break."""
    if value is None or isinstance(value, (bool, int, float)):
        return csv_field(value)
    text = value if isinstance(value, str) else json.dumps(value)
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in '\t"\r\n') else text


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


# ----------------------------------------------------------------------------------------------- the printer


def write_grids(rows: Iterable[dict], fmt: str, *, field: str = "puzzle", head=None,
                out: Optional[TextIO] = None) -> int:
    """Print the grid of each row (its ``field``: a grid stored as a line) in the grid format ``fmt``
    (catalogue.choices.GRID_FORMATS); return how many. ``line`` prints the stored text itself, one per line; the
    other formats (engine.formats.write) put a blank line between grids, each under ``head(row)`` when given.
    Rows are read one at a time, so a query of any size takes constant memory."""
    out = out or sys.stdout
    count = 0
    for row in rows:
        text = row[field]
        if fmt != "line":
            import math

            from engine import formats  # only here: query must start without numpy

            box = math.isqrt(math.isqrt(len(text)))
            text = formats.write(formats.from_line(text, box), fmt, box).rstrip("\n")
            text = ("\n" if count else "") + (f"{head(row)}\n" if head else "") + text
        out.write(text + "\n")
        count += 1
    return count


def write_records(rows: Iterable[dict], fields: Sequence[str], fmt: RecordFormat | str, *,
                  out: Optional[TextIO] = None, table_fields: Optional[Sequence[str]] = None,
                  title: Optional[str] = None) -> int:
    """Print ``rows`` (dicts, or any iterable of them: read once) in ``fmt``; return how many were printed.

    ``fields`` are the columns of csv / tsv / json / ndjson, in order; ``table_fields`` (default ``fields``) the
    columns of the table. An empty result prints ``[]`` in json, the header in csv / tsv, nothing otherwise.
    """
    fmt = RecordFormat(fmt)
    out = out or sys.stdout
    count = 0
    if fmt is RecordFormat.json:
        # json.dumps(rows, indent=2), written one row at a time
        for row in rows:
            text = json.dumps({f: row.get(f) for f in fields}, indent=2).replace("\n", "\n  ")
            out.write(("[\n  " if count == 0 else ",\n  ") + text)
            count += 1
        out.write("[]\n" if count == 0 else "\n]\n")
    elif fmt is RecordFormat.ndjson:
        for row in rows:
            out.write(json.dumps({f: row.get(f) for f in fields}, separators=(",", ":")) + "\n")
            count += 1
    elif fmt in (RecordFormat.csv, RecordFormat.tsv):
        sep, field = (",", csv_field) if fmt is RecordFormat.csv else ("\t", tsv_field)
        out.write(sep.join(fields) + "\n")
        for row in rows:
            out.write(sep.join(field(row.get(f)) for f in fields) + "\n")
            count += 1
    else:
        rows = rows if isinstance(rows, Spool) else list(rows)  # (gone through more than once)
        count = len(rows)
        if count:
            write_table(rows, table_fields or fields, out=out, title=title)
    out.flush()
    return count


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


class Spool:
    """Rows kept to be printed after the others (the records of ``grade``, ``solve``, ``key``, ``carve``), in a
    temporary file rather than in memory: a file of 200,000 puzzles made as many rows, and a GB of them. Append
    them, then go through them (as often as needed: a table goes through its rows three times); ``len`` is how
    many."""

    def __init__(self):
        self._file = None
        self._count = 0

    def append(self, row: Any) -> None:
        import pickle
        import tempfile

        if self._file is None:
            self._file = tempfile.TemporaryFile()
        self._file.seek(0, os.SEEK_END)
        pickle.dump(row, self._file, protocol=pickle.HIGHEST_PROTOCOL)
        self._count += 1

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[Any]:
        import pickle

        if self._file is None:
            return
        self._file.seek(0)
        for _ in range(self._count):
            yield pickle.load(self._file)


def write_table(rows: Sequence[dict], fields: Sequence[str], *, out: TextIO, title: Optional[str] = None) -> None:
    """A table of ``rows`` that fits the terminal (:func:`table_text`), written a part at a time when long."""
    for text in table_parts(rows, fields, title=title, width=terminal_width(out)):
        out.write(text)


#: rows a table is drawn from at once. A longer table is drawn a part at a time (:func:`table_parts`), with the
#: formats and widths of all its rows, so that it prints as one table: rich holds an object per cell of what it
#: draws (200,000 rows of ``grade`` took a GB), and the rows may come from a file rather than memory (Spool)
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
    :class:`Spool`), a part of :data:`TABLE_PART` rows at a time: the same text, in pieces."""
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
