"""What a search inside a nested run concludes, as the run takes it (:mod:`engine.grade.finders.chains.nested`):
the conclusions as Sudoku Explainer's hints, in its order and sifted (:func:`hints`; compiled for all but the plain
search's cycles: engine.grade.kernels.chains.nested._kept), and their record (:class:`Inside`).
"""
from __future__ import annotations

import numpy as np

from ...kernels.chains import forcing as fo
from ...kernels.chains.forcing import H_KIND, H_SOURCE, H_TARGET, H_WHERE, HINT_SIZE
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


def _map_order(states, n: int) -> list[int]:
    """Off states in the order Sudoku Explainer's hint yields them: it keeps a hint's eliminations in a Java
    ``HashMap`` keyed by the cell (its hash is its index), which yields cells by ``index mod capacity`` (16, doubled
    past three quarters full) and each cell's digits upwards. (Cells sharing a bucket come in the order the hint
    met them, for a cycle the order of its walk; they are rare, and taken here by index.) That order is the order
    the run follows them (:func:`engine.grade.kernels.chains.plus._emit_hint` does the same for the rules)."""
    cells = len({(s >> 1) // n for s in states})
    cap = 16
    while cells * 4 > cap * 3:
        cap *= 2
    return sorted(states, key=lambda s: (((s >> 1) // n) & (cap - 1), s))


def hints(rows, work: np.ndarray, n: int):
    """The collected conclusions ``rows`` (sorted) on ``work`` as Sudoku Explainer's hints: ``(row, the off states it adds)``, a
    cycle's rows as one hint, and of hints that remove the same candidates only the first (SE keeps its hints in
    a set that holds one of each: a later equal hint is dropped even where the first rests on no removal)."""
    cycles: dict[tuple[int, int], list[int]] = {}
    for row in rows:
        if row[H_KIND] == fo.CYCLE:
            cycles.setdefault((int(row[H_SOURCE]), int(row[H_WHERE])), []).append(int(row[H_TARGET]))
    seen = set()
    for row in rows:
        target = int(row[H_TARGET])
        if row[H_KIND] == fo.CYCLE:
            states = cycles.pop((int(row[H_SOURCE]), int(row[H_WHERE])), None)
            if states is None:  # the cycle's other rows: done with its first
                continue
        elif target & 1:  # placed: the cell's other candidates go
            p = target >> 1
            c = p // n
            states = [2 * (c * n + e) for e in range(n) if work[c] >> e & 1 and e != p % n]
        else:
            states = [target]
        key = frozenset(states)
        if key not in seen:
            seen.add(key)
            yield row, np.array(_map_order(states, n), np.int32)


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
