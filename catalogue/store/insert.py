"""The writer's batch insert: numbers contiguous from 0, no duplicate ever stored, safe across processes.

On SQLite one call is one transaction under the catalogue's write lock (``write_transaction``: ``BEGIN
IMMEDIATE``). Inside it:

1. select which of the batch's keys are already in the catalogue (stored by an earlier run, or by another
   process a moment ago): those rows are duplicates and are dropped;
2. read ``max(number)`` and give the new boards ``max + 1, max + 2, ...`` in batch order;
3. insert the boards with the dialect's ``ON CONFLICT DO NOTHING ... RETURNING number`` and then their puzzles.

Because the lock is held from the first statement, no other writer can read the same ``max(number)`` or insert a
key between steps 1 and 3: two processes never store a duplicate or reuse a number, and numbers have no gap
(numbers are never taken from a sequence, which would leave gaps after rollbacks). ``ON CONFLICT DO NOTHING`` is a
belt: if it ever skipped a row (a writer that bypassed the lock), the numbering would have a gap, so the batch is
rolled back and retried, and the retry's step 1 sees the intruding key. SQLite writes one transaction at a time
whatever we do, so this is also the fastest way there.

On PostgreSQL, where several hosts' writers share one catalogue, holding the lock for the whole insert made the
lock the limit (``bench/bench_scaleout.py``: docs/benchmarks.md, "Scale-out on PostgreSQL"). There a call numbers
a *block*, and holds the lock only twice, briefly (:func:`_store_block`):

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
rolled back and retried with that key dropped (:data:`RETRIES` times). An earlier block's writer waiting on a
key a later block holds uncommitted would wait forever for a writer that waits for it: the later writer sees
that (``pg_blocking_pids``), rolls its rows back, lets the earlier block commit, and inserts again.
"""
from __future__ import annotations

import datetime as dt
import random
import time
from typing import Sequence

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError

from . import database
from .database import WRITE_LOCK_KEY, lock_clock, write_transaction
from .models import Board, Puzzle, Run

#: rollbacks tolerated when the belt catches a conflict the lock should have prevented
RETRIES = 3


class NumberingConflict(RuntimeError):
    """A key appeared between the existence check and the insert: on SQLite, the lock was bypassed; on
    PostgreSQL, another block's writer stored it meanwhile."""


def _insert(conn: Connection, table):
    dialect = conn.dialect.name
    if dialect == "sqlite":
        return sqlite.insert(table)
    if dialect == "postgresql":
        return postgresql.insert(table)
    raise NotImplementedError(f"catalogue supports SQLite and PostgreSQL, not {dialect}")


def store_rows(engine: Engine, boards: Sequence[dict], puzzles: Sequence[dict], *, limit: int | None = None,
               run_id: int | None = None, files_through: int | None = None) -> list[int | None]:
    """Insert new boards (and puzzle i for board i); returns each row's number, None for a row not stored.

    ``boards[i]`` holds every Board column except ``number`` (``size``, ``equivalence`` and ``key`` included);
    ``puzzles[i]`` every Puzzle column except ``board_number``. A row is not stored when its key is already in
    the catalogue, repeats an earlier row of the batch, or comes after ``limit`` stored rows. ``files_through``
    (with ``run_id``) records the writer's file watermark in the same transaction, which costs no extra commit.
    """
    if engine.dialect.name == "postgresql" and boards and limit != 0:
        return _store_block(engine, boards, puzzles, limit, run_id, files_through)
    for attempt in range(RETRIES + 1):
        try:
            return _store_once(engine, boards, puzzles, limit, run_id, files_through)
        except NumberingConflict:
            if attempt == RETRIES:
                raise
    raise AssertionError("unreachable")


def _new_rows(existing: set[tuple], boards: Sequence[dict], limit: int | None) -> list[int]:
    """Indexes of the rows to store: not in ``existing``, not a repeat of an earlier row, at most ``limit``."""
    taken: list[int] = []
    seen: set[tuple] = set()
    for i, row in enumerate(boards):
        ident = (row["size"], row["equivalence"], row["key"])
        if ident in existing or ident in seen:
            continue
        seen.add(ident)
        taken.append(i)
        if limit is not None and len(taken) == limit:
            break
    return taken


