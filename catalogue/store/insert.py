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

On PostgreSQL, where several hosts' writers share one catalogue, a call numbers a *block* and holds the lock only
twice, briefly: :mod:`catalogue.store.blocks`.
"""
from __future__ import annotations

import datetime as dt
from typing import Sequence

from sqlalchemy import func, select, text, update
from sqlalchemy.engine import Connection, Engine

from . import blocks
from .database import write_transaction
from .models import Board, Puzzle, Run
from .rows import NumberingConflict, dialect_insert, existing_keys, new_rows

#: rollbacks tolerated when the belt catches a conflict the lock should have prevented
RETRIES = 3


def store_rows(engine: Engine, boards: Sequence[dict], puzzles: Sequence[dict], *, limit: int | None = None,
               run_id: int | None = None, files_through: int | None = None) -> list[int | None]:
    """Insert new boards (and puzzle i for board i); returns each row's number, None for a row not stored.

    ``boards[i]`` holds every Board column except ``number`` (``shape``, ``equivalence`` and ``key`` included);
    ``puzzles[i]`` every Puzzle column except ``board_number``. A row is not stored when its key is already in
    the catalogue, repeats an earlier row of the batch, or comes after ``limit`` stored rows. ``files_through``
    (with ``run_id``) records the writer's file watermark in the same transaction, which costs no extra commit.
    """
    if engine.dialect.name == "postgresql" and boards and limit != 0:
        return blocks.store_block(engine, boards, puzzles, limit, run_id, files_through)
    for attempt in range(RETRIES + 1):
        try:
            return _store_once(engine, boards, puzzles, limit, run_id, files_through)
        except NumberingConflict:
            if attempt == RETRIES:
                raise
    raise AssertionError("unreachable")


def _store_once(engine, boards, puzzles, limit, run_id, files_through) -> list[int | None]:
    result: list[int | None] = [None] * len(boards)
    if not boards:
        limit = 0
    with write_transaction(engine) as conn:
        if run_id is not None and files_through is not None:
            conn.execute(update(Run).where(Run.id == run_id).values(files_through=files_through))
        if limit == 0:
            return result
        taken = new_rows(existing_keys(conn, boards), boards, limit)
        if not taken:
            return result
        top = conn.execute(select(func.max(Board.number))).scalar()
        first = 0 if top is None else top + 1
        now = dt.datetime.now(dt.timezone.utc)
        board_rows = [{**boards[i], "number": first + j, "created_at": now} for j, i in enumerate(taken)]
        stmt = (dialect_insert(conn, Board).on_conflict_do_nothing(index_elements=["shape", "equivalence", "key"])
                .returning(Board.number))
        inserted = conn.execute(stmt, board_rows).scalars().all()
        if len(inserted) != len(board_rows):
            raise NumberingConflict(f"{len(board_rows) - len(inserted)} keys appeared during the batch")
        conn.execute(dialect_insert(conn, Puzzle),
                     [{**puzzles[i], "board_number": first + j} for j, i in enumerate(taken)])
        for j, i in enumerate(taken):
            result[i] = first + j
    return result


#: the boards of a batch already stored, with their numbers and lines: on PostgreSQL one index probe per key,
#: whatever the statistics say (the reason is at :data:`catalogue.store.rows.PG_KNOWN`)
_PG_STORED = text("SELECT k.key, found.number, found.board FROM unnest(CAST(:keys AS text[])) AS k(key) "
                  "CROSS JOIN LATERAL (SELECT b.number, b.board FROM boards b WHERE b.shape = :shape "
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
    (``key_of(lines, shape, equivalence)`` keys those, since only board keys are stored) or of an earlier row:
    it adds nothing. A row whose board is stored (or new earlier in the batch) adds its puzzle to that board;
    any other row numbers a new board, ``max(number) + 1, ...`` in row order, as :func:`store_rows` does.

    A puzzle added to a stored board whose solution is an image of the board (rotated, relabelled, ...) is
    turned the board's way first: ``orient(puzzle_row, solution_line, board_line, shape, equivalence)`` returns
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
        variants = last_variants(conn, list(numbers.values()))  # board number -> its puzzles' highest variant
        top = conn.execute(select(func.max(Board.number))).scalar()
        following = 0 if top is None else top + 1
        now = dt.datetime.now(dt.timezone.utc)
        board_rows: list[dict] = []
        puzzle_rows: list[dict] = []
        for board, puzzle, puzzle_key in zip(boards, puzzles, puzzle_keys):
            ident = (board["shape"], board["equivalence"], board["key"])
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
            variants[number] = variants.get(number, 0) + 1  # the board's next puzzle: 1 on a new board
            puzzle_rows.append({**puzzle, "board_number": number, "variant": variants[number]})
        if board_rows:
            stmt = (dialect_insert(conn, Board).on_conflict_do_nothing(index_elements=["shape", "equivalence", "key"])
                    .returning(Board.number))
            inserted = conn.execute(stmt, board_rows).scalars().all()
            if len(inserted) != len(board_rows):
                raise NumberingConflict(f"{len(board_rows) - len(inserted)} keys appeared during the batch")
        if puzzle_rows:
            conn.execute(dialect_insert(conn, Puzzle), puzzle_rows)
    return result


def known_puzzles(conn: Connection, boards: Sequence[dict], puzzle_keys: Sequence[str], key_of) -> list[bool]:
    """Whether each imported row's puzzle is already stored on its board (``Catalogue.known_puzzles``)."""
    numbers = {ident: number for ident, (number, _) in stored_numbers(conn, boards).items()}
    if not numbers:
        return [False] * len(boards)
    known = stored_puzzle_keys(conn, numbers, key_of)
    return [(b["shape"], b["equivalence"], k) in known for b, k in zip(boards, puzzle_keys)]


