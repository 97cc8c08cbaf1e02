"""``fill``: run the pipeline that adds new unique boards (and their puzzles) to the catalogue.

::

    generator-1 ┐                     ┌ checker-1 ┐
    generator-2 ┴─▶ [boards queue] ─▶ ┴ checker-2 ┴─▶ [checked queue] ─▶ writer ─▶ DB commit ─▶ N.txt
     make boards     bounded           keys, dedupe,     bounded            numbers, rows, files
     (kernel)                          carve, grade

The main thread only supervises: it opens the catalogue (migrations, file recovery), compiles or loads the
kernels before any worker starts, starts the actors downstream first, then waits on the supervisor's event with
a timeout, reporting progress. Every ending goes through one ordered shutdown, upstream first: generators stop,
checkers finish the batch in hand, the writer commits everything handed to it and writes its files, and only
then is the run row closed. Boards still queued unchecked are counted as dropped, never silently lost.

Ctrl-C (or SIGTERM) once: the same shutdown, status ``interrupted``, except that a checker still carving a batch
:data:`~catalogue.pipeline.interrupts.STOP_SECONDS` after the signal is let go (its boards were not accepted:
counted in flight) rather than waited for. Twice: exit at once (code 130); what was committed stays, missing
files are rewritten by the next open.
"""
from __future__ import annotations

import logging
import os
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from sqlalchemy.exc import DBAPIError

from engine.vocabulary import MIN_CLUES

from .. import __version__
from ..config import MAX_WORKERS
from ..errors import UsageError, UserError
from ..failures import describe, describe_error
from ..kernels import jobs_for
from ..shapes import is_square
from ..store import Catalogue
from ..store.files import FileReport, refuse_strangers
from .actor import Channel, Supervisor
from .interrupts import Interrupts
from .messages import Counters
from .options import FillOptions
from .stages import CheckerActor, GeneratorActor, Kernels, SeenKeys
from .writer import WriterActor

logger = logging.getLogger(__name__)

PROGRESS_SECONDS = 0.2
#: how long an ordered shutdown waits for one stage; a stage still running then is reported, never waited on
JOIN_SECONDS = 30.0
#: upper bounds of the sizing options: a batch is allocated whole by the kernels (`--batch 99999999999` asked
#: for 745 GiB and failed mid-run), and every worker is an OS thread (30,000 of them never got started)
MAX_BATCH = 65_536


def level_missed(level: str, tries: int, missed: int, stored: int, reached: dict[str, int], size: int) -> str:
    """The one line that says how many stored puzzles are off ``--level`` and what may help, e.g. ``--level expert:
    2 of 2 stored puzzles missed it in 20 carvings each (kept as easy: no carving was that hard); more
    --level-tries or another level may help``. A carving harder than the level gets clues back until it is within
    (engine.carve.toward), so a miss is easier than the level, unless the run was stopped first."""
    from engine.vocabulary import LEVELS

    kept = ", ".join(f"{n} {name}" if len(reached) > 1 else name
                     for name, n in sorted(reached.items(), key=lambda item: LEVELS.index(item[0])))
    why = ""
    if all(LEVELS.index(name) < LEVELS.index(level) for name in reached):
        why = f": no {size}x{size} carving was that hard"
    carvings = f"{tries} carving{'s' if tries != 1 else ''} each"
    return (f"--level {level}: {missed:,} of {stored:,} stored puzzle{'s' if stored != 1 else ''} missed it in "
            f"{carvings} (kept as {kept}{why}); more --level-tries or another level may help")


@dataclass
class FillSummary:
    run_id: int | None
    status: str  # completed | interrupted | failed | exhausted
    seed: int
    requested: int
    accepted: int = 0
    generated: int = 0
    duplicates: int = 0
    contradictions: int = 0
    surplus: int = 0
    dropped: int = 0
    off_level: int = 0
    first_number: int | None = None
    last_number: int | None = None
    number_runs: int = 0  #: runs of consecutive numbers (1 unless other writers took numbers between)
    elapsed: float = 0.0
    warm_seconds: float = 0.0
    stage_stats: dict = field(default_factory=dict)
    recovered: FileReport | None = None
    message: str | None = None  # exhaustion: said on stderr
    level_missed: str | None = None  # how many stored puzzles missed --level, and what may help: stderr, exit 1
    error: str | None = None  # the one-line reason of a failed run
    stuck: list[str] = field(default_factory=list)  # actors that did not stop in time