def _store_once(engine, boards, puzzles, limit, run_id, files_through) -> list[int | None]:
    result: list[int | None] = [None] * len(boards)
    if not boards:
        limit = 0
    with write_transaction(engine) as conn:
        if run_id is not None and files_through is not None:
            conn.execute(update(Run).where(Run.id == run_id).values(files_through=files_through))
        if limit == 0:
            return result
        taken = _new_rows(_existing_keys(conn, boards), boards, limit)
        if not taken:
            return result
        top = conn.execute(select(func.max(Board.number))).scalar()
        first = 0 if top is None else top + 1
        now = dt.datetime.now(dt.timezone.utc)
        board_rows = [{**boards[i], "number": first + j, "created_at": now} for j, i in enumerate(taken)]
        stmt = (_insert(conn, Board).on_conflict_do_nothing(index_elements=["size", "equivalence", "key"])
                .returning(Board.number))
        inserted = conn.execute(stmt, board_rows).scalars().all()
        if len(inserted) != len(board_rows):
            raise NumberingConflict(f"{len(board_rows) - len(inserted)} keys appeared during the batch")
        conn.execute(_insert(conn, Puzzle),
                     [{**puzzles[i], "board_number": first + j} for j, i in enumerate(taken)])
        for j, i in enumerate(taken):
            result[i] = first + j
    return result


# -- PostgreSQL: blocks (the module docstring explains the protocol) ------------------------------------------
#: PostgreSQL's SQLSTATE for a deadlock it broke by failing this transaction
DEADLOCK = "40P01"
DEADLOCK_RETRIES = 20
#: how long the writer of a block waits for an earlier block before asking whether that one waits for it (ms)
TURN_CHECK_MS = 200
_LOCK = text("SELECT pg_advisory_xact_lock(:key)")
_RESERVE = text(database.RESERVE_BLOCK)
_TOP = text(f"SELECT (SELECT max(number) FROM boards WHERE number < :first), {database.RELEASE_BLOCK}")
_WATERMARK_AND_TOP = text(f"WITH mark AS (UPDATE runs SET files_through = :through WHERE id = :run) "
                          f"SELECT (SELECT max(number) FROM boards WHERE number < :first), {database.RELEASE_BLOCK}")


class _Yield(Exception):
    """An earlier block's writer waits for a key this block holds uncommitted: roll back and let it commit."""

    def __init__(self, place: int):
        self.place = place


def _store_block(engine, boards, puzzles, limit, run_id, files_through) -> list[int | None]:
    result: list[int | None] = [None] * len(boards)
    with engine.connect() as conn:
        taken = _new_rows(_existing_keys(conn, boards), boards, limit)
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
                    deadlock = isinstance(e, DBAPIError)
                    if deadlock and getattr(e.orig, "sqlstate", None) != DEADLOCK:
                        raise
                    conflicts += 1
                    # a deadlock is transient and may repeat while writers share many keys (seen: 4 writers
                    # with overlapping batches failed one in a few full test runs with 3 tries): more tries,
                    # after a short random pause so that the same two writers do not meet again at once
                    if conflicts > (DEADLOCK_RETRIES if deadlock else RETRIES):
                        raise
                    if conn.in_transaction():
                        conn.rollback()
                    if deadlock:
                        time.sleep(random.uniform(0, 0.002 * conflicts))
                    taken = _new_rows(_existing_keys(conn, boards), boards, limit)
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
    board_rows = [{**boards[i], "number": first + j, "created_at": now} for j, i in enumerate(taken)]
    stmt = (_insert(conn, Board).on_conflict_do_nothing(index_elements=["size", "equivalence", "key"])
            .returning(Board.number))
    inserted = conn.execute(stmt, board_rows).scalars().all()
    if len(inserted) != len(board_rows):  # another writer stored some of these keys meanwhile
        raise NumberingConflict(f"{len(board_rows) - len(inserted)} keys appeared during the batch")
    conn.execute(_insert(conn, Puzzle), [{**puzzles[i], "board_number": first + j} for j, i in enumerate(taken)])


def _wait_for_turn(conn, place: int) -> None:
    """Wait until every block before ``place`` in line is committed or abandoned (without the lock: they need it).
    If the writer of one of them waits for a key this transaction inserted, raise _Yield: waiting on would never
    end."""
    started = time.perf_counter()
    me = conn.execute(text("SELECT pg_backend_pid()")).scalar()
    try:
        while True:
            earlier = [b for b in database.live_blocks(conn) if b.place < place]
            if not earlier:
                return
            if not database.wait_for_block(conn, earlier[-1].place, TURN_CHECK_MS):  # the last commits last
                for block in earlier:
                    blockers = conn.execute(text("SELECT pg_blocking_pids(:pid)"), {"pid": block.pid}).scalar()
                    if me in (blockers or []):
                        raise _Yield(block.place)
    finally:
        lock_clock.turn += time.perf_counter() - started


