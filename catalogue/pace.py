"""How many grids the next batch of a file command or an import holds: about :data:`TARGET_SECONDS` of one thread's
work, from what the last batch of that size cost.

Why: a batch is one kernel call per step, and the kernels like big ones (2,048 ordinary 9x9 puzzles are a second of
importing). But a batch is also what the progress bar moves by, what a thread takes at a time (a file of one batch
keeps one core busy), and what a Ctrl-C waits for or loses. Hard puzzles cost a thousand times an ordinary one
(seconds each with nested forcing chains), and collections of them come in clumps: a fixed 2,048 of them froze the
bar for an hour, left the second core idle on a file of a few hundred, and made a stop lose an hour of work.

So every size starts with a small batch (:data:`FIRST_SHARE` of its biggest), and each later batch holds as many
grids as the last one's cost per grid says fit in :data:`TARGET_SECONDS`: never more than its biggest (the fixed
size it replaces), never fewer than one, and at most :data:`GROWTH` times the last, so that one lucky batch of easy
puzzles does not make the next one huge. A clump of hard puzzles shrinks the batches at once; after it they grow
back in a few steps.
"""
from __future__ import annotations

from typing import Callable, Hashable

#: seconds of one thread's work a batch aims at: the bar moves a few times a second on two cores, and a stop waits
#: about this long for the batches in hand
TARGET_SECONDS = 0.5
#: the first batch of a size holds this share of its biggest (at least one grid)
FIRST_SHARE = 1 / 32
#: a batch holds at most this many times the grids of the last one of its size
GROWTH = 4


class Pace:
    """Batch sizes that follow the measured cost: ``size(key)`` before cutting a batch, ``measured(key, grids,
    seconds)`` after computing one. ``biggest(key)`` is the most a batch of that key (a box size or a Shape) may
    hold. Threads may call both at once: each call reads or replaces one entry of a dict."""

    def __init__(self, biggest: Callable[[Hashable], int], target: float = TARGET_SECONDS):
        self.biggest = biggest
        self.target = target
        self._next: dict = {}  # key -> the size the last measurement asks for

    def size(self, key: Hashable) -> int:
        size = self._next.get(key)
        return size if size is not None else max(1, int(self.biggest(key) * FIRST_SHARE))

    def measured(self, key: Hashable, grids: int, seconds: float) -> None:
        if grids <= 0:
            return
        most = min(self.biggest(key), grids * GROWTH)
        # compared as floats: a batch measured at (nearly) no time fits any number
        fits = most if seconds * most <= self.target * grids else int(self.target * grids / seconds)
        self._next[key] = max(1, fits)
