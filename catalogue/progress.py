"""The one progress display of long commands: a single rich ``Progress`` (one Live) on stderr.

Why one display: fill used a rich status spinner for the kernels and a separate progress bar for the run; two Live
displays on one terminal drew over each other and left a stale ``fill 0/N ...`` line above the summary. Here one
``Progress`` holds one task that is first a phase line (spinner, text, time elapsed: "compiling the kernels: 57
of 168, about 31 s left", see catalogue/kernels.py) and then the bar, and it is transient: when it stops, nothing
of it is left above what follows.

Nothing at all is drawn when stderr is not a terminal (logs and pipes stay clean) or under ``-q``
(:func:`catalogue.console.is_quiet`); :class:`Display` is then a no-op with the same methods.
"""
from __future__ import annotations

import logging
import sys
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator

from . import english
from .console import is_quiet
from .time_left import clock, time_left

log = logging.getLogger("catalogue")


def _say_the_encoding(stream) -> None:
    """Give rich's stand-in for stdout (a ``FileProxy``, while the display is live) the encoding of the terminal it
    stands for.

    Why: it is an ``io.TextIOBase``, whose ``encoding`` is None, and click (``typer.echo``, how the file commands
    write their records) takes a stream with no encoding for a misconfigured one and writes to the buffer beneath
    it instead: past rich, onto the bar's line, which then stayed on the screen with the record after it."""
    from rich.file_proxy import FileProxy

    if type(stream) is FileProxy:
        if not _encoded:
            def proxied(name: str) -> property:
                return property(lambda self: getattr(self.rich_proxied_file, name, None))
            _encoded.append(type("EncodedProxy", (FileProxy,), {"encoding": proxied("encoding"),
                                                                "errors": proxied("errors")}))
        stream.__class__ = _encoded[0]


_encoded: list = []  # the FileProxy subclass, made once (rich is imported only by a display that draws)


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