def last_variants(conn: Connection, numbers: Sequence[int]) -> dict[int, int]:
    """Board number -> the highest variant among its stored puzzles, for the boards ``numbers`` names that have
    puzzles (the next puzzle stored on one takes the variant after it)."""
    found: dict[int, int] = {}
    for start in range(0, len(numbers), 5000):
        rows = conn.execute(select(Puzzle.board_number, func.max(Puzzle.variant))
                            .where(Puzzle.board_number.in_(numbers[start:start + 5000]))
                            .group_by(Puzzle.board_number))
        found.update((number, variant) for number, variant in rows)
    return found


def stored_numbers(conn: Connection, boards: Sequence[dict]) -> dict[tuple, tuple[int, str]]:
    """(shape, equivalence, key) -> (number, board line) of the boards of the batch that are already stored."""
    groups: dict[tuple, list[str]] = {}
    for row in boards:
        groups.setdefault((row["shape"], row["equivalence"]), []).append(row["key"])
    found: dict[tuple, tuple[int, str]] = {}
    for (shape, equivalence), keys in groups.items():
        for start in range(0, len(keys), 5000):  # well under every driver's limit of bound parameters
            if conn.dialect.name == "postgresql":  # one probe per key whatever the statistics (see known_keys)
                rows = conn.execute(_PG_STORED, {"shape": shape, "equivalence": equivalence,
                                                 "keys": keys[start:start + 5000]})
            else:
                rows = conn.execute(select(Board.key, Board.number, Board.board).where(
                    Board.shape == shape, Board.equivalence == equivalence, Board.key.in_(keys[start:start + 5000])))
            found.update(((shape, equivalence, key), (number, line)) for key, number, line in rows)
    return found


def stored_puzzle_keys(conn: Connection, numbers: dict[tuple, int], key_of) -> set[tuple]:
    """(shape, equivalence, puzzle key) of every puzzle stored on the boards ``numbers`` names, keyed under the
    board's equivalence by ``key_of(lines, shape, equivalence)`` (one batch kernel call per group)."""
    by_number = {number: ident[:2] for ident, number in numbers.items()}
    wanted = list(by_number)
    lines: dict[tuple, list[str]] = {}
    for start in range(0, len(wanted), 5000):
        rows = conn.execute(select(Puzzle.board_number, Puzzle.puzzle)
                            .where(Puzzle.board_number.in_(wanted[start:start + 5000])))
        for number, line in rows:
            lines.setdefault(by_number[number], []).append(line)
    known: set[tuple] = set()
    for (shape, equivalence), texts in lines.items():
        known.update((shape, equivalence, k) for k in key_of(texts, shape, equivalence))
    return known
