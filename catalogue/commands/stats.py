"""catalogue stats: what the catalogue holds and how it was made, as tables or one JSON object."""
from __future__ import annotations

import enum
from typing import Annotated

import typer

from ..config import DbOption


class StatsFormat(str, enum.Enum):
    table = "table"
    json = "json"


RUN_FIELDS = ("id", "status", "started_at", "size", "method", "equivalence", "generated", "accepted",
              "duplicates", "contradictions", "elapsed_seconds", "boards_per_second")


STAGE_FIELDS = ("actors", "in", "out", "per_second", "capacity_per_second", "busy_seconds")

SIZE_FIELDS = ("size", "equivalence", "boards", "puzzles")
#: per-size counts the table shows only when some size has one (JSON always has them): on a catalogue of sizes
#: up to 16x16 every puzzle is proven minimal, and two columns of zeros would only be noise
MINIMALITY_FIELDS = {"not_proven_minimal": "not proven minimal", "minimal_unknown": "minimality unknown"}


def number(value) -> str:
    """Numbers for people: integers whole, floats to 4 significant digits without switching large ones to
    exponents (22010 stays 22010, 1.483e-05 stays as it is)."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1000 else f"{value:.1f}"
    return str(value)


def stage_rows(runs: list[dict]) -> list[tuple]:
    """One row per run and stage from the runs' stage_stats (whatever keys the pipeline wrote; '-' if absent)."""
    rows = []
    for run in runs:
        stages = run["stage_stats"] if isinstance(run["stage_stats"], dict) else {}
        for stage, figures in stages.items():
            if isinstance(figures, dict):
                rows.append((run["id"], stage, *(number(figures.get(f)) for f in STAGE_FIELDS)))
    return rows


def size_rows(by_size: list[dict]) -> tuple[list[tuple], list[str]]:
    """The rows and headers of the per-size table: the minimality columns only where a count is nonzero."""
    fields = [*SIZE_FIELDS, *(f for f in MINIMALITY_FIELDS if any(row.get(f) for row in by_size))]
    return [tuple(row.get(f) for f in fields) for row in by_size], [MINIMALITY_FIELDS.get(f, f) for f in fields]


def render_tables(summary: dict) -> str:
    """The stats as titled tabulate tables, one per section."""
    from tabulate import tabulate

    sections = [tabulate([("boards", summary["boards"]), ("puzzles", summary["puzzles"]),
                          ("generated", summary["generated"]), ("duplicates rejected", summary["duplicates"]),
                          ("contradictions", summary["contradictions"])], tablefmt="plain")]

    def section(title: str, rows: list, headers, **options) -> None:
        sections.append(f"{title}\n" + (tabulate(rows, headers=headers, **options) if rows else "(none)"))

    section("by size and equivalence", *size_rows(summary["by_size"]))
    section("clue counts", [tuple(r.values()) for r in summary["clues"]], ("size", "clues", "puzzles"))
    section("metrics", [(name, number(m["min"]), number(m["median"]), number(m["max"]))
                        for name, m in summary["metrics"].items() if m["min"] is not None],
            ("metric", "min", "median", "max"), disable_numparse=True, colalign=("left", "right", "right", "right"))
    section("levels", [(name, n) for name, n in summary["levels"].items() if n],
            ("level", "puzzles"))
    section("runs", [tuple(run[f] for f in RUN_FIELDS) for run in summary["runs"]],
            ("run", "status", "started", "size", "method", "equiv", "generated", "accepted", "dups",
             "contradictions", "seconds", "boards/s"), floatfmt=".1f", missingval="-")
    section("stages of each run", stage_rows(summary["runs"]),
            ("run", "stage", "actors", "in", "out", "items/s", "capacity/s", "busy s"), disable_numparse=True,
            colalign=("right", "left", *["right"] * len(STAGE_FIELDS)))
    return "\n\n".join(sections)


def register(app: typer.Typer) -> None:
    @app.command("stats")
    def stats(
        fmt: Annotated[StatsFormat, typer.Option("--format", help="Output format.")] = StatsFormat.table,
        db: DbOption = None,
    ) -> None:
        """Summarise what the catalogue holds and how it was made.

        Boards and puzzles per size and equivalence, the clue-count histogram, min / median / max of the metrics,
        duplicates rejected, contradictions, the level distribution and each run's throughput. Per size, puzzles
        not proven minimal (their carving hit the node limit, as on 25x25) are counted when there are any. In JSON,
        `boards` is the total number of boards. The examples read demo.db, made by catalogue fill's example.

        \b
        Examples:
          catalogue stats --db demo.db
          catalogue stats --db demo.db --format json
        """
        from ..store import Catalogue

        with Catalogue.open(db, create=False) as catalogue:
            summary = catalogue.stats()
        if fmt is StatsFormat.json:
            import json

            typer.echo(json.dumps(summary, indent=2))
        else:
            typer.echo(render_tables(summary))
