"""catalogue query: list puzzles from the catalogue by clue count, size, method, grade; sorted and limited.

Start-up time is part of this command's contract (<= 200 ms on a 50,000-board catalogue, bench/bench_query.py),
so the module imports only typer and the store's plain-SQL queries at load time (neither SQLAlchemy nor numba).
"""
from __future__ import annotations

import enum
from typing import Annotated, Iterator, Optional

import typer

from engine.vocabulary import METHODS

from ..choices import HARDEST, Equivalence, Level, check_size, choose
from ..config import DbOption
from ..errors import UsageError, report
from ..output import RECORD_FORMATS, write_records
from ..store.queries import ORDER_KEYS, RESULT_FIELDS

DEFAULT_LIMIT = 100

#: the columns of the default table (csv, tsv, json and ndjson carry every field of RESULT_FIELDS, same names)
TABLE_FIELDS = ("number", "size", "clues", "nodes", "guesses", "backtracks", "max_depth", "solve_seconds",
                "level", "score", "hardest", "puzzle")


#: the record formats, and `line`: the puzzles only, one per line
QueryFormat = enum.Enum("QueryFormat", {name: name for name in (*RECORD_FORMATS, "line")}, type=str)

OrderKey = enum.Enum("OrderKey", {name: name for name in ORDER_KEYS}, type=str)


def limited(rows: Iterator[dict], limit: int, state: dict) -> Iterator[dict]:
    """The first ``limit`` rows (all if 0); ``state["truncated"]`` tells afterwards whether one more was there."""
    for count, row in enumerate(rows):
        if limit and count == limit:
            state["truncated"] = True
            return
        yield row


def register(app: typer.Typer) -> None:
    @app.command("query")
    def query(
        min_clues: Annotated[Optional[int], typer.Option("--min-clues", min=0, metavar="A",
                                                         help="Only puzzles with at least A clues.")] = None,
        max_clues: Annotated[Optional[int], typer.Option("--max-clues", min=0, metavar="B",
                                                         help="Only puzzles with at most B clues.")] = None,
        size: Annotated[Optional[int], typer.Option("--size", min=1, metavar="N",
                                                    help="Only N x N boards (4, 9, 16, ...).")] = None,
        equivalence: Annotated[Optional[Equivalence], typer.Option(
            help="Only boards made unique under this equivalence.")] = None,
        method: Annotated[Optional[str], typer.Option(
            metavar="NAME", help="Only boards from this generator (wfc, backtrack, pattern).")] = None,
        level: Annotated[Optional[Level], typer.Option(help="Only puzzles graded at this level.")] = None,
        technique: Annotated[Optional[str], typer.Option(
            metavar="NAME", help="Only puzzles whose hardest technique is NAME (e.g. x-wing).")] = None,
        order_by: Annotated[OrderKey, typer.Option("--order-by", help="Sort key.")] = OrderKey.number,
        desc: Annotated[bool, typer.Option("--desc", help="Sort in descending order.")] = False,
        limit: Annotated[int, typer.Option(
            min=0, metavar="N", help="How many puzzles to show at most; 0 for all.")] = DEFAULT_LIMIT,
        fmt: Annotated[QueryFormat, typer.Option("--format", help=(
            "Output format: table, csv, tsv, json (one array), ndjson (one object per line) or line "
            "(the puzzles only)."))] = QueryFormat.table,
        db: DbOption = None,
    ) -> None:
        """List puzzles from the catalogue, filtered and sorted.

        Each row has the board number, clue count, solver metrics and grade. csv, tsv, json and ndjson records
        carry every field under the database's column names, including the puzzle and its solution in the line
        format; `--format line` prints only the puzzles, one per line. An empty result is not an error. The
        examples read demo.db, made by catalogue fill's example.

        \b
        Examples:
          catalogue query --db demo.db --limit 5
          catalogue query --db demo.db --max-clues 25 --order-by clues --format csv
          catalogue query --db demo.db --level easy --limit 0 --format line > easy.txt
        """
        if min_clues is not None and max_clues is not None and min_clues > max_clues:
            raise UsageError(f"--min-clues {min_clues} is above --max-clues {max_clues}")
        # a name outside the vocabulary would match nothing and look like an empty result: exit 2 instead
        check_size(size)
        method = choose("--method", "method", METHODS, method)
        technique = choose("--technique", "technique", HARDEST, technique)
        from ..store import Catalogue

        state = {"truncated": False}
        with Catalogue.open(db, create=False) as catalogue:
            # one row more than asked tells whether the default limit cut the result short; rows stream from the
            # database cursor to stdout, so json / ndjson / csv of any size take constant memory
            rows = limited(catalogue.iter_puzzles(
                min_clues=min_clues, max_clues=max_clues, size=size,
                equivalence=equivalence.value if equivalence else None, method=method,
                level=level.value if level else None, technique=technique, order_by=order_by.value, desc=desc,
                limit=(limit + 1) if limit else None), limit, state)
            if fmt.value == "line":
                count = 0
                for row in rows:
                    typer.echo(row["puzzle"])
                    count += 1
            else:
                count = write_records(rows, RESULT_FIELDS, fmt.value, table_fields=TABLE_FIELDS)
        if not count:
            report("no puzzles match")
        elif state["truncated"] and limit == DEFAULT_LIMIT:
            report(f"showing the first {limit} puzzles: --limit N for more, --limit 0 for all")