def _existing_keys(conn: Connection, boards: Sequence[dict]) -> set[tuple]:
    """The (size, equivalence, key) triples of the batch that are already stored (one query per group)."""
    groups: dict[tuple, list[str]] = {}
    for row in boards:
        groups.setdefault((row["size"], row["equivalence"]), []).append(row["key"])
    found: set[tuple] = set()
    for (size, equivalence), keys in groups.items():
        found.update((size, equivalence, k) for k in known_keys(conn, size, equivalence, keys))
    return found


def known_keys(conn: Connection, size: int, equivalence: str, keys: Sequence[str]) -> set[str]:
    """Which of ``keys`` the catalogue already holds for this size and equivalence (uses the UNIQUE index)."""
    if not keys:
        return set()
    if conn.dialect.name == "postgresql":
        return set(conn.execute(_PG_KNOWN, {"size": size, "equivalence": equivalence, "keys": list(keys)}).scalars())
    rows = conn.execute(select(Board.key).where(Board.size == size, Board.equivalence == equivalence,
                                                Board.key.in_(list(keys))))
    return set(rows.scalars())


# On PostgreSQL, ``key IN (...)`` is planned from statistics, and a catalogue's `boards` may have none (a server
# with autovacuum off, or a table that grew since it was last analysed): the planner then takes
# ``size = 9 AND equivalence = 'd4'`` for a single row, uses only those two columns of the UNIQUE index and checks
# the keys as a filter, reading every board of the size for every batch: the writer slowed down from 2,400 to 600
# boards/s between 0 and 20,000 boards (bench/bench_scaleout.py). One index probe per key instead, whatever the
# statistics say: a LATERAL subquery with LIMIT 1 is always a nested loop, and its plain equalities are always
# index conditions. One array parameter also spares psycopg the parsing of a statement with 256 placeholders.
_PG_KNOWN = text("SELECT k.key FROM unnest(CAST(:keys AS text[])) AS k(key) CROSS JOIN LATERAL "
                 "(SELECT 1 FROM boards b WHERE b.size = :size AND b.equivalence = :equivalence AND b.key = k.key "
                 "LIMIT 1) AS found")
_PG_STORED = text("SELECT k.key, found.number, found.board FROM unnest(CAST(:keys AS text[])) AS k(key) "
                  "CROSS JOIN LATERAL (SELECT b.number, b.board FROM boards b WHERE b.size = :size "
                  "AND b.equivalence = :equivalence AND b.key = k.key LIMIT 1) AS found")


# -- imported puzzles -------------------------------------------------------------------------------------------
#: what became of an imported row: a new board (and its puzzle), a puzzle on a board already stored, or nothing
#: (the same puzzle is already stored)
NEW_BOARD, NEW_PUZZLE, KNOWN = "board", "puzzle", "known"


def store_imported(engine: Engine, boards: Sequence[dict], puzzles: Sequence[dict], puzzle_keys: Sequence[str],
                   key_of, orient, *, run_id: int | None = None, files_through: int | None = None
                   ) -> list[tuple[str, int]]:
    """Store imported puzzles with their solutions in one transaction under the write lock; returns, per row,
    ``(NEW_BOARD, number)``, ``(NEW_PUZZLE, number)`` or ``(KNOWN, number)``, ``number`` being its board's.

    ``boards[i]`` is the solution's Board row without ``number`` (like :func:`store_rows`), ``puzzles[i]`` the
    Puzzle row without ``board_number``, ``puzzle_keys[i]`` the puzzle's canonical key under the row's
    equivalence. The same puzzle is a puzzle whose key equals the key of a puzzle stored on the same board
    (``key_of(lines, size, equivalence)`` keys those, since only board keys are stored) or of an earlier row:
    it adds nothing. A row whose board is stored (or new earlier in the batch) adds its puzzle to that board;
    any other row numbers a new board, ``max(number) + 1, ...`` in row order, as :func:`store_rows` does.

    A puzzle added to a stored board whose solution is an image of the board (rotated, relabelled, ...) is
    turned the board's way first: ``orient(puzzle_row, solution_line, board_line, size, equivalence)`` returns
    the row to store (its clues then agree with the stored board).
    """
    for attempt in range(RETRIES + 1):
        try:
            return _store_imported_once(engine, boards, puzzles, puzzle_keys, key_of, orient, run_id,
                                        files_through)
        except NumberingConflict:
            if attempt == RETRIES:
                raise
    raise AssertionError("unreachable")


