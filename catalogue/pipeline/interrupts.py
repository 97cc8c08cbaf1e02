"""Ctrl-C (SIGINT) and SIGTERM during long work that stores as it goes: ``fill`` and ``import``.

The first signal asks for an orderly stop: ``stop`` is set, the work in hand is stored, and the command ends with
exit code 130. The second exits at once (what is committed is safe: the database only ever holds whole batches).
Handlers are installed only in the main thread (Python delivers signals there) and restored afterwards.
"""
from __future__ import annotations

import os
import signal
import threading
from typing import Optional

from ..console import report
from ..errors import EXIT_INTERRUPTED


class Interrupts:
    """``with Interrupts("saving the boards in flight", "boards") as interrupts:`` ... ``interrupts.stop``."""

    def __init__(self, stopping: str, kept: str, stop: Optional[threading.Event] = None):
        self.stopping = stopping  #: what the first signal starts, said on stderr
        self.kept = kept  #: what is safe when the second signal exits at once
        self.stop = stop if stop is not None else threading.Event()
        self.count = 0
        self.saved: dict = {}

    def __enter__(self) -> "Interrupts":
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self.saved[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc) -> None:
        for sig, handler in self.saved.items():
            signal.signal(sig, handler)

    def _handle(self, signum, frame) -> None:
        self.count += 1
        if self.count >= 2:
            os.write(2, f"\ncatalogue: interrupted again: exiting now (committed {self.kept} are safe)\n".encode())
            os._exit(EXIT_INTERRUPTED)
        self.stop.set()
        # through sys.stderr, not os.write: a progress display on the terminal (catalogue.progress) redirects
        # sys.stderr and prints the line above itself; a raw write below it left a stale frame of the bar above
        # the summary. A Python-level handler runs in the main thread between bytecodes, so this is safe here.
        report(f"stopping: {self.stopping} (Ctrl-C again to quit at once)")
