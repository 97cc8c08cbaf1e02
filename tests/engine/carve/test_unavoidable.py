"""The carver's small unavoidable sets (engine/carve/_unavoidable.py) against a slow twin written here.

The twin finds the sets from their definition (subsets of 2..MAX_CYCLE positions where two rows of a band, or two
columns of a stack, hold the same digits, with no smaller such subset inside), not by following cycles; and every
set is checked to be unavoidable by counting: the board with the set's cells blanked has a second solution.
"""
from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import count_solutions, random_board

from engine.carve._unavoidable import MAX_CYCLE, MAX_SETS, board_sets, empties_a_set
from engine.generators import get_generator


def _kernel_sets(board, box):
    n = box * box
    board = np.asarray(board, dtype=np.int8)
    sets = np.zeros((MAX_SETS, 2 * MAX_CYCLE), dtype=np.int64)
    sizes = np.zeros(MAX_SETS, dtype=np.int64)
    cell_sets = np.zeros(n * n, dtype=np.int64)
    count = board_sets(board, n, box, sets, sizes, cell_sets, np.zeros(n + 1, dtype=np.int64))
    return count, sets, sizes, cell_sets


def _twin_sets(board, box):
    """Every minimal set of positions, 2..MAX_CYCLE of them, where two lines of a band (stack) share digits."""
    n = box * box
    lines = []
    for band in range(box):
        for i1, i2 in itertools.combinations(range(box), 2):
            r1, r2 = band * box + i1, band * box + i2
            lines.append(([r1 * n + j for j in range(n)], [r2 * n + j for j in range(n)]))  # two rows
            lines.append(([j * n + r1 for j in range(n)], [j * n + r2 for j in range(n)]))  # two columns
    found = set()
    for first, second in lines:
        same = []
        for k in range(2, MAX_CYCLE + 1):
            for positions in itertools.combinations(range(n), k):
                if {board[first[j]] for j in positions} != {board[second[j]] for j in positions}:
                    continue
                if any(set(smaller) <= set(positions) for smaller in same):
                    continue
                same.append(positions)
                found.add(frozenset([first[j] for j in positions] + [second[j] for j in positions]))
    return found


def _board(box, seed):
    if box <= 3:
        return random_board(box, random.Random(seed))
    return get_generator("backtrack").generate_array(box, 1, seed)[0][0].tolist()


@settings(max_examples=40, deadline=None)
@given(box=st.sampled_from([2, 3]), seed=st.integers(0, 2**32))
def test_the_sets_are_the_twins_and_each_is_unavoidable(box, seed):
    board = _board(box, seed)
    count, sets, sizes, cell_sets = _kernel_sets(board, box)
    got = [frozenset(sets[s, :sizes[s]].tolist()) for s in range(count)]
    assert count < MAX_SETS
    assert set(got) == _twin_sets(board, box)
    for s, cells in enumerate(got):
        assert len(cells) == sizes[s] and 4 <= sizes[s] <= 2 * MAX_CYCLE
        blanked = [0 if c in cells else v for c, v in enumerate(board)]
        assert count_solutions(blanked, 2)[0] == 2  # another board differs from this one only there
        for c in cells:
            assert cell_sets[c] >> s & 1
    for c in range(len(board)):  # and no cell claims a set it is not in
        assert all(c in got[s] for s in range(count) if cell_sets[c] >> s & 1)


@pytest.mark.parametrize("box, seed", [(4, 1), (4, 2), (5, 3)])
def test_big_grids(box, seed):
    board = _board(box, seed)
    count, sets, sizes, _ = _kernel_sets(board, box)
    assert count > 0
    if box == 4:
        twin = _twin_sets(board, box)
        got = {frozenset(sets[s, :sizes[s]].tolist()) for s in range(count)}
        assert got == twin if count < MAX_SETS else got <= twin
    for s in range(count):  # cells come in pairs, one of each line: swapping each pair's digits is a valid board
        other = list(board)
        for t in range(0, sizes[s], 2):
            a, b = sets[s, t], sets[s, t + 1]
            other[a], other[b] = board[b], board[a]
        assert other != board and _valid(other, box)


def _valid(grid, box) -> bool:
    n = box * box
    houses = [[r * n + c for c in range(n)] for r in range(n)] + [[r * n + c for r in range(n)] for c in range(n)]
    houses += [[(br * box + i) * n + bc * box + j for i in range(box) for j in range(box)]
               for br in range(box) for bc in range(box)]
    return all(len({grid[c] for c in h}) == n for h in houses)


def test_empties_a_set_needs_every_cell_of_a_set_blank():
    board = _board(3, 11)
    count, sets, sizes, cell_sets = _kernel_sets(board, 3)
    assert count > 0
    members = [set(sets[s, :sizes[s]].tolist()) for s in range(count)]
    for s, cells in enumerate(members):
        cell = min(cells)
        orbit = np.array([cell], dtype=np.int64)
        puzzle = np.array([0 if c in cells else v for c, v in enumerate(board)], dtype=np.int8)
        assert empties_a_set(puzzle, orbit, 1, sets, sizes, cell_sets)
        for kept in cells - {cell}:  # one clue left in the set: only another set wholly blank could say yes
            puzzle[kept] = board[kept]
            blank = {c for c in range(81) if puzzle[c] == 0}
            expected = any(cell in other and other <= blank for other in members)
            assert empties_a_set(puzzle, orbit, 1, sets, sizes, cell_sets) == expected
            puzzle[kept] = 0
