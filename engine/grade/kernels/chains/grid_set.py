"""A set of grids with a mark each, in arrays that compiled code reads and writes: what the plain searches inside
nested chains were found to give on each grid a run stalled on
(:func:`engine.grade.kernels.chains.nested_runs._run_plain`).

Why not the Python memo alone: on the hardest puzzles, row 9.5's runs stall about a hundred thousand times, and at
nine stalls in ten the plain search inside finds nothing; asking Python's memo at each stall (a return from the
compiled run, the lookups, a call back in) cost more than the answer. Here the run looks the grid up where it
stalls. A grid is kept whole beside its hash, so a hit is an equal grid, never a collision. When three quarters
full the set starts again empty: what it forgets is searched again, which is always right.
"""
from __future__ import annotations

import numpy as np

from ...._jit import wide_kernel

#: the marks: nothing the run can use is found on the grid; or something is, and Python's memo has it
NOTHING_HERE, FOUND_HERE = 1, 2
_FNV_PRIME = np.uint64(0x100000001B3)
_FNV_BASIS = np.uint64(0xCBF29CE484222325)


def grid_set(ncells: int, capacity: int = 1 << 14) -> tuple:
    """An empty set for grids of ``ncells`` cells: ``(marks, grids, count)``, ``capacity`` a power of two (16,384
    grids of 9x9: 10.6 MB)."""
    return np.zeros(capacity, np.int8), np.zeros((capacity, ncells), np.int64), np.zeros(1, np.int64)


@wide_kernel(_nrt=False)
def _slot(marks, grids, grid):
    """The slot holding ``grid``, or the empty slot where it would go (linear probing from its hash)."""
    h = _FNV_BASIS
    for c in range(grid.size):
        h = (h ^ np.uint64(grid[c])) * _FNV_PRIME
    mask = marks.size - 1
    i = np.int64(h ^ (h >> np.uint64(29))) & mask
    while marks[i]:
        same = True
        for c in range(grid.size):
            if grids[i, c] != grid[c]:
                same = False
                break
        if same:
            return i
        i = (i + 1) & mask
    return i


@wide_kernel(_nrt=False)
def _mark_of(marks, grids, grid):
    """``grid``'s mark, 0 when it is not in the set."""
    return marks[_slot(marks, grids, grid)]


@wide_kernel(_nrt=False)
def _note(marks, grids, count, grid, mark):
    """Put ``grid`` in the set with ``mark`` (or change its mark); a set three quarters full is emptied first."""
    if 4 * (count[0] + 1) > 3 * marks.size:
        for i in range(marks.size):
            marks[i] = 0
        count[0] = 0
    i = _slot(marks, grids, grid)
    if not marks[i]:
        count[0] += 1
        for c in range(grid.size):
            grids[i, c] = grid[c]
    marks[i] = mark