def _store_imported_once(engine, boards, puzzles, puzzle_keys, key_of, orient, run_id, files_through):
    result: list[tuple[str, int]] = []
    with write_transaction(engine) as conn:
        if run_id is not None and files_through is not None:
            conn.execute(update(Run).where(Run.id == run_id).values(files_through=files_through))
        if not boards:
            return result
        stored = stored_numbers(conn, boards)  # ident -> (number, board line as stored)
        numbers = {ident: number for ident, (number, _) in stored.items()}
        lines = {ident: line for ident, (_, line) in stored.items()}
        known = stored_puzzle_keys(conn, numbers, key_of)
        top = conn.execute(select(func.max(Board.number))).scalar()
        following = 0 if top is None else top + 1
        now = dt.datetime.now(dt.timezone.utc)
        board_rows: list[dict] = []
        puzzle_rows: list[dict] = []
        for board, puzzle, puzzle_key in zip(boards, puzzles, puzzle_keys):
            ident = (board["size"], board["equivalence"], board["key"])
            if (*ident[:2], puzzle_key) in known:
                result.append((KNOWN, numbers[ident]))
                continue
            known.add((*ident[:2], puzzle_key))
            number = numbers.get(ident)
            if number is None:
                number = numbers[ident] = following
                lines[ident] = board["board"]
                following += 1
                board_rows.append({**board, "number": number, "created_at": now})
                result.append((NEW_BOARD, number))
            else:
                result.append((NEW_PUZZLE, number))
                if board["board"] != lines[ident]:  # the same board turned another way: turn the puzzle too
                    puzzle = orient(puzzle, board["board"], lines[ident], *ident[:2])
            puzzle_rows.append({**puzzle, "board_number": number})
        if board_rows:
            stmt = (_insert(conn, Board).on_conflict_do_nothing(index_elements=["size", "equivalence", "key"])
                    .returning(Board.number))
            inserted = conn.execute(stmt, board_rows).scalars().all()
            if len(inserted) != len(board_rows):
                raise NumberingConflict(f"{len(board_rows) - len(inserted)} keys appeared during the batch")
        if puzzle_rows:
            conn.execute(_insert(conn, Puzzle), puzzle_rows)
    return result


def stored_numbers(conn: Connection, boards: Sequence[dict]) -> dict[tuple, tuple[int, str]]:
    """(size, equivalence, key) -> (number, board line) of the boards of the batch that are already stored."""
    groups: dict[tuple, list[str]] = {}
    for row in boards:
        groups.setdefault((row["size"], row["equivalence"]), []).append(row["key"])
    found: dict[tuple, tuple[int, str]] = {}
    for (size, equivalence), keys in groups.items():
        for start in range(0, len(keys), 5000):  # well under every driver's limit of bound parameters
            if conn.dialect.name == "postgresql":  # one probe per key whatever the statistics (see known_keys)
                rows = conn.execute(_PG_STORED, {"size": size, "equivalence": equivalence,
                                                 "keys": keys[start:start + 5000]})
            else:
                rows = conn.execute(select(Board.key, Board.number, Board.board).where(
                    Board.size == size, Board.equivalence == equivalence, Board.key.in_(keys[start:start + 5000])))
            found.update(((size, equivalence, key), (number, line)) for key, number, line in rows)
    return found


def stored_puzzle_keys(conn: Connection, numbers: dict[tuple, int], key_of) -> set[tuple]:
    """(size, equivalence, puzzle key) of every puzzle stored on the boards ``numbers`` names, keyed under the
    board's equivalence by ``key_of(lines, size, equivalence)`` (one batch kernel call per group)."""
    by_number = {number: ident[:2] for ident, number in numbers.items()}
    wanted = list(by_number)
    lines: dict[tuple, list[str]] = {}
    for start in range(0, len(wanted), 5000):
        rows = conn.execute(select(Puzzle.board_number, Puzzle.puzzle)
                            .where(Puzzle.board_number.in_(wanted[start:start + 5000])))
        for number, line in rows:
            lines.setdefault(by_number[number], []).append(line)
    known: set[tuple] = set()
    for (size, equivalence), texts in lines.items():
        known.update((size, equivalence, k) for k in key_of(texts, size, equivalence))
    return known
