"""catalogue verify: check the catalogue's invariants and every board file; ``--repair`` rewrites bad files.

Database invariants: board numbers are exactly 0..N-1 (no gap), every board has a puzzle, and for a sample of
boards (all with ``--full``) the stored key is the key recomputed from the board, the board is a complete valid
grid, and the puzzle's clues agree with the board. Files: every board's ``N.txt`` holds exactly its board, and
files named like board files without a board are reported as strays (never deleted). Exit 1 if a problem remains.
"""
from __future__ import annotations

from typing import Annotated

import typer

from ...console import report
from ...errors import UserError
from ...store.integrity import SAMPLE
from ..options import DbOption, OutOption


def register(app: typer.Typer) -> None:
    @app.command("verify")
    def verify(
        repair: Annotated[bool, typer.Option("--repair", help="Rewrite missing or torn board files from the "
                                                              "database.")] = False,
        full: Annotated[bool, typer.Option("--full", help=f"Recompute every board's key (default: a random "
                                                          f"sample of {SAMPLE}).")] = False,
        db: DbOption = None,
        out: OutOption = None,
    ) -> None:
        """Check the catalogue's database and board files.

        Checks numbers 0..N-1 without gaps, a puzzle for every board, keys that match their boards, and a board
        file N.txt in the catalogue's folder holding exactly board N for every N (strays are listed, never
        deleted). With --repair, missing or torn files are rewritten. Exit 1 if a problem remains. The examples
        read demo.db, made by catalogue fill's example.

        \b
        Examples:
          catalogue verify --db demo.db
          catalogue verify --db demo.db --full --repair
        """
        from ...progress import Display
        from ...store import Catalogue

        # verifying a mistyped --db must not make a catalogue
        with Catalogue.open(db, out, create=False, read_only=not repair) as catalogue:
            folder = catalogue.claim_folder() if repair else catalogue.check_folder_owner()
            # one transient display on a terminal (nothing in a pipe or under -q): a bar over the keys checked,
            # then over the board files; gone before the report below is printed
            with Display("verify", unit="boards") as display:
                database = catalogue.check_database(full=full, progress=display.counter("keys"))
                if database.corrupt:  # the board list cannot be trusted, so neither can a check of the files
                    for problem in database.problems[:20]:
                        report(problem)
                    raise UserError(f"database {catalogue.label} is corrupt: restore it from a backup (its board "
                                    f"files are left as they are)")
                files = catalogue.check_files(full=True, progress=display.counter("files"))
            typer.echo(f"boards        {database.boards:,} (numbers 0..{database.boards - 1})"
                       if database.boards else "boards        0")
            typer.echo(f"keys checked  {database.keys_checked:,}" + ("" if full else " (random sample; --full "
                                                                                       "checks all)"))
            typer.echo(f"files         {files.checked:,} checked in {folder}: {files.describe()}")
            for problem in database.problems[:20]:
                report(problem)
            if len(database.problems) > 20:
                report(f"... and {len(database.problems) - 20} more database problems")
            if files.problems and repair:
                catalogue.repair(files)
                typer.echo(f"repaired      {files.repaired:,} files rewritten from the database")
            if repair:
                # runs left `running` by a dead process have whole files now: close them like the next fill would
                closed = catalogue.recover().closed_runs
                if closed:
                    typer.echo(f"closed runs   {', '.join(map(str, closed))} (their process died; now interrupted)")
            elif len(files.missing) + len(files.torn):
                report(f"{len(files.missing) + len(files.torn)} board files are missing or torn: "
                       f"`catalogue verify --repair` rewrites them")
            if files.foreign:
                report(f"{len(files.foreign)} board file{'s are' if len(files.foreign) > 1 else ' is'} not a plain "
                       f"file, never read or written through (move {'them' if len(files.foreign) > 1 else 'it'} "
                       f"away, then `catalogue verify --repair`): {', '.join(sorted(files.foreign)[:5])}"
                       f"{' ...' if len(files.foreign) > 5 else ''}")
            if files.strays:
                report(f"{len(files.strays)} stray files have no board (left in place): "
                       f"{', '.join(sorted(files.strays)[:5])}{' ...' if len(files.strays) > 5 else ''}")
        remaining = len(database.problems) + len(files.foreign) + (0 if repair else files.problems - len(files.foreign))
        if remaining:
            raise UserError(f"{remaining} problem{'s' if remaining != 1 else ''} found in the catalogue")
        typer.echo("ok")
