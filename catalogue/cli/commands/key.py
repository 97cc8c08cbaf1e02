"""catalogue key: print the canonical key of every grid in a file."""
from __future__ import annotations

from typing import Annotated

import numpy as np
import typer

from engine.formats import FormatError, conflict_errors
from engine.vocabulary import LINE

from ...batches import batch_map
from ...choices import Equivalence, InputFormat, read_entries
from ...console import report
from ...kernels import jobs_for, sizes_of
from ...output import Spool, write_records
from ..options import (
    InputFormatOption,
    InputShapeOption,
    SizeOption,
    ThreadsOption,
    format_option,
    grid_formats,
    record_formats,
)

#: line (default): one key per line (a key is a grid); the record formats: one record per grid with these fields
KeyFormatOption = format_option(grid_formats("One key per line", (LINE,)),
                                record_formats("a record per grid with its source, line, equivalence and key"))
RECORD_FIELDS = ("source", "line", "equivalence", "key")



def register(app: typer.Typer) -> None:
    @app.command("key")
    def key(
        path: Annotated[str, typer.Argument(help="File of grids (any input format; '-' reads stdin).")],
        equivalence: Annotated[Equivalence, typer.Option(
            "--equivalence", "-e",
            help="d4: rotations and mirror images are the same grid; full: also band, stack, row and column "
                 "moves and relabelled digits; none: only the grid itself.")] = Equivalence.d4,
        input_format: InputFormatOption = InputFormat.auto,
        size: SizeOption = None,
        shape: InputShapeOption = None,
        output_format: KeyFormatOption = LINE,
        threads: ThreadsOption = 0,
    ) -> None:
        """Print the canonical key of every grid in a file.

        One key per line, in line format. Grids that are the same under the equivalence get the same key (the
        smallest of their images; see engine.keys). A grid that cannot be read or keyed gets one line on stderr
        naming file:line; the others are still keyed, and the exit code is then 1.

        \b
        Examples:
          catalogue key data/samples/puzzles_9x9.sdm
          catalogue generate --count 2 | catalogue key --equivalence full -
        """
        # numba: loaded when the command runs, not for --help
        from engine.keys import KeySearchError, key_text, key_texts

        failed = 0
        entries = read_entries(path, input_format, size, shape=shape)

        def keyed(entry):
            if isinstance(entry, FormatError):
                return entry
            try:
                return key_text(entry.grid.cells, entry.grid.box, equivalence.value)
            except KeySearchError as e:
                return e

        def keyed_many(group):  # one kernel call; a grid without a full key sends its chunk back to keyed
            return key_texts(np.stack([p.grid.cells for p in group]), group[0].grid.box, equivalence.value)

        records = Spool()  # printed after the keys: kept on disk rather than in memory (a row a grid)
        # a chunk of grids per kernel call, in a worker thread so Ctrl-C stops a long key search at once (see
        # batch_map); file order: keys to stdout
        keys = batch_map(keyed, keyed_many, entries, "key", label="keying", retry=(KeySearchError,),
                         threads=threads, jobs=jobs_for("key", sizes_of(entries), equivalence=equivalence.value))
        for entry, key in zip(entries, keys):
            if isinstance(entry, FormatError):
                report(str(entry))
                failed += 1
                continue
            if isinstance(key, str):
                if output_format == LINE:
                    typer.echo(key)
                else:
                    records.append({"source": entry.source, "line": entry.line, "equivalence": equivalence.value,
                                    "key": key})
            else:
                e = key
                failed += 1
                clash = conflict_errors(entry)
                why = (clash[0].message if clash else str(e).split(": ", 1)[1])
                report(f"{entry.source}:{entry.line}: no {equivalence.value} key: {why}")
        if output_format != LINE:
            write_records(records, RECORD_FIELDS, output_format.value)
        if failed:
            raise typer.Exit(1)
