"""The Python API for getting puzzles out (catalogue/store/selection.py): typed records, the chainable
PuzzleQuery, uniform seeded samples, offset / limit / score filters and the daily puzzle, on real SQLite files and
the real PostgreSQL server. Samples and dailies must be the same on both for the same catalogue contents."""
from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
from collections import Counter

import pytest
from conftest import SYNTHETIC_ID as CATALOGUE_ID
from conftest import fill_synthetic as build
from conftest import sample_rows
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalogue.store import Catalogue
from catalogue.store import keyset, queries, selection
from catalogue.store.columns import RESULT_FIELDS
from catalogue.store.records import BoardPuzzle, BoardRecord, PuzzleRecord
from catalogue.store.selection import PuzzleFilter, PuzzleQuery, draw_positions, jump_hash

LEVELS = ("easy", "medium", "hard", "expert", "extreme")
SIZE = 60  # puzzles of the synthetic catalogue (conftest.fill_synthetic)


@pytest.fixture(scope="module")
def built(module_catalogue_url):
    """(catalogue, rows) on SQLite and on PostgreSQL, built once per module: the tests only read it."""
    rows = build(module_catalogue_url)
    with Catalogue.open(module_catalogue_url, create=False) as cat:
        yield cat, rows


@pytest.fixture(scope="module")
def fast(tmp_path_factory):
    """The synthetic catalogue on SQLite, once per module (for hypothesis)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('selection') / 'catalogue.db'}"
    rows = build(url)
    with Catalogue.open(url, create=False) as cat:
        yield cat, rows


def numbers(records) -> list[int]:
    return [r.number for r in records]


# -- typed records ------------------------------------------------------------------------------------------------

def test_records_are_typed_and_frozen_with_the_query_fields(sample_url):
    assert tuple(f.name for f in dataclasses.fields(PuzzleRecord)) == RESULT_FIELDS
    with Catalogue.open(sample_url, create=False) as cat:
        records = list(cat.puzzles())
        assert all(isinstance(r, PuzzleRecord) for r in records)
        assert [r.to_dict() for r in records] == sample_rows()
        with pytest.raises(dataclasses.FrozenInstanceError):
            records[0].clues = 3
        board = cat.board(1)
        assert isinstance(board, BoardRecord) and isinstance(board.puzzle, BoardPuzzle)
        assert (board.number, board.board, board.puzzle.puzzle, board.puzzle.minimal) == \
            (1, sample_rows()[1]["solution"], sample_rows()[1]["puzzle"], True)
        assert board.to_dict()["puzzle"]["techniques"] == '{"x-wing": 1}'
        assert cat.board(99) is None


def test_the_packages_are_typed():
    """PEP 561: the marker files exist and are package data, so wheels carry them."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    data = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    for package in ("catalogue", "engine"):
        assert (root / package / "py.typed").is_file() and "py.typed" in data[package]


# -- the chainable query ------------------------------------------------------------------------------------------

def test_a_query_is_lazy_immutable_and_chainable(built):
    cat, rows = built
    everything = cat.puzzles()
    assert isinstance(everything, PuzzleQuery) and len(everything) == SIZE == everything.count()
    hard = everything.where(level="hard")
    assert numbers(hard) == [r["number"] for r in rows if r["level"] == "hard"]
    top = hard.order_by("score", desc=True).limit(3)
    expected = sorted((r for r in rows if r["level"] == "hard"), key=lambda r: (-r["score"], r["number"]))[:3]
    assert [r.to_dict() for r in top] == expected
    assert len(top) == 3 and top.first().to_dict() == expected[0]
    assert numbers(hard.offset(2).limit(2)) == numbers(hard)[2:4]
    assert len(everything) == SIZE and everything.filter == PuzzleFilter()  # nothing above changed it
    assert cat.puzzles(clues=(20, 22)).count() == sum(20 <= r["clues"] <= 22 for r in rows)
    assert cat.puzzles(clues=21).filter == PuzzleFilter(min_clues=21, max_clues=21)
    assert cat.puzzles(min_clues=99).first() is None and len(cat.puzzles(min_clues=99)) == 0
    assert len(everything.offset(SIZE + 5)) == 0 and list(everything.offset(SIZE + 5)) == []


