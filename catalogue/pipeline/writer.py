"""The writer actor: the only thread that writes the catalogue and the board files.

For each checked batch: one transaction (numbers, boards, puzzles: ``Catalogue.store_batch``), then the batch's ``N.txt``
files, then the watermark ``files_through`` (recorded in the next batch's transaction, and by the final run
update). The order matters for recovery: a file exists only for a committed board, and every number at or below
the recorded watermark has its file. A crash between commit and files leaves boards without files above the
watermark, which the next open finds and rewrites (``Catalogue.recover``).

Why a single writer rather than checkers inserting their own claims: measured with ``bench/bench_fill.py
claims`` (the benchmarks diary in git: ``git show eb9b7e6:docs/benchmarks.md``, "Filling"), the difference on
SQLite is within noise because the write lock serialises
the inserts anyway; one writer keeps numbers and files in commit order, which is what makes one watermark per
run enough.
"""
from __future__ import annotations

import threading
import time

from ..store import Catalogue
from ..store.fields import stand_ins
from .actor import Actor, Channel, Supervisor
from .messages import CheckedBatch, Counters
from .options import FillOptions


class WriterActor(Actor):
    stage = "write"

    def __init__(self, name, supervisor: Supervisor, stop: threading.Event, inbox: Channel, plan: FillOptions,
                 counters: Counters, catalogue: Catalogue, run_id: int, fail_at=None):
        super().__init__(name, supervisor, stop, inbox=inbox, fail_at=fail_at)
        self.plan, self.counters, self.catalogue, self.run_id = plan, counters, catalogue, run_id
        self.files_through: int | None = None  # highest number whose file this run wrote
        self._recorded: int | None = None  # the watermark already in the database
        self.db_seconds = 0.0
        self.file_seconds = 0.0
        self.committed: CheckedBatch | None = None  # the last batch whose transaction committed

    def on_failure(self, exc: BaseException) -> None:
        if self.current is not None and self.committed is not self.current:  # never reached the database
            with self.counters.lock:
                self.counters.dropped += len(self.current)
        super().on_failure(exc)

    def handle(self, batch: CheckedBatch) -> None:
        counters, stats = self.counters, self.counters.stage(self.stage)
        remaining = counters.target - counters.accepted
        if remaining <= 0:  # the count was reached by an earlier batch (belt: reservations prevent it)
            with counters.lock:
                counters.surplus += len(batch)
            return
        boards, puzzles = self.rows(batch)
        started = time.perf_counter()
        numbers = self.catalogue.store_batch(
            boards, puzzles, limit=remaining, run_id=self.run_id,
            files_through=self.files_through if self.files_through != self._recorded else None)
        self._recorded = self.files_through
        self.db_seconds += time.perf_counter() - started
        self.committed = batch  # from here on the batch is accepted, whatever happens to its files
        kept = [i for i, n in enumerate(numbers) if n is not None]
        rejected = len(batch) - len(kept)
        if rejected:  # keys stored since the checker looked (another process), or past the count
            counters.release(rejected)
        levels = batch.puzzle_columns["level"]
        missed = [levels[i] for i in kept if self.plan.level is not None and levels[i] != self.plan.level]
        with counters.lock:
            counters.accepted += len(kept)
            counters.duplicates += rejected
            counters.off_level += len(missed)  # counted as stored, so the summary's "N of M" are the same rows
            for level in missed:
                counters.off_level_reached[level] = counters.off_level_reached.get(level, 0) + 1
            stats.items_in += len(batch)
            stats.items_out += len(kept)
            for i in kept:  # a number that does not follow the last one starts a new run of numbers
                if counters.last_number is None or numbers[i] != counters.last_number + 1:
                    counters.number_runs += 1
                if counters.first_number is None:
                    counters.first_number = numbers[i]
                counters.last_number = numbers[i]
            done = counters.accepted >= counters.target
        started = time.perf_counter()
        if kept:
            self.catalogue.write_board_files([numbers[i] for i in kept], batch.boards[kept], self.plan.shape)
            self.files_through = numbers[kept[-1]]
        self.file_seconds += time.perf_counter() - started
        if done:
            self.supervisor.finish("completed")

    def rows(self, batch: CheckedBatch) -> tuple[list[dict], list[dict]]:
        return batch_rows(batch, self.plan, self.run_id)


def batch_rows(batch: CheckedBatch, plan: FillOptions, run_id: int) -> tuple[list[dict], list[dict]]:
    """The board and puzzle rows of a checked batch (row i of each for board i): the batch's columns, plus what
    the plan says of every row."""
    board_constants = {"size": plan.size, "shape": plan.shape, "equivalence": plan.equivalence, "method": plan.method,
                       "run_id": run_id}
    puzzle_constants = {"symmetry": plan.symmetry, "target_clues": plan.target_clues}
    board_names, puzzle_names = list(batch.board_columns), list(batch.puzzle_columns)
    # the columns a fill does not make (where an imported puzzle came from): what the field list stands in
    board_constants.update(stand_ins("boards", [*board_constants, "key", *board_names]))
    puzzle_constants.update(stand_ins("puzzles", [*puzzle_constants, *puzzle_names]))
    board_values = list(zip(*batch.board_columns.values()))
    puzzle_values = list(zip(*batch.puzzle_columns.values()))
    boards = [{**board_constants, "key": batch.keys[i], **dict(zip(board_names, board_values[i]))}
              for i in range(len(batch))]
    puzzles = [{**puzzle_constants, **dict(zip(puzzle_names, puzzle_values[i]))} for i in range(len(batch))]
    return boards, puzzles
