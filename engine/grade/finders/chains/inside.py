"""What a search inside a nested run concludes, as the run takes it (:mod:`engine.grade.finders.chains.nested`):
its record (:class:`Inside`: the conclusions as Sudoku Explainer's hints, in its order and sifted, by the compiled
engine.grade.kernels.chains.nested._kept and, for the plain search's cycles, _cycle_hints), and that record on a
later step's grid (:func:`_narrowed`).
"""
from __future__ import annotations

import numpy as np

from ...kernels.chains.forcing import HINT_SIZE
from ...kernels.chains.nested import _narrow


class Inside:
    """What a search inside concluded that a run uses: the hint records ``rows`` in Sudoku Explainer's order, and
    row ``i``'s off states (``states[state_ends[i]:state_ends[i + 1]]``, in the order the run follows them) and
    rule parents (the run's removals it rests on, likewise). Iterating gives ``(row, states, parents)``."""

    __slots__ = ("rows", "states", "state_ends", "parents", "parent_ends", "size")

    def __init__(self, rows, states, state_ends, parents, parent_ends):
        self.rows, self.states, self.state_ends = rows, states, state_ends
        self.parents, self.parent_ends = parents, parent_ends
        self.size = rows.shape[0]  # (asked at every stall of a nested run: an int, not the array's shape each time)

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, i: int) -> tuple:
        if not 0 <= i < len(self):
            raise IndexError(i)
        return (self.rows[i], self.states[self.state_ends[i]:self.state_ends[i + 1]],
                self.parents[self.parent_ends[i]:self.parent_ends[i + 1]])


#: no conclusion; and the arguments that tell engine.grade.kernels.chains.nested._kept the rows are not sifted yet
NO_STATES, NO_ENDS = np.zeros(0, np.int32), np.zeros(0, np.int64)
NOTHING = Inside(np.zeros((0, HINT_SIZE), np.int64), NO_STATES, np.zeros(1, np.int64), NO_STATES,
                 np.zeros(1, np.int64))


def _narrowed(inside: Inside, cands: np.ndarray, n: int) -> Inside:
    """``inside`` on a step's grid ``cands`` that lacks none of the candidates of the grid it was found on: each
    conclusion's rule parents that ``cands`` still has (so they are still removals of the run), in their order, and
    only the conclusions left with some (:meth:`engine.grade.finders.chains.nested._Search.remembered`; compiled:
    :func:`~engine.grade.kernels.chains.nested._narrow`, whose twin in the tests is numpy's)."""
    if not inside.size:  # (over half of them: nothing was concluded there)
        return inside
    changed, *parts = _narrow(inside.rows, inside.states, inside.state_ends, inside.parents, inside.parent_ends,
                              cands, n)
    return Inside(*parts) if changed else inside
