"""The compiled kernels each command needs, made ready before its work starts: on every core, with honest progress.

The engine compiles its kernels once per install and source version, into one cache folder that every entry point
shares (engine.cache); :func:`engine.warmup.prepare` compiles what a list of warm-up jobs needs, one worker
process per core, and loads it. This module says which jobs each command needs (:data:`COMMAND_JOBS`) and shows
the compile: on a terminal as the display's line (``compiling the kernels: 57 of 168, about 31 s left``), and
otherwise as a plain line on stderr every :data:`LOG_EVERY` seconds. Once compiled, a command finds its jobs'
marker files and only loads the kernels (about a second). Ctrl-C during the compile exits 130 at once; the
kernels finished by then are kept and the next run compiles only the rest.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Iterable

from .console import report

#: the warm-up jobs (engine.warmup.jobs) of each command, for every box size it meets; ``{method}`` and
#: ``{equivalence}`` are the command's options. fill adds ``relax`` with --level (see :func:`jobs_for`).
COMMAND_JOBS: dict[str, tuple[str, ...]] = {
    "fill": ("generate:{method}", "keys:{equivalence}", "carve", "grade"),
    "import": ("solve", "keys:{equivalence}", "grade", "minimal"),
    "grade": ("grade",),
    "regrade": ("grade",),
    "carve": ("carve",),
    "solve": ("solve",),
    "check": ("solve",),
    "key": ("keys:{equivalence}",),
    "generate": ("generate:{method}",),
}
#: seconds between two progress lines when stderr is not a terminal (a log, a pipe, a cron job)
LOG_EVERY = 10.0


def jobs_for(command: str, boxes: Iterable[int], *, method: str = "wfc", equivalence: str = "d4",
             level: str | None = None) -> list[str]:
    """The job ids ``command`` needs for grids of the ``boxes`` sizes (``NAME@BOX``)."""
    from engine.warmup import job_id
    from engine.warmup.jobs import SHAPES_JOB

    names = [name.format(method=method, equivalence=equivalence) for name in COMMAND_JOBS.get(command, ())]
    if command == "fill" and level is not None:
        names.append("relax")
    # square boxes: the command's jobs for each size; every other shape (an engine.shape.Shape among ``boxes``)
    # shares one job, whose kernels serve every shape
    boxes = set(boxes)
    square = sorted(b for b in boxes if isinstance(b, int))
    shaped = [SHAPES_JOB] if len(square) < len(boxes) and names else []
    return [job_id(name, box) for box in square for name in names] + shaped


def sizes_of(entries) -> set[int]:
    """The box sizes of the grids read from a file (its entries that are not read errors); what an
    ``engine.formats.registry.Entries`` knows without making its entries."""
    boxes = getattr(entries, "boxes", None)
    if boxes is not None:
        return set(boxes)
    return {entry.grid.box for entry in entries if hasattr(entry, "grid")}


def duration(seconds: float) -> str:
    """``45 s``, ``1 min 20 s``: how the time left is said."""
    seconds = max(0, round(seconds))
    return f"{seconds} s" if seconds < 60 else f"{seconds // 60} min {seconds % 60:02d} s"


def ready(jobs: list[str], display=None, what: str = "", workers: int | None = None, named: bool = False
          ) -> object | None:
    """Make ``jobs``' kernels ready (compiled on ``workers`` processes, one per core by default, where the cache
    lacks them, then loaded), showing the compile on ``display`` (a :class:`catalogue.progress.Display`) when it
    is on a terminal, else as log lines. ``what`` names the command in the lines (and in the last one too when
    ``named``: a compile in the middle of a command's work). Returns engine.warmup's report (None for no jobs)."""
    if not jobs:
        return None
    from engine.warmup import jobs_done, prepare

    shown = display is not None and display.progress is not None
    if len(jobs_done(jobs)) == len(jobs):  # the usual case: a glance at the marker files, then a quick load
        if shown:
            display.note("loading the compiled kernels")
        return prepare(jobs)
    state = {"logged": 0.0, "started": time.perf_counter()}
    label = f"compiling the kernels{' for ' + what if what else ''}"

    def progress(p) -> None:
        left = "measuring the time left" if p.seconds_left is None else f"about {duration(p.seconds_left)} left"
        line = f"{label}: {p.done} of {p.total}, {left}"
        if shown:
            display.note(line)
        elif not state["logged"]:
            report(f"{label} on {p.workers} core{'s' if p.workers > 1 else ''}, once: {p.total} to compile")
            state["logged"] = time.perf_counter()
        elif time.perf_counter() - state["logged"] >= LOG_EVERY:
            report(line)
            state["logged"] = time.perf_counter()

    result = prepare(jobs, progress=progress, workers=workers)
    if result.kernels or result.compiled_here:  # (the marker files may lack while the kernels were loaded)
        seconds = time.perf_counter() - state["started"]
        if named and what:  # (one line under 80 columns: it comes amid the command's own lines)
            report(f"kernels for {what} compiled in {seconds:.1f} s, once")
        else:
            report(f"kernels compiled in {seconds:.1f} s (once: later runs load them in about a second)")
    return result


_later = threading.Lock()
_later_ready: list[bool] = [False]
_solver_ready: set = set()  # the box sizes (or "shapes") whose solver ready_to_count made ready
_later_display: list = [None]  # the command's display, for a compile met by its workers (later_shown_on)


@contextmanager
def later_shown_on(display):
    """While inside, :func:`ready_for_later` called without a display (from a pipeline's worker, which has none)
    shows the compile on ``display``'s line."""
    _later_display[0] = display
    try:
        yield display
    finally:
        _later_display[0] = None


def ready_for_later(display=None, later=None) -> None:
    """Make the kernels an :class:`engine.grade.Later` needs ready, once a process, before it is called (from any
    thread: the others wait): the solver's that count its solutions (:func:`ready_to_count`), then, unless ``later``
    (the one about to be called) has several, the nested forcing chains'.

    Why: no command's jobs include them (:data:`COMMAND_JOBS`), since only the hardest puzzles reach those rows and
    compiling them is a minute that most files never need; left to numba, the first such puzzle compiled them
    on one core inside a grading thread, the bar standing still and nothing said (62 s on a 2-core EPYC). Here
    they compile on every core with the compile's own progress (on ``display``'s line, else as log lines), or load
    in a fraction of a second once they are in the cache."""
    ready_to_count(display, later)
    if _later_ready[0] or not getattr(later, "worth_nesting", lambda: True)():
        return
    with _later:
        if _later_ready[0]:
            return
        from engine.warmup.jobs import NESTED_JOB

        display = display if display is not None else _later_display[0]
        ready([NESTED_JOB], display, "the nested forcing chains", named=True)
        if display is not None:
            display.note(display.label)  # the line back to the bar it was
        _later_ready[0] = True


def ready_to_count(display=None, later=None) -> None:
    """Make the solver's kernels ready for ``later``'s grid size, once a process: a :class:`engine.grade.Later`
    counts its puzzle's solutions before anything else (``worth_nesting``). Left to numba, the first stuck puzzle
    of a ``catalogue grade`` compiled them inside a grading thread, unannounced (7 to 14 s on a 2-core EPYC)."""
    box = getattr(later, "box", 3)
    solver = box if isinstance(box, int) else "shapes"
    if solver in _solver_ready:
        return
    with _later:
        if solver in _solver_ready:
            return
        display = display if display is not None else _later_display[0]
        ready(jobs_for("solve", [box]), display, "the solver", named=True)
        if display is not None:
            display.note(display.label)
        _solver_ready.add(solver)
