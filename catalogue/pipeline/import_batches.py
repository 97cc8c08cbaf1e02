"""The inputs of ``import`` cut into batches: one size of grid per batch, in file order, read one input at a time.

The first step of :func:`catalogue.pipeline.importer.import_sources`, kept apart from what is done to a batch
(:mod:`catalogue.pipeline.import_stages`) because its concern is memory and order, not puzzles: an input's
entries are held only while its batches are made (a later file is read again when it is come to), a batch holds
grids of one size (one kernel call per step), and batches come out in file order so that numbers follow the
files. Unreadable entries travel inside the batches, as rejects, so they are reported among the lines around them.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterator, Optional, Sequence

from ..kernels import sizes_of

if TYPE_CHECKING:
    import numpy as np

#: the most puzzles a batch holds: one kernel call per step (about a second of work for ordinary 9x9 puzzles:
#: docs/benchmarks.md, Importing); how many it holds follows the cost of the last batches (catalogue.pace)
DEFAULT_BATCH = {2: 4096, 3: 2048, 4: 64, 5: 4}


def batch_size(box) -> int:
    """Puzzles per batch for a box size (:data:`DEFAULT_BATCH`) or a Shape: the other shapes by what a puzzle
    costs (docs/benchmarks.md, "Shapes"): 512 up to 10x10 boxes, 16 for 12x12 and a 9x9 jigsaw or X, 1 beyond."""
    if isinstance(box, int):
        return DEFAULT_BATCH.get(box, 1)
    if box.kind == "jigsaw" or box.diagonals:
        return 16 if box.size <= 9 else 1
    return 512 if box.size <= 10 else 16 if box.size <= 12 else 1


@dataclass
class Source:
    """One input: its entries (``Parsed`` or ``FormatError``) in file order, the name messages use (``label``),
    and the name stored in ``puzzles.source`` (``--source``, else the label).

    Inputs are held one at a time: with ``read``, ``entries`` may be None until the import comes to this input,
    which ``read`` then reads (again: ``count`` and ``boxes`` are what a first reading found), and they are let
    go once its batches are made."""

    label: str
    stored_as: str
    entries: Optional[Sequence]
    read: Optional[Callable[[], Sequence]] = None
    count: int = 0  # entries
    boxes: frozenset = frozenset()  # box sizes of its grids

    def __post_init__(self):
        if self.entries is not None:
            self.count, self.boxes = len(self.entries), frozenset(sizes_of(self.entries))


@dataclass
class Batch:
    """Puzzles of one size from one source, in file order, and what the workers made of them."""

    source: Source
    box: int
    parsed: list
    rejected: list = field(default_factory=list)  # (parsed, reason, message)
    boards: list = field(default_factory=list)  # rows to store (computed), with ...
    puzzles: list = field(default_factory=list)
    puzzle_keys: list = field(default_factory=list)
    solutions: Optional[np.ndarray] = None  # ... the solution of each row, for the board files
    known: int = 0  # already stored (seen by the read before grading)
    entries: list = field(default_factory=list)  # the entry of each row to store
    #: row -> its grade still to make (an engine.grade.Later: the nested forcing chains), made by
    #: import_stages.finish while the batch has time
    later: dict = field(default_factory=dict)
    #: the rows left when the batch's time ran out, from the first whose grade is still to make: a batch of their
    #: own, stored next (import_stages.finish)
    rest: Optional["Batch"] = None


#: batches made but not yet taken while the first of them waits for grids of its size; past this it is taken as
#: it is (a 25x25 grid followed by a million 4x4 ones kept every 4x4 batch until the file ended)
WAITING_BATCHES = 16


def batches(sources: Sequence[Source], size: Callable[..., int] = batch_size) -> Iterator[Batch]:
    """The inputs cut into batches of one size each, in file order, made as they are taken; unreadable entries
    are batches' rejects: of the batch still open around them when there is one, so that they are reported among
    the lines around them. A source's entries are read when it is come to (``Source.read``) and let go after.
    ``size(box)``: how many puzzles a batch of that box size (or Shape) holds, asked as it is filled (the import
    passes :meth:`catalogue.pace.Pace.size`, which follows what the last batches cost)."""
    for source in sources:
        entries = source.entries if source.entries is not None else source.read()
        made: deque[Batch] = deque()  # in the order made, not yet taken
        pending: dict[int, Batch] = {}  # the open batch of each size
        for entry in entries:
            if not hasattr(entry, "grid"):  # a FormatError
                reject = (entry, "unreadable", entry.message)
                if made and any(made[-1] is b for b in pending.values()):  # (is: batches compare by value)
                    made[-1].rejected.append(reject)
                else:
                    made.append(Batch(source, 0, [], rejected=[reject]))
            else:
                box = entry.grid.box
                b = pending.get(box)
                if b is None:
                    b = pending[box] = Batch(source, box, [])
                    made.append(b)
                b.parsed.append(entry)
                if len(b.parsed) >= size(box):
                    del pending[box]
            if len(made) > WAITING_BATCHES and pending.get(made[0].box) is made[0]:
                del pending[made[0].box]
            while made and pending.get(made[0].box) is not made[0]:
                yield made.popleft()
        del entries
        source.entries = None  # (read again, if ever, by source.read)
        yield from made

