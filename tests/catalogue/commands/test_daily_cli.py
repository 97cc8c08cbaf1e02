"""`catalogue daily` and `catalogue query --sample/--seed/--offset/--min-score/--max-score` through the real CLI
app: they print what the Python API gives (they are thin calls of it), the same on SQLite and PostgreSQL, and
bad values are one-line usage errors (exit 2)."""
from __future__ import annotations

import json

import pytest
from conftest import fill_synthetic as build
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.store import Catalogue

runner = CliRunner()
LEVELS = ("easy", "medium", "hard", "expert", "extreme")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('daily') / 'catalogue.db'}"
    build(url)
    return url


def run(url, *args):
    return runner.invoke(app, [*args, "--db", url])


def test_daily_prints_one_puzzle_per_level(built):
    result = run(built, "daily", "--date", "2026-11-23", "--format", "json")
    assert result.exit_code == 0 and result.stderr == ""
    records = json.loads(result.stdout)
    assert [r["level"] for r in records] == list(LEVELS) and {r["date"] for r in records} == {"2026-11-23"}
    with Catalogue.open(built, create=False) as cat:
        assert [{k: v for k, v in r.items() if k != "date"} for r in records] == \
            [cat.daily("2026-11-23", level).to_dict() for level in LEVELS]
    again = run(built, "daily", "--date", "2026-11-23", "--format", "json").stdout
    assert again == result.stdout
    other_days = {run(built, "daily", "--date", f"2026-12-{d:02d}", "--level", "easy", "--format", "line").stdout
                  for d in range(1, 11)}
    assert len(other_days) >= 4


def test_daily_level_and_filters(built):
    result = run(built, "daily", "--date", "2026-01-05", "--level", "hard", "--max-clues", "22", "--format", "csv")
    assert result.exit_code == 0
    header, row = result.stdout.splitlines()
    record = dict(zip(header.split(","), row.split(",")))
    assert record["level"] == '"hard"' and int(record["clues"]) <= 22
    empty = run(built, "daily", "--level", "hard", "--min-clues", "80")
    assert (empty.exit_code, empty.stdout, empty.stderr) == (0, "", "catalogue: no puzzles match\n")
    table = run(built, "daily", "--date", "2026-01-05")
    assert table.exit_code == 0 and table.stdout.splitlines()[0].split()[:3] == ["date", "level", "number"]


@pytest.mark.postgres
def test_daily_and_samples_are_the_same_on_postgresql(built, pg_url):
    build(pg_url)
    for args in (["daily", "--date", "2026-02-14", "--format", "json"],
                 ["query", "--sample", "7", "--seed", "11", "--format", "json"],
                 ["query", "--sample", "4", "--seed", "3", "--level", "easy", "--order-by", "score", "--format",
                  "csv"]):
        assert run(built, *args).stdout == run(pg_url, *args).stdout, args


@pytest.mark.parametrize("args, message", [
    (["daily", "--date", "2026-13-40"], "catalogue: --date: not a date (YYYY-MM-DD): '2026-13-40'"),
    (["daily", "--date", "tomorrow"], "catalogue: --date: not a date (YYYY-MM-DD): 'tomorrow'"),
    (["daily", "--level", "hardest"], "catalogue: --level: no level 'hardest'; one of: easy, medium, hard, "
                                      "expert, extreme"),
    (["query", "--sample", "-3"], None),
    (["query", "--sample", "0"], None),
    (["query", "--offset", "-1"], None),
    (["query", "--seed", "4"], "catalogue: --seed chooses a sample: give --sample N too"),
    (["query", "--min-score", "5", "--max-score", "2"], "catalogue: --min-score 5 is above --max-score 2"),
    (["daily", "--min-score", "4.5", "--max-score", "2.5"], "catalogue: --min-score 4.5 is above --max-score 2.5"),
])
def test_bad_values_are_one_line_usage_errors(built, args, message):
    result = run(built, *args)
    assert result.exit_code == 2 and result.stdout == "" and len(result.stderr.splitlines()) == 1, result.stderr
    if message:
        assert result.stderr.strip() == message


def test_query_sample_is_the_api_sample(built):
    result = run(built, "query", "--sample", "5", "--seed", "9", "--order-by", "score", "--format", "json")
    assert result.exit_code == 0 and result.stderr == ""
    with Catalogue.open(built, create=False) as cat:
        assert json.loads(result.stdout) == [r.to_dict() for r in cat.puzzles().sample(5, seed=9).order_by("score")]
    # the whole sample is shown (the default limit of 100 does not cut it), then --offset and --limit window it
    big = run(built, "query", "--sample", "200", "--seed", "1", "--format", "line")
    assert len(big.stdout.splitlines()) == 60 and big.stderr == ""
    window = run(built, "query", "--sample", "20", "--seed", "1", "--offset", "5", "--limit", "4", "--format", "line")
    whole = run(built, "query", "--sample", "20", "--seed", "1", "--format", "line")
    assert window.stdout.splitlines() == whole.stdout.splitlines()[5:9]


def test_query_sample_without_a_seed_says_which_seed(built):
    result = run(built, "query", "--sample", "3", "--format", "line")
    assert result.exit_code == 0 and result.stderr.startswith("catalogue: sample drawn with --seed ")
    seed = result.stderr.split()[-1]
    assert run(built, "query", "--sample", "3", "--seed", seed, "--format", "line").stdout == result.stdout


def test_query_offset_and_score(built):
    every = run(built, "query", "--limit", "0", "--format", "json").stdout
    rows = json.loads(every)
    shown = json.loads(run(built, "query", "--offset", "50", "--format", "json").stdout)
    assert shown == rows[50:]
    scored = json.loads(run(built, "query", "--min-score", "3", "--max-score", "6", "--format", "json").stdout)
    assert scored == [r for r in rows if r["score"] is not None and 3 <= r["score"] <= 6]
