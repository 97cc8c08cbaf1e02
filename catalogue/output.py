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
from typing import Any, Iterable, Optional, Sequence, TextIO

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


def column_formatter(values: Sequence[Any], grouped: bool = True):
    """A function giving a table cell's text for one column's values: one format for the whole column; integers
    grouped (``55,143``) unless ``grouped`` is False (an identifier: :data:`IDENTIFIERS`)."""
    numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if any(isinstance(v, float) for v in numbers):
        decimals = float_decimals(numbers)
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
        rows = list(rows)
        count = len(rows)
        if rows:
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
                right: Sequence[str] = (), grids: bool = False):
    """A rich Table of ``rows``. ``grids``: each grid (puzzle, solution) is shown as the square it is, one grid row
    a line, and a blank line parts the table's rows; otherwise every value is on one line."""
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left", pad_edge=False, show_edge=False,
                  padding=(0, 1), collapse_padding=True, show_lines=grids)
    formats = [column_formatter([row.get(name) for row in rows], name not in IDENTIFIERS) for name in fields]
    cells = []
    for row in rows:
        texts = []
        for fmt, name in zip(formats, fields):
            lines = grid_lines(row.get(name)) if grids and name in WIDE_FIELDS else None
            texts.append("\n".join(lines) if lines else fmt(row.get(name)))
        cells.append(texts)
    for i, name in enumerate(fields):
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


def write_table(rows: list[dict], fields: Sequence[str], *, out: TextIO, title: Optional[str] = None) -> None:
    """A table of ``rows`` that fits the terminal (:func:`table_text`)."""
    out.write(table_text(rows, fields, title=title, width=terminal_width(out)))


def table_text(rows: list[dict], fields: Sequence[str], *, title: Optional[str] = None, width: Optional[int] = None,
               right: Sequence[str] = ()) -> str:
    """The text of ``rows`` (lines without trailing blanks, each ending in a newline), at most ``width`` columns
    wide (None: as wide as it needs). In order of preference: a table with a line per row; a table whose grids
    are drawn as squares (a 9x9 puzzle is 9 columns wide, not 81); the rows as records, one field a line, as
    psql's expanded display (:func:`record_text`). Nothing is ever left out, cut or folded mid-word."""
    from rich.console import Console

    console = Console(file=sys.stderr, width=10_000, highlight=False, color_system=None, emoji=False,
                      markup=False, soft_wrap=False)
    table = build_table(rows, fields, title, right)
    natural = console.measure(table).maximum  # measured on an unbounded console
    if width is not None and natural > width:
        if not any(name in WIDE_FIELDS and grid_lines(row.get(name)) for row in rows for name in fields):
            return record_text(rows, fields, width=width, title=title)
        table = build_table(rows, fields, title, right, grids=True)
        natural = console.measure(table).maximum
        if natural > width:
            return record_text(rows, fields, width=width, title=title)
    console.width = max(natural, 1)
    with console.capture() as captured:
        console.print(table)
    return "".join(line.rstrip() + "\n" for line in captured.get().splitlines())


def record_text(rows: list[dict], fields: Sequence[str], *, width: Optional[int] = None,
                title: Optional[str] = None) -> str:
    """``rows`` as records: a field a line (``name  value``), names aligned, a blank line between records; a grid
    drawn as its square, long text wrapped between words to ``width``."""
    import textwrap

    formats = [column_formatter([row.get(name) for row in rows], name not in IDENTIFIERS) for name in fields]
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
