"""Numbering in blocks on PostgreSQL: the writer's batch insert when several hosts share one catalogue.

On PostgreSQL, where several hosts' writers share one catalogue, holding the lock for the whole insert made the
lock the limit (``bench/bench_scaleout.py``: docs/benchmarks.md, "Scale-out on PostgreSQL"). There a call numbers
a *block*, and holds the lock only twice, briefly (:func:`store_block`):

1. outside the lock, drop the keys already stored and the batch's repeats (a read);
2. reserve: a read-only transaction under the lock takes the block ``first .. first + n - 1``, where ``first``
   is past every committed board and every live block, and marks it with two session-level advisory locks
   (``database.RESERVE_BLOCK``) that the writer holds until its rows are committed;
3. insert the boards (``ON CONFLICT DO NOTHING``) and puzzles numbered from ``first``, in a transaction of its
   own, without the lock: the writers of several blocks insert at the same time;
4. its turn: wait until every block before it in line is committed or abandoned (its writer's locks
   released), then take the lock, and if the committed boards do not end at ``first - 1`` (a block below was
   abandoned, or stored fewer boards than it reserved) renumber this block's rows down to follow them; release
   the block and commit (the lock is held until the commit ends, so nobody sees the block released but its rows
   not yet committed). The run's watermark ``files_through`` is written in the same statement.

So blocks commit in order, and every commit leaves the numbers 0..N-1 without a gap, as on SQLite: a reader
(``verify``, ``stats``) never sees a hole, and nothing needs repairing. A writer that dies (or whose rows are
rolled back) loses its connection's locks; the next block's writer closes the gap by renumbering its own,
still uncommitted rows, and its files are written after its commit with the final numbers, so files stay in step
with the rows. A key another writer stored meanwhile makes the insert skip a row: the block's transaction is
rolled back and retried with that key dropped (:data:`CONTENTION_RETRIES` times: writers whose batches share many
keys meet often, and each retry stores fewer of them). An earlier block's writer waiting on a
key a later block holds uncommitted (directly, or through other writers' key waits) would wait forever for a
writer that waits for it: the later writer sees that (``pg_blocking_pids``, walked), rolls its rows back, lets the
earlier block commit, and inserts again.
"""
from __future__ import annotations

import datetime as dt
import random
import time

from sqlalchemy import delete, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from . import database
from .database import WRITE_LOCK_KEY, lock_clock, write_transaction
from .models import Board, Puzzle, Run
from .rows import NumberingConflict, dialect_insert, existing_keys, new_rows

DEADLOCK = "40P01"
#: retries of a block when writers meet on shared keys: a deadlock PostgreSQL broke, or keys another writer stored
#: between the check and the insert. Both are transient; 3 retries were not enough for the latter with 4 writers
#: whose batches overlap by half (a CI run of the suite, 2026-11-26), where each retry has fewer keys to store.
CONTENTION_RETRIES = 20
#: how long the writer of a block waits for an earlier block before asking whether that one waits for it (ms)
TURN_CHECK_MS = 200
_LOCK = text("SELECT pg_advisory_xact_lock(:key)")
_RESERVE = text(database.RESERVE_BLOCK)
_TOP = text(f"SELECT (SELECT max(number) FROM boards WHERE number < :first), {database.RELEASE_BLOCK}")
#: does the backend :pid wait for :me, directly or through others? (the waits-for graph PostgreSQL keeps, walked
#: from :pid). A writer waiting for its turn is not waiting at that moment, so this finds the cycle its turn wait
#: would close: PostgreSQL's own detector looks only once, a second after a wait starts, and would miss it while
#: the turn wait times out every TURN_CHECK_MS (seen: four writers waiting for each other without end in CI, one
#: writer's turn behind an earlier writer who waited for a key of a third, who waited for a key of the first)
_WAITS_FOR_ME = text("WITH RECURSIVE waits(pid) AS (SELECT CAST(:pid AS integer) "
                     "UNION SELECT b.pid FROM waits, unnest(pg_blocking_pids(waits.pid)) AS b(pid)) "
                     "SELECT EXISTS (SELECT 1 FROM waits WHERE pid = :me)")
