"""What every solver returns, and what its metrics mean.

Every solver has one signature::

    solve(cells: np.ndarray, box: int, limit: int = 1, node_limit: int = 0) -> SolveResult

``cells`` is the flat int8 grid (0 = blank). The solver counts solutions up to ``limit`` (uniqueness is
``count == 1`` with ``limit=2``) and stops early after ``node_limit`` nodes (0 = no limit), saying so in
``gave_up``. It never changes ``cells``. A grid whose clues already conflict has no solution (count 0).

The metrics mean the same thing for every solver, so they can be compared:

nodes       placements: each time a digit is written into a blank cell, whether chosen by search or forced by
            propagation. A plain backtracker's nodes are its tries; a propagating solver's include forced moves,
            and the fast solver's on 16x16 and up those its probes write into a copy of the state to try a digit.
guesses     placements made at a branch point, i.e. a choice among two or more digits that might be wrong. For
            the solvers without propagation (stack, backtrack) every try is a guess, so guesses == nodes. The
            fast solver's 9x9 search also branches on which of two ways a digit crosses a band: each way tried
            counts as a guess, though it places nothing itself (what it forces are nodes).
backtracks  placements taken back because they led to a dead end (or, after a solution is counted, to look
            for the next one).
checks      elementary validity tests: a peer comparison in the naive solvers (validValue compares a digit with
            the cells of its row, column and box), a candidate-mask test or update in the bitmask solvers.
max_depth   the deepest the search stack grew (number of guesses outstanding at once).
seconds     wall time of the solve call; for a puzzle solved in a batch (``fast.solve_results``), the batch's wall
            time shared out in proportion to each puzzle's ``checks`` (:func:`share_seconds`).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Protocol


import numpy as np

from ..vocabulary import METRICS as METRIC_NAMES  # noqa: F401  (engine.solvers re-exports it)


@dataclass
class Metrics:
    nodes: int = 0
    guesses: int = 0
    backtracks: int = 0
    checks: int = 0
    max_depth: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class SolveResult:
    count: int  # solutions found, at most the limit asked for
    solution: np.ndarray | None  # the first solution found (flat int8), or None
    metrics: Metrics = field(default_factory=Metrics)
    gave_up: bool = False  # True when the node limit was hit before the search ended

    @property
    def solved(self) -> bool:
        return self.count > 0

    @property
    def unique(self) -> bool:
        """Exactly one solution; meaningful only when the solve was asked with ``limit >= 2``."""
        return self.count == 1 and not self.gave_up


def share_seconds(total: float, weights: np.ndarray) -> np.ndarray:
    """``total`` seconds shared out in proportion to ``weights`` (equal shares when they are all 0): the seconds of
    each item of a batch timed as a whole."""
    w = np.asarray(weights, dtype=np.float64)
    return np.full(w.size, total / max(w.size, 1)) if w.sum() <= 0 else total * w / w.sum()


class Solver(Protocol):
    def __call__(self, cells: np.ndarray, box: int, limit: int = 1, node_limit: int = 0) -> SolveResult: ...
