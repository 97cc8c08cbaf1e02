"""catalogue regrade: grade the catalogue's puzzles again with this version's grader, and store what changed.

A thin call of ``Catalogue.regrade`` (catalogue/store/regrade.py) with the filter options every reading command
shares (catalogue/filters.py), so ``--level extreme`` or ``--technique guessing`` picks the puzzles to look at.
"""
from __future__ import annotations

import json
from typing import Annotated

import typer

from engine.vocabulary import JSON, SUMMARY_FORMATS, TABLE

from ...console import report
from ...errors import Interrupted, stopped_by
from ...store.selection import PuzzleFilter
from ..filters import filter_options
from ..options import DbOption, format_option, record_formats

#: the summary, for people or as one JSON object
RegradeFormatOption = format_option(record_formats("What was graded and stored", SUMMARY_FORMATS, notes={
    TABLE: "for people",
    JSON: "one object (matched, graded, skipped, changed, written, moves)"}))


def register(app: typer.Typer) -> None:
    @app.command("regrade")
    @filter_options
    def regrade(
        filters: PuzzleFilter,
        dry_run: Annotated[bool, typer.Option("--dry-run", help="Grade and report what would change; write "
                                                                "nothing.")] = False,
        threads: Annotated[int, typer.Option("--threads", min=0, metavar="N",
                                             help="Grading threads; 0 for one per CPU.")] = 0,
        full_scale: Annotated[bool, typer.Option(
            "--full-scale",
            help="On 16x16 and 25x25 also try the dynamic forcing chains (plain and +), which those sizes leave "
                 "out by default (a second or more a puzzle instead of milliseconds; minutes for some 25x25 "
                 "puzzles), so that puzzles stored as needing guessing get a rating. Puzzles whose stored steps "
                 "used them are always graded with them.")] = False,
        fmt: RegradeFormatOption = TABLE,
        db: DbOption = None,
    ) -> None:
        """Grade the catalogue's puzzles again with this version's grader, and store the grades that changed.

        Grades are stored with the puzzles, by the grader of the day they were stored; a later version may rate
        some differently (nested forcing chains rate puzzles that older versions left to guessing at 10.0). Every
        puzzle matching the filters is graded again; those whose level, score, hardest technique or steps changed
        are written, a thousand at a time, each batch in one short transaction (a fill may run beside it; after
        Ctrl-C, which stops at once, what was written stays, and running the command again goes on). The
        grading runs in one thread per CPU (--threads). On 16x16 and 25x25, --full-scale rates puzzles that need
        the dynamic forcing chains, which a fill leaves out there. The report counts the puzzles and lists how the
        changed ones moved. Boards, numbers and board files are never touched. The examples read
        demo.db, made by catalogue fill's example.

        \b
        Examples:
          catalogue regrade --db demo.db --dry-run
          catalogue regrade --db demo.db --technique guessing
          catalogue regrade --db demo.db --level extreme --format json
        """
        from ...kernels import ready
        from ...progress import Display
        from ...store import Catalogue
        from ...store.regrade import RegradeReport

        done = RegradeReport()
        with Catalogue.open(db, create=False, read_only=dry_run) as catalogue, Display("regrade", unit="puzzles") as display:
            try:
                catalogue.regrade(filters.given(), write=not dry_run, threads=threads, full_scale=full_scale,
                                  progress=display.counter("puzzles"), report=done,
                                  prepare=lambda jobs: ready(jobs, display, "regrade"))
            except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM: "terminated"
                what, code = stopped_by(stop)
                saved = "nothing written (--dry-run)" if dry_run else f"{done.changed:,} changed grades written"
                raise Interrupted(f"{what} after {done.graded:,} of {done.matched:,} puzzles: {saved}; run "
                                  f"the command again to go on", code) from None
        if not done.matched:
            report("no puzzles match")
        if done.skipped:
            rows = "1 row that is not a puzzle" if done.skipped == 1 else f"{done.skipped:,} rows that are not puzzles"
            report(f"skipped {rows} the grader can take (`catalogue verify` names them); left as they are")
        if fmt == JSON:
            moves = [{"stored_level": old_level, "stored_hardest": old_hardest, "level": new_level,
                      "hardest": new_hardest, "puzzles": count}
                     for (old_level, old_hardest, new_level, new_hardest), count in done.moves.most_common()]
            typer.echo(json.dumps({"matched": done.matched, "graded": done.graded, "changed": done.changed,
                                   "skipped": done.skipped, "written": not dry_run, "moves": moves}, indent=2))
            return
        if not done.matched:
            return
        written = ("(every grade is current)" if not done.changed
                   else "would change (--dry-run: nothing written)" if dry_run else "changed and written")
        typer.echo(f"graded    {done.graded:,} puzzles")
        typer.echo(f"{'changed':<9} {done.changed:,} {written}")
        if done.moves:
            import sys

            from ...tables import table_text, terminal_width

            rows = [{"stored": f"{old_level or '-'} {old_hardest or '-'}", "now": f"{new_level} {new_hardest}",
                     "puzzles": count}
                    for (old_level, old_hardest, new_level, new_hardest), count in done.moves.most_common()]
            typer.echo("")
            typer.echo(table_text(rows, ("stored", "now", "puzzles"), width=terminal_width(sys.stdout)), nl=False)