_WATERMARK_AND_TOP = text(f"WITH mark AS (UPDATE runs SET files_through = :through WHERE id = :run) "
                          f"SELECT (SELECT max(number) FROM boards WHERE number < :first), {database.RELEASE_BLOCK}")


class _Yield(Exception):
    """An earlier block's writer waits for a key this block holds uncommitted: roll back and let it commit."""

    def __init__(self, place: int):
        self.place = place


def store_block(engine, boards, puzzles, limit, run_id, files_through) -> list[int | None]:
    result: list[int | None] = [None] * len(boards)
    with engine.connect() as conn:
        taken = new_rows(existing_keys(conn, boards), boards, limit)
        conn.rollback()
        if not taken:
            if run_id is not None and files_through is not None:
                with write_transaction(conn) as locked:
                    locked.execute(update(Run).where(Run.id == run_id).values(files_through=files_through))
            return result
        block, first = _reserve(conn, len(taken))
        conflicts = 0
        try:
            while True:
                try:
                    start = _fill_block(conn, boards, puzzles, taken, block, first, run_id, files_through)
                    break
                except (NumberingConflict, DBAPIError) as e:
                    # keys another writer stored meanwhile (or a deadlock between two inserts that each hold a
                    # key the other wants, which PostgreSQL breaks by failing one): drop them and try again
                    if isinstance(e, DBAPIError) and getattr(e.orig, "sqlstate", None) != DEADLOCK:
                        raise
                    conflicts += 1
                    # transient, and may repeat while writers share many keys (seen: 4 writers with overlapping
                    # batches failed one in a few full test runs with 3 tries): more tries, after a short random
                    # pause so that the same two writers do not meet again at once
                    if conflicts > CONTENTION_RETRIES:
                        raise
                    if conn.in_transaction():
                        conn.rollback()
                    time.sleep(random.uniform(0, 0.002 * conflicts))
                    taken = new_rows(existing_keys(conn, boards), boards, limit)
                    conn.rollback()
                except _Yield as waiting:  # an earlier block's writer waits for our rows: let it go first
                    started = time.perf_counter()
                    while not database.wait_for_block(conn, waiting.place):
                        pass  # (a deadlock PostgreSQL broke by failing this wait: wait again)
                    lock_clock.turn += time.perf_counter() - started
        except BaseException:
            try:
                if conn.in_transaction():
                    conn.rollback()
                database.release_block(conn, block.place, block.size)  # (done before the commit normally)
                conn.commit()
            except DBAPIError:  # a connection gone: its locks went with it
                pass
            raise
    for j, i in enumerate(taken):
        result[i] = start + j
    return result


def _reserve(conn: Connection, n: int) -> tuple[database.Block, int]:
    """Step 2: the block of ``n`` numbers that follows every committed board and every live block; returns the
    block and its first number. A read-only transaction: nothing to flush at its commit."""
    asked = time.perf_counter()
    with conn.begin():
        conn.execute(_LOCK, {"key": WRITE_LOCK_KEY})
        got = time.perf_counter()
        # the live blocks commit in line, each right after the one before it: this one comes after all of them,
        # at max(number) + 1 + their sizes (SQL in database.RESERVE_BLOCK)
        first, place = conn.execute(_RESERVE, {"size": n}).one()[:2]
    lock_clock.waiting += got - asked
    lock_clock.holding += time.perf_counter() - got
    lock_clock.taken += 1
    return database.Block(int(place), n, 0), int(first)


