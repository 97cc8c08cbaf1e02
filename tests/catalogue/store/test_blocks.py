"""Blocks of numbers on PostgreSQL (catalogue.store.blocks): real writer processes against a real server.

Several processes store overlapping batches at once; a writer dies holding a block, before and after inserting
its rows; an earlier block's writer waits for a key a later block holds. Every time: numbers 0..N-1 without a gap,
every key once, and the N.txt files those of the rows.
"""
from __future__ import annotations

import datetime
import multiprocessing
import os
import signal
import threading
import time

import numpy as np
import pytest
from sqlalchemy import insert, select, text

from catalogue.store import Catalogue
from catalogue.store import blocks as store
from catalogue.store.database import live_blocks, write_transaction
from catalogue.store.models import Board, Run

pytestmark = pytest.mark.postgres

BOX = 3
#: forked writers start at once (no interpreter start-up): the test is about their overlap, not their start
CTX = multiprocessing.get_context("fork")


def pool(count: int, seed: int = 1):
    """``count`` distinct real 9x9 boards: (cells array, board rows, puzzle rows), row i for board i."""
    from engine.formats.batch import lines
    from engine.generators import generate_many
    from engine.keys import key_texts

    cells = np.stack([b.cells for b in generate_many(BOX, "backtrack", count, seed)])
    keys = key_texts(cells, BOX, "d4")
    unique = sorted({k: i for i, k in enumerate(keys)}.values())
    cells = cells[unique]
    keys = [keys[i] for i in unique]
    texts = lines(cells)
    boards = [{"size": 9, "shape": "3x3", "equivalence": "d4", "key": k, "board": t, "method": "backtrack", "seed": i,
               "restarts": 0, "generate_seconds": 0.0} for i, (k, t) in enumerate(zip(keys, texts))]
    puzzles = [{"puzzle": t, "clues": 81, "symmetry": "none", "target_clues": None, "carve_seed": i,
                "carve_checks": 0, "carve_seconds": 0.0, "attempts": 1, "minimal": True, "undecided": 0,
                "nodes": 0, "guesses": 0, "backtracks": 0, "checks": 0, "max_depth": 0, "solve_seconds": 0.0,
                "level": "easy", "score": 1.0, "hardest": "naked-single", "techniques": "{}"}
               for i, t in enumerate(texts)]
    return cells, boards, puzzles


def new_run(engine) -> int:
    with engine.begin() as conn:
        return conn.execute(insert(Run).values(
            status="running", program_version="test", command="test", size=9, shape="3x3", method="backtrack",
            equivalence="d4", symmetry="none", seed=1, generators=1, checkers=1, queue_size=1).returning(Run.id)
        ).scalar_one()


def subset(data, rows, run_id):
    cells, boards, puzzles = data
    return (cells[rows], [{**boards[i], "run_id": run_id} for i in rows], [dict(puzzles[i]) for i in rows])


def writer(url: str, folder: str, data, windows, run_id: int, out) -> None:
    """A fill's writer in its own process: store each batch, then write its files (Catalogue's write path)."""
    catalogue = Catalogue(url, folder)
    got = []
    files_through = None
    for rows in windows:
        cells, boards, puzzles = subset(data, rows, run_id)
        # every process writes the watermark of the same run: they must not wait for each other's row lock
        numbers = catalogue.store_batch(boards, puzzles, run_id=run_id, files_through=files_through)
        kept = [i for i, n in enumerate(numbers) if n is not None]
        catalogue.write_board_files([numbers[i] for i in kept], cells[kept], f"{BOX}x{BOX}")
        files_through = max([numbers[i] for i in kept], default=files_through)
        got.append(numbers)
    catalogue.close()
    out.put(got)


