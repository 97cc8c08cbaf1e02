"""``import``: store the puzzles of files (any input format) that have exactly one solution, with their solutions.

Per batch of puzzles of one size (one kernel call per step, each releasing the GIL):

1. solve to 2 (``solve_results``, within ``config.NODE_BUDGET`` nodes each: a search out of budget is rejected as
   undecided): 0 solutions is rejected (conflicting clues, or no solution), 2 is rejected
   (several solutions), 1 gives the solution, which is the board;
2. key the solutions (the board's key under the equivalence) and the puzzles themselves (the puzzle's key);
3. drop the puzzles already stored (a read: their boards' stored puzzles, keyed), and copies of one earlier in the
   batch (the same key), before the costly steps;
4. the fast solver's metrics (limit 1, as fill stores them), the grade (``grade_many``), minimality
   (``minimal_many``: each clue taken out alone) and the clue pattern's symmetry;
5. one write transaction (``Catalogue.store_imported``): a new board gets the next number, a known board gets the
   puzzle, a puzzle already stored adds nothing; then the new boards' ``N.txt`` files.

**The same puzzle.** Two puzzles are the same when their canonical keys under the catalogue's equivalence are
equal (``engine.keys`` keys partial grids as well as boards). For a puzzle with one solution, that is the same as
"same board, and the clue pattern maps onto a stored puzzle of that board by the move that maps the solutions":
a move of the group that maps one puzzle onto the other maps its only solution onto the other's only solution.
So a rotated or relabelled (``full``) copy of a stored puzzle adds nothing, and neither does a second import of
the same file.

Batches are computed by two worker threads, a batch ahead of the main thread, which stores them in file order
(numbers follow the files' order). A batch holds what fits in about :data:`BATCH_SECONDS` of a worker's time by
the cost of the last ones (:mod:`catalogue.pace`), and its puzzles for the nested forcing chains are graded on
that clock; the rows left when it runs out are graded next in pieces, on both workers, and stored next
(:func:`~catalogue.pipeline.import_stages.finish`). The main thread only waits and stores, so Ctrl-C (or SIGTERM) is handled at
once: the first stops after the batches in hand are stored (exit 130; a batch is stored in slices of
:data:`STORE_ROWS`, each its own transaction), leaving what is not stored within
:data:`~catalogue.pipeline.interrupts.STOP_SECONDS`; a second exits at once; committed batches stay.

This module is the run: the threads, storing in file order, the stop signals, the summary and the run row. The
inputs are cut into batches by :mod:`~catalogue.pipeline.import_batches`; steps 1 to 4, a worker's, are
:mod:`~catalogue.pipeline.import_stages`.
"""
from __future__ import annotations

import time
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from engine.vocabulary import IMPORTED

from .. import __version__
from ..console import report
from ..errors import UsageError
from ..kernels import jobs_for
from ..pace import Pace
from ..time_left import Ledger, estimate
from ..shapes import spec_for_size
from ..store.files import refuse_strangers
from .import_batches import Batch, Source, batch_size, batches
from .import_stages import Kernels, advance, pieces
from .interrupts import Interrupts

#: rejected lines reported one by one; past this, only counted (the summary has every count)
REPORT_LIMIT = 100
#: imported rows stored in one transaction (with their board files): a batch is stored slice by slice, so that a
#: stop signal waits for one slice at most, not for a whole batch of 2,048 9x9 puzzles (seconds on a loaded host)
STORE_ROWS = 256
#: seconds of a worker's work a batch aims at (catalogue.pace): ordinary 9x9 puzzles in batches of about a
#: thousand, the hardest one or two at a time; a stop waits about this long for the batches in hand
BATCH_SECONDS = 1.0
#: the reasons a line is rejected, in the order the summary lists them
REASONS = ("unreadable", "conflicting clues", "no solution", "several solutions", "undecided", "no key")


@dataclass
class ImportSummary:
    status: str = "completed"
    run_id: Optional[int] = None
    read: int = 0
    new_boards: int = 0
    on_known_boards: int = 0
    known: int = 0
    rejected: Counter = field(default_factory=Counter)
    first_number: Optional[int] = None
    last_number: Optional[int] = None
    elapsed: float = 0.0
    warm_seconds: float = 0.0
    sources: list = field(default_factory=list)
    unreported: int = 0

    @property
    def added(self) -> int:
        return self.new_boards + self.on_known_boards

    def as_dict(self) -> dict:
        return {"status": self.status, "run": self.run_id, "sources": self.sources, "read": self.read,
                "added": self.added, "new_boards": self.new_boards, "on_known_boards": self.on_known_boards,
                "already_known": self.known, "rejected": {r: self.rejected.get(r, 0) for r in REASONS
                                                          if self.rejected.get(r)},
                "first_number": self.first_number, "last_number": self.last_number,
                "elapsed_seconds": round(self.elapsed, 3)}


