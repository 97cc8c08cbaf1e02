"""Making the compiled kernels ready before a command's work starts: on every core, with honest progress, once.

    from engine.warmup import prepare
    report = prepare(["generate:wfc@3", "keys:d4@3", "carve@3", "grade@3"], progress=print)

A *job* (:mod:`engine.warmup.jobs`) runs one part of the engine on a tiny input, which makes numba compile, or
load from the kernel cache (:mod:`engine.cache`), every kernel that part calls. :func:`prepare` runs the jobs a
command needs. Jobs already done in this cache folder (a marker file each) are only run, here, which loads their
kernels in about a second. For the others, the plan (:mod:`engine.warmup.plan`, recorded from the code) lists the
kernels to compile; worker processes, one per core, compile them (:mod:`engine.warmup.parallel`), the kernels
each one calls first; then the jobs run here and load them. Nothing depends on the workers but time: whatever the
plan did not foresee compiles here, as it would without them.

Ctrl-C during the compile raises KeyboardInterrupt within a moment (the workers are killed); every kernel finished
by then is in the cache, and the next run compiles only the rest.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .interrupts import Noted
from .jobs import job_id, job_names, parse_job_id, run_job
from .parallel import Progress, default_workers

__all__ = ["prepare", "PrepareReport", "Progress", "job_id", "job_names", "jobs_done", "compiled_ready",
           "default_workers"]

#: the folder, inside the kernel cache folder, of one marker file per job done there
MARKERS = "warmup"
#: below this many recorded seconds of compiling, workers cost more than they save (each imports numba)
WORKERS_FROM_SECONDS = 4.0


@dataclass
class PrepareReport:
    """What :func:`prepare` did: the ``jobs`` it was asked for, those ``missing`` from the cache when it began,
    the plan's ``kernels`` compiled (of ``planned``; by ``workers`` processes, or here when that was too little
    work to share), the ``failed`` ones (compiled here afterwards), the overloads ``compiled_here`` (the plan
    lacked them, or there were no workers), and the wall ``seconds``."""

    jobs: list[str]
    missing: list[str] = field(default_factory=list)
    planned: int = 0
    kernels: int = 0
    workers: int = 0
    failed: list[str] = field(default_factory=list)
    compiled_here: int = 0
    seconds: float = 0.0


def _folder() -> Path | None:
    from .. import cache

    folder = cache.enable()
    return Path(folder) if folder else None


def _marker(folder: Path, job: str) -> Path:
    return folder / MARKERS / f"{job}.done"


def jobs_done(jobs, folder: Path | None = None) -> list[str]:
    """The ``jobs`` whose kernels this cache folder holds (their marker files exist)."""
    folder = folder or _folder()
    if folder is None:
        return []
    return [job for job in jobs if _marker(folder, job).exists()]


def _mark(folder: Path, jobs) -> None:
    try:
        (folder / MARKERS).mkdir(parents=True, exist_ok=True)
        for job in jobs:
            _marker(folder, job).touch()
    except OSError:  # a read-only or full cache: the next run checks again, at the cost of a glance
        pass


def _has_index(folder: Path, kernel: str) -> bool:
    """Whether numba has filed some overload of ``kernel`` (``module:qualname``) in the folder: its index file
    (engine/_cache_locator.py files it under the package, named ``<file>.<qualname>-<line>.py<ver>.nbi``); a
    glance, without importing the kernel (engine.warmup.cached says which overloads)."""
    module, _, qualname = kernel.partition(":")
    package, _, file = module.rpartition(".")
    return any((folder / package).glob(f"{file}.{qualname}-*.nbi"))


class _CompileCounter:
    """Counts the engine kernel overloads numba compiles (not loads) in this process while it is active."""

    def __enter__(self):
        from numba.core import event

        counter = self

        class Listener(event.Listener):
            def on_start(self, ev):
                pass

            def on_end(self, ev):
                module = getattr(ev.data["dispatcher"].py_func, "__module__", "") or ""
                if module.startswith("engine."):
                    counter.count += 1

        self.count, self.listener = 0, Listener()
        event.register("numba:compile", self.listener)
        return self

    def __exit__(self, *exc):
        from numba.core import event

        event.unregister("numba:compile", self.listener)


def prepare(jobs, progress: Callable[[Progress], None] | None = None, workers: int | None = None,
            workers_from: float = WORKERS_FROM_SECONDS) -> PrepareReport:
    """Make the kernels of ``jobs`` (job ids, ``NAME@BOX``) ready in this process, compiling on ``workers``
    processes (default: one per core) what the cache lacks, when the plan says that takes ``workers_from`` seconds
    or more (less is compiled here); ``progress`` is called as kernels finish (see :class:`Progress`) while
    anything compiles. Raises KeyboardInterrupt on Ctrl-C, the workers stopped."""
    jobs = list(dict.fromkeys(jobs))
    for job in jobs:
        parse_job_id(job)  # a misspelt job is a bug of the caller's: say so before anything runs
    started = time.perf_counter()
    report = PrepareReport(jobs)
    from .._jit import JIT_DISABLED

    if JIT_DISABLED:  # the kernels are plain Python: nothing to compile or load
        return report
    folder = _folder()
    done = set(jobs_done(jobs, folder)) if folder is not None else set()
    report.missing = [job for job in jobs if job not in done]
    if report.missing and folder is not None:
        from . import plan
        from .cached import CachedOverloads
        from .parallel import compile_tasks

        todo = plan.tasks(report.missing, skip=CachedOverloads())
        report.planned = len(todo)
        if todo and sum(t.seconds for t in todo) >= workers_from:
            report.workers = max(1, min(workers or default_workers(), len(todo)))
            report.failed = compile_tasks(todo, report.workers, progress)
            report.kernels = report.planned - len(report.failed)
        elif todo and progress is not None:  # a few seconds, here: said all the same
            progress(Progress(0, len(todo), None, time.perf_counter() - started, 1))
    # a Ctrl-C waits for the job in hand (seconds: what the plan puts above workers_from went to workers), since
    # one raised inside numba's compile may kill the process (.interrupts); without a cache everything compiles here
    with _CompileCounter() as counter, Noted(defer=folder is not None) as interrupt:
        try:
            for job in jobs:
                run_job(job)  # loads what is cached; compiles here what is not
                interrupt.reraise()
        except BaseException:
            interrupt.reraise()  # Ctrl-C as itself, whatever the compile it broke raised (.interrupts)
            raise
        interrupt.reraise()  # one the compile swallowed
    report.compiled_here = counter.count
    if not report.workers and counter.count:  # the plan's kernels were compiled here, in the loop above
        report.kernels = report.planned
        if progress is not None:
            progress(Progress(report.planned, report.planned, 0.0, time.perf_counter() - started, 1))
    if folder is not None:
        _mark(folder, report.missing)
    report.seconds = time.perf_counter() - started
    return report


def compiled_ready() -> bool:
    """Whether the compiled grader can be used at once: loaded in this process, or compiled in the kernel cache (it
    then loads in a fraction of a second). Where it is not, a caller that must answer at once (the web server's
    hint) takes the plain path rather than compile the grader for a minute inside a request."""
    from ..grade.kernels import driver

    overloads = getattr(driver._grade_many, "overloads", None)
    if overloads is None:  # NUMBA_DISABLE_JIT: the kernels are plain Python, far slower than the finders alone
        return False
    if overloads:
        return True
    folder = os.environ.get("NUMBA_CACHE_DIR")  # without a cache folder nothing compiled lasts
    return bool(folder) and _has_index(Path(folder), f"{driver.__name__}:_grade_many")
