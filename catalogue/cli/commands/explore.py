"""catalogue explore: time the solvers on random grids with K valid clues (see :mod:`engine.explore`)."""
from __future__ import annotations

import json
from typing import Annotated, Optional

import typer

from engine.explore import DEFAULT_NODE_LIMIT, Exploration, explore, plot_svg
from engine.geometry import box_for_size
from engine.solvers import SOLVERS
from engine.vocabulary import JSON, TABLE

from ...choices import SolverName, check_size
from ...console import report
from ...errors import UsageError
from ...io import check_output_path, write_atomic
from ...output import write_records
from ..options import format_option, record_formats

#: the columns of every format (JSON: of each of its `rows`); seconds, not the engine's milliseconds, as everywhere
#: in the catalogue. `mean_placed` is added when some grid could not take every clue
FIELDS = ("solver", "clues", "trials", "solved", "none", "timeout", "median_nodes", "median_seconds")

#: a row per clue count and solver; json is one object holding them
ExploreFormatOption = format_option(record_formats("A row per clue count and solver", notes={
    JSON: "one object with the size, seed, node limit, trials and the rows"}))


def parse_clues(text: str, ncells: int) -> list[int]:
    """``"10,20,30"`` -> [10, 20, 30]; a UsageError names the bad item."""
    out = []
    for item in text.split(","):
        item = item.strip()
        if not item.isdigit():
            raise UsageError(f"--clues: {item!r} is not a whole number (give a list like 10,20,30,40)")
        if int(item) > ncells:
            raise UsageError(f"--clues: {item} is more than the {ncells} cells of the grid")
        out.append(int(item))
    return list(dict.fromkeys(out))


def records(result: Exploration) -> tuple[list[dict], tuple[str, ...]]:
    """The rows as records with :data:`FIELDS` (and ``mean_placed`` when some grid was short of clues)."""
    rows = [r.as_dict() for r in result.rows]
    short = any(abs(r["mean_placed"] - r["clues"]) > 1e-9 for r in rows)  # some grids could not take every clue
    fields = (*FIELDS, "mean_placed") if short else FIELDS
    for r in rows:
        r["median_seconds"] = r.pop("median_ms") / 1000
    return [{f: r[f] for f in fields} for r in rows], fields


def render(result: Exploration, fmt: str) -> None:
    """Print the results: JSON is one object (size, seed, node_limit, trials and the rows), the others rows."""
    rows, fields = records(result)
    if fmt == JSON:
        typer.echo(json.dumps({**result.as_dict(), "rows": rows}, indent=2))
    else:
        write_records(rows, fields, fmt)


def register(app: typer.Typer) -> None:
    @app.command("explore")
    def explore_cmd(
        clues: Annotated[str, typer.Option(help="Clue counts to try, comma-separated.")] = "10,20,30,40",
        trials: Annotated[int, typer.Option(min=1, help="How many random grids to make per clue count.")] = 100,
        solver: Annotated[Optional[list[SolverName]], typer.Option(
            show_default=False, metavar="<" + "|".join(SOLVERS) + ">",
            help="Solver to time; repeat to compare several on the same grids [default: stack].")] = None,
        node_limit: Annotated[int, typer.Option(min=1, help="Give up on a grid after this many nodes "
                                                            "(a timeout).")] = DEFAULT_NODE_LIMIT,
        size: Annotated[int, typer.Option(callback=check_size, help="Grid size: 4, 9, 16 or 25.")] = 9,
        seed: Annotated[int, typer.Option(min=0, help="Seed of the random grids: the same seed gives the same "
                                                      "grids and node counts.")] = 0,
        plot: Annotated[Optional[str], typer.Option(show_default=False, metavar="FILE.svg",
                                                    help="Also draw the results as an SVG chart.")] = None,
        output_format: ExploreFormatOption = TABLE,
    ) -> None:
        """Time the solvers on random grids with K valid clues.

        For each clue count, build random grids whose clues are valid when placed, solve each with a node limit,
        and report how many have a solution, how many have none and how many time out, with the median nodes and
        time. Results to stdout; progress to stderr on a terminal.

        \b
        Examples:
          catalogue explore --clues 10,20 --trials 20
          catalogue explore --solver fast --solver mrv --trials 10 --format csv
          catalogue explore --trials 10 --plot explore.svg
        """
        try:
            box = box_for_size(size)
        except ValueError as e:
            raise UsageError(f"--size: {e}") from None
        counts = parse_clues(clues, size * size)
        if plot:
            check_output_path(plot)
        names = [s.value for s in solver] if solver else ["stack"]
        names = list(dict.fromkeys(names))
        from ...progress import Display

        with Display("explore", unit="solves") as display:  # nothing drawn in a pipe or under -q
            result = explore(counts, trials, names, node_limit, box, seed,
                             display.counter("solving") if display.enabled else None)
        render(result, output_format)
        if plot:
            write_atomic(plot, plot_svg(result))
            report(f"wrote {plot}")
