"""catalogue query: list puzzles from the catalogue by clue count, size, method, grade and score; sampled, sorted
and limited: a thin call of ``Catalogue.puzzles`` (a ``PuzzleQuery``) with the shared options of catalogue/filters.py.

Start-up time is part of this command's contract (<= 200 ms on a 50,000-board catalogue, bench/bench_query.py),
so the module imports only typer and the store's plain-SQL queries at load time (neither SQLAlchemy nor numba).
"""
from __future__ import annotations

import enum
from typing import Annotated, Iterator, Optional

import typer

from engine.vocabulary import GRID_FORMATS, TABLE

from ...console import report
from ...output import write_grids, write_records
from ...store.columns import ORDER_KEYS, RESULT_FIELDS
from ...store.selection import PuzzleFilter
from ..filters import Sampling, filter_options, sample_options
from ..options import DbOption, format_option, grid_formats, record_formats

DEFAULT_LIMIT = 100

#: the columns of the default table: what a person choosing a puzzle reads (csv, tsv, json and ndjson carry every
#: field of RESULT_FIELDS, same names)
TABLE_FIELDS = ("number", "level", "score", "hardest", "clues", "puzzle")
#: the solver's metrics, added to the table by --metrics
METRIC_FIELDS = ("size", "nodes", "guesses", "backtracks", "max_depth", "solve_seconds")


def table_fields(metrics: bool) -> tuple[str, ...]:
    """The table's columns: the puzzle last, so the metrics go before it."""
    return (*TABLE_FIELDS[:-1], *METRIC_FIELDS, TABLE_FIELDS[-1]) if metrics else TABLE_FIELDS


#: a record per puzzle, or the puzzles only in a grid format
QueryFormatOption = format_option(record_formats("A record per puzzle"), grid_formats("the puzzles only"))

OrderKey = enum.Enum("OrderKey", {name: name for name in ORDER_KEYS}, type=str)


def named(rows: Iterator[dict]) -> Iterator[dict]:
    """The rows as a table shows them: each puzzle's number is its name (``7``, or ``7.2`` for board 7's second
    puzzle: what `catalogue export` and the page take)."""
    from ...store.records import puzzle_name

    for row in rows:
        yield {**row, "number": puzzle_name(row["number"], row.get("variant"))}


def limited(rows: Iterator[dict], limit: int, state: dict) -> Iterator[dict]:
    """The first ``limit`` rows (all if 0); ``state["truncated"]`` tells afterwards whether one more was there."""
    for count, row in enumerate(rows):
        if limit and count == limit:
            state["truncated"] = True
            return
        yield row


def register(app: typer.Typer) -> None:
    @app.command("query")
    @sample_options
    @filter_options
    def query(
        filters: PuzzleFilter,
        sampling: Sampling,
        order_by: Annotated[OrderKey, typer.Option(
            "--order-by", metavar="KEY", help=f"Sort key: {', '.join(ORDER_KEYS)}.")] = OrderKey.number,
        desc: Annotated[bool, typer.Option("--desc", help="Sort in descending order.")] = False,
        limit: Annotated[Optional[int], typer.Option(
            min=0, metavar="N", show_default=False,
            help=f"How many puzzles to show at most; 0 for all. Default {DEFAULT_LIMIT}, or the whole sample "
                 f"with --sample.")] = None,
        fmt: QueryFormatOption = TABLE,
        metrics: Annotated[bool, typer.Option("--metrics", help=(
            "Add the size and the solver's metrics (nodes, guesses, backtracks, max_depth, solve_seconds) "
            "to the table."))] = False,
        db: DbOption = None,
    ) -> None:
        """List puzzles from the catalogue, filtered and sorted.

        The table shows each puzzle's number, level, score, hardest technique, clues and the puzzle itself
        (drawn as a square grid, or as records, where a line per puzzle would not fit); --metrics adds the
        solver's metrics. csv, tsv, json and ndjson records
        carry every field under the database's column names, including the puzzle and its solution in the line
        format; `--format line` prints only the puzzles, one per line. `--sample N --seed S` picks N of the
        matching puzzles uniformly at random, the same ones for the same seed; the sample is then sorted, and
        `--offset` and `--limit` cut it. An empty result is not an error. The examples read demo.db, made by
        catalogue fill's example.

        \b
        Examples:
          catalogue query --db demo.db --limit 5
          catalogue query --db demo.db --max-clues 25 --order-by clues --format csv
          catalogue query --db demo.db --level easy --limit 0 --format line > easy.txt
          catalogue query --db demo.db --sample 3 --seed 7 --min-score 2
        """
        if limit is None:
            limit = 0 if sampling.sample is not None else DEFAULT_LIMIT
        from ...store import Catalogue

        state = {"truncated": False}
        with Catalogue.open(db, read_only=True) as catalogue:
            # one row more than asked tells whether the default limit cut the result short; rows stream from the
            # database cursor to stdout, so json / ndjson / csv of any size take constant memory
            selection = sampling.apply(catalogue.puzzles(**filters.given()).order_by(order_by.value, desc=desc))
            rows = limited(selection.limit((limit + 1) if limit else None).dicts(), limit, state)
            if fmt.value in GRID_FORMATS:
                count = write_grids(rows, fmt.value)
            else:
                shown = named(rows) if fmt == TABLE else rows
                count = write_records(shown, RESULT_FIELDS, fmt.value, table_fields=table_fields(metrics))
        if not count:
            report("no puzzles match")
        elif state["truncated"] and limit == DEFAULT_LIMIT:
            report(f"showing the first {limit} puzzles: --limit N for more, --limit 0 for all")
