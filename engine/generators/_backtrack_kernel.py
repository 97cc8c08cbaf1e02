"""The compiled randomized depth-first fill of seeds 002 and 004 (see :mod:`engine.generators.backtrack`).

The recursion of the seeds becomes an explicit stack indexed by depth = cell number (cells are filled in
reading order, so depth and cell are the same): ``untried[cell]`` holds the valid digits of that cell not tried
yet at the current visit. Per-unit "used" masks make the validity test an OR per unit of the cell (three on
square boxes) instead of the seeds' row/column/box scans.

Trying a shuffled list of all n digits in order and skipping the invalid ones tries the valid digits in a
uniformly random order; drawing uniformly among the untried valid digits at each step does the same with no
shuffle and no wasted tests. (The valid set of a cell cannot change while the search sits at that cell, since
only earlier cells are filled.)
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..bits import kth_bit, popcount
from ._rng import rand_below, seed_state


@kernel
def _valid(cell, cell_houses, used):
    """The digits no unit of ``cell`` holds yet (its rows of ``cell_houses`` are padded by repeats: an OR twice
    changes nothing)."""
    taken = np.int64(0)
    for k in range(cell_houses.shape[1]):
        taken |= used[cell_houses[cell, k]]
    return taken


@kernel
def _starves_a_peer(cell, full, peers, cell_houses, used):
    """True when some later (still empty) peer of ``cell`` has no valid digit left."""
    for j in range(peers.shape[1]):
        p = peers[cell, j]
        if p > cell and full & ~_valid(p, cell_houses, used) == 0:
            return True
    return False


@kernel
def backtrack_boards(size, seeds, node_limit, lookahead, peers, cell_houses, nhouses, out_boards, out_restarts):
    """Fill ``out_boards[i]`` with the board of ``seeds[i]``; ``out_restarts[i]`` counts node-limit restarts, and
    is -1 when an attempt tried every digit of the first cell: the shape has no board at all.

    ``node_limit`` > 0 abandons an attempt after that many placements and starts again from an empty grid with
    the stream where it is (randomized restarts cut the heavy tail of depth-first search on the larger grids).
    The units are the shape's (:mod:`engine.geometry`: ``cell_houses``, each cell's units; ``used`` holds the
    digits each unit holds), so one kernel serves square boxes and every other shape.
    """
    ncells = size * size
    full = (np.int64(1) << size) - 1
    cells = np.zeros(ncells, dtype=np.int8)
    untried = np.zeros(ncells, dtype=np.int64)
    used = np.zeros(nhouses, dtype=np.int64)
    state = np.zeros(1, dtype=np.uint64)
    width = cell_houses.shape[1]
    for i in range(seeds.shape[0]):
        seed_state(state, seeds[i])
        restarts = 0
        while True:
            cells[:] = 0
            used[:] = 0
            untried[0] = full
            cell = 0
            nodes = 0
            while 0 <= cell < ncells:
                if cells[cell] != 0:  # back here after a dead end further on: take this cell's digit back
                    bit = np.int64(1) << (cells[cell] - 1)
                    for k in range(width):
                        used[cell_houses[cell, k]] &= ~bit
                    cells[cell] = 0
                options = untried[cell]
                if options == 0:
                    cell -= 1  # dead end: back up to the previous cell and try its next digit
                    continue
                d = kth_bit(options, rand_below(state, popcount(options)))
                bit = np.int64(1) << d
                untried[cell] = options ^ bit
                cells[cell] = d + 1
                for k in range(width):
                    used[cell_houses[cell, k]] |= bit
                nodes += 1
                if lookahead and _starves_a_peer(cell, full, peers, cell_houses, used):
                    continue  # this digit leaves a later peer with no valid digit: try the next one here
                cell += 1
                if cell < ncells:
                    untried[cell] = full & ~_valid(cell, cell_houses, used)
                if node_limit > 0 and nodes >= node_limit and cell < ncells:
                    break
            if cell == ncells:
                out_boards[i, :] = cells
                break
            if cell < 0:  # the whole tree of this attempt, from an empty grid, holds no board: none exists
                restarts = -1
                break
            restarts += 1
        out_restarts[i] = restarts
