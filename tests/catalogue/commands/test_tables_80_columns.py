"""Every table a person reads, at 80 columns (a terminal's default, and pytest-xdist's COLUMNS): no line longer
than 80, no header folded, no column left out, and the puzzle shown (as a line, or drawn as its square)."""
from __future__ import annotations

import re

import pytest
from conftest import sample_rows
from typer.testing import CliRunner

from catalogue.cli import app

runner = CliRunner()
RULE = re.compile("^─+$")


def run(*args):
    result = runner.invoke(app, list(args), env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.stderr
    return result


def check_fits(text: str, fields) -> None:
    """At most 80 columns; each table's header (the line above a rule) is the fields whole, in order; a record
    view names a field at the start of each line that is not a continuation."""
    lines = text.splitlines()
    assert lines and all(len(line) <= 80 for line in lines), "\n".join(line for line in lines if len(line) > 80)
    for above, line in zip(lines, lines[1:]):
        if RULE.match(line):
            assert set(above.split()) <= set(fields), f"a folded or unknown header: {above!r}"


def shown(text: str, puzzle: str) -> bool:
    """Whether ``puzzle`` is in ``text`` on one line, or as its n rows in order on n lines."""
    n = int(len(puzzle) ** 0.5)
    rows = [puzzle[i:i + n] for i in range(0, len(puzzle), n)]
    ends = [line.split()[-1] for line in text.splitlines() if line.split()]
    return puzzle in ends or any(ends[i:i + n] == rows for i in range(len(ends)))


@pytest.mark.parametrize("extra", [(), ("--metrics",)])
def test_query(sample_sqlite, extra):
    result = run("query", "--db", sample_sqlite, *extra)
    fields = ["number", "level", "score", "hardest", "clues", "puzzle", "size", "nodes", "guesses", "backtracks",
              "max_depth", "solve_seconds"]
    check_fits(result.stdout, fields)
    assert result.stderr == ""  # nothing left out, nothing to say
    assert all(shown(result.stdout, row["puzzle"]) for row in sample_rows())
    if extra:  # too wide for a table even with square grids: records, every field named on its line
        assert [line.split()[0] for line in result.stdout.splitlines()[:12]] == [
            *fields[:5], *fields[6:], "puzzle"]


def test_daily_shows_grids(sample_sqlite):
    result = run("daily", "--db", sample_sqlite, "--date", "2026-11-26")
    check_fits(result.stdout, ("date", "level", "number", "score", "hardest", "clues", "puzzle"))
    puzzles = {row["puzzle"] for row in sample_rows()}
    assert sum(shown(result.stdout, p) for p in puzzles) == result.stdout.count("2026-11-26") >= 1
    pretty = run("daily", "--db", sample_sqlite, "--date", "2026-11-26", "--format", "pretty").stdout
    assert pretty.count("╔") == result.stdout.count("2026-11-26") and max(map(len, pretty.splitlines())) <= 80


@pytest.mark.parametrize("extra", [(), ("--details",)])
def test_stats(sample_sqlite, extra):
    from catalogue.cli.commands.stats import RUN_FIELDS, SHAPE_FIELDS, STAGE_FIELDS, TOTAL_FIELDS

    result = run("stats", "--db", sample_sqlite, *extra)
    check_fits(result.stdout, (*TOTAL_FIELDS, *SHAPE_FIELDS, *RUN_FIELDS, *STAGE_FIELDS, "not_proven_minimal",
                               "minimal_unknown", "clues", "puzzles", "level", "metric", "min", "median", "max",
                               "run", "stage"))
    assert "88.0" not in result.stdout


def test_fill_summary(tmp_path):
    result = run("fill", "--count", "3", "--db", str(tmp_path / "c.db"), "--seed", "1")
    check_fits(result.stdout, ("stage", "actors", "in", "out", "out/s", "capacity/s", "busy", "s", "cpu"))
    assert "accepted        3 of 3 new boards (numbers 0..2)" in result.stdout
    one = run("fill", "--count", "1", "--db", str(tmp_path / "c.db"), "--seed", "2")
    assert "accepted        1 of 1 new board (number 3)" in one.stdout
