"""One output vocabulary for records: ``--format table|csv|tsv|json|ndjson`` and one printer for all of them.

As sqlite-utils does with ``output_options`` / ``output_rows``, every command that prints records takes the same
option (:func:`catalogue.cli.options.format_option`, its names ``engine.vocabulary.RECORD_FORMATS``) and hands its
rows to :func:`write_records`. The contract, the same in every format:

- the column names are the database's names (snake_case, units in the name: ``solve_seconds``);
- ``json`` is one valid JSON array, ``ndjson`` one JSON object per line; both are written row by row, so a
  generator of rows is printed in constant memory whatever its length;
- ``csv``: text fields (grids, names) are always quoted, so a 9x9 solution made only of digits stays text for
  any reader that honours quotes (Python's csv module; sqlite-utils and pandas guess types from the text
  whatever the quotes, so docs/commands/query.md gives the one option each needs for grids); numbers are bare;
  booleans are ``1`` / ``0``, as SQLite stores them and as sqlite-utils stores JSON's true and false (``true``
  would be stored as text); None is an empty field. ``tsv`` uses the same values, tab-separated, quoted only
  where a value needs it (none of ours does);
- ``table``: rich's table, fitted to the terminal's width, nothing ever left out, cut or folded. Its layout
  (column formats, widths, grids drawn as squares, records when a table cannot fit) is an idea of its own and
  lives in :mod:`catalogue.tables`; this module only hands it the rows.

The other formats are written here a row at a time; rows a command keeps to print at its end wait in a
:class:`Spool` (a temporary file), so that neither they nor a table of them need the memory of all the rows.
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, TextIO

from engine.vocabulary import (  # plain data: the one list of names
    JSON,
    LINE,
    NDJSON,
    RECORD_FORMATS,
    TABLE,
)

from .shapes import SQUARE_SPECS  # (plain words: no engine import)
from .tables import write_table  # (imports no rich: that waits until a table is drawn)

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


# ----------------------------------------------------------------------------------------------- the printer


class GridStream:
    """Grids printed one after another in one grid format: each in its shape, the ``# shape`` line of a shape
    other than square boxes written once, before the first grid of that shape (the text formats read one shape a
    text, named before its first grid: docs/formats.md, "Shapes"), and a blank line between two grids but in the
    line format. ``text(cells, box)`` gives what to print for the next grid."""

    def __init__(self, fmt: str):
        self.fmt, self.named, self.count = fmt, None, 0

    def text(self, cells, box, head: Optional[str] = None) -> str:
        from engine import formats  # only here: query must start without numpy
        from engine.formats.shapes import with_directive

        text = formats.write(cells, self.fmt, box).rstrip("\n")
        if self.fmt == LINE:  # (a line is n*n symbols and nothing else: the stream names the shape)
            text = with_directive(box, text)
        if text.startswith("# shape "):  # (only shapes other than square boxes have the line)
            line, _, rest = text.partition("\n")
            text, self.named = (rest if line == self.named else text), line
        if self.fmt != LINE:
            text = ("\n" if self.count else "") + (f"{head}\n" if head else "") + text
        self.count += 1
        return text


def write_grids(rows: Iterable[dict], fmt: str, *, field: str = "puzzle", head=None,
                out: Optional[TextIO] = None) -> int:
    """Print the grid of each row (its ``field``: a grid stored as a line) in the grid format ``fmt``
    (engine.vocabulary.GRID_FORMATS); return how many. ``line`` prints the stored text itself, one per line (after
    a ``# shape`` line for shapes other than square boxes); the other formats (engine.formats.write) put a blank
    line between grids, each under ``head(row)`` when given. Rows are read one at a time, so a query of any size
    takes constant memory."""
    out = out or sys.stdout
    stream = GridStream(fmt)
    for row in rows:
        text = row[field]
        spec = row.get("shape")  # every record has it; a row of another origin: square boxes by its length
        if fmt != LINE or (spec and spec not in SQUARE_SPECS.values()):
            import math

            from engine import formats  # only here: query must start without numpy

            from .shapes import kernel_shape

            box = kernel_shape(spec) if spec else math.isqrt(math.isqrt(len(text)))
            text = stream.text(formats.from_line(text, box), box, head(row) if head else None)
        else:
            stream.count += 1
        out.write(text + "\n")
    return stream.count


def _write_json(rows: Iterable[dict], fields: Sequence[str], out: TextIO) -> int:
    """json.dumps(rows, indent=2), written one row at a time."""
    count = 0
    for row in rows:
        text = json.dumps({f: row.get(f) for f in fields}, indent=2).replace("\n", "\n  ")
        out.write(("[\n  " if count == 0 else ",\n  ") + text)
        count += 1
    out.write("[]\n" if count == 0 else "\n]\n")
    return count


def _write_ndjson(rows: Iterable[dict], fields: Sequence[str], out: TextIO) -> int:
    count = 0
    for row in rows:
        out.write(json.dumps({f: row.get(f) for f in fields}, separators=(",", ":")) + "\n")
        count += 1
    return count


def _delimited(sep: str, field) -> Callable[[Iterable[dict], Sequence[str], TextIO], int]:
    """A writer of the header, then a line per row: the values made by ``field``, joined by ``sep``."""
    def write(rows: Iterable[dict], fields: Sequence[str], out: TextIO) -> int:
        count = 0
        out.write(sep.join(fields) + "\n")
        for row in rows:
            out.write(sep.join(field(row.get(f)) for f in fields) + "\n")
            count += 1
        return count
    return write


#: record format -> its writer ``(rows, fields, out) -> count``: one for each name of RECORD_FORMATS (checked
#: below); the table is written apart (it takes its own columns and a title)
_WRITERS = {"csv": _delimited(",", csv_field), "tsv": _delimited("\t", tsv_field), JSON: _write_json,
            NDJSON: _write_ndjson}
if set(_WRITERS) | {TABLE} != set(RECORD_FORMATS):
    raise RuntimeError(f"catalogue.output: record writers {sorted(_WRITERS)} and a table do not match "
                       f"engine.vocabulary.RECORD_FORMATS {sorted(RECORD_FORMATS)}")


def write_records(rows: Iterable[dict], fields: Sequence[str], fmt: str, *,
                  out: Optional[TextIO] = None, table_fields: Optional[Sequence[str]] = None,
                  title: Optional[str] = None) -> int:
    """Print ``rows`` (dicts, or any iterable of them: read once) in ``fmt``, one of RECORD_FORMATS (a name, or a
    command's ``--format`` choice); return how many were printed.

    ``fields`` are the columns of csv / tsv / json / ndjson, in order; ``table_fields`` (default ``fields``) the
    columns of the table. An empty result prints ``[]`` in json, the header in csv / tsv, nothing otherwise.
    """
    fmt = getattr(fmt, "value", fmt)
    if fmt not in RECORD_FORMATS:
        raise ValueError(f"{fmt!r} is not a record format: one of {', '.join(RECORD_FORMATS)}")
    out = out or sys.stdout
    if fmt == TABLE:
        rows = rows if isinstance(rows, Spool) else list(rows)  # (gone through more than once)
        count = len(rows)
        if count:
            write_table(rows, table_fields or fields, out=out, title=title)
    else:
        count = _WRITERS[fmt](rows, fields, out)
    out.flush()
    return count


# ----------------------------------------------------------------------------------------------- rows kept


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
