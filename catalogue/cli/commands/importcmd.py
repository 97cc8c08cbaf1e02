"""catalogue import: store the puzzles of files that have exactly one solution, with their solutions as boards.

The command reads the files, draws the progress bar and prints the summary; the work is
:func:`catalogue.pipeline.importer.import_sources`. Rejected lines go to stderr (``catalogue: FILE:LINE: why``),
the summary to stdout.
"""
from __future__ import annotations

import functools
import os
import shlex
import stat
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

from engine.vocabulary import JSON, SUMMARY_FORMATS, TABLE

from ...choices import Equivalence, InputFormat, read_entries
from ...console import report
from ...errors import UserError
from ..options import (
    DbOption,
    InputFormatOption,
    InputShapeOption,
    OutOption,
    SizeOption,
    format_option,
    record_formats,
)

#: the summary, for people or as one JSON object
SummaryFormatOption = format_option(record_formats("The summary", SUMMARY_FORMATS, notes={
    TABLE: "for people", JSON: "one object"}))


def format_summary(s) -> str:
    """The end-of-import summary (stdout): what was added, already known, rejected, and how fast."""
    from ...english import count, numbers, rate as per_second
    from ...pipeline.importer import REASONS

    rejected = sum(s.rejected.values())
    reasons = ", ".join(f"{reason} {s.rejected[reason]:,}" for reason in REASONS if s.rejected.get(reason))
    rate = s.read / s.elapsed if s.elapsed > 0 else 0.0
    lines = [
        f"status          {s.status} (run {s.run_id})",
        f"read            {count(s.read, 'entry', 'entries')} from {', '.join(s.sources)}",
        # (the new boards' numbers on a line of their own: with them, the line passed 80 columns)
        f"added           {count(s.added, 'puzzle')}: {s.new_boards:,} on "
        f"{'a new board' if s.new_boards == 1 else 'new boards'}, {s.on_known_boards:,} on "
        f"{'a known board' if s.on_known_boards == 1 else 'known boards'}",
        f"new boards      {numbers(s.first_number, s.last_number)}",
        f"already known   {s.known:,}",
        f"rejected        {rejected:,}" + (f" ({reasons})" if reasons else ""),
        f"elapsed         {s.elapsed:.2f} s, {per_second(rate, 'puzzles')} "
        f"(kernels loaded in {s.warm_seconds:.2f} s)",
    ]
    return "\n".join(lines)


def again_readable(path: str) -> bool:
    """Whether ``path`` can be read a second time: a regular file (not ``-``, a pipe or a device)."""
    try:
        return path != "-" and stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def register(app: typer.Typer) -> None:
    @app.command("import")
    def import_command(
        paths: Annotated[list[str], typer.Argument(
            metavar="FILE...", show_default=False,
            help="Files of puzzles in any input format (one or many puzzles each), or - for stdin.")],
        source: Annotated[Optional[str], typer.Option(
            metavar="NAME", show_default=False,
            help="Name stored as each puzzle's source [default: the file's name, <stdin> for stdin].")] = None,
        equivalence: Annotated[Equivalence, typer.Option(
            help="When two boards (and two puzzles) are the same: d4 (rotations and flips), full (every "
                 "validity-preserving transformation and relabelling), none (cell for cell).")] = Equivalence.d4,
        input_format: InputFormatOption = InputFormat.auto,
        size: SizeOption = None,
        shape: InputShapeOption = None,
        output_format: SummaryFormatOption = TABLE,
        db: DbOption = None,
        out: OutOption = None,
    ) -> None:
        """Add the puzzles of files that have exactly one solution to the catalogue.

        Each puzzle is solved: its solution is the board. A board new under the equivalence gets the next number
        and its N.txt file; a known board gets the puzzle as one more puzzle of it. Each puzzle gets its solver
        metrics, its grade, whether it is minimal, its source and its line. A puzzle already stored, even
        rotated or relabelled as the equivalence allows, adds nothing. Lines with no solution, several
        solutions, conflicting clues or that cannot be read are reported as FILE:LINE and counted; they do not
        stop the import, and the exit code stays 0 when any puzzle was read. Ctrl-C keeps every batch stored
        (exit 130).

        \b
        Examples:
          catalogue import data/puzzles-9x9.txt --db demo.db
          catalogue import data/samples/*.sdm data/samples/*.json --db demo.db
          catalogue generate | catalogue carve - | catalogue import - --db demo.db
        """
        from ...kernels import later_shown_on, ready
        from ...pipeline.import_batches import Source
        from ...pipeline.importer import import_sources
        from ...progress import Display
        from ...store import Catalogue

        sources, first, puzzles = [], None, 0
        for path in paths:  # every file is read before the catalogue is touched: a typo costs nothing
            entries = read_entries(path, input_format, size, what="puzzle", shape=shape)
            first = entries[0] if first is None else first
            puzzles += entries.grids
            # one input held at a time: the import reads each regular file after the first again when it comes to
            # it (stdin, a pipe or a device cannot be read twice: kept)
            later = bool(sources) and again_readable(path)
            sources.append(Source(label=entries.source, stored_as=source or ("<stdin>" if path == "-" else
                                                                             Path(path).name),
                                  entries=None if later else entries, count=len(entries),
                                  boxes=frozenset(entries.boxes), read=functools.partial(
                                      read_entries, path, input_format, size, "puzzle", shape=shape)
                                  if later else None))
            del entries
        if puzzles == 0:
            raise UserError(f"{first} (no puzzle could be read)")
        command = " ".join(["catalogue", "import", *map(shlex.quote, paths),
                            *(["--source", shlex.quote(source)] if source else []),
                            "--equivalence", equivalence.value])
        total = sum(s.count for s in sources)
        display = Display("import", unit="puzzles")
        with display, later_shown_on(display), Catalogue.open(db, out) as catalogue:
            bar = []

            def progress(done: int, _total: int, left: float | None = None) -> None:
                if not bar:
                    bar.append(display.bar(total))
                bar[0](done, left=left, left_at=time.perf_counter())

            summary = import_sources(catalogue, sources, equivalence=equivalence.value, command=command,
                                     progress=progress, prepare=lambda jobs: ready(jobs, display, "import"))
        if summary.unreported:
            report(f"{summary.unreported:,} more rejected lines not shown (counted in the summary)")
        if output_format == JSON:
            import json
            typer.echo(json.dumps(summary.as_dict(), indent=2))
        else:
            typer.echo(format_summary(summary))
        if summary.status == "interrupted":
            from ...english import count
            from ...signals import stop_words

            what, code = stop_words()  # "terminated" after SIGTERM
            report(f"{what}: {count(summary.added, 'puzzle')} saved, {summary.new_boards:,} on new boards",
                   error=True)
            raise typer.Exit(code)