def assert_whole(url: str, folder, keys: set[str]) -> list[int]:
    """Numbers 0..N-1, each key of ``keys`` once and no other, every file its row's; returns the numbers."""
    with Catalogue.open(url, folder) as cat:
        report = cat.check_database(full=True)
        files = cat.check_files(full=True)
        with cat.engine.connect() as conn:
            stored = conn.execute(select(Board.number, Board.key).order_by(Board.number)).all()
    assert report.problems == [] and files.problems == 0 and files.strays == []
    assert [n for n, _ in stored] == list(range(len(stored)))
    assert sorted(k for _, k in stored) == sorted(keys)
    return [n for n, _ in stored]


@pytest.fixture
def catalogue(pg_url, tmp_path):
    folder = tmp_path / "boards"
    with Catalogue.open(pg_url, folder) as cat:
        cat.claim_folder()
        run_id = new_run(cat.engine)
    return pg_url, folder, run_id


@pytest.mark.slow
def test_four_processes_with_overlapping_batches(catalogue):
    url, folder, run_id = catalogue
    data = pool(700)
    n = len(data[1])
    # each process takes 12 windows of 40 boards; the windows of different processes overlap by about half
    windows = [[[(start + 23 * w + j) % n for j in range(40)] for w in range(12)] for start in (0, 11, 29, 53)]
    out = CTX.Queue()
    procs = [CTX.Process(target=writer, args=(url, str(folder), data, w, run_id, out)) for w in windows]
    for p in procs:
        p.start()
    try:
        results = [out.get(timeout=120) for _ in procs]
        for p in procs:
            p.join(30)
            assert p.exitcode == 0
    finally:  # writers left waiting must not outlive the test: the fixture's DROP SCHEMA would wait for them
        for p in procs:
            if p.is_alive():
                p.kill()
                p.join(10)
    numbers = sorted(x for r in results for batch in r for x in batch if x is not None)
    wanted = {data[1][i]["key"] for w in windows for rows in w for i in rows}
    assert numbers == assert_whole(url, folder, wanted)  # each number handed out once, as stored


def hold_a_block(url: str, rows, run_id: int, insert_rows: bool, ready) -> None:
    """A writer that reserves a block (and inserts its rows, uncommitted) and then hangs until it is killed."""
    data = pool(300, seed=2)
    _, boards, puzzles = subset(data, rows, run_id)
    engine = Catalogue(url).engine
    conn = engine.connect()
    block, first = store._reserve(conn, len(rows))
    if insert_rows:
        conn.begin()
        store._insert_rows(conn, boards, puzzles, list(range(len(rows))), first,
                           datetime.datetime.now(datetime.timezone.utc))
    ready.set()
    time.sleep(600)


def store_in_thread(url, folder, cells, boards, puzzles):
    result: dict = {}

    def run():
        with Catalogue(url, folder) as cat:
            numbers = cat.store_batch(boards, puzzles)
            kept = [i for i, x in enumerate(numbers) if x is not None]
            cat.write_board_files([numbers[i] for i in kept], cells[kept], f"{BOX}x{BOX}")
            result["numbers"] = numbers

    thread = threading.Thread(target=run)
    thread.start()
    return thread, result


