"""SIGTERM stops every command the way Ctrl-C does: one line, the same clean-up, exit 130.

Why: Python turns SIGINT into KeyboardInterrupt, which every command's clean-up and the CLI's error boundary
handle (a temporary file removed, a transaction rolled back, the batches committed kept, ``catalogue:
interrupted``); SIGTERM, what ``kill``, systemd, Docker and CI runners send, killed the process by the default
action instead: no line, no clean-up, exit 143. :func:`install`, called on the CLI's first line
(:mod:`catalogue.entry`, :func:`catalogue.cli.main`), makes SIGTERM raise :class:`~catalogue.errors.Terminated`
(a KeyboardInterrupt) in the main thread, which then takes Ctrl-C's road and says ``catalogue: terminated``. A
kernel running in a worker thread cannot be interrupted, but no command waits on one without a timeout in the
main thread (catalogue/background.py), and the process leaves without waiting for such a thread
(``catalogue.cli._leave``). A second SIGTERM while the first is being handled exits at once.

``fill`` and ``import`` replace both handlers while they run (catalogue/pipeline/interrupts.py: an orderly stop
that stores what is in hand); they record here which signal asked for it (:func:`received`), so that their last
line and exit code say it too (:func:`stop_words`). Standard library only (and catalogue.errors).
"""
from __future__ import annotations

import os
import signal
import threading
from typing import Optional

from .errors import EXIT_INTERRUPTED, EXIT_TERMINATED, Terminated

#: the first stop signal received by a handler of ours (None: none yet)
_first: Optional[int] = None


def install() -> None:
    """SIGTERM raises :class:`~catalogue.errors.Terminated` from now on (main thread only; a SIGTERM the parent
    set to be ignored stays ignored, as Python leaves an ignored SIGINT alone)."""
    global _first
    _first = None
    try:
        if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            signal.signal(signal.SIGTERM, _terminate)
    except ValueError:  # not the main thread (an embedding program): its signals are its own
        pass


def _terminate(signum, frame) -> None:
    global _first
    if _first is not None:  # the first one is being handled (or was swallowed): leave now
        os.write(2, b"\ncatalogue: terminated again: exiting now\n")
        os._exit(EXIT_TERMINATED)
    _first = signum
    raise Terminated()


def received(signum: int) -> None:
    """Note that a handler of ours received ``signum`` (SIGINT or SIGTERM): the first one says how the command
    ends (:func:`stop_words`)."""
    global _first
    if _first is None:
        _first = signum


def stop_words(signum: Optional[int] = None) -> tuple[str, int]:
    """``("terminated", EXIT_TERMINATED)`` when the stop signal (``signum``, or the first one received) was
    SIGTERM, else ``("interrupted", EXIT_INTERRUPTED)``."""
    signum = _first if signum is None else signum
    if signum == signal.SIGTERM:
        return "terminated", EXIT_TERMINATED
    return "interrupted", EXIT_INTERRUPTED


class Held:
    """Ctrl-C and SIGTERM held back over a few milliseconds that must not be cut in two, a commit and the count of
    what it wrote (``regrade``'s line says how many grades were written): ``held.hold()`` before the commit,
    ``held.release()`` after the count, which raises the first signal held as it would have been raised. Main
    thread only (elsewhere both do nothing: signals are the main thread's)."""

    def __init__(self) -> None:
        self.saved: dict = {}
        self.caught: list[int] = []

    def hold(self) -> None:
        if threading.current_thread() is threading.main_thread() and not self.saved:
            for sig in (signal.SIGINT, signal.SIGTERM):
                self.saved[sig] = signal.signal(sig, self._catch)

    def _catch(self, signum, frame) -> None:
        self.caught.append(signum)

    def release(self) -> None:
        for sig, handler in self.saved.items():
            signal.signal(sig, handler)
        self.saved = {}
        if self.caught:
            signal.raise_signal(self.caught[0])