class Display:
    """One transient rich ``Progress`` on stderr for one command: a phase line, then a bar.

    Use as a context manager; :meth:`phase` shows a spinner with a text, :meth:`bar` turns the same line into a bar
    over ``total`` and returns the function that moves it. ``enabled`` is False (everything a no-op) when stderr
    is not a terminal or under ``-q``.

    ``after`` (seconds): nothing is drawn before the display has been open that long, so a command done sooner
    shows nothing (a bar that flashes for a tenth of a second helps no one); the bar made in the meantime shows
    then, with its count. It shows from a timer when stdout is not the terminal, else at the first move of the bar
    after that time (rich takes over a terminal's stdout when it starts, which must happen in the thread that
    prints the records)."""

    def __init__(self, label: str, unit: str = "boards", extra: str = "", enabled: bool | None = None,
                 redirect_stdout: bool = True, after: float = 0.0):
        self.label, self.unit, self.extra = label, unit, extra
        # rich prints what the command writes to stdout above the display; only right when stdout is the same
        # terminal: piped, stdout must stay untouched (rich would send it to stderr, the display's console)
        self.redirect_stdout = redirect_stdout
        self.enabled = (_stderr_is_terminal() and not is_quiet()) if enabled is None else enabled
        self.after = after
        self.progress = None
        self.task = None
        self._lock = threading.Lock()
        self._opened_at = 0.0
        self._closed = False
        self._waiting: dict | None = None  # the bar made before the display showed: total, label, fields, completed
        self._timer: threading.Timer | None = None

    def __enter__(self) -> "Display":
        if not self.enabled:
            return self
        self._opened_at = time.perf_counter()
        if self.after <= 0:
            self._show()
        elif not self.redirect_stdout:
            self._timer = threading.Timer(self.after, self._show)
            self._timer.daemon = True
            self._timer.start()
        return self

    def _due(self) -> bool:
        return self.enabled and time.perf_counter() - self._opened_at >= self.after

    def _show(self) -> None:
        """Start drawing (once; never after the display was closed), with the bar made meanwhile if any."""
        with self._lock:
            if self.progress is not None or self._closed:
                return
            progress, task = self._start()
            waiting = self._waiting
            if waiting is not None:
                progress.reset(task, total=waiting["total"], completed=waiting["completed"],
                               description=waiting["label"] or self.label, **waiting["fields"])
            self.progress, self.task = progress, task  # (set last: a display that shows is whole)

    def _start(self) -> tuple:
        """The rich ``Progress``, started, and its one task."""
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, SpinnerColumn,
                                   TextColumn, TimeElapsedColumn)
        from rich.text import Text

        class OnBar(ProgressColumn):
            """A column shown only once the task is a bar (has a total); blank on the phase line."""

            def __init__(self, column: ProgressColumn, on_bar: bool = True):
                super().__init__()
                self.column, self.on_bar = column, on_bar

            def render(self, task):
                if (task.total is not None) == self.on_bar:
                    return self.column.render(task)
                return Text("")

        unit = self.unit

        class Rate(ProgressColumn):
            """Items a second: the rate a caller gives, else the bar's items over its time so far, drawn at each
            refresh (so it falls while a slow item holds the bar, as the time left grows)."""

            def render(self, task):
                rate = task.fields.get("rate")
                if rate is None:
                    rate = task.completed / task.elapsed if task.elapsed else 0.0
                return Text(english.rate(rate, unit))

        class Left(ProgressColumn):
            """The time left (catalogue.time_left): the estimate the caller gave (``left``, told ``left_at``: it
            counts down between updates), else the whole bar's pace so far; and that pace too once the caller's
            estimate has run out with items left (a hard puzzle slower than those done before it: the bar's pace
            grows while nothing is done, where the countdown sat at 0:00:00 for as long as the puzzle took)."""

            def render(self, task):
                left = task.fields.get("left")
                if left is not None:
                    left -= time.perf_counter() - task.fields.get("left_at", 0.0)
                    if left <= 0 and task.total is not None and task.completed < task.total:
                        left = time_left(task.completed, task.total, task.elapsed)
                    elif left < 0:
                        left = 0.0
                else:
                    left = time_left(task.completed, task.total, task.elapsed)
                return Text("-:--:--" if left is None else clock(left), style="progress.remaining")

        # one line under 80 columns: a line wider than the terminal folds into two, and the tty's echo of ^C at
        # the end of a full line threw off the erasing of the display (a stale frame was left above the summary)
        columns = [OnBar(SpinnerColumn(), on_bar=False), TextColumn("{task.description}"),
                   OnBar(BarColumn(bar_width=16)), OnBar(MofNCompleteColumn()),
                   OnBar(Rate())]
        if self.extra:
            columns.append(OnBar(TextColumn(self.extra)))
        columns += [OnBar(Left()), OnBar(TimeElapsedColumn(), False)]
        progress = Progress(*columns, console=Console(stderr=True), transient=True,
                            redirect_stdout=self.redirect_stdout)
        task = progress.add_task(self.label, total=None, rate=0.0, start=True)
        progress.start()
        if self.redirect_stdout:
            _say_the_encoding(sys.stdout)
        return progress, task

    def __exit__(self, *exc) -> None:
        if self._timer is not None:
            self._timer.cancel()
        with self._lock:
            self._closed = True
            if self.progress is not None:
                self.progress.stop()  # transient: the line is erased, the cursor is where the line was
                self.progress = None

    @contextmanager
    def phase(self, text: str) -> Iterator[None]:
        """Show ``text`` with a spinner and the time elapsed until the block ends (and log it under -v)."""
        self.say(text)
        yield

    def say(self, text: str) -> None:
        """Make the line ``text`` with a spinner and the time elapsed, until the next phase or bar."""
        log.info(text)
        if self.progress is not None:
            self.progress.reset(self.task, description=text)  # restarts the time elapsed shown

    def note(self, text: str) -> None:
        """Change the line's text, keeping its time elapsed (a phase whose text counts what is done)."""
        if self.progress is not None:
            self.progress.update(self.task, description=text)

    def bar(self, total: int, label: str | None = None, **fields) -> Callable[..., None]:
        """Turn the line into a bar over ``total`` and return ``update(completed, final=False, **fields)``.

        The rate shown is ``completed`` over the time since the bar began unless ``rate`` is given. ``final=True``
        redraws at once, so the last frame on the terminal shows the final count (after Ctrl-C, the count saved)
        before the display is stopped."""
        fields = {"rate": None, **fields}
        with self._lock:  # (a timer may be starting the display meanwhile: it then takes this bar, or shows first)
            deferred = self.progress is None and self.enabled and self.after > 0 and not self._closed
            if deferred:  # not shown yet (``after``): kept, and shown with its count once the display is due
                waiting = self._waiting = {"total": total, "label": label, "fields": fields, "completed": 0}
        if deferred:
            def update(completed: int, final: bool = False, **f) -> None:
                with self._lock:  # (a timer may be starting the display meanwhile)
                    waiting["completed"] = completed
                    waiting["fields"].update(f)
                    shown = self.progress is not None
                if not shown and not final and self._due():
                    self._show()  # (in the thread that moves the bar: the records' thread)
                    shown = True
                with self._lock:
                    if shown and self.progress is not None:
                        self.progress.update(self.task, completed=completed, **f)
                        if final:
                            self.progress.refresh()
            return update
        if self.progress is None:
            return lambda completed, final=False, **f: None
        progress, task = self.progress, self.task
        progress.reset(task, total=total, completed=0, description=label or self.label, **fields)

        def update(completed: int, final: bool = False, **f) -> None:
            progress.update(task, completed=completed, **f)
            if final:
                progress.refresh()
        return update

    def counter(self, label: str) -> Callable[[int, int], None]:
        """A ``progress(done, total)`` callback (what the store's checks call) drawing a bar labelled ``label``,
        with the rate; the bar is (re)made whenever the total changes."""
        state: dict = {}

        def progress(done: int, total: int) -> None:
            if self.progress is None:
                return
            if state.get("total") != total:
                state.update(total=total, update=self.bar(total, label=label))
            state["update"](done, final=done >= total)
        return progress


