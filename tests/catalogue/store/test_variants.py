"""A number for every puzzle: a board's puzzles are N, N.2, N.3 ... (variant 1, 2, 3), stored so by the import and
by migration 0007, reached separately by export, the API and the page; and the daily puzzle of a day moves only to a
puzzle a fill or an import added (a year of days, before and after each)."""
from __future__ import annotations

import datetime as dt
import json
import urllib.error
import urllib.request

import pytest
from conftest import extra_puzzles, running_server
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.store import Catalogue
from catalogue.store.records import parse_puzzle_name, puzzle_name
from engine.vocabulary import LEVELS

runner = CliRunner()


def cli(*args):
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def test_names_read_back():
    assert [puzzle_name(7, 1), puzzle_name(7, None), puzzle_name(7, 2)] == ["7", "7", "7.2"]
    assert [parse_puzzle_name(t) for t in ("7", "7.2", " 12.10 ")] == [(7, 1), (7, 2), (12, 10)]
    for bad in ("", "-1", "7.", "7.0", "7.-1", "x", "7.2.3", "١٢"):
        with pytest.raises(ValueError, match="not a puzzle number"):
            parse_puzzle_name(bad)


@pytest.fixture
def two_on_a_board(tmp_path):
    url = f"sqlite:///{tmp_path / 'c.db'}"
    cli("fill", "--count", "4", "--seed", "11", "--db", url)
    (tmp_path / "more.txt").write_text(extra_puzzles(url, [2], 99))
    cli("import", str(tmp_path / "more.txt"), "--db", url)
    return url


def test_a_second_puzzle_of_a_board_has_its_own_name_everywhere(two_on_a_board):
    url = two_on_a_board
    records = json.loads(cli("query", "--db", url, "--format", "json"))
    assert [(r["number"], r["variant"]) for r in records] == [(0, 1), (1, 1), (2, 1), (2, 2), (3, 1)]
    first, second = records[2], records[3]
    assert first["puzzle"] != second["puzzle"] and first["solution"] == second["solution"]
    assert cli("export", "2", "--db", url, "--format", "line") == first["puzzle"] + "\n"
    assert cli("export", "2.2", "--db", url, "--format", "line") == second["puzzle"] + "\n"
    whole = json.loads(cli("export", "2.2", "--db", url, "--format", "json"))
    assert {k: whole[k] for k in second} == second
    table = cli("query", "--db", url, "--max-clues", "81", "--format", "table")
    assert [line.split()[0] for line in table.splitlines()[2:] if line.strip() and line[:6].strip()] == \
        ["0", "1", "2", "2.2", "3"]
    missing = runner.invoke(app, ["export", "2.3", "--db", url])
    assert (missing.exit_code, missing.stderr) == (1, f"catalogue: board 2 has no puzzle 2.3 in {url[10:]}\n")
    bad = runner.invoke(app, ["export", "2.0", "--db", url])
    assert bad.exit_code == 2 and "not a puzzle number" in bad.stderr


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def test_the_api_reaches_each_puzzle(two_on_a_board):
    with running_server(two_on_a_board[len("sqlite:///"):]) as base:
        (s1, first), (s2, second) = get(base + "/api/puzzles/2"), get(base + "/api/puzzles/2.2")
        first, second = json.loads(first), json.loads(second)
        assert (s1, s2, first["variant"], second["variant"]) == (200, 200, 1, 2)
        assert first["puzzle"] != second["puzzle"]
        assert json.loads(get(base + "/api/boards/2")[1]) == first
        status, svg = get(base + "/puzzles/2.2.svg")
        assert status == 200 and b"<svg" in svg
        assert get(base + "/api/puzzles/2.3")[0] == 404
        status, body = get(base + "/api/puzzles/2.x")
        assert status == 400 and "not a puzzle number" in json.loads(body)["error"]