def _validate(plan: FillOptions, kernels: Kernels) -> None:
    if plan.count < 1:
        raise UsageError(f"--count must be at least 1, got {plan.count}")
    for name, value in (("--generators", plan.generators), ("--checkers", plan.checkers),
                        ("--queue-size", plan.queue_size), ("--batch", plan.batch)):
        if value < 1:
            raise UsageError(f"{name} must be at least 1, got {value}")
    for name, value, most in (("--generators", plan.generators, MAX_WORKERS),
                              ("--checkers", plan.checkers, MAX_WORKERS), ("--batch", plan.batch, MAX_BATCH)):
        if value > most:
            raise UsageError(f"{name} must be at most {most:,}, got {value:,}")
    ncells = plan.size * plan.size
    if plan.target_clues is not None and not 0 <= plan.target_clues <= ncells:
        raise UsageError(f"--target-clues must be between 0 and {ncells} for {plan.size}x{plan.size}")
    fewest = MIN_CLUES.get(plan.size) if is_square(plan.shape) else None  # (known for square boxes only)
    if plan.target_clues is not None and fewest is not None and plan.target_clues < fewest:
        # no puzzle can reach it: refused before the run rather than carving every board 20 times in vain
        raise UserError(f"--target-clues {plan.target_clues}: no {plan.size}x{plan.size} puzzle with one solution "
                        f"has fewer than {fewest} clues; use {fewest} or more")
    kernels.validate(plan)
    if not is_square(plan.shape):
        _validate_shape(plan)


def _validate_shape(plan: FillOptions) -> None:
    """What only the shapes beyond square boxes refuse: generators that make square boxes only, and ``full`` keys
    where the shape's group is too large to search by listing it (engine/keys/shape_group.py)."""
    from engine.generators import makes_every_shape, shape_methods

    name = plan.grid_shape.name
    if not makes_every_shape(plan.method):
        raise UsageError(f"--method {plan.method} makes square boxes only; shape {name} takes --method "
                         f"{' or '.join(shape_methods())}")
    if plan.equivalence == "full":
        from engine.keys.shape_group import check_full

        try:
            check_full(plan.grid_shape)
        except ValueError as e:
            raise UsageError(f"--equivalence full on shape {name}: {e}; use d4 or none") from None


def fill(catalogue: Catalogue, count: int | FillOptions, *, progress: Callable[[dict], None] | None = None,
         prepare: Callable[[list[str]], object] | None = None, **options) -> FillSummary:
    """Add ``count`` new unique boards, with their carved and graded puzzles, to the catalogue: ``count`` and
    ``options`` are the fields of :class:`~catalogue.pipeline.options.FillOptions` (the options of ``catalogue
    fill``: ``fill(catalogue, 20, seed=7, generators=1)``), or ``count`` is a FillOptions already made.

    Returns the summary whatever happens; ``status`` says how it ended (a failed worker gives ``failed`` and
    ``error``, Ctrl-C gives ``interrupted``). Raises UsageError for bad options, UserError if the catalogue
    cannot be opened. ``prepare(jobs)`` makes the kernels ready before the actors start (default: engine.warmup's
    prepare, without progress; the CLI's shows it: catalogue/kernels.py).
    """
    from engine.vocabulary import SIZES

    if isinstance(count, FillOptions):
        if options:
            raise TypeError(f"fill() takes FillOptions or keywords, not both: {', '.join(options)}")
        plan = count
    else:
        try:
            plan = FillOptions(count=count, **options)
        except ValueError as e:  # a shape that is none, or a size that disagrees with it
            raise UsageError(f"--shape: {e}") from None
    if plan.shape is None:
        raise UsageError(f"--size: {plan.size} is not a grid size ({', '.join(map(str, SIZES))}); other sizes "
                         "take --shape (RxC, latin)")
    kernels = Kernels(plan.method)
    _validate(plan, kernels)

    try:
        # a folder of another catalogue, or a file in the way, stops here: before a run is recorded
        catalogue.claim_folder()
        recovered = catalogue.recover()
        refuse_strangers(catalogue.folder, recovered)  # before a run is recorded: nothing is written over them
        started = time.perf_counter()
        jobs = jobs_for("fill", [plan.box], method=plan.method, equivalence=plan.equivalence, level=plan.level)
        if prepare is None:
            from engine.warmup import prepare
        prepare(jobs)  # compiled on every core the first time (Ctrl-C: KeyboardInterrupt, nothing half-written)
        kernels.warm(plan)  # in this thread, before any worker starts: this run's options, from the loaded kernels
        warm_seconds = time.perf_counter() - started
        run = _Run(catalogue, plan, kernels)
        summary = run.execute(progress)
        summary.recovered, summary.warm_seconds = recovered, warm_seconds
        return summary
    except DBAPIError as e:
        # main-thread writes (recovery, the run row) on a database we may read but not write, e.g. a read-only
        # file: one line, not a traceback (workers' errors are handled by the supervisor, not here)
        raise catalogue.database_error("write", e) from None


