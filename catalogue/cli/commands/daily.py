"""catalogue daily: the puzzle of the day, one per level: a thin call of ``Catalogue.daily``.

The choice is a function of the catalogue's id, the date and the level (catalogue/store/selection.py has the
rule and why it mostly survives a growing catalogue), so every machine reading the same catalogue shows the same
puzzles on the same date. Like `query`, it imports neither SQLAlchemy (on a SQLite file) nor numba.
"""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from engine.vocabulary import GRID_FORMATS, LEVELS, LINE, TABLE

from ...console import report
from ...errors import UsageError
from ...output import write_grids, write_records
from ...store.columns import RESULT_FIELDS
from ...store.selection import PuzzleFilter, parse_date
from ..filters import filter_options
from ..options import DbOption, format_option, grid_formats, record_formats

#: the columns of the table (the other formats carry `date` and every field of RESULT_FIELDS); on a terminal too
#: narrow for a puzzle a line, each is drawn as its square
TABLE_FIELDS = ("date", "level", "number", "score", "hardest", "clues", "puzzle")

#: query's formats; a drawn puzzle (every grid format but line) comes under a line naming it
DailyFormatOption = format_option(record_formats("A record per day"),
                                  grid_formats("the puzzles only, each drawn under a line naming it",
                                               notes={LINE: "one puzzle per line, no names"}))


def heading(row: dict) -> str:
    """The line above a day's drawn puzzle: date, level, number, score, hardest step, clues."""
    from ...store.records import puzzle_name

    return (f"{row['date']}  {row['level']}  number {puzzle_name(row['number'], row['variant'])}  "
            f"score {row['score']:.1f}  {row['hardest']}  {row['clues']} clues")


def register(app: typer.Typer) -> None:
    @app.command("daily")
    @filter_options
    def daily(
        date: Annotated[Optional[str], typer.Option(
            "--date", metavar="YYYY-MM-DD", show_default=False,
            help="The day (default: today, in this machine's time zone).")] = None,
        filters: PuzzleFilter = None,
        fmt: DailyFormatOption = TABLE,
        db: DbOption = None,
    ) -> None:
        """Print the puzzle of the day, one per level.

        The same catalogue gives the same puzzles for the same date on every machine, and other puzzles on
        other days: each is chosen from the date, the level and the catalogue's id. `--level` keeps one level;
        the other filters (clues, size, score, ...) narrow the puzzles it is chosen from. A level without
        puzzles is left out. The examples read demo.db, made by catalogue fill's example.

        \b
        Examples:
          catalogue daily --db demo.db
          catalogue daily --db demo.db --date 2026-12-24 --level easy --format line
          catalogue daily --db demo.db --level hard --format pretty
          catalogue daily --db demo.db --size 9 --format json
        """
        try:
            day = parse_date(date)
        except ValueError:
            raise UsageError(f"--date: not a date (YYYY-MM-DD): {date!r}") from None
        levels = [filters.level] if filters.level else list(LEVELS)
        others = {name: value for name, value in filters.given().items() if name != "level"}
        from ...store import Catalogue

        with Catalogue.open(db, read_only=True) as catalogue:
            chosen = [catalogue.daily(day, level, **others) for level in levels]
        rows = [{"date": day.isoformat(), **record.to_dict()} for record in chosen if record is not None]
        if fmt.value in GRID_FORMATS:  # a drawn grid under a line naming it
            write_grids(rows, fmt.value, head=None if fmt == LINE else heading)
        else:
            from .query import named

            shown = list(named(rows)) if fmt == TABLE else rows
            write_records(shown, ("date", *RESULT_FIELDS), fmt.value, table_fields=TABLE_FIELDS)
        if not rows:
            report("no puzzles match")
