"""Read-side queries against hand-inserted rows, through every kind of connection the commands use:
the stdlib sqlite3 fast path, SQLAlchemy on SQLite, and SQLAlchemy on PostgreSQL. Each result is compared with a
plain-Python twin that filters and sorts the same sample."""
from __future__ import annotations

import sqlite3

import pytest
from catalogue.store.database import make_engine
from conftest import fill_sample, sample_rows
from hypothesis import given, settings
from hypothesis import strategies as st

from catalogue.store import Catalogue
from catalogue.store import queries as repository
from catalogue.store.columns import ORDER_KEYS, RESULT_FIELDS
from engine.vocabulary import LEVELS, TECHNIQUES
from catalogue.store.queries import get_board, query_puzzles
from catalogue.store.summary import stats
from engine.vocabulary import STEP_NAMES, TECHNIQUE_OF


@pytest.fixture(scope="module")
def sample_sqlite_url(tmp_path_factory) -> str:
    """The sample catalogue on SQLite, filled once per module: the tests only read it."""
    url = f"sqlite:///{tmp_path_factory.mktemp('sample') / 'catalogue.db'}"
    fill_sample(url)
    return url


@pytest.fixture(scope="module")
def sample_pg_url(module_pg_url) -> str:
    """The sample catalogue on PostgreSQL, filled once per module."""
    fill_sample(module_pg_url)
    return module_pg_url


@pytest.fixture(params=["sqlite3", "sqlalchemy-sqlite", "postgresql"])
def conn(request):
    """A connection on the sample catalogue, of each kind the repository accepts."""
    if request.param == "postgresql":
        request.applymarker(pytest.mark.postgres)
        url = request.getfixturevalue("sample_pg_url")
    else:
        url = request.getfixturevalue("sample_sqlite_url")
    if request.param == "sqlalchemy-sqlite":
        engine = make_engine(url)
        with engine.connect() as c:
            yield c
        engine.dispose()
        return
    with Catalogue.open(url, create=False).reading() as c:
        assert isinstance(c, sqlite3.Connection) == (request.param == "sqlite3")
        yield c


def twin(rows, min_clues=None, max_clues=None, size=None, shape=None, equivalence=None, method=None, source=None,
         level=None, technique=None, order_by="number", desc=False, limit=None):
    """The slow, obvious version of query_puzzles on the sample rows."""
    keep = [r for r in rows
            if (min_clues is None or r["clues"] >= min_clues) and (max_clues is None or r["clues"] <= max_clues)
            and (size is None or r["size"] == size)
            and (shape is None or r["shape"] == shape or r["shape"].startswith(shape + ":"))
            and (equivalence is None or r["equivalence"] == equivalence)
            and (method is None or r["method"] == method) and (source is None or r["source"] == source)
            and (level is None or r["level"] == level)
            and (technique is None or r["technique"] == technique)]
    rank = {name: i for i, name in enumerate(LEVELS)}

    def value(r):
        # the hardest step by its technique, in the technique table's order (as the grader tries them), then by
        # its name's place among the technique's; guessing next, none last
        if order_by == "hardest":
            step = r["hardest"]
            if step == "guessing":
                return (len(TECHNIQUES), 0)
            if step in TECHNIQUE_OF:
                return (TECHNIQUES.index(TECHNIQUE_OF[step]), STEP_NAMES[TECHNIQUE_OF[step]].index(step))
            return (len(TECHNIQUES) + 1, 0)
        return rank.get(r["level"], len(LEVELS)) if order_by == "level" else r[order_by]

    present = sorted((r for r in keep if value(r) is not None), key=lambda r: (value(r), r["number"]),
                     reverse=desc)
    missing = sorted((r for r in keep if value(r) is None), key=lambda r: r["number"], reverse=desc)
    keep = present + missing  # NULLs (ungraded) last in both directions
    return keep if limit is None else keep[:limit]


def numbers(rows):
    return [r["number"] for r in rows]


def test_all_puzzles_with_every_field(conn):
    assert query_puzzles(conn) == sample_rows()
    assert tuple(query_puzzles(conn, limit=1)[0]) == RESULT_FIELDS


