"""catalogue stats: what the catalogue holds and how it was made, as tables or one JSON object."""
from __future__ import annotations

from typing import Annotated

import typer

from engine.vocabulary import JSON, SUMMARY_FORMATS, TABLE

from ..options import DbOption, format_option, record_formats

#: the summary, for people or as one JSON object
StatsFormatOption = format_option(record_formats("What the catalogue holds", SUMMARY_FORMATS, notes={
    TABLE: "for people", JSON: "one object with every figure"}))


RUN_FIELDS = ("id", "status", "started_at", "shape", "method", "equivalence", "generated", "accepted",
              "duplicates", "contradictions", "elapsed_seconds", "boards_per_second")


STAGE_FIELDS = ("actors", "in", "out", "per_second", "capacity_per_second", "busy_seconds")

SHAPE_FIELDS = ("shape", "size", "equivalence", "boards", "puzzles")
#: per-size counts the table shows only when some size has one (JSON always has them): on a catalogue of sizes
#: up to 16x16 every puzzle is proven minimal, and two columns of zeros would only be noise
MINIMALITY_FIELDS = {"not_proven_minimal": "not proven minimal", "minimal_unknown": "minimality unknown"}


TOTAL_FIELDS = ("boards", "puzzles", "generated", "duplicates", "contradictions")
#: the totals of the short summary: what the catalogue holds (how it was made is in --details)
SHORT_TOTAL_FIELDS = ("boards", "puzzles")


def metric_rows(metrics: dict) -> list[dict]:
    """One row per metric; min, median and max of one metric share one format (a metric per row, not column)."""
    from ...tables import column_formatter

    rows = []
    for name, m in metrics.items():
        if m["min"] is None:
            continue
        figures = [m["min"], m["median"], m["max"]]
        if all(isinstance(v, int) or (isinstance(v, float) and v.is_integer()) for v in figures) \
                and not isinstance(m["min"], float):  # a whole median of counts prints as the counts do: 88
            figures = [int(v) for v in figures]
        text = column_formatter(figures)
        figures = dict(zip(("min", "median", "max"), figures))
        rows.append({"metric": name, **{k: text(figures[k]) for k in ("min", "median", "max")}})
    return rows


def stage_rows(runs: list[dict]) -> list[dict]:
    """One row per run and stage from the runs' stage_stats (whatever keys the pipeline wrote; None if absent)."""
    rows = []
    for run in runs:
        stages = run["stage_stats"] if isinstance(run["stage_stats"], dict) else {}
        for stage, figures in stages.items():
            if isinstance(figures, dict):
                rows.append({"run": run["id"], "stage": stage, **{f: figures.get(f) for f in STAGE_FIELDS}})
    return rows


def shape_fields(by_shape: list[dict]) -> list[str]:
    """The columns of the per-shape table: the minimality columns only where a count is nonzero."""
    return [*SHAPE_FIELDS, *(f for f in MINIMALITY_FIELDS if any(row.get(f) for row in by_shape))]


def render_tables(summary: dict, width=None, details: bool = False) -> str:
    """The stats as titled tables, one per section, with the JSON's names as column names: what the catalogue
    holds (sizes, levels, clues), and with ``details`` how it was made (the pipeline's figures, its runs)."""
    from ...tables import table_text

    sections = [table_text([summary], TOTAL_FIELDS if details else SHORT_TOTAL_FIELDS, width=width)]

    def section(title: str, rows: list, fields, **options) -> None:
        sections.append(f"{title}\n" + (table_text(rows, fields, width=width, **options) if rows else "(none)\n"))

    section("by shape and equivalence", summary["by_shape"], shape_fields(summary["by_shape"]))
    section("levels", [{"level": name, "puzzles": n} for name, n in summary["levels"].items() if n],
            ("level", "puzzles"))
    section("clue counts", summary["clues"], ("shape", "clues", "puzzles"))
    if not details:
        return "\n".join(sections)
    section("metrics", metric_rows(summary["metrics"]), ("metric", "min", "median", "max"),
            right=("min", "median", "max"))
    section("runs", summary["runs"], RUN_FIELDS)
    section("stages of each run", stage_rows(summary["runs"]), ("run", "stage", *STAGE_FIELDS))
    return "\n".join(sections)


def register(app: typer.Typer) -> None:
    @app.command("stats")
    def stats(
        fmt: StatsFormatOption = TABLE,
        details: Annotated[bool, typer.Option("--details", help=(
            "Add how the catalogue was made: boards generated, duplicates, contradictions, the metrics' "
            "min / median / max, and each run with its stages."))] = False,
        db: DbOption = None,
    ) -> None:
        """Summarise what the catalogue holds and how it was made.

        By default what it holds: boards and puzzles per shape and equivalence, the levels and the clue-count
        histogram. --details adds how it was made: min / median / max of the metrics, duplicates rejected,
        contradictions, and each run's throughput; JSON always has everything. Per size, puzzles
        not proven minimal (their carving hit the node limit, as on 25x25) are counted when there are any. In JSON,
        `boards` is the total number of boards. The examples read demo.db, made by catalogue fill's example.

        \b
        Examples:
          catalogue stats --db demo.db
          catalogue stats --db demo.db --details
          catalogue stats --db demo.db --format json
        """
        from ...store import Catalogue

        with Catalogue.open(db, read_only=True) as catalogue:
            summary = catalogue.stats()
        if fmt == JSON:
            import json

            typer.echo(json.dumps(summary, indent=2))
        else:
            import sys

            from ...tables import terminal_width

            sys.stdout.write(render_tables(summary, terminal_width(sys.stdout), details))