def test_migration_0007_numbers_the_puzzles_of_each_board_in_stored_order(sqlite_url):
    from alembic import command

    from catalogue.store.migrate import alembic_config

    command.upgrade(alembic_config(sqlite_url), "0006")
    engine = create_engine(sqlite_url)
    now = dt.datetime(2025, 1, 1)
    with engine.begin() as conn:
        # every column a run must have, whatever its type: a 0 or a text fits each of them in SQLite
        needed = [row[1] for row in conn.execute(text("PRAGMA table_info(runs)")) if row[3] and row[1] != "id"]
        marks = ", ".join(":" + name for name in needed)
        conn.execute(text(f"INSERT INTO runs (id, {', '.join(needed)}) VALUES (1, {marks})"),
                     {name: now if name == "started_at" else "completed" if name == "status" else 0 for name in needed})
        for number in (0, 1):
            conn.execute(text("INSERT INTO boards (number, size, equivalence, key, board, method, seed, restarts, "
                              "generate_seconds, run_id, created_at) VALUES (:n, 9, 'd4', :k, 'b', 'wfc', 1, 0, 0, "
                              "1, :now)"), {"n": number, "k": f"k{number}", "now": now})
        for board in (0, 1, 0, 0):  # board 0 carries three puzzles, stored in this order
            conn.execute(text("INSERT INTO puzzles (board_number, puzzle, clues, symmetry, carve_seed, carve_checks, "
                              "carve_seconds, attempts, nodes, guesses, backtracks, checks, max_depth, solve_seconds) "
                              "VALUES (:b, 'p', 1, 'none', 1, 1, 0, 1, 1, 0, 0, 1, 0, 0)"), {"b": board})
    engine.dispose()
    Catalogue.open(sqlite_url).engine.dispose()  # opening migrates to head
    engine = create_engine(sqlite_url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT board_number, variant FROM puzzles ORDER BY id")).all()
    engine.dispose()
    assert [tuple(r) for r in rows] == [(0, 1), (1, 1), (0, 2), (0, 3)]


def calendar(url: str, days) -> dict:
    """(day, level) -> the daily puzzle's id, for every level and for none."""
    with Catalogue.open(url, create=False) as cat:
        engine = create_engine(url)
        with engine.connect() as conn:
            ids = {(r.board_number, r.puzzle): r.id for r in conn.execute(text(
                "SELECT id, board_number, puzzle FROM puzzles"))}
        engine.dispose()
        out = {}
        for day in days:
            for level in (None, *LEVELS):
                record = cat.daily(day, level)
                out[(day, level)] = None if record is None else ids[(record.number, record.puzzle)]
    return out


def ids_of(url: str) -> set[int]:
    engine = create_engine(url)
    with engine.connect() as conn:
        found = set(conn.execute(text("SELECT id FROM puzzles")).scalars())
    engine.dispose()
    return found


@pytest.mark.slow
def test_a_days_puzzle_moves_only_to_a_puzzle_just_added(tmp_path):
    url = f"sqlite:///{tmp_path / 'c.db'}"
    cli("fill", "--count", "40", "--seed", "5", "--db", url)
    # every third day of a year: 122 days, each with every level and none (732 daily picks a calendar)
    days = [dt.date(2027, 1, 1) + dt.timedelta(days=k) for k in range(0, 365, 3)]
    before, ids = calendar(url, days), ids_of(url)
    moved = 0
    # an import onto known boards (their second and third puzzles) and of puzzles of new boards, then a fill
    (tmp_path / "known.txt").write_text(extra_puzzles(url, [3, 17, 17, 30, 39], 1000))
    steps = [("import", str(tmp_path / "known.txt")), ("fill", "--count", "10", "--seed", "6")]
    for step in steps:
        cli(*step, "--db", url)
        after, now = calendar(url, days), ids_of(url)
        added = now - ids
        assert added, step
        for key, pick in after.items():
            assert pick == before[key] or pick in added, f"{step[0]}: {key} moved to an old puzzle"
            moved += pick != before[key]
        before, ids = after, now
    assert moved, "some day took one of the added puzzles"