@pytest.mark.parametrize("filters, expected", [
    ({"min_clues": 21}, [0, 2, 4]),
    ({"max_clues": 21}, [1, 3, 4]),
    ({"min_clues": 20, "max_clues": 21}, [1, 4]),
    ({"size": 4}, [3]),
    ({"equivalence": "none"}, [3]),
    ({"method": "wfc"}, [0, 2, 4]),
    ({"level": "easy"}, [0, 2]),
    ({"technique": "x-wing"}, [1]),
    ({"min_clues": 21, "method": "wfc", "level": "easy"}, [0, 2]),
    ({"min_clues": 99}, []),
])
@pytest.mark.slow
def test_filters(conn, filters, expected):
    assert numbers(query_puzzles(conn, **filters)) == expected
    assert query_puzzles(conn, **filters) == twin(sample_rows(), **filters)


@pytest.mark.parametrize("key", sorted(ORDER_KEYS))
@pytest.mark.parametrize("desc", [False, True])
@pytest.mark.slow
def test_every_order_key_both_ways(conn, key, desc):
    got = query_puzzles(conn, order_by=key, desc=desc)
    assert numbers(got) == numbers(twin(sample_rows(), order_by=key, desc=desc))


def test_ungraded_puzzles_sort_last_both_ways(conn):
    assert numbers(query_puzzles(conn, order_by="score")) == [2, 0, 1, 4, 3]
    assert numbers(query_puzzles(conn, order_by="score", desc=True)) == [4, 1, 0, 2, 3]
    assert numbers(query_puzzles(conn, order_by="level")) == [0, 2, 1, 4, 3]


def test_limit(conn):
    assert numbers(query_puzzles(conn, order_by="clues", limit=2)) == [3, 1]
    assert numbers(query_puzzles(conn, limit=0)) == []


def test_unknown_order_key_is_refused_before_any_sql(conn):
    with pytest.raises(KeyError):
        query_puzzles(conn, order_by="clues; DROP TABLE boards")


@pytest.mark.parametrize("field, value", [
    ("method", "wfc' OR '1'='1"),
    ("technique", "x'); DROP TABLE boards; --"),
    ("equivalence", "d4\" OR 1=1 --"),
])
@pytest.mark.slow
def test_injection_in_filters_is_just_a_value(conn, field, value):
    assert query_puzzles(conn, **{field: value}) == []
    assert len(query_puzzles(conn)) == 5  # nothing was dropped


def test_get_board(conn):
    board = get_board(conn, 1)
    row = sample_rows()[1]
    assert (board["number"], board["size"], board["board"], board["seed"], board["method"]) == \
        (1, 9, row["solution"], 1001, "backtrack")
    assert board["puzzle"]["puzzle"] == row["puzzle"] and board["puzzle"]["clues"] == row["clues"]
    assert board["puzzle"]["techniques"] == '{"x-wing": 1}' and board["puzzle"]["nodes"] == 480
    # a Boolean comes back as True / False / None whatever the connection (SQLite stores 0 / 1)
    got = [get_board(conn, n)["puzzle"] for n in (1, 4, 3)]
    assert [(p["minimal"], p["undecided"]) for p in got] == [(True, 0), (False, 3), (None, None)]
    assert [type(p["minimal"]) for p in got] == [bool, bool, type(None)]  # 1 == True would hide a plain int
    assert get_board(conn, 99) is None and get_board(conn, -1) is None


