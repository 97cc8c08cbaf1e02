"""The writer's batch insert on real databases (SQLite file and PostgreSQL): numbering, duplicates, races."""
from __future__ import annotations

import threading

import pytest
from conftest import pattern_board
from sqlalchemy import insert, select, text

from catalogue.store import Catalogue, blocks
from catalogue.store import insert as store
from catalogue.store.insert import NumberingConflict, store_rows
from catalogue.store.models import Board, Puzzle, Run


@pytest.fixture
def engine(catalogue_url):
    engine = Catalogue.open(catalogue_url).engine
    yield engine
    engine.dispose()


def new_run(engine) -> int:
    with engine.begin() as conn:
        return conn.execute(insert(Run).values(
            status="running", program_version="test", command="test", size=9, shape="3x3", method="wfc", equivalence="d4",
            symmetry="none", seed=1, generators=1, checkers=1, queue_size=1).returning(Run.id)).scalar_one()


def rows(run_id: int, keys: list[str], size: int = 9) -> tuple[list[dict], list[dict]]:
    """Board and puzzle rows whose key is given (the board text need not be real for the store)."""
    board = pattern_board(3)
    boards = [{"size": size, "shape": {4: "2x2", 9: "3x3"}[size], "equivalence": "d4", "key": k, "board": board, "method": "wfc", "seed": i,
               "restarts": 0, "generate_seconds": 0.0, "run_id": run_id} for i, k in enumerate(keys)]
    puzzles = [{"puzzle": board, "clues": 81, "symmetry": "none", "target_clues": None, "carve_seed": i,
                "carve_checks": 0, "carve_seconds": 0.0, "attempts": 1, "minimal": True, "undecided": 0,
                "nodes": 0, "guesses": 0, "backtracks": 0, "checks": 0, "max_depth": 0, "solve_seconds": 0.0,
                "level": "easy", "score": 1.0, "hardest": "naked-single", "techniques": "{}"}
               for i in range(len(keys))]
    return boards, puzzles


def stored(engine) -> list[tuple[int, str, int]]:
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(
            select(Board.number, Board.key, Puzzle.carve_seed).join(Puzzle, Puzzle.board_number == Board.number)
            .order_by(Board.number))]


def test_numbers_start_at_zero_and_continue(engine):
    run = new_run(engine)
    assert store_rows(engine, *rows(run, ["a", "b", "c"])) == [0, 1, 2]
    assert store_rows(engine, *rows(run, ["d", "e"])) == [3, 4]
    # puzzle i belongs to board i of the batch
    assert stored(engine) == [(0, "a", 0), (1, "b", 1), (2, "c", 2), (3, "d", 0), (4, "e", 1)]


def test_minimality_round_trips(engine):
    boards, puzzles = rows(new_run(engine), ["a", "b", "c"])
    puzzles[1].update(minimal=False, undecided=12)  # a 25x25-style carving: tests cut off by the node limit
    puzzles[2].update(minimal=None, undecided=None)  # as a puzzle stored before migration 0003 reads
    store_rows(engine, boards, puzzles)
    with engine.connect() as conn:
        got = conn.execute(select(Puzzle.board_number, Puzzle.minimal, Puzzle.undecided)
                           .order_by(Puzzle.board_number)).all()
    assert [tuple(r) for r in got] == [(0, True, 0), (1, False, 12), (2, None, None)]


def test_duplicates_in_the_catalogue_and_in_the_batch_are_dropped(engine):
    run = new_run(engine)
    store_rows(engine, *rows(run, ["a", "b"]))
    assert store_rows(engine, *rows(run, ["b", "x", "x", "a", "y"])) == [None, 2, None, None, 3]
    assert [k for _, k, _ in stored(engine)] == ["a", "b", "x", "y"]
    # the same key under another size is another class
    assert store_rows(engine, *rows(run, ["a"], size=4)) == [4]


def test_limit_and_watermark(engine):
    run = new_run(engine)
    assert store_rows(engine, *rows(run, ["a", "b", "c", "d"]), limit=2) == [0, 1, None, None]
    assert store_rows(engine, [], [], run_id=run, files_through=1) == []
    with engine.connect() as conn:
        assert conn.execute(select(Run.files_through).where(Run.id == run)).scalar() == 1


def test_belt_rolls_back_and_retries_when_a_key_slips_in(engine, monkeypatch):
    """If the existence check misses a key (a writer bypassing the lock), the insert's ON CONFLICT skips the
    row, the numbering would have a gap: the batch is rolled back and retried, and the retry sees the key."""
    run = new_run(engine)
    store_rows(engine, *rows(run, ["a"]))
    real, calls = store.existing_keys, []

    def blind_once(conn, boards):
        calls.append(1)
        return set() if len(calls) == 1 else real(conn, boards)

    def blind(check) -> None:  # where the check is called: the insert under the lock (SQLite), a block (PostgreSQL)
        monkeypatch.setattr(store, "existing_keys", check)
        monkeypatch.setattr(blocks, "existing_keys", check)

    blind(blind_once)
    assert store_rows(engine, *rows(run, ["b", "a", "c"])) == [1, None, 2]
    assert len(calls) == 2 and [n for n, _, _ in stored(engine)] == [0, 1, 2]
    blind(lambda conn, boards: set())
    with pytest.raises(NumberingConflict):
        store_rows(engine, *rows(run, ["a", "d"]))
    assert [n for n, _, _ in stored(engine)] == [0, 1, 2]  # every failed try was rolled back


@pytest.mark.slow
def test_concurrent_writers_never_share_a_number_or_store_a_key_twice(catalogue_url):
    """Four threads, each with its own engine (own connections, like separate processes), overlapping keys."""
    setup = Catalogue.open(catalogue_url).engine
    run = new_run(setup)
    results: list[list] = []
    errors: list = []

    def writer(offset: int):
        engine = Catalogue.open(catalogue_url).engine
        try:
            for b in range(10):
                keys = [f"k{(offset + b * 7 + j) % 120}" for j in range(12)]
                results.append(store_rows(engine, *rows(run, keys)))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
        finally:
            engine.dispose()

    threads = [threading.Thread(target=writer, args=(o,)) for o in (0, 5, 11, 17)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors
    numbers = sorted(n for r in results for n in r if n is not None)
    data = stored(setup)
    assert numbers == [n for n, _, _ in data] == list(range(len(data)))
    assert len({k for _, k, _ in data}) == len(data)
    with setup.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM puzzles")).scalar() == len(data)
    setup.dispose()
