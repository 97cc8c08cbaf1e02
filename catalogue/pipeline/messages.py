"""The messages that flow between the fill pipeline's actors, and the run-wide counters they share.

Messages are frozen dataclasses whose numpy arrays are made read-only when the message is built: once a stage
hands a batch downstream nobody can change it, so no lock is needed around a message. A batch (not a board) is
the unit of work everywhere: one kernel call per batch in the CPU stages, one transaction per batch in the writer.

::

    GeneratorActor --BoardBatch--> CheckerActor --CheckedBatch--> WriterActor
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np


def frozen(array: np.ndarray) -> np.ndarray:
    """The array itself, made read-only (a message's arrays never change after it is sent)."""
    array.flags.writeable = False
    return array


@dataclass(frozen=True)
class BoardBatch:
    """Complete boards from one ``generate_array`` call of one generator actor."""

    origin: str  # the actor that made it, e.g. "generator-1"
    index: int  # the batch number within that actor
    boards: np.ndarray  # (m, ncells) int8
    seeds: np.ndarray  # (m,) int64: generate(box, seed) remakes board i
    restarts: np.ndarray  # (m,) int32: contradictions met (wfc), each one a restart
    seconds: float  # wall time of the kernel call that made the batch

    def __post_init__(self):
        for name in ("boards", "seeds", "restarts"):
            frozen(getattr(self, name))

    def __len__(self) -> int:
        return int(self.boards.shape[0])


@dataclass(frozen=True)
class CheckedBatch:
    """Boards whose keys are new to this run, each with its carved puzzle, solver metrics and grade.

    ``board_columns`` and ``puzzle_columns`` map a column of the ``boards`` / ``puzzles`` table to one value per
    board (row i of each is board i), already plain Python values (str, int, float, bool, None) ready for the
    database: the single writer thread only builds rows from them. The names are the database's, so a new
    computed column is one entry where the checker computes it (and the model and its migration), nothing in
    between. ``boards`` keeps the arrays for the board files.
    """

    origin: str
    boards: np.ndarray  # (m, ncells) int8
    keys: tuple[str, ...]  # key_text of the canonical representative
    board_columns: dict[str, tuple]
    puzzle_columns: dict[str, tuple]

    def __post_init__(self):
        frozen(self.boards)
        for columns in (self.board_columns, self.puzzle_columns):
            for name, values in columns.items():
                if len(values) != len(self.keys):
                    raise ValueError(f"column {name} has {len(values)} values for {len(self.keys)} boards")

    def __len__(self) -> int:
        return int(self.boards.shape[0])


@dataclass
class StageStats:
    """Work done by one stage (all its actors together): items in and out, and the busy time of the kernels."""

    items_in: int = 0
    items_out: int = 0
    busy_seconds: float = 0.0
    cpu_seconds: float = 0.0
    actors: int = 0

    def as_dict(self, elapsed: float) -> dict:
        # per wall second is what the run got from the stage; capacity is what its actors could do if they
        # never waited on a queue (items per busy second, times the actors): the stage with the lowest capacity
        # is the bottleneck
        capacity = self.items_out * self.actors / self.busy_seconds if self.busy_seconds > 0 else 0.0
        return {
            "actors": self.actors,
            "in": self.items_in,
            "out": self.items_out,
            "busy_seconds": round(self.busy_seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
            "per_second": round(self.items_out / elapsed, 1) if elapsed > 0 else 0.0,
            "capacity_per_second": round(capacity, 1),
        }


@dataclass
class Counters:
    """Run-wide counts, updated by every actor under one lock and read by the supervisor for progress.

    ``reserved`` is how many target slots checkers have claimed: a checker carves only as many new boards as
    are still needed, so a run that reaches its count does not carve hundreds of boards it will throw away.
    ``pending`` counts the boards generators have promised (being generated, or queued for a checker): a
    generator starts a batch only while ``reserved + pending`` is short of the target, so a run makes at most
    one batch more than it needs (plus whatever replaces duplicates), at every grid size.
    ``streak`` is the number of duplicates met since the last new key: it is how a run notices that the space
    of classes is exhausted (4x4) instead of spinning forever.
    """

    target: int
    generated: int = 0
    contradictions: int = 0
    duplicates: int = 0  # in-run repeats + keys already in the catalogue
    accepted: int = 0
    surplus: int = 0  # new boards not needed because the count was reached
    off_level: int = 0  # puzzles stored off --level: none of their carvings reached it within the tries
    off_level_reached: dict[str, int] = field(default_factory=dict)  # the levels those puzzles have instead
    dropped: int = 0  # boards in flight when the run stopped early (Ctrl-C, failure), never checked
    streak: int = 0
    reserved: int = 0
    pending: int = 0
    first_number: int | None = None
    last_number: int | None = None
    #: runs of consecutive numbers among those written: 1 unless other writers (concurrent fills or imports)
    #: took numbers between ours, when "numbers 10..5753" alone would claim 5,744 boards for 3,000
    number_runs: int = 0
    stages: dict[str, StageStats] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def stage(self, name: str) -> StageStats:
        with self.lock:
            return self.stages.setdefault(name, StageStats())

    def reserve(self, wanted: int) -> int:
        """Claim up to ``wanted`` of the slots still open; returns how many were granted."""
        with self.lock:
            granted = max(0, min(wanted, self.target - self.reserved))
            self.reserved += granted
            return granted

    def promise(self, boards: int) -> bool:
        """A generator's claim to make a batch of ``boards``: False (make nothing) when the boards already
        claimed by checkers or on their way to them cover the target."""
        with self.lock:
            if self.reserved + self.pending >= self.target:
                return False
            self.pending += boards
            return True

    def unpromise(self, boards: int) -> None:
        """Boards promised that reached a checker (or will never reach one)."""
        with self.lock:
            self.pending -= boards

    def release(self, count: int) -> None:
        """Give back slots a checker claimed but the writer could not fill (duplicates found at insert time)."""
        with self.lock:
            self.reserved -= count

    def snapshot(self) -> dict:
        with self.lock:
            return {k: getattr(self, k) for k in (
                "target", "generated", "contradictions", "duplicates", "accepted", "surplus", "off_level",
                "dropped", "streak", "first_number", "last_number", "number_runs")}