#: a file command shows its bar at once from this many grids on; a smaller input shows it once the command has run
#: SHOW_AFTER seconds (a file of a few of the hardest puzzles takes a minute), and a quicker one shows nothing
BIG_INPUT = 200
SHOW_AFTER = 1.0


def _stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


@contextmanager
def item_bar(label: str, total: int | None, unit: str = "grids", jobs: list[str] | None = None, what: str = ""
             ) -> Iterator[Callable[[int], None]]:
    """A bar over the grids of a file command (``grade``, ``key``, ``solve``, ``check``, ``carve``, ``generate``):
    yields ``step(done, left=None)`` (``left``: the caller's estimate of the seconds left, catalogue.time_left).
    Records keep going to stdout as they come: above the bar when stdout is the same terminal, untouched when it is
    a pipe or a file.

    First the kernels of ``jobs`` (warm-up job ids, catalogue/kernels.py) are made ready: compiled on every core,
    with their progress on the display's line, when the cache lacks them (the first use on a machine), else
    loaded. The bar is drawn at once for big inputs (:data:`BIG_INPUT` grids or more), else once the command has
    run :data:`SHOW_AFTER` seconds. Nothing is drawn when stderr is not a terminal (the compile then says how it
    goes in a log line), or under ``-q``."""
    from engine.warmup import jobs_done

    from .kernels import ready

    big = total is not None and total >= BIG_INPUT
    cold = bool(jobs) and len(jobs_done(jobs)) < len(jobs)
    with Display(label, unit=unit, redirect_stdout=_stdout_is_terminal(),
                 enabled=None if cold or total is not None else False,
                 after=0.0 if big or cold else SHOW_AFTER) as display:
        ready(jobs or [], display, what)
        state: dict = {}

        def step(done: int, left: float | None = None) -> None:
            if total is None:
                return
            if "update" not in state:  # the first grid is done: the line becomes the bar
                state.update(update=display.bar(total))
            told = {"left": left, "left_at": time.perf_counter()} if left is not None else {"left": None}
            state["update"](done, final=done >= total, **told)
        step.display = display  # (a compile the work meets on its way shows on this line: catalogue.kernels)
        yield step