@pytest.mark.slow
@pytest.mark.parametrize("insert_rows", [False, True], ids=["dies-after-reserving", "dies-after-inserting"])
def test_a_writer_that_dies_with_a_block_leaves_no_gap(catalogue, insert_rows):
    """The next block's writer waits for the dead one's turn, then renumbers its own rows down: no gap, and the
    files carry the numbers the rows were committed with. A plain write transaction waits for the blocks too."""
    url, folder, run_id = catalogue
    data = pool(300, seed=2)
    first_rows = list(range(10))
    with Catalogue(url, folder) as cat:  # boards 0..9 before anything happens
        cells, boards, puzzles = subset(data, first_rows, run_id)
        assert cat.store_batch(boards, puzzles) == list(range(10))
        cat.write_board_files(list(range(10)), cells, f"{BOX}x{BOX}")
    ready = CTX.Event()
    dying = CTX.Process(target=hold_a_block, args=(url, list(range(100, 150)), run_id, insert_rows, ready))
    dying.start()
    assert ready.wait(60)
    cells, boards, puzzles = subset(data, list(range(20, 40)), run_id)
    thread, result = store_in_thread(url, folder, cells, boards, puzzles)
    time.sleep(1.0)
    assert thread.is_alive()  # its block comes after the hanging one's: it waits for its turn
    engine = Catalogue(url).engine
    with engine.connect() as conn:
        blocks = live_blocks(conn)
    assert [b.size for b in blocks] == [50, 20] and blocks[0].pid != blocks[1].pid
    os.kill(dying.pid, signal.SIGKILL)
    dying.join(10)
    thread.join(60)
    assert result["numbers"] == list(range(10, 30))  # renumbered down past the dead block
    with write_transaction(engine) as conn:  # nothing live any more: a plain transaction goes straight through
        assert conn.execute(text("SELECT max(number) FROM boards")).scalar() == 29
    engine.dispose()
    wanted = {data[1][i]["key"] for i in first_rows + list(range(20, 40))}
    assert_whole(url, folder, wanted)


def early_block(url: str, rows, run_id: int, reserved, go, out) -> None:
    """Reserves a block, waits for ``go``, then stores its rows in it (one of them a key a later block holds)."""
    data = pool(300, seed=2)
    _, boards, puzzles = subset(data, rows, run_id)
    engine = Catalogue(url).engine
    with engine.connect() as conn:
        block, first = store._reserve(conn, len(rows))
        reserved.set()
        go.wait(60)
        start = store._fill_block(conn, boards, puzzles, list(range(len(rows))), block, first, None, None)
        conn.commit()
    engine.dispose()
    out.put(list(range(start, start + len(rows))))


@pytest.mark.slow
def test_an_earlier_block_waiting_for_a_later_blocks_key_goes_first(catalogue, monkeypatch):
    """Block 0's writer inserts a key block 1 holds uncommitted, while block 1 waits for block 0's turn: block 1
    rolls back and lets it through (otherwise both would wait forever), then stores the rest of its batch."""
    url, folder, run_id = catalogue
    data = pool(300, seed=2)
    yielded = []
    make = store._Yield.__init__
    monkeypatch.setattr(store._Yield, "__init__", lambda self, place: (yielded.append(place), make(self, place))[1])
    reserved, go, out = CTX.Event(), CTX.Event(), CTX.Queue()
    early = CTX.Process(target=early_block, args=(url, [0, 1, 2, 3], run_id, reserved, go, out))
    early.start()
    assert reserved.wait(60)
    cells, boards, puzzles = subset(data, [3, 4, 5], run_id)  # key 3 is in both
    started = time.monotonic()
    thread, result = store_in_thread(url, folder, cells, boards, puzzles)
    time.sleep(1.0)  # the later block has inserted its rows and waits for its turn
    go.set()
    assert out.get(timeout=60) == [0, 1, 2, 3]
    early.join(10)
    thread.join(60)
    assert time.monotonic() - started < 30
    assert result["numbers"] == [None, 4, 5]
    assert yielded == [0]  # the later block (in this process) let block 0 through once
    with Catalogue(url, folder) as cat:
        cat.write_board_files([0, 1, 2, 3], data[0][[0, 1, 2, 3]], f"{BOX}x{BOX}")  # the early writer wrote none
    assert_whole(url, folder, {data[1][i]["key"] for i in range(6)})


def later_writer(url: str, folder: str, rows, run_id: int, out) -> None:
    """A whole writer (Catalogue.store_batch, its retries and turn) storing ``rows`` of the seed-2 pool."""
    data = pool(300, seed=2)
    cells, boards, puzzles = subset(data, rows, run_id)
    with Catalogue(url, folder) as cat:
        numbers = cat.store_batch(boards, puzzles)
        kept = [i for i, x in enumerate(numbers) if x is not None]
        cat.write_board_files([numbers[i] for i in kept], cells[kept], f"{BOX}x{BOX}")
    out.put(numbers)