def test_bad_arguments_are_refused(fast):
    cat, _ = fast
    for bad in (lambda: cat.puzzles(colour="red"), lambda: cat.puzzles(min_clues=30, max_clues=20),
                lambda: cat.puzzles(min_score=5, max_score=2)):
        with pytest.raises((TypeError, ValueError)):
            bad()
    for bad in (lambda q: q.sample(-1), lambda q: q.offset(-2), lambda q: q.limit(-1),
                lambda q: q.order_by("clues; DROP TABLE boards"), lambda q: q.sample(2, seed="x")):
        with pytest.raises(ValueError):
            bad(cat.puzzles())


@pytest.mark.parametrize("low, high", [(None, 3.0), (4.5, None), (2.0, 6.0), (8.1, 9.0), (3.3, 3.3)])
def test_score_filters(built, low, high):
    cat, rows = built
    expected = [r["number"] for r in rows if r["score"] is not None and (low is None or r["score"] >= low)
                and (high is None or r["score"] <= high)]
    assert numbers(cat.puzzles(min_score=low, max_score=high)) == expected
    assert numbers(cat.puzzles(score=(low, high))) == expected


def test_offset_and_limit_on_every_order(built):
    cat, rows = built
    for key in ("number", "score", "level", "clues"):
        whole = numbers(cat.puzzles().order_by(key))
        assert [n for o in range(0, SIZE, 7) for n in numbers(cat.puzzles().order_by(key).offset(o).limit(7))] \
            == whole


# -- samples ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seek_ratio, bound", [(0, 10**6), (10**9, 10**6), (60, 2)],
                         ids=["always-seek", "always-read-ids", "too-many-ids-to-bind"])
def test_a_sample_is_the_same_on_sqlite_and_postgresql(sqlite_url, pg_url, monkeypatch, seek_ratio, bound):
    build(sqlite_url)
    build(pg_url)
    monkeypatch.setattr(selection, "SEEK_RATIO", seek_ratio)
    monkeypatch.setattr(selection, "MAX_BOUND_IDS", bound)
    with Catalogue.open(sqlite_url, create=False) as lite, Catalogue.open(pg_url, create=False) as pg:
        for seed, n, filters, key in [(0, 5, {}, "number"), (1, 5, {}, "score"), (7, 12, {"level": "easy"}, "clues"),
                                      (2**40, 3, {"min_score": 4.0}, "number"), (3, 100, {}, "level"),
                                      (5, 2, {"method": "backtrack", "clues": (17, 24)}, "number")]:
            query = lambda cat: cat.puzzles(**filters).sample(n, seed=seed).order_by(key)  # noqa: E731
            assert [r.to_dict() for r in query(lite)] == [r.to_dict() for r in query(pg)], (seed, n, filters)
        dailies = [(day, level) for day in ("2026-01-01", "2026-06-30", "2027-02-28") for level in LEVELS]
        assert [lite.daily(d, lv) for d, lv in dailies] == [pg.daily(d, lv) for d, lv in dailies]


def test_a_sample_is_reproducible_and_depends_on_the_seed(fast):
    cat, _ = fast
    first = numbers(cat.puzzles().sample(5, seed=42))
    assert numbers(cat.puzzles().sample(5, seed=42)) == first and len(set(first)) == 5
    assert len({tuple(numbers(cat.puzzles().sample(5, seed=s))) for s in range(20)}) == 20


@pytest.mark.parametrize("seek_ratio, bound", [(0, 10**6), (10**9, 10**6), (60, 1)],
                         ids=["always-seek", "always-read-ids", "too-many-ids-to-bind"])
