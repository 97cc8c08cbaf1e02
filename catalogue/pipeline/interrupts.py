"""Ctrl-C (SIGINT) and SIGTERM during long work that stores as it goes: ``fill`` and ``import``.

The first signal asks for an orderly stop: ``stop`` is set, the work in hand is stored, and the command ends with
exit code 130 (``interrupted``, or ``terminated`` after SIGTERM: catalogue.signals). Work still being computed
:data:`STOP_SECONDS` after the signal is left, not waited for (a 25x25 carving or an endless search can take
seconds or more, and the command must end within 2 s): it was not accepted yet, so nothing accepted is lost, and
the summary counts it as in flight. The second signal exits at once (what is committed is safe: the database only
ever holds whole batches). Handlers are installed only in the main thread (Python delivers signals there), not
for a signal the command was started with ignored, and restored afterwards.
"""
from __future__ import annotations

import os
import signal
import threading
import time
from typing import Optional

from ..console import report
from ..signals import received, stop_words

#: how long after the first signal an orderly stop waits for work in hand (a batch being checked, carved,
#: solved); what is not done by then is left in flight. The rest of the stop (the writer's last commit, the run
#: row, the summary) fits in the rest of the 2 s a command has to stop (docs/reliability.md, "Stopping")
STOP_SECONDS = 0.5


class Interrupts:
    """``with Interrupts("saving the boards in flight", "boards") as interrupts:`` ... ``interrupts.stop``."""

    def __init__(self, stopping: str, kept: str, stop: Optional[threading.Event] = None):
        self.stopping = stopping  #: what the first signal starts, said on stderr
        self.kept = kept  #: what is safe when the second signal exits at once
        self.stop = stop if stop is not None else threading.Event()
        self.count = 0
        self.asked: Optional[float] = None  #: time.monotonic() of the first signal
        self.saved: dict = {}

    def __enter__(self) -> "Interrupts":
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                # a signal the parent set to be ignored stays ignored: a script's background job (`catalogue fill
                # ... &`) must go on through the Ctrl-C meant for the command in the foreground, as the other
                # commands do but serve (Python leaves an ignored SIGINT alone, catalogue.signals an ignored
                # SIGTERM; uvicorn installs its own)
                if signal.getsignal(sig) != signal.SIG_IGN:
                    self.saved[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc) -> None:
        for sig, handler in self.saved.items():
            signal.signal(sig, handler)

    def deadline(self) -> Optional[float]:
        """Until when (time.monotonic()) the stop waits for work in hand; None before any signal (or a
        KeyboardInterrupt counted by hand: then from now)."""
        if self.asked is None and self.count:
            self.asked = time.monotonic()
        return None if self.asked is None else self.asked + STOP_SECONDS

    def _handle(self, signum, frame) -> None:
        self.count += 1
        received(signum)
        what, code = stop_words()
        if self.count >= 2:
            os.write(2, f"\ncatalogue: {what} again: exiting now (committed {self.kept} are safe)\n".encode())
            os._exit(code)
        self.asked = time.monotonic()
        self.stop.set()
        again = "Ctrl-C" if signum == signal.SIGINT else "SIGTERM"
        # through sys.stderr, not os.write: a progress display on the terminal (catalogue.progress) redirects
        # sys.stderr and prints the line above itself; a raw write below it left a stale frame of the bar above
        # the summary. A Python-level handler runs in the main thread between bytecodes, so this is safe here.
        report(f"stopping: {self.stopping} ({again} again to quit at once)")