def test_stats(conn):
    s = stats(conn)
    assert (s["boards"], s["puzzles"], s["generated"], s["duplicates"], s["contradictions"]) == (5, 5, 9, 3, 1)
    assert s["by_shape"] == [{"size": 4, "shape": "2x2", "equivalence": "none", "boards": 1, "puzzles": 1, "not_proven_minimal": 0,
                             "minimal_unknown": 1},
                            {"size": 9, "shape": "3x3", "equivalence": "d4", "boards": 4, "puzzles": 4, "not_proven_minimal": 1,
                             "minimal_unknown": 0}]
    assert s["clues"] == [{"size": 4, "shape": "2x2", "clues": 8, "puzzles": 1}, {"size": 9, "shape": "3x3", "clues": 20, "puzzles": 1},
                          {"size": 9, "shape": "3x3", "clues": 21, "puzzles": 1}, {"size": 9, "shape": "3x3", "clues": 27, "puzzles": 1},
                          {"size": 9, "shape": "3x3", "clues": 41, "puzzles": 1}]
    assert s["metrics"]["nodes"] == {"min": 7, "median": 120, "max": 480}
    assert s["metrics"]["score"] == {"min": 1.2, "median": pytest.approx(2.85), "max": 6.1}  # 4 graded: mean of 2
    assert s["metrics"]["restarts"] == {"min": 0, "median": 2, "max": 4}
    assert s["levels"] == {"easy": 2, "medium": 0, "hard": 1, "expert": 1, "extreme": 0, "ungraded": 1}
    (run,) = s["runs"]
    assert run["started_at"] == "2024-06-01T12:00:00Z" and run["finished_at"] == "2024-06-01T12:00:02Z"
    assert (run["status"], run["accepted"], run["boards_per_second"]) == ("completed", 5, 2.5)
    assert run["stage_stats"] == {"generate": {"items": 9}}


def test_stats_of_an_empty_catalogue(sqlite_url):
    Catalogue.open(sqlite_url).engine.dispose()
    with Catalogue.open(sqlite_url, create=False).reading() as c:
        s = stats(c)
    assert (s["boards"], s["puzzles"], s["duplicates"], s["by_shape"], s["clues"], s["runs"]) == (0, 0, 0, [], [], [])
    assert s["metrics"]["nodes"] == {"min": None, "median": None, "max": None}


@pytest.fixture(scope="module")
def fast_conn(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('repo') / 'catalogue.db'}"
    fill_sample(url)
    with Catalogue.open(url, create=False).reading() as c:
        yield c


@settings(max_examples=60, deadline=None)
@given(min_clues=st.none() | st.integers(0, 45), max_clues=st.none() | st.integers(0, 45),
       size=st.none() | st.sampled_from([4, 9, 16]), shape=st.none() | st.sampled_from(["2x2", "3x3", "2x3"]),
       method=st.none() | st.sampled_from(["wfc", "backtrack"]),
       level=st.none() | st.sampled_from(LEVELS), order_by=st.sampled_from(sorted(ORDER_KEYS)),
       desc=st.booleans(), limit=st.none() | st.integers(0, 6))
def test_any_query_matches_the_twin(fast_conn, min_clues, max_clues, size, shape, method, level, order_by, desc,
                                    limit):
    options = dict(min_clues=min_clues, max_clues=max_clues, size=size, shape=shape, method=method, level=level,
                   order_by=order_by, desc=desc, limit=limit)
    assert query_puzzles(fast_conn, **options) == twin(sample_rows(), **options)


@pytest.mark.parametrize("row_cost", [0, 10**9], ids=["always-index", "always-scan"])
@pytest.mark.parametrize("options", [
    dict(min_clues=21), dict(max_clues=21, order_by="nodes", desc=True), dict(level="easy", limit=1),
    dict(level="hard", technique="x-wing"), dict(min_clues=20, max_clues=30, level="easy", order_by="score"),
    dict(size=9, min_clues=21, order_by="size", limit=2), dict(technique="naked-single", order_by="level"),
    dict(source="sample.sdm"), dict(source="sample.sdm", level="easy", order_by="score"),
])
def test_sqlite_plan_choice_never_changes_the_rows(fast_conn, monkeypatch, row_cost, options):
    """The index-or-scan choice for SQLite (repository._prefer_scan) picks a plan, never different rows."""
    monkeypatch.setattr(repository, "INDEX_ROW_COST", row_cost)
    assert query_puzzles(fast_conn, **options) == twin(sample_rows(), **options)


@pytest.mark.parametrize("big", [2 ** 63, 10 ** 20, -2 ** 64])
def test_integers_beyond_64_bits_are_just_absent(conn, big):
    # the sqlite3 driver raised OverflowError on them (a traceback from `catalogue export 99999999999999999999`);
    # clamped into SQLite's range they select exactly the rows the true value would
    assert get_board(conn, big) is None
    everything = numbers(query_puzzles(conn))
    assert query_puzzles(conn, min_clues=abs(big)) == [] and query_puzzles(conn, size=big) == []
    assert numbers(query_puzzles(conn, max_clues=abs(big), limit=abs(big))) == everything
