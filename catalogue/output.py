"""One output vocabulary for records: ``--format table|csv|tsv|json|ndjson`` and one printer for all of them.

As sqlite-utils does with ``output_options`` / ``output_rows``, every command that prints records takes the same
option (:data:`FormatOption`) and hands its rows to :func:`write_records`. The contract, the same in every format:

- the column names are the database's names (snake_case, units in the name: ``solve_seconds``);
- ``json`` is one valid JSON array, ``ndjson`` one JSON object per line; both are written row by row, so a
  generator of rows is printed in constant memory whatever its length;
- ``csv``: text fields (grids, names) are always quoted, so a 9x9 solution made only of digits stays text for
  any reader that honours quotes; numbers are bare; booleans are ``true`` / ``false``; None is an empty field.
  ``tsv`` uses the same values, tab-separated, quoted only where a value needs it (none of ours does);
- ``table``: rich's table, fitted to the terminal's width: integers grouped (``55,143``), the floats of one
  column share one fixed-point format, None is ``-``; when it would not fit, wide columns (puzzle, solution)
  are left out first, then headers fold onto two lines (no value is ever cut), then the last columns are left
  out; each column left out is named in one line on stderr.

Nothing here imports rich until a table is printed (``catalogue query`` must start in under 200 ms).
"""
from __future__ import annotations

import enum
import json
import math
import os
import sys
from typing import Annotated, Any, Iterable, Optional, Sequence, TextIO

import typer

from engine.vocabulary import RECORD_FORMATS  # plain data: the one list of names

RecordFormat = enum.Enum("RecordFormat", {name: name for name in RECORD_FORMATS}, type=str)

#: the shared option: ``fmt: FormatOption = RecordFormat.table``
FormatOption = Annotated[RecordFormat, typer.Option(
    "--format", help="Output format: table, csv, tsv, json (one array) or ndjson (one object per line).")]

#: columns too wide for a narrow terminal: left out of a table that would not fit
WIDE_FIELDS = ("puzzle", "solution")


# ----------------------------------------------------------------------------------------------- text values


def csv_field(value: Any) -> str:
    """One CSV field: text quoted (quotes doubled), numbers bare, booleans true/false, None empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
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


def column_formatter(values: Sequence[Any]):
    """A function giving a table cell's text for one column's values: one format for the whole column."""
    numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if any(isinstance(v, float) for v in numbers):
        decimals = float_decimals(numbers)
        return lambda v: "-" if v is None else (f"{v:,.{decimals}f}" if isinstance(v, (int, float))
                                                and not isinstance(v, bool) else cell_text(v))
    return lambda v: "-" if v is None else (f"{v:,}" if isinstance(v, int) and not isinstance(v, bool)
                                            else cell_text(v))


def cell_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else json.dumps(value)


# ----------------------------------------------------------------------------------------------- the printer


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


def build_table(rows: list[dict], fields: Sequence[str], title: Optional[str] = None,
                right: Sequence[str] = (), narrow: bool = False):
    """A rich Table of ``rows``. ``narrow``: fix each short column's width at its widest cell (at least half its
    header), so that the headers fold onto two lines and no value is cut (rich would cut the widest columns)."""
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left", pad_edge=False, show_edge=False,
                  padding=(0, 1), collapse_padding=True)
    formats = [column_formatter([row.get(name) for row in rows]) for name in fields]
    cells = [[fmt(row.get(name)) for fmt, name in zip(formats, fields)] for row in rows]
    for i, name in enumerate(fields):
        values = [row.get(name) for row in rows]
        numeric = all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)) for v in values)
        # numbers are never cut and short text stays whole (a narrow table folds the headers instead); long text
        # folds onto more lines
        widest = max(len(row[i]) for row in cells)
        short = numeric or widest <= 20
        table.add_column(name, justify="right" if numeric or name in right else "left", overflow="fold",
                         min_width=widest if short else None,
                         width=max(widest, -(-len(name) // 2)) if narrow and short else None)
    for row in cells:
        table.add_row(*row)
    return table


def write_table(rows: list[dict], fields: Sequence[str], *, out: TextIO, title: Optional[str] = None) -> None:
    """A rich table of ``rows`` that fits the terminal: wide columns are dropped (with a note) if they would not."""
    out.write(table_text(rows, fields, title=title, width=terminal_width(out)))


def table_text(rows: list[dict], fields: Sequence[str], *, title: Optional[str] = None, width: Optional[int] = None,
               right: Sequence[str] = ()) -> str:
    """The text of a table of ``rows`` (lines without trailing blanks, each ending in a newline), at most ``width``
    columns wide (None: as wide as it needs); see :func:`write_table`."""
    from rich.console import Console

    console = Console(file=sys.stderr, width=10_000, highlight=False, color_system=None, emoji=False,
                      markup=False, soft_wrap=False)
    table = build_table(rows, fields, title, right)
    natural = console.measure(table).maximum  # measured on an unbounded console
    if width is not None and natural > width:
        dropped = [f for f in fields if f in WIDE_FIELDS]
        if dropped:
            fields = [f for f in fields if f not in WIDE_FIELDS]
            table = build_table(rows, fields, title, right)
            print(f"catalogue: {', '.join(dropped)} left out to fit {width} columns (a wider terminal, or "
                  f"--format json, shows every column)", file=sys.stderr)
            natural = console.measure(table).maximum
        if natural > width:
            table = build_table(rows, fields, title, right, narrow=True)
            natural = console.measure(table).maximum
        cut = []
        while natural > width and len(fields) > 1:  # still too wide: the last columns go, said on stderr
            cut.insert(0, fields[-1])
            fields = fields[:-1]
            table = build_table(rows, fields, title, right, narrow=True)
            natural = console.measure(table).maximum
        if cut:
            print(f"catalogue: {', '.join(cut)} left out to fit {width} columns (a wider terminal, or --format "
                  f"json, shows every column)", file=sys.stderr)
    console.width = max(min(natural, width or natural), 1)
    with console.capture() as captured:
        console.print(table)
    return "".join(line.rstrip() + "\n" for line in captured.get().splitlines())
