"""How long the rest of a file will take, told on the progress bar: from the whole run's pace, and from what the
first pass says of the hard puzzles ahead.

Why not rich's own column: it takes the pace of the last seconds, and hard puzzles come in clumps; it made the
time left jump a hundredfold as each clump came and went. The whole run's pace (:func:`time_left`) moves by a
clump's share of the work done instead. But a clump not yet reached is invisible to a pace: a file of ordinary
puzzles with a clump of the hardest in the middle showed seconds left for a run of minutes.

The grader sees further. Its compiled first pass runs ahead of the results (on the chunks the threads have taken)
and finds the puzzles that need the nested forcing chains, each seconds to minutes, before their turn comes; they
come back as :class:`engine.grade.Later`. A :class:`Ledger` counts them: how many the first pass found in the part
of the file it has seen, the first pass's own time, and the time of the hard ones finished. :func:`estimate`
prices what is left by kind: the first pass over the part not seen yet at its cost so far, and the hard puzzles
known and not done, with those the unseen part holds at the share seen so far, at the mean of the hard ones done.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

#: the bar says how long is left only after this many seconds: the first batches' pace says little
SETTLING_SECONDS = 2.0


def time_left(done: float, total: float | None, elapsed: float | None) -> float | None:
    """Seconds left for ``total - done`` items at the pace of everything done in ``elapsed`` seconds, or None
    before there is a pace to go by (nothing done yet, or less than :data:`SETTLING_SECONDS`)."""
    if not done or total is None or elapsed is None or elapsed < SETTLING_SECONDS:
        return None
    return max(0.0, (total - done) * elapsed / done)


@dataclass
class Ledger:
    """What the workers know of the work: ``scanned`` items the first pass has done, in ``scan_seconds`` of a
    thread's time, ``found`` hard items among them (:class:`engine.grade.Later`), ``finished`` hard ones done, in
    ``seconds`` of a thread's time. Workers add with :meth:`seen` and :meth:`took`, under a lock; the bar reads."""

    scanned: int = 0
    scan_seconds: float = 0.0
    found: int = 0
    finished: int = 0
    seconds: float = 0.0

    def __post_init__(self):
        self._lock = threading.Lock()

    def seen(self, items: int, hard: int, seconds: float) -> None:
        with self._lock:
            self.scanned += items
            self.found += hard
            self.scan_seconds += seconds

    def took(self, seconds: float) -> None:
        with self._lock:
            self.finished += 1
            self.seconds += seconds


def estimate(done: int, total: int | None, elapsed: float | None, threads: int, ledger: Ledger | None
             ) -> float | None:
    """Seconds left: the rest priced by kind when hard items were found and one of them is done (see the module);
    else :func:`time_left`, the whole run's pace."""
    plain = time_left(done, total, elapsed)
    if plain is None or ledger is None or not ledger.found or not ledger.finished or not ledger.scanned:
        return plain
    unseen = max(0, total - ledger.scanned)
    # thread-seconds: the first pass over what it has not seen, and the hard items known or to be found there
    scan = unseen * ledger.scan_seconds / ledger.scanned
    hard = ((ledger.found - ledger.finished) + unseen * ledger.found / ledger.scanned) * (
        ledger.seconds / ledger.finished)
    return (scan + hard) / max(1, threads)


def clock(seconds: float) -> str:
    """``0:04:05``: hours, minutes and seconds, as rich's time columns write them."""
    whole = int(round(seconds))
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"