def _fill_block(conn, boards, puzzles, taken, block, first, run_id, files_through) -> int:
    """Steps 3 and 4 in one transaction: insert the rows numbered from ``first``, wait for the turn, renumber if
    the boards below end elsewhere, commit. Returns the number of the first row as committed."""
    now = dt.datetime.now(dt.timezone.utc)
    with conn.begin():
        if taken:
            _insert_rows(conn, boards, puzzles, taken, first, now)
        _wait_for_turn(conn, block.place)
        asked = time.perf_counter()
        conn.execute(_LOCK, {"key": WRITE_LOCK_KEY})
        got = time.perf_counter()
        # Released before the commit, which is safe because the lock is held until the commit ends: the next block
        # (waiting for this one) and the next reservation (reading max(number) and the live blocks) take the lock
        # after it, so they see this block either live and uncommitted or gone and committed, never half of each.
        # One statement for both, and the run's watermark: every round trip here is time the lock is held. (The
        # watermark is written under the lock: two writers of one run would otherwise wait for each other's row
        # lock while waiting for their turns.)
        watermark = run_id is not None and files_through is not None
        top = conn.execute(_WATERMARK_AND_TOP if watermark else _TOP,
                           {"first": first, "place": block.place, "size": block.size, "run": run_id,
                            "through": files_through}).scalar()
        start = 0 if top is None else top + 1
        if start > first:  # boards committed at or past this block's first number: the protocol was broken
            raise RuntimeError(f"block numbering: boards below {first} end at {start - 1}")
        if start != first and taken:  # a block below was abandoned or came up short: follow the boards below
            conn.execute(delete(Puzzle).where(Puzzle.board_number >= first,
                                              Puzzle.board_number < first + len(taken)))
            conn.execute(delete(Board).where(Board.number >= first, Board.number < first + len(taken)))
            _insert_rows(conn, boards, puzzles, taken, start, now)
    lock_clock.waiting += got - asked
    lock_clock.holding += time.perf_counter() - got
    lock_clock.taken += 1
    return start


def _insert_rows(conn, boards, puzzles, taken, first, now) -> None:
    # in one order every writer shares (the index's columns, whatever the numbers): two writers inserting
    # overlapping keys then meet on the first key they share, and the second waits for the first, instead of each
    # holding a key the other wants (a deadlock PostgreSQL breaks by failing one: seen in CI with 4 writers, after
    # 20 retries)
    order = sorted(range(len(taken)), key=lambda j: _index_key(boards[taken[j]]))
    board_rows = [{**boards[taken[j]], "number": first + j, "created_at": now} for j in order]
    stmt = (dialect_insert(conn, Board).on_conflict_do_nothing(index_elements=["shape", "equivalence", "key"])
            .returning(Board.number))
    inserted = conn.execute(stmt, board_rows).scalars().all()
    if len(inserted) != len(board_rows):  # another writer stored some of these keys meanwhile
        raise NumberingConflict(f"{len(board_rows) - len(inserted)} keys appeared during the batch")
    conn.execute(dialect_insert(conn, Puzzle), [{**puzzles[i], "board_number": first + j} for j, i in enumerate(taken)])


def _wait_for_turn(conn, place: int) -> None:
    """Wait until every block before ``place`` in line is committed or abandoned (without the lock: they need it).
    If the writer of one of them waits for this one, even through others (it waits for a key a third writer
    inserted, who waits for a key this transaction inserted), raise _Yield: waiting on would never end."""
    started = time.perf_counter()
    me = conn.execute(text("SELECT pg_backend_pid()")).scalar()
    try:
        while True:
            earlier = [b for b in database.live_blocks(conn) if b.place < place]
            if not earlier:
                return
            if not database.wait_for_block(conn, earlier[-1].place, TURN_CHECK_MS):  # the last commits last
                for block in earlier:
                    if conn.execute(_WAITS_FOR_ME, {"pid": block.pid, "me": me}).scalar():
                        raise _Yield(block.place)
    finally:
        lock_clock.turn += time.perf_counter() - started


def _index_key(board: dict) -> tuple:
    """The order of the boards' UNIQUE index (shape, equivalence, key)."""
    return board["shape"], board["equivalence"], board["key"]