@pytest.mark.slow
def test_a_later_block_in_a_cycle_through_another_writers_key_wait_yields(catalogue, monkeypatch):
    """The cycle seen in CI with four writers: block 1 waits for block 0's turn; block 0's writer waits for a key
    block 2 inserted; block 2's writer waits for a key block 1 inserted. Nobody waits for block 1 directly, so only
    walking who-waits-for-whom finds it: block 1 yields (and block 2 when it comes to wait behind block 0), and
    everything is stored once, in order."""
    url, folder, run_id = catalogue
    # PostgreSQL's own deadlock detector (after deadlock_timeout, 1 s by default) would break the cycle too, by
    # failing a statement of one of the three, and on a busy host it came before block 1's walk (seen once in
    # five suite runs): the writers here give the walk ten seconds, what it finds in milliseconds
    url += "%20-cdeadlock_timeout%3D10s"
    data = pool(300, seed=2)
    keys = [b["key"] for b in data[1]]
    # k_d before k_c in the index's order: block 2 inserts k_d, then waits for k_c, which block 1 holds
    d, c = sorted(range(10, 20), key=lambda i: store._index_key(data[1][i]))[:2]
    yielded = []
    make = store._Yield.__init__
    monkeypatch.setattr(store._Yield, "__init__", lambda self, place: (yielded.append(place), make(self, place))[1])
    reserved, go, out_b = CTX.Event(), CTX.Event(), CTX.Queue()
    block_0 = CTX.Process(target=early_block, args=(url, [0, 1, 2, d], run_id, reserved, go, out_b))
    block_0.start()
    assert reserved.wait(60)
    cells, boards, puzzles = subset(data, [c, 5, 6], run_id)
    thread, result = store_in_thread(url, folder, cells, boards, puzzles)  # block 1: inserts, waits for block 0
    time.sleep(1.0)
    out_d = CTX.Queue()
    block_2 = CTX.Process(target=later_writer, args=(url, str(folder), [d, c, 7], run_id, out_d))
    block_2.start()
    engine = Catalogue(url).engine
    with engine.connect() as conn:  # until block 2 has inserted k_d and waits for k_c
        for _ in range(600):
            blocks = live_blocks(conn)
            if len(blocks) == 3 and conn.execute(text("SELECT pg_blocking_pids(:pid)"),
                                                 {"pid": blocks[2].pid}).scalar():
                break
            conn.rollback()
            time.sleep(0.1)
        else:
            raise AssertionError(f"block 2 never came to wait for block 1's key: {blocks}")
    engine.dispose()
    go.set()  # block 0 inserts its rows and meets k_d: the cycle is closed
    try:
        assert out_b.get(timeout=60) == [0, 1, 2, 3]
        thread.join(60)
        numbers_d = out_d.get(timeout=60)
        block_2.join(10)
    finally:
        for p in (block_0, block_2):
            if p.is_alive():
                p.kill()
                p.join(10)
    # block 1 saw the cycle and let block 0 through (without the walk it never yields: PostgreSQL's own detector
    # breaks the cycle by failing some writer's statement, a second after a wait starts, and finds nothing if it
    # looks while block 1's turn wait is between two of its slices: then everyone waits forever)
    assert not thread.is_alive() and yielded[:1] == [0]
    stored = {keys[i]: n for i, n in zip([c, 5, 6], result["numbers"]) if n is not None}
    stored.update({keys[i]: n for i, n in zip([d, c, 7], numbers_d) if n is not None})
    assert sorted(stored.values()) == [4, 5, 6, 7]  # k_c, 5, 6 and 7 after block 0's four, each once
    with Catalogue(url, folder) as cat:
        cat.write_board_files([0, 1, 2, 3], data[0][[0, 1, 2, d]], f"{BOX}x{BOX}")  # the early writer wrote none
    assert_whole(url, folder, {keys[i] for i in (0, 1, 2, d, c, 5, 6, 7)})