def test_how_the_ids_are_found_never_changes_the_sample(fast, monkeypatch, seek_ratio, bound):
    cat, _ = fast
    cases = [(n, seed, filters, key) for n in (1, 4, 30) for seed in (0, 9)
             for filters, key in [({}, "number"), ({"level": "hard"}, "score"), ({"min_score": 3.0}, "level")]]
    before = [numbers(cat.puzzles(**f).sample(n, seed=s).order_by(k).offset(1)) for n, s, f, k in cases]
    monkeypatch.setattr(selection, "SEEK_RATIO", seek_ratio)
    monkeypatch.setattr(selection, "MAX_BOUND_IDS", bound)
    assert [numbers(cat.puzzles(**f).sample(n, seed=s).order_by(k).offset(1)) for n, s, f, k in cases] == before


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(0, SIZE + 5), seed=st.integers(0, 2**64), level=st.none() | st.sampled_from(LEVELS),
       min_clues=st.none() | st.integers(15, 30), key=st.sampled_from(["number", "score", "clues", "level"]),
       desc=st.booleans(), offset=st.integers(0, 8), limit=st.none() | st.integers(0, 8))
def test_sample_invariants(fast, n, seed, level, min_clues, key, desc, offset, limit):
    cat, _ = fast
    query = cat.puzzles(level=level, min_clues=min_clues)
    everything = [r.to_dict() for r in query]
    sample = [r.to_dict() for r in query.sample(n, seed=seed).order_by(key, desc=desc)]
    assert len(sample) == min(n, len(everything)) == len(query.sample(n, seed=seed))
    assert len({r["number"] for r in sample}) == len(sample)  # distinct
    assert all(r in everything for r in sample)  # a subset of the unsampled query
    # sorted like the query, and offset / limit are a window of it
    assert sample == [r for r in (x.to_dict() for x in query.order_by(key, desc=desc)) if r in sample]
    window = query.sample(n, seed=seed).order_by(key, desc=desc).offset(offset).limit(limit)
    assert [r.to_dict() for r in window] == sample[offset:None if limit is None else offset + limit]
    assert len(window) == len(sample[offset:None if limit is None else offset + limit])


def test_draw_positions_is_uniform_over_subsets():
    """Chi-square over every 3-subset of 7 positions, 7,000 seeds: p > 0.001 (the seeds are fixed, so this
    either always passes or always fails)."""
    population, k, seeds = 7, 3, 7000
    counts = Counter(tuple(draw_positions(seed, population, k)) for seed in range(seeds))
    subsets = list(itertools.combinations(range(population), k))
    assert set(counts) == set(subsets)
    expected = seeds / len(subsets)
    chi2 = sum((counts[s] - expected) ** 2 / expected for s in subsets)
    assert chi2 < 65.25  # chi-square, 34 degrees of freedom, p = 0.001


def test_a_sample_of_the_catalogue_is_uniform(fast):
    """Through the database: each of the 12 'hard' puzzles is in a 3-puzzle sample equally often (1,200
    seeds; chi-square with 11 degrees of freedom, p = 0.001)."""
    cat, rows = fast
    hard = [r["number"] for r in rows if r["level"] == "hard"]
    counts = Counter(n for seed in range(1200) for n in numbers(cat.puzzles(level="hard").sample(3, seed=seed)))
    assert set(counts) == set(hard)
    expected = 1200 * 3 / len(hard)
    assert sum((counts[n] - expected) ** 2 / expected for n in hard) < 31.26


# -- the daily puzzle ---------------------------------------------------------------------------------------------

def test_daily_is_stable_and_changes_with_the_date_and_level(fast):
    cat, rows = fast
    days = [dt.date(2026, 1, 1) + dt.timedelta(days=i) for i in range(40)]
    easy = [cat.daily(day, "easy") for day in days]
    assert easy == [cat.daily(day.isoformat(), "easy") for day in days]  # a date or its text
    assert all(r.level == "easy" for r in easy)
    assert len({r.number for r in easy}) >= 8  # 12 easy puzzles: 40 days take most of them
    assert sum(a.number != b.number for a, b in zip(easy, easy[1:])) >= 30  # not the same puzzle day after day
    assert {cat.daily("2026-03-01", level).level for level in LEVELS} == set(LEVELS)
    assert cat.daily("2026-03-01", "hard", min_clues=99) is None
    assert cat.daily("2026-03-01", "hard", clues=(17, 22)).clues <= 22
    assert cat.daily(None, "easy") == cat.daily(dt.date.today(), "easy")
    with pytest.raises(ValueError):
        cat.daily("2026-13-40", "easy")