class _Run:
    def __init__(self, catalogue: Catalogue, plan: FillOptions, kernels):
        self.catalogue, self.plan, self.kernels = catalogue, plan, kernels
        self.count, self.n_generators, self.n_checkers = plan.count, plan.generators, plan.checkers
        self.queue_size = plan.queue_size
        self.counters = Counters(target=plan.count)
        self.supervisor = Supervisor()
        self.run_id = self._create_run()

    # -- the run row ----------------------------------------------------------------------------------------------
    def _create_run(self) -> int:
        p = self.plan
        parameters = {**p.parameters(), "pid": os.getpid(), "host": socket.gethostname(),
                      "out": str(self.catalogue.folder)}
        return self.catalogue.start_run(
            program_version=__version__, command=p.command(), size=p.size, shape=p.shape, method=p.method,
            equivalence=p.equivalence, symmetry=p.symmetry, target_clues=p.target_clues, level=p.level,
            seed=p.seed, generators=self.n_generators, checkers=self.n_checkers, queue_size=self.queue_size,
            parameters=parameters)

    def _close_run(self, summary: FillSummary, files_through) -> None:
        self.catalogue.finish_run(
            self.run_id, status=summary.status, generated=summary.generated, accepted=summary.accepted,
            duplicates=summary.duplicates, contradictions=summary.contradictions, elapsed_seconds=summary.elapsed,
            stage_stats=summary.stage_stats, files_through=files_through)

    # -- actors -------------------------------------------------------------------------------------------------
    def _build(self) -> None:
        plan, counters, sup = self.plan, self.counters, self.supervisor
        self.gen_stop, self.chk_stop, self.wrt_stop = threading.Event(), threading.Event(), threading.Event()
        # the queue size is counted in boards (what a user can picture); channels hold whole batches
        self.boards_q = Channel("boards", max(1, -(-self.queue_size // plan.batch)))
        self.checked_q = Channel("checked", max(2, self.n_checkers))
        seen = SeenKeys()
        self.writer = WriterActor("writer", sup, self.wrt_stop, self.checked_q, plan, counters, self.catalogue,
                                  self.run_id)
        self.checkers = [CheckerActor(f"checker-{i + 1}", sup, self.chk_stop, self.boards_q, self.checked_q,
                                      self.wrt_stop, plan, counters, seen, self.catalogue, self.kernels)
                         for i in range(self.n_checkers)]
        self.generators = [GeneratorActor(f"generator-{i + 1}", sup, self.gen_stop, self.boards_q, plan, counters,
                                          i + 1, self.kernels.generate_array)
                           for i in range(self.n_generators)]
        for name, actors in (("generate", self.generators), ("check", self.checkers), ("write", [self.writer])):
            counters.stage(name).actors = len(actors)

    def execute(self, progress) -> FillSummary:
        self._build()
        started = time.perf_counter()
        self.interrupted = False
        with Interrupts("saving the boards in flight", "boards", self.supervisor.wake) as interrupts:
            try:
                for actor in [self.writer, *self.checkers, *self.generators]:  # downstream first: nobody waits
                    actor.start()
                while not self.supervisor.wake.wait(PROGRESS_SECONDS):
                    if progress:
                        progress({**self.counters.snapshot(), "elapsed": time.perf_counter() - started})
                    if not all(a.is_alive() for a in self._actors()) and self.supervisor.failure is None:
                        dead = next(a.name for a in self._actors() if not a.is_alive())
                        self.supervisor.fail(dead, RuntimeError("stopped without a reason"))
            except KeyboardInterrupt:  # only if our handler could not be installed (not the main thread)
                interrupts.count += 1
            except BaseException as exc:  # noqa: BLE001 - e.g. a progress callback: still shut down in order
                self.supervisor.fail("supervisor", exc)
            self.interrupted = interrupts.count > 0
            stuck = self._shutdown(interrupts.deadline())
            elapsed = time.perf_counter() - started
            if progress:
                progress({**self.counters.snapshot(), "elapsed": elapsed, "final": True})
            summary = self._summary(elapsed, self.interrupted or interrupts.count > 0, stuck)
            try:
                self._close_run(summary, self.writer.files_through)
            except DBAPIError as e:
                summary.status = "failed"
                summary.error = summary.error or f"cannot record the run: {describe_error(e)}"
        return summary

    def _actors(self):
        return [*self.generators, *self.checkers, self.writer]

    def _shutdown(self, deadline: float | None = None) -> list[str]:
        """Stop upstream first; returns the names of actors that did not stop within JOIN_SECONDS.

        After a stop signal (``deadline``, time.monotonic()), generators and checkers are waited for until the
        deadline only: a generator still making a batch then can no longer hand it over (its stop is set), and a
        checker still checking one is let go (:meth:`CheckerActor.let_go`): its boards are counted in flight, and
        nothing it hands over later is stored. The writer is always waited for: what it holds is accepted."""
        failure = self.supervisor.failure
        if failure is not None and failure[0] == self.writer.name:
            self.wrt_stop.set()  # nobody will store what the checkers hold: let their puts give up
        stuck = []
        self.gen_stop.set()
        late = _join(self.generators, deadline)
        if deadline is None:
            stuck += late
        self.chk_stop.set()  # a checker finishes the batch in hand and hands it to the writer
        late = _join(self.checkers, deadline)
        if deadline is None:
            stuck += late
        else:
            left = sum(checker.let_go() for checker in self.checkers if checker.name in late)
            with self.counters.lock:
                self.counters.dropped += left
        queued = sum(len(b) for b in self.boards_q.drain())
        with self.counters.lock:
            # boards never checked: surplus when the run got what it wanted, work lost in flight otherwise
            if self.supervisor.outcome is not None and failure is None and not self.interrupted:
                self.counters.surplus += queued
            else:
                self.counters.dropped += queued
        if self.writer.is_alive():
            try:
                self.checked_q.close(self.wrt_stop)  # the writer stores everything before the marker, then ends
            except Exception:  # noqa: BLE001 - the writer's stop was set: it is failing; counted below
                pass
            stuck += _join([self.writer])
        left = self.checked_q.drain()
        if left:
            with self.counters.lock:
                self.counters.dropped += sum(len(b) for b in left)
        if stuck:
            for event in (self.gen_stop, self.chk_stop, self.wrt_stop):
                event.set()
        return stuck

    def _summary(self, elapsed: float, interrupted: bool, stuck: list[str]) -> FillSummary:
        c, plan = self.counters.snapshot(), self.plan
        failure = self.supervisor.failure
        if failure is not None or stuck:
            status = "failed"
        elif interrupted:
            status = "interrupted"
        elif self.supervisor.outcome == "exhausted" and c["accepted"] < c["target"]:
            status = "exhausted"
        else:
            status = "completed"
        if status in ("completed", "exhausted"):  # the run got all it could: unchecked boards were not needed
            c["surplus"], c["dropped"] = c["surplus"] + c["dropped"], 0
        summary = FillSummary(
            run_id=self.run_id, status=status, seed=plan.seed, requested=self.count, accepted=c["accepted"],
            generated=c["generated"], duplicates=c["duplicates"], contradictions=c["contradictions"],
            surplus=c["surplus"], dropped=c["dropped"], off_level=c["off_level"], first_number=c["first_number"],
            last_number=c["last_number"], number_runs=c["number_runs"], elapsed=elapsed,
            stage_stats=self._stage_stats(elapsed), stuck=stuck)
        if failure is not None:
            actor, exc = failure
            # the boundary's line (catalogue.failures): a database, disk or resource failure reads the same as in
            # any command; a bug says it is one and names the actor it happened in
            failure = describe(exc)
            summary.error = failure.message if failure.expected else f"{actor} failed: {failure.message}"
            if not failure.expected:
                logger.info("%s failed", actor, exc_info=exc)  # the traceback, under -v
        elif stuck:
            summary.error = f"{', '.join(stuck)} did not stop within {JOIN_SECONDS:.0f} s"
        if plan.level is not None and summary.off_level:
            summary.level_missed = level_missed(plan.level, plan.level_tries, summary.off_level, summary.accepted,
                                                dict(self.counters.off_level_reached), plan.size)
        if status == "exhausted":
            found = f"{summary.accepted} new board{'s' if summary.accepted != 1 else ''}"
            summary.message = (f"only {found} found: the {plan.size}x{plan.size} "
                               f"{plan.equivalence} space looks exhausted after {c['streak']} consecutive "
                               f"duplicates")
        return summary

    def _stage_stats(self, elapsed: float) -> dict:
        stats = {}
        for name, actors in (("generate", self.generators), ("check", self.checkers), ("write", [self.writer])):
            stage = self.counters.stage(name)
            stage.busy_seconds = sum(a.busy_seconds for a in actors)
            stage.cpu_seconds = sum(a.cpu_seconds for a in actors)
            stats[name] = stage.as_dict(elapsed)
        stats["write"]["db_seconds"] = round(self.writer.db_seconds, 3)
        stats["write"]["file_seconds"] = round(self.writer.file_seconds, 3)
        return stats


def _join(actors, deadline: float | None = None) -> list[str]:
    """Wait for ``actors`` until ``deadline`` (time.monotonic(); default JOIN_SECONDS from now); the names of those
    still alive."""
    deadline = time.monotonic() + JOIN_SECONDS if deadline is None else deadline
    for actor in actors:
        actor.join(max(0.0, deadline - time.monotonic()))
    return [a.name for a in actors if a.is_alive()]

