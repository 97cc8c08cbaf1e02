"""The units carver's unavoidable sets (engine/carve/_unit_sets.py) against a slow twin written from their definition.

The twin finds every set of each family by brute force (a component of two digits' links by a breadth-first walk;
a subset of columns of two rows, or rows of two columns, where both lines hold the same digits, no smaller subset
does, and the swap keeps every unit whole), and every set the kernel keeps is checked to be unavoidable by counting:
the board with the set's cells blank has a second solution.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from naive import shapes as plain

from engine.carve._unit_sets import MAX_CELLS, MAX_CYCLE, MAX_SETS, unit_sets
from engine.generators import wfc
from engine.regions import random_layout
from engine.shape import Shape

SHAPES = [Shape.boxes(2, 3), Shape.boxes(3, 2), Shape.latin(6), Shape.boxes(2, 3, True), Shape.square(3, True),
          Shape.latin(5, True), random_layout(6, 5), random_layout(9, 1), random_layout(9, 5), Shape.boxes(3, 4)]


def _units(shape):
    return plain.units(shape.size, shape.box_rows, shape.box_cols, shape.diagonals, shape.regions)


def _kernel_sets(board, shape):
    from engine.geometry import geometry

    geo = geometry(shape)
    sets = np.zeros((MAX_SETS, MAX_CELLS), np.int32)
    sizes = np.zeros(MAX_SETS, np.int32)
    cell_sets = np.zeros(geo.ncells, np.int64)
    k = unit_sets(np.asarray(board, np.int8), geo.size, geo.houses, geo.cell_houses, geo.nunits, sets, sizes,
                  cell_sets)
    return [frozenset(sets[s, :sizes[s]].tolist()) for s in range(k)], cell_sets


def _swap_keeps_units(board, change, unit_list):
    """Whether writing ``change`` (cell -> digit) into ``board`` leaves every unit holding 1..n once."""
    new = list(board)
    for c, d in change.items():
        new[c] = d
    return all(len({new[c] for c in u}) == len(u) for u in unit_list)


def _twin_sets(board, shape):
    """Every set of the two families with 4..MAX_CELLS cells."""
    n, unit_list = shape.size, _units(shape)
    found = set()
    for a, b in itertools.combinations(range(1, n + 1), 2):
        cells = {c for c in range(n * n) if board[c] in (a, b)}
        while cells:  # components of the links "the a-cell and the b-cell of one unit"
            todo, comp = [cells.pop()], set()
            while todo:
                x = todo.pop()
                comp.add(x)
                for u in unit_list:
                    if x in u:
                        for y in u:
                            if y in cells and board[y] in (a, b):
                                cells.discard(y)
                                todo.append(y)
            if 4 <= len(comp) <= MAX_CELLS:
                found.add(frozenset(comp))
    for direction in range(2):
        def cell(line, j):
            return line * n + j if direction == 0 else j * n + line

        for first, second in itertools.combinations(range(n), 2):
            for k in range(3, MAX_CYCLE + 1):
                for cols in itertools.combinations(range(n), k):
                    digits = {board[cell(first, j)] for j in cols}
                    if digits != {board[cell(second, j)] for j in cols}:
                        continue
                    if any({board[cell(first, j)] for j in sub} == {board[cell(second, j)] for j in sub}
                           for r in range(1, k) for sub in itertools.combinations(cols, r)):
                        continue  # not one cycle: a smaller subset already matches
                    change = {cell(first, j): board[cell(second, j)] for j in cols}
                    change.update({cell(second, j): board[cell(first, j)] for j in cols})
                    if _swap_keeps_units(board, change, unit_list):
                        found.add(frozenset(change))
    return found


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_the_kernel_keeps_the_smallest_sets_of_the_twins_families(shape):
    for board in wfc.generate_array(shape, 3, 7)[0]:
        board = board.tolist()
        kept, cell_sets = _kernel_sets(board, shape)
        twin = _twin_sets(board, shape)
        assert len(set(kept)) == len(kept) <= MAX_SETS
        assert set(kept) <= twin
        sizes = [len(s) for s in kept]
        assert sizes == sorted(sizes)
        if len(twin) <= MAX_SETS:
            assert set(kept) == twin
        else:  # the smallest are kept: none left out is smaller than the largest kept
            assert min(len(s) for s in twin - set(kept)) >= sizes[-1]
        for c in range(shape.ncells):
            assert {s for s, cells in enumerate(kept) if c in cells} == {s for s in range(len(kept))
                                                                          if cell_sets[c] >> s & 1}


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_every_set_kept_is_unavoidable(shape):
    unit_list = _units(shape)
    board = wfc.generate_array(shape, 1, 3)[0][0].tolist()
    kept, _ = _kernel_sets(board, shape)
    assert kept, "a board of every shape here has some small set"
    for cells in kept:
        puzzle = [0 if c in cells else d for c, d in enumerate(board)]
        assert plain.count(puzzle, unit_list, shape.size, limit=2) == 2, sorted(cells)