def test_daily_survives_growth_mostly(tmp_path):
    """A catalogue grown from 60 to 66 puzzles keeps most days' puzzles; a day that changes gets a new one."""
    small, big = f"sqlite:///{tmp_path / 'small.db'}", f"sqlite:///{tmp_path / 'big.db'}"
    build(small, 60)
    build(big, 66)
    days = [dt.date(2026, 1, 1) + dt.timedelta(days=i) for i in range(200)]
    with Catalogue.open(small, create=False) as a, Catalogue.open(big, create=False) as b:
        pairs = [(a.daily(day).number, b.daily(day).number) for day in days]
    moved = [new for old, new in pairs if old != new]
    assert all(new >= 60 for new in moved)  # only ever to a new puzzle
    assert len(moved) < 40  # about 200 * 6 / 66 = 18 expected


@given(key=st.integers(0, 2**64 - 1), buckets=st.integers(1, 10**6))
def test_jump_hash_moves_only_into_new_buckets(key, buckets):
    before = jump_hash(key, buckets)
    assert 0 <= before < buckets
    assert jump_hash(key, buckets + 1) in (before, buckets)


def test_daily_depends_on_the_catalogue_id(fast):
    days = [dt.date(2026, 5, 1) + dt.timedelta(days=i) for i in range(30)]
    positions = [selection.daily_position(CATALOGUE_ID, day, "easy", 1000) for day in days]
    others = [selection.daily_position("f" * 32, day, "easy", 1000) for day in days]
    assert positions != others and len(set(positions)) > 25


def test_query_sql_is_the_same_on_both_databases_for_offsets(built):
    """An offset without a limit (LIMIT with the largest integer) works on both."""
    cat, rows = built
    assert numbers(cat.puzzles().offset(SIZE - 3)) == [r["number"] for r in rows][-3:]
    with cat.reading() as conn:
        assert queries.count_puzzles(conn, level="easy", min_score=2.0) == \
            sum(r["level"] == "easy" and r["score"] >= 2.0 for r in rows)


@pytest.mark.parametrize("filters", [{}, {"level": "hard"}, {"min_score": 3.0, "method": "wfc"}])
def test_three_ways_to_find_ids_at_positions_agree(built, filters):
    """Seeking (SQLite's way), numbering in the database (PostgreSQL's) and reading every id, on both."""
    cat, _ = built
    with cat.reading() as conn:
        every = queries.matching_ids(conn, **filters)
        positions = draw_positions(5, len(every), 4)
        expected = [every[p] for p in positions]
        assert queries.ids_at(conn, positions, **filters) == expected
        assert queries.ids_numbered(conn, positions, **filters) == expected
        assert queries.ids_numbered(conn, [], **filters) == []


# -- keyset paging ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", ["number", "score", "level", "clues", "solve_seconds", "size", "hardest"])
@pytest.mark.parametrize("desc", [False, True])
def test_after_a_cursor_is_the_rest_of_the_list(built, key, desc):
    """after(cursor of row i) gives rows i+1.. of the whole list, on both databases, for every order (score has
    NULLs, which come last either way; level's key is a rank): the slow twin is slicing the whole list."""
    cat, _ = built
    query = cat.puzzles().order_by(key, desc=desc)
    whole = list(query.dicts())
    for i in (0, 1, len(whole) // 2, len(whole) - 2, len(whole) - 1):
        cursor = keyset.cursor_of(whole[i], key)
        assert list(query.after(cursor).dicts()) == whole[i + 1:], (key, desc, i)
    hard = cat.puzzles(level="hard").order_by(key, desc=desc)
    rows = list(hard.dicts())
    if rows:
        assert list(hard.after(keyset.cursor_of(rows[0], key)).limit(3).dicts()) == rows[1:4]
