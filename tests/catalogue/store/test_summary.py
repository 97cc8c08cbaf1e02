"""`catalogue stats` computes its aggregates in SQL (catalogue.store.summary): here they are checked against the
plain-Python twin (tests/naive/stats.py) on random catalogues, on SQLite and on PostgreSQL. The catalogues have
several sizes and equivalences (so the per-group counts are not all the catalogue-wide ones), duplicate metric
values, NULL scores and minimality, odd and even counts, and boards without puzzles."""
from __future__ import annotations

import datetime as dt
import re
import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive.stats import by_shape_and_clues, summarise

from catalogue.store import Catalogue
from catalogue.store.migrate import HEAD_REVISION
from catalogue.store.summary import SUMMARY_METRICS, median_of_middle, stats

GROUPS = [(4, "none"), (9, "d4"), (9, "none"), (16, "d4")]
small_int = st.integers(0, 40)
seconds = st.floats(0, 4, allow_nan=False, allow_infinity=False) | st.sampled_from([0.0, 0.5, 1.0, 2.0])

board_st = st.fixed_dictionaries({
    "group": st.sampled_from(GROUPS), "restarts": small_int, "generate_seconds": seconds,
    "puzzles": st.lists(st.fixed_dictionaries({
        "clues": st.integers(17, 30), "nodes": small_int, "guesses": small_int, "backtracks": small_int,
        "checks": st.integers(0, 2_000_000_000), "max_depth": st.integers(0, 3), "solve_seconds": seconds,
        "carve_checks": small_int, "carve_seconds": seconds,
        "score": st.none() | st.sampled_from([1.0, 1.5, 2.0, 4.5]) | seconds,
        "minimal": st.none() | st.booleans()}), max_size=2)})


def _fill(engine, boards: list[dict], runs: list[tuple[int, str, int]]) -> tuple[list[dict], list[dict]]:
    """Replace the catalogue's rows by ``boards`` (and one run per entry of ``runs``); the rows as inserted."""
    from sqlalchemy import delete, insert

    from catalogue.store.models import Board, Puzzle, Run

    now = dt.datetime(2025, 1, 1, tzinfo=dt.timezone.utc)
    board_rows, puzzle_rows = [], []
    for number, b in enumerate(boards):
        size, equivalence = b["group"]
        board_rows.append(dict(number=number, size=size, equivalence=equivalence, key=f"k{number}", board="x",
                               method="wfc", seed=number, restarts=b["restarts"],
                               generate_seconds=b["generate_seconds"], run_id=1, created_at=now))
        for variant, p in enumerate(b["puzzles"], start=1):
            puzzle_rows.append(dict(board_number=number, variant=variant, puzzle="x", symmetry="none", carve_seed=1,
                                    attempts=1, level=None, undecided=0, **p))
    with engine.begin() as conn:
        for model in (Puzzle, Board, Run):
            conn.execute(delete(model))
        for i, (size, equivalence, accepted) in enumerate(runs or [(9, "d4", 0)]):
            conn.execute(insert(Run).values(
                id=i + 1, started_at=now, status="completed", program_version="test", command="test", size=size,
                method="wfc", equivalence=equivalence, symmetry="none", seed=1, generators=1, checkers=1,
                queue_size=1, parameters="{}", generated=accepted, accepted=accepted, duplicates=0,
                contradictions=0))
        if board_rows:
            conn.execute(insert(Board), board_rows)
        if puzzle_rows:
            conn.execute(insert(Puzzle), puzzle_rows)
    return board_rows, puzzle_rows


def _check(catalogue, board_rows, puzzle_rows) -> None:
    got = catalogue.stats()
    assert (got["boards"], got["puzzles"]) == (len(board_rows), len(puzzle_rows))
    assert (got["by_shape"], got["clues"]) == by_shape_and_clues(board_rows, puzzle_rows)
    rows = {"puzzles": puzzle_rows, "boards": board_rows}
    for name, (table, column) in SUMMARY_METRICS.items():
        want = summarise(row[column] for row in rows[table])
        assert got["metrics"][name] == want, name
        # same values, same types: 3 stays int, 3.0 (a float column) stays float
        assert [type(v) for v in got["metrics"][name].values()] == [type(v) for v in want.values()], name


@pytest.fixture
def catalogue(catalogue_url):
    with Catalogue.open(catalogue_url) as cat:
        yield cat


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(boards=st.lists(board_st, max_size=14),
       runs=st.lists(st.tuples(st.sampled_from([4, 9, 16]), st.sampled_from(["d4", "none"]), st.integers(0, 9)),
                     max_size=3))
def test_stats_equal_the_python_twin(catalogue, boards, runs):
    """Whichever group the runs make look largest (the one computed by subtraction), the figures are the
    twin's; an empty catalogue gives Nones."""
    board_rows, puzzle_rows = _fill(catalogue.engine, boards, runs)
    _check(catalogue, board_rows, puzzle_rows)


