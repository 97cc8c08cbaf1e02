"""The write path of a catalogue: every write, one transaction at a time, under the catalogue's write lock.

A mixin of :class:`~catalogue.store.catalogue.Catalogue`, as its board folder is (``ownership.BoardFolder``): one
idea of its own, kept out of the facade's file. Reads may run on any thread, each on its own connection; writes
may not interleave, so each method here holds ``_write_lock`` (a thread lock, re-entrant) around its call and
the database's write lock for each transaction, and a second writer thread waits its turn. The work itself is in
the store's modules (``insert``, ``files``, ``regrade``, ``migrate``); these methods are the one door to it.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Optional, Sequence

if TYPE_CHECKING:
    import numpy as np

    from .files import FileReport


class WritePath:
    """The writing half of a Catalogue (it supplies ``url``, ``folder``, ``_write_lock``, ``_connect`` and
    ``database_error``)."""

    def upgrade(self, revision: str = "head") -> tuple[Optional[str], Optional[str]]:
        """Migrate the schema to ``revision``; returns (before, after)."""
        from .migrate import upgrade

        with self._write_lock:
            return upgrade(self._connect(migrate=False), self.url, revision)

    def start_run(self, **values) -> int:
        """Insert a ``running`` run row (its columns as keyword arguments); returns its id."""
        from sqlalchemy import insert

        from .models import Run, utcnow

        if isinstance(values.get("parameters"), dict):
            values["parameters"] = json.dumps(values["parameters"])
        with self._write_lock, self._connect().begin() as conn:
            return conn.execute(insert(Run).values(started_at=utcnow(), status="running", **values)
                                .returning(Run.id)).scalar_one()

    def finish_run(self, run_id: int, **values) -> None:
        """Close a run row: its final status, counts and figures (``stage_stats`` may be a dict)."""
        from sqlalchemy import update

        from .models import Run, utcnow

        if isinstance(values.get("stage_stats"), dict):
            values["stage_stats"] = json.dumps(values["stage_stats"])
        with self._write_lock, self._connect().begin() as conn:
            conn.execute(update(Run).where(Run.id == run_id).values(finished_at=utcnow(), **values))

    def store_batch(self, boards: Sequence[dict], puzzles: Sequence[dict], *, limit: Optional[int] = None,
                    run_id: Optional[int] = None, files_through: Optional[int] = None) -> list[Optional[int]]:
        """Insert new boards and their puzzles in one transaction under the write lock (on PostgreSQL: in a
        block of numbers, under the lock only to reserve and to commit it; ``insert.store_rows``); returns each
        row's number, None for a row not stored."""
        from .insert import store_rows

        with self._write_lock:
            return store_rows(self._connect(), boards, puzzles, limit=limit, run_id=run_id,
                              files_through=files_through)

    def store_imported(self, boards: Sequence[dict], puzzles: Sequence[dict], puzzle_keys: Sequence[str], key_of,
                       orient, *, run_id: Optional[int] = None, files_through: Optional[int] = None) -> list[tuple[str, int]]:
        """Store imported puzzles and their solutions in one transaction under the write lock: a new board gets
        the next number, a known board gets the puzzle, a puzzle already stored adds nothing
        (``insert.store_imported``); returns each row's outcome and board number."""
        from .insert import store_imported

        with self._write_lock:
            return store_imported(self._connect(), boards, puzzles, puzzle_keys, key_of, orient, run_id=run_id,
                                  files_through=files_through)

    def write_board_files(self, numbers: Sequence[int], boards: np.ndarray, shape: str) -> None:
        """Write ``N.txt`` for each stored board (after its commit) into the claimed folder; ``shape`` is the
        boards' spec (``catalogue.shapes``), as their rows store it."""
        from engine.formats.batch import txt_files

        from ..shapes import kernel_shape
        from .files import write_files

        with self._write_lock:
            write_files(self.folder, numbers, txt_files(boards, kernel_shape(shape)))

    def recover(self) -> FileReport:
        """What every command that writes runs first: rewrite the files a crash left missing or torn, and close
        runs whose process died (``files.check_at_open``)."""
        from .files import check_at_open

        with self._write_lock:
            return check_at_open(self._connect(), self.folder)

    def regrade(self, filters: Optional[dict[str, Any]] = None, **options):
        """Grade the stored puzzles matching ``filters`` (``PuzzleFilter.given()``) again with this version's
        grader and write the grades that changed (:func:`catalogue.store.regrade.regrade`: its options, and the
        report it returns)."""
        from sqlalchemy.exc import DBAPIError

        from .regrade import regrade

        try:
            with self._write_lock:
                return regrade(self, filters or {}, **options)
        except DBAPIError as e:
            raise self.database_error("write", e) from None

    def repair(self, report: FileReport) -> int:
        """Rewrite every missing or torn file of ``report`` from its row; returns how many."""
        from .files import repair

        with self._write_lock:
            return repair(self._connect(), self.folder, report)
