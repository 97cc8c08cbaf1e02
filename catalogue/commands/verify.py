"""catalogue verify: check the catalogue's invariants and every board file; ``--repair`` rewrites bad files.

Database invariants: board numbers are exactly 0..N-1 (no gap), every board has a puzzle, and for a sample of
boards (all with ``--full``) the stored key is the key recomputed from the board, the board is a complete valid
grid, and the puzzle's clues agree with the board. Files: every board's ``N.txt`` holds exactly its board, and
files named like board files without a board are reported as strays (never deleted). Exit 1 if a problem remains.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

import typer

from ..config import DbOption, OutOption
from ..errors import UserError, report

SAMPLE = 1000


@dataclass
class DatabaseReport:
    boards: int = 0
    problems: list[str] = field(default_factory=list)
    keys_checked: int = 0


def check_database(engine, full: bool = False, sample: int = SAMPLE) -> DatabaseReport:
    """The invariants above; the key/grid checks cover ``sample`` random boards, or all of them with ``full``."""
    import numpy as np
    from sqlalchemy import func, select

    from engine.keys import key_texts
    from engine.geometry import box_for_size, geometry

    from ..models import Board, Puzzle
    from engine.formats import from_line

    out = DatabaseReport()
    with engine.connect() as conn:
        count, low, high = conn.execute(select(func.count(), func.min(Board.number), func.max(Board.number))).one()
        out.boards = count
        if count and (low != 0 or high != count - 1):
            out.problems.append(f"board numbers are not contiguous: {count} boards numbered {low}..{high}")
        orphans = conn.execute(select(func.count()).select_from(Board).outerjoin(
            Puzzle, Puzzle.board_number == Board.number).where(Puzzle.id.is_(None))).scalar()
        if orphans:
            out.problems.append(f"{orphans} boards have no puzzle")
        query = select(Board.number, Board.size, Board.equivalence, Board.key, Board.board, Puzzle.puzzle,
                       Puzzle.clues).join(Puzzle, Puzzle.board_number == Board.number)
        if not full:
            query = query.order_by(func.random()).limit(sample)
        rows = conn.execute(query).all()
    groups: dict[tuple[int, str], list] = {}
    for row in rows:
        groups.setdefault((row.size, row.equivalence), []).append(row)
    for (size, equivalence), members in groups.items():
        box = box_for_size(size)
        geo = geometry(box)
        boards = np.stack([from_line(r.board, box) for r in members])
        puzzles = np.stack([from_line(r.puzzle, box) for r in members])
        houses = np.sort(boards[:, geo.houses], axis=2)
        valid = (houses == np.arange(1, size + 1)).all(axis=(1, 2))
        keys = key_texts(boards, box, equivalence)
        agree = ((puzzles == 0) | (puzzles == boards)).all(axis=1)
        clue_counts = (puzzles != 0).sum(axis=1)
        for i, r in enumerate(members):
            if not valid[i]:
                out.problems.append(f"board {r.number} is not a complete valid {size}x{size} grid")
            elif keys[i] != r.key:
                out.problems.append(f"board {r.number}: stored key differs from the {equivalence} key of its board")
            if not agree[i]:
                out.problems.append(f"board {r.number}: its puzzle has clues that differ from the board")
            if clue_counts[i] != r.clues:
                out.problems.append(f"board {r.number}: its puzzle has {clue_counts[i]} clues, stored {r.clues}")
        out.keys_checked += len(members)
    return out


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
        """Check the catalogue: numbers 0..N-1 without gaps, a puzzle for every board, keys that match their
        boards, and a board file OUT/N.txt holding exactly board N for every N (strays are listed, never deleted).
        With --repair, missing or torn files are rewritten. Exit 1 if a problem remains."""
        from ..config import resolve
        from ..db import open_catalogue
        from ..files import check_at_open, check_files, out_folder, repair as repair_files

        settings = resolve(db, out, workers=False)
        out_folder(settings.out_dir, create=False)  # a file given as --out: one line, not a traceback
        engine = open_catalogue(settings, create=False)  # verifying a mistyped --db must not make a catalogue
        try:
            database = check_database(engine, full=full)
            files = check_files(engine, settings.out_dir, full=True)
            typer.echo(f"boards        {database.boards:,} (numbers 0..{database.boards - 1})"
                       if database.boards else "boards        0")
            typer.echo(f"keys checked  {database.keys_checked:,}" + ("" if full else " (random sample; --full "
                                                                                       "checks all)"))
            typer.echo(f"files         {files.checked:,} checked: {files.describe()}")
            for problem in database.problems[:20]:
                report(problem)
            if len(database.problems) > 20:
                report(f"... and {len(database.problems) - 20} more database problems")
            if files.problems and repair:
                repair_files(engine, settings.out_dir, files)
                typer.echo(f"repaired      {files.repaired:,} files rewritten from the database")
            if repair:
                # runs left `running` by a dead process have whole files now: close them like the next fill would
                closed = check_at_open(engine, settings.out_dir).closed_runs
                if closed:
                    typer.echo(f"closed runs   {', '.join(map(str, closed))} (their process died; now interrupted)")
            elif files.problems:
                report(f"{files.problems} board files are missing or torn: `catalogue verify --repair` "
                       f"rewrites them")
            if files.strays:
                report(f"{len(files.strays)} stray files have no board (left in place): "
                       f"{', '.join(sorted(files.strays)[:5])}{' ...' if len(files.strays) > 5 else ''}")
        finally:
            engine.dispose()
        remaining = len(database.problems) + (0 if repair else files.problems)
        if remaining:
            raise UserError(f"{remaining} problem{'s' if remaining != 1 else ''} found in the catalogue")
        typer.echo("ok")
