"""`catalogue stats` through the real CLI app: the exact JSON of the sample catalogue, and the tables."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from catalogue.cli import app

runner = CliRunner()


def summary(mn, median, mx):
    return {"min": mn, "median": median, "max": mx}


EXPECTED = {
    "boards": 5,
    "puzzles": 5,
    "by_shape": [{"size": 4, "shape": "2x2", "equivalence": "none", "boards": 1, "puzzles": 1, "not_proven_minimal": 0,
                 "minimal_unknown": 1},
                {"size": 9, "shape": "3x3", "equivalence": "d4", "boards": 4, "puzzles": 4, "not_proven_minimal": 1,
                 "minimal_unknown": 0}],
    "clues": [{"size": 4, "shape": "2x2", "clues": 8, "puzzles": 1}, {"size": 9, "shape": "3x3", "clues": 20, "puzzles": 1},
              {"size": 9, "shape": "3x3", "clues": 21, "puzzles": 1}, {"size": 9, "shape": "3x3", "clues": 27, "puzzles": 1},
              {"size": 9, "shape": "3x3", "clues": 41, "puzzles": 1}],
    "metrics": {
        "nodes": summary(7, 120, 480),
        "guesses": summary(0, 4, 30),
        "backtracks": summary(0, 2, 15),
        "checks": summary(21, 360, 1440),
        "max_depth": summary(0, 1, 10),
        "solve_seconds": summary(7e-06, 0.00012, 0.00048),
        "carve_checks": summary(50, 52, 54),
        "carve_seconds": summary(0.001, 0.003, 0.005),
        "score": summary(1.2, (1.5 + 4.2) / 2, 6.1),
        "restarts": summary(0, 2, 4),
        "generate_seconds": summary(0.01, 0.01, 0.01),
    },
    "generated": 9,
    "duplicates": 3,
    "contradictions": 1,
    "levels": {"easy": 2, "medium": 0, "hard": 1, "expert": 1, "extreme": 0, "ungraded": 1},
    "runs": [{"id": 1, "started_at": "2024-06-01T12:00:00Z", "finished_at": "2024-06-01T12:00:02Z",
              "status": "completed", "size": 9, "shape": "3x3", "method": "wfc", "equivalence": "d4",
              "symmetry": "none",
              "level": None, "seed": 42, "generators": 2, "checkers": 2, "generated": 9, "accepted": 5,
              "duplicates": 3, "contradictions": 1, "elapsed_seconds": 2.0,
              "stage_stats": {"generate": {"items": 9}}, "boards_per_second": 2.5}],
}


def test_json_exact(sample_sqlite):
    result = runner.invoke(app, ["stats", "--db", sample_sqlite, "--format", "json"])
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == json.dumps(EXPECTED, indent=2) + "\n"


@pytest.mark.postgres
def test_json_on_postgresql_is_the_same(pg_url, fill_catalogue):
    fill_catalogue(pg_url)
    result = runner.invoke(app, ["stats", "--db", pg_url, "--format", "json"])
    assert result.exit_code == 0
    assert result.stdout == json.dumps(EXPECTED, indent=2) + "\n"


def test_the_default_table_is_what_the_catalogue_holds(sample_sqlite):
    result = runner.invoke(app, ["stats", "--db", sample_sqlite])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["boards", "puzzles"] and lines[2].split() == ["5", "5"]
    titles = [line for line in lines if line in ("by shape and equivalence", "levels", "clue counts", "metrics",
                                                 "runs")]
    assert titles == ["by shape and equivalence", "levels", "clue counts"]


def test_details_has_every_section(sample_sqlite):
    result = runner.invoke(app, ["stats", "--db", sample_sqlite, "--details"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["boards", "puzzles", "generated", "duplicates", "contradictions"]
    assert lines[2].split() == ["5", "5", "9", "3", "1"]
    for title in ("by shape and equivalence", "clue counts", "metrics", "levels", "runs", "stages of each run"):
        assert title in lines
    assert lines[-1].split() == ["1", "generate", "-", "-", "-", "-", "-", "-"]  # only keys the run stored
    run_line = next(line for line in lines if "completed" in line)
    assert run_line.split() == ["1", "completed", "2024-06-01T12:00:00Z", "3x3", "wfc", "d4", "9", "5", "3", "1",
                                "2.0", "2.5"]


def by_shape_table(stdout: str) -> list[str]:
    lines = stdout.splitlines()
    start = lines.index("by shape and equivalence") + 1
    return lines[start:lines.index("", start)]


def test_minimality_columns_only_when_some_size_has_a_count(sample_sqlite):
    table = by_shape_table(runner.invoke(app, ["stats", "--db", sample_sqlite]).stdout)
    assert table == [
        "shape  size  equivalence  boards  puzzles  not_proven_minimal  minimal_unknown",
        "─" * 78,
        "2x2       4  none              1        1                   0                1",
        "3x3       9  d4                4        4                   1                0",
    ]
    from catalogue.store.database import make_engine
    from sqlalchemy import text

    engine = make_engine(sample_sqlite)
    with engine.begin() as conn:  # every puzzle proven minimal: the usual catalogue up to 16x16
        conn.execute(text("UPDATE puzzles SET minimal = :m, undecided = 0"), {"m": True})
    engine.dispose()
    table = by_shape_table(runner.invoke(app, ["stats", "--db", sample_sqlite]).stdout)
    assert table[0].split() == ["shape", "size", "equivalence", "boards", "puzzles"]
    data = json.loads(runner.invoke(app, ["stats", "--db", sample_sqlite, "--format", "json"]).stdout)
    assert [(r["not_proven_minimal"], r["minimal_unknown"]) for r in data["by_shape"]] == [(0, 0), (0, 0)]


def test_empty_catalogue(sqlite_url):
    assert runner.invoke(app, ["db", "upgrade", "--db", sqlite_url]).exit_code == 0
    result = runner.invoke(app, ["stats", "--db", sqlite_url, "--format", "json"])
    data = json.loads(result.stdout)
    assert (result.exit_code, data["boards"], data["runs"], data["levels"]["ungraded"]) == (0, 0, [], 0)
    table = runner.invoke(app, ["stats", "--db", sqlite_url, "--details"])
    assert table.exit_code == 0 and "runs\n(none)" in table.stdout


def test_a_missing_catalogue_is_not_created(tmp_path):
    path = tmp_path / "typo.db"
    result = runner.invoke(app, ["stats", "--db", str(path)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith(f"catalogue: no catalogue at {path}: ") and result.stderr.count("\n") == 1
    assert not path.exists()


def test_bad_format_is_one_line_with_the_valid_values(sample_sqlite):
    result = runner.invoke(app, ["stats", "--db", sample_sqlite, "--format", "csv"])
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "catalogue: --format: no format 'csv'; one of: table, json\n")
