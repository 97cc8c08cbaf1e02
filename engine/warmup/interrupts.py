"""Ctrl-C while numba compiles in this process: the interrupt, never what numba makes of it.

Why: a KeyboardInterrupt raised in the middle of numba's compile does not always reach the caller as itself. Seen
on a fast host, where a job's few seconds of compiling run here rather than on workers: of eleven Ctrl-Cs sent at
moments 0.3 s apart into ``catalogue compile generate --size 4``, two ended as ``RuntimeError: no compiled object
yet for <Library ...>`` (numba's clean-up reading the half-made library) and two were lost altogether (the compile
went on and the command exited 0); and once, in the test suite under load, the process died of a segmentation fault
before its ``except KeyboardInterrupt`` ran (an exception raised between two of llvmlite's calls can leave a module
owned twice). :class:`Noted` wraps the SIGINT and SIGTERM handlers of the main thread so that it knows the signal
came, and with ``defer`` keeps the first one from raising at all: the caller finishes the compile in hand (the
in-process compiles are a few seconds at most: the longer ones go to workers, which are stopped at once) and then
raises the handler's own exception (KeyboardInterrupt, or a subclass an application's SIGTERM handler raises). A
second signal raises at once.
"""
from __future__ import annotations

import signal
import threading


class Noted:
    """While active, remembers the exception the SIGINT or SIGTERM handler raised (``raised``; None if none came),
    and with ``defer`` catches the first one (:meth:`reraise` raises it later). Only the main thread's handlers can
    be wrapped; elsewhere, and for a signal without a Python handler, it notes nothing and changes nothing."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self, defer: bool = False):
        self.raised: BaseException | None = None
        self.defer = defer
        self._saved: dict = {}

    def __enter__(self) -> "Noted":
        if threading.current_thread() is threading.main_thread():
            for signum in self.SIGNALS:
                handler = signal.getsignal(signum)
                if callable(handler):
                    self._saved[signum] = handler
                    signal.signal(signum, self._handle)
        return self

    def _handle(self, signum, frame):
        first = self.raised is None
        try:
            self._saved[signum](signum, frame)
        except BaseException as stop:
            if first:
                self.raised = stop
                if self.defer:
                    return
            raise

    def __exit__(self, *exc) -> None:
        for signum, handler in self._saved.items():
            signal.signal(signum, handler)
        self._saved.clear()

    def reraise(self) -> None:
        """Raise the noted interrupt, if one came (with no traceback of the compile it broke)."""
        if self.raised is not None:
            raise self.raised.with_traceback(None) from None