def test_stats_of_one_metric_value_and_of_two(catalogue):
    """The edges of the median: one value (OFFSET 0 LIMIT 1), two (the mean of both), two equal ints (whole)."""
    one = {"group": (9, "d4"), "restarts": 3, "generate_seconds": 0.25, "puzzles": [
        {"clues": 20, "nodes": 5, "guesses": 1, "backtracks": 0, "checks": 7, "max_depth": 1,
         "solve_seconds": 0.5, "carve_checks": 9, "carve_seconds": 0.125, "score": None, "minimal": None}]}
    _check(catalogue, *_fill(catalogue.engine, [one], []))
    two = {**one, "restarts": 4, "puzzles": [{**one["puzzles"][0], "nodes": 8, "score": 2.0, "minimal": False}]}
    _check(catalogue, *_fill(catalogue.engine, [one, two], []))
    assert catalogue.stats()["metrics"]["nodes"]["median"] == 6.5
    assert catalogue.stats()["metrics"]["restarts"]["median"] == 3.5
    _check(catalogue, *_fill(catalogue.engine, [one, one], []))
    assert catalogue.stats()["metrics"]["nodes"] == {"min": 5, "median": 5, "max": 5}


@pytest.mark.parametrize("middle, median", [([3], 3), ([3, 4], 3.5), ([3, 5], 4), ([2.0, 4.0], 3.0),
                                            ([1.5], 1.5), ([1, 2.0], 1.5)])
def test_median_of_middle(middle, median):
    assert median_of_middle(middle) == median and type(median_of_middle(middle)) is type(median)


def test_no_statement_reads_a_whole_table(tmp_path):
    """Every statement of `stats` on SQLite goes through an index (a plain `SCAN puzzles` reads every wide row:
    ~0.4 s on 500,000 puzzles); the join of puzzles to boards happens only for the groups outside the largest."""
    url = f"sqlite:///{tmp_path / 'c.db'}"
    with Catalogue.open(url) as cat:
        p = {"clues": 20, "nodes": 5, "guesses": 1, "backtracks": 0, "checks": 7, "max_depth": 1, "solve_seconds": 0.5,
             "carve_checks": 9, "carve_seconds": 0.125, "score": 1.0, "minimal": True}
        _fill(cat.engine, [{"group": g, "restarts": 0, "generate_seconds": 0.1, "puzzles": [p]} for g in
                           [(9, "d4")] * 3 + [(4, "none")]], [(9, "d4", 3), (4, "none", 1)])
    statements = []
    conn = sqlite3.connect(tmp_path / "c.db")
    conn.set_trace_callback(statements.append)
    stats(conn)
    conn.set_trace_callback(None)
    assert len(statements) > 10
    joins = 0
    for sql in statements:
        plan = [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql)]
        assert not [step for step in plan if re.fullmatch(r"SCAN (b|p|boards|puzzles)", step)], (sql, plan)
        joins += " JOIN " in sql
    assert joins == 1  # the 4x4 group only
    conn.close()


def test_migration_0006_adds_and_drops_only_indexes(catalogue_url):
    from sqlalchemy import func, inspect, select

    from catalogue.store.migrate import downgrade
    from catalogue.store.models import Puzzle

    def indexed(engine) -> set[str]:  # the ix_ ones: PostgreSQL lists the index of the UNIQUE constraint too
        inspector = inspect(engine)
        return {ix["name"] for table in ("puzzles", "boards") for ix in inspector.get_indexes(table)
                if ix["name"].startswith("ix_")}

    with Catalogue.open(catalogue_url) as cat:
        p = {"clues": 20, "nodes": 5, "guesses": 1, "backtracks": 0, "checks": 7, "max_depth": 1, "solve_seconds": 0.5,
             "carve_checks": 9, "carve_seconds": 0.125, "score": 1.0, "minimal": True}
        _fill(cat.engine, [{"group": (9, "d4"), "restarts": 0, "generate_seconds": 0.1, "puzzles": [p]}], [])
        assert {"ix_puzzles_nodes", "ix_puzzles_minimal", "ix_boards_generate_seconds"} <= indexed(cat.engine)
        assert downgrade(cat.engine, catalogue_url, "0005") == (HEAD_REVISION, "0005")
        assert indexed(cat.engine) == {"ix_puzzles_board_number", "ix_puzzles_clues", "ix_puzzles_level",
                                       "ix_puzzles_hardest"}
        assert cat.upgrade() == ("0005", HEAD_REVISION)
        assert len(indexed(cat.engine)) == 4 + 12 + 1 + 1  # 0007: ix_puzzles_board_number_variant; 0008: technique
        with cat.engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(Puzzle)).scalar() == 1