def import_sources(catalogue, sources: Sequence[Source], *, equivalence: str = "d4", command: str = "",
                   workers: int = 2, progress: Optional[Callable[..., None]] = None,
                   prepare: Optional[Callable[[list[str]], object]] = None) -> ImportSummary:
    """Import every puzzle of ``sources`` into ``catalogue``; rejected lines are reported on stderr (the first
    :data:`REPORT_LIMIT`) and counted. Returns the summary; the run row records it."""
    summary = ImportSummary(sources=[s.stored_as for s in sources])
    if equivalence == "full":  # puzzles are keyed too (a puzzle already stored is known again under its key)
        from engine.keys.shape_group import check_full

        for box in {box for s in sources for box in s.boxes if not isinstance(box, int)}:
            try:
                check_full(box, puzzles=True)
            except ValueError as e:
                raise UsageError(f"--equivalence full on shape {box.name}: {e}; use d4 or none") from None
    started = time.perf_counter()
    catalogue.claim_folder()
    refuse_strangers(catalogue.folder, catalogue.recover())
    # the kernels of the sizes in the files and of this equivalence, loaded here before the workers start (compiled
    # on every core the first time: Ctrl-C then raises KeyboardInterrupt, before anything is stored)
    if prepare is None:
        from engine.warmup import prepare
    prepare(jobs_for("import", {box for s in sources for box in s.boxes}, equivalence=equivalence))
    kernels = Kernels()
    summary.warm_seconds = time.perf_counter() - started
    started = time.perf_counter()  # elapsed (and the rate) is the import's own time, as fill's
    # batches sized by what the last ones cost (catalogue.pace): hard puzzles go a few at a time, on every worker
    pace = Pace(batch_size, target=BATCH_SECONDS)
    ledger = Ledger()  # what the batches' first pass found ahead, for the bar's time left (catalogue.time_left)
    work = batches(sources, pace.size)
    total = sum(s.count for s in sources)
    shapes = sorted((b.size, b.spec) if not isinstance(b, int) else (b * b, spec_for_size(b * b))
                    for b in {box for s in sources for box in s.boxes})
    sizes = sorted({size for size, _ in shapes})
    # the run's shape is its first (smallest) one; the boards it stored each name their own
    run_id = catalogue.start_run(program_version=__version__, command=command, size=shapes[0][0] if shapes else 0,
                                 shape=shapes[0][1] if shapes else "",
                                 method=IMPORTED, equivalence=equivalence, symmetry="none", seed=0,
                                 generators=0, checkers=workers, queue_size=0,
                                 parameters={"sources": summary.sources, "sizes": sizes})
    summary.run_id = run_id
    files_through: Optional[int] = None
    recorded: Optional[int] = None
    done = 0
    store_seconds = 0.0
    failure: Optional[BaseException] = None
    reported = 0
    left = False  # a stop signal's deadline passed while a batch was computed: it and those after it are left
    with Interrupts("storing the puzzles in hand", "puzzles") as interrupts:
        pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="import")
        pending: list[tuple[Batch, Future]] = []
        queue_iter = iter(work)

        def timed(batch: Batch) -> Batch:
            started = time.perf_counter()
            advance(batch, kernels, equivalence, run_id, catalogue, BATCH_SECONDS, ledger)
            pace.measured(batch.box, len(batch.parsed), time.perf_counter() - started)
            return batch

        def submit() -> None:
            while len(pending) < workers + 1 and not interrupts.stop.is_set():
                nxt = next(queue_iter, None)
                if nxt is None:
                    return
                if not nxt.parsed:
                    f: Future = Future()
                    f.set_result(nxt)
                else:
                    f = pool.submit(timed, nxt)
                pending.append((nxt, f))

        try:
            submit()
            while pending:
                batch, future = pending[0]
                while True:  # wait in slices: the main thread stays free for Ctrl-C
                    # after a stop signal, a batch not stored by the deadline is left (still computed: 25x25
                    # puzzles, a search that runs to its node budget take seconds; or computed while the one
                    # before was stored): nor are the batches after it stored, and importing the file again adds
                    # them. The slice being stored when the deadline passes (STORE_ROWS rows) is stored whole.
                    deadline = interrupts.deadline()
                    if deadline is not None and time.monotonic() >= deadline:
                        left = True
                        break
                    try:
                        batch = future.result(timeout=0.1)
                        break
                    except TimeoutError:
                        continue
                if left:
                    break
                pending.pop(0)
                if batch.rest is not None and not interrupts.stop.is_set():
                    # the rows whose nested forcing chains had no time left: graded next, in pieces of one such
                    # row each (import_stages.pieces), by every worker, and stored before the batches after them;
                    # submitted in file order (the workers take them in the order given, and each is stored
                    # only after those before it: submitted last to first, the bar stood still until the end)
                    pending[0:0] = [(piece, pool.submit(timed, piece))
                                    for piece in pieces(batch.rest, pace.size(batch.box))]
                if not interrupts.stop.is_set():
                    submit()
                for entry, reason, message in sorted(batch.rejected, key=lambda r: r[0].line):  # file order
                    summary.rejected[reason] += 1
                    if reported < REPORT_LIMIT:
                        report(f"{entry.source}:{entry.line}: {message}" if reason != "unreadable" else str(entry))
                        reported += 1
                    else:
                        summary.unreported += 1
                summary.known += batch.known
                t0 = time.perf_counter()
                stored = 0  # rows of the batch stored, slice by slice
                for start in range(0, len(batch.boards), STORE_ROWS):
                    deadline = interrupts.deadline()
                    if start and deadline is not None and time.monotonic() >= deadline:
                        left = True  # the rest of this batch, and the batches after it, are left
                        break
                    rows = slice(start, start + STORE_ROWS)
                    outcomes = catalogue.store_imported(
                        batch.boards[rows], batch.puzzles[rows], batch.puzzle_keys[rows], kernels.key_of,
                        kernels.orient, run_id=run_id,
                        files_through=files_through if files_through != recorded else None)
                    recorded = files_through
                    stored = start + len(outcomes)
                    new = [start + i for i, (what, _) in enumerate(outcomes) if what == "board"]
                    summary.new_boards += len(new)
                    summary.on_known_boards += sum(1 for what, _ in outcomes if what == "puzzle")
                    summary.known += sum(1 for what, _ in outcomes if what == "known")
                    if new:
                        numbers = [outcomes[i - start][1] for i in new]
                        catalogue.write_board_files(numbers, batch.solutions[new], batch.boards[new[0]]["shape"])
                        files_through = numbers[-1]
                        if summary.first_number is None:
                            summary.first_number = numbers[0]
                        summary.last_number = numbers[-1]
                store_seconds += time.perf_counter() - t0
                if stored == len(batch.boards):
                    done += len(batch.parsed) + sum(1 for _, r, _ in batch.rejected if r == "unreadable")
                else:  # stored in part: the lines decided (rejected, known, stored) count, not those left
                    done += len(batch.rejected) + batch.known + stored
                summary.read = done
                if progress is not None:  # with the time left by kind once a hard puzzle is done
                    progress(done, total, estimate(done, total, time.perf_counter() - started, workers, ledger)
                             if ledger.finished else None)
                if left:
                    break
        except BaseException as e:  # noqa: BLE001 - the run row says how it ended, then the error goes on
            failure = e
        finally:
            # a batch left in flight is not waited for: its thread ends when its kernel returns, or with the
            # process (the CLI leaves without joining it: catalogue.cli._leave)
            pool.shutdown(wait=not left, cancel_futures=True)
        interrupted = interrupts.stop.is_set() and done < total
    summary.elapsed = time.perf_counter() - started
    summary.status = ("failed" if failure is not None else "interrupted" if interrupted else "completed")
    try:
        catalogue.finish_run(run_id, status=summary.status, generated=summary.read, accepted=summary.added,
                             duplicates=summary.known, contradictions=0, elapsed_seconds=summary.elapsed,
                             files_through=files_through,
                             stage_stats={"import": {"actors": workers, "in": summary.read, "out": summary.added,
                                                     "per_second": round(summary.read / summary.elapsed, 1)
                                                     if summary.elapsed > 0 else 0.0,
                                                     "store_seconds": round(store_seconds, 3),
                                                     "rejected": dict(summary.rejected),
                                                     "new_boards": summary.new_boards,
                                                     "on_known_boards": summary.on_known_boards}})
    except Exception:
        if failure is None:
            raise
    if failure is not None:
        raise failure
    return summary
