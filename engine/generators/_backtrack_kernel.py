"""The compiled randomized depth-first fill of seeds 002 and 004 (see :mod:`engine.generators.backtrack`).

The recursion of the seeds becomes an explicit stack indexed by depth = cell number (cells are filled in
reading order, so depth and cell are the same): ``untried[cell]`` holds the valid digits of that cell not tried
yet at the current visit. Per-house "used" masks make the validity test three ORs instead of the seeds'
row/column/box scans.

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
def _starves_a_peer(cell, size, box, full, peers, row_used, col_used, box_used):
    """True when some later (still empty) peer of ``cell`` has no valid digit left."""
    for j in range(peers.shape[1]):
        p = peers[cell, j]
        if p > cell:
            pr = p // size
            pc = p - pr * size
            pb = (pr // box) * box + pc // box
            if full & ~(row_used[pr] | col_used[pc] | box_used[pb]) == 0:
                return True
    return False


@kernel
def backtrack_boards(size, box, seeds, node_limit, lookahead, peers, out_boards, out_restarts):
    """Fill ``out_boards[i]`` with the board of ``seeds[i]``; ``out_restarts[i]`` counts node-limit restarts.

    ``node_limit`` > 0 abandons an attempt after that many placements and starts again from an empty grid with
    the stream where it is (randomized restarts cut the heavy tail of depth-first search on the larger grids).
    """
    ncells = size * size
    full = (np.int64(1) << size) - 1
    cells = np.zeros(ncells, dtype=np.int8)
    untried = np.zeros(ncells, dtype=np.int64)
    row_used = np.zeros(size, dtype=np.int64)
    col_used = np.zeros(size, dtype=np.int64)
    box_used = np.zeros(size, dtype=np.int64)
    state = np.zeros(1, dtype=np.uint64)
    for i in range(seeds.shape[0]):
        seed_state(state, seeds[i])
        restarts = 0
        while True:
            cells[:] = 0
            row_used[:] = 0
            col_used[:] = 0
            box_used[:] = 0
            untried[0] = full
            cell = 0
            nodes = 0
            while 0 <= cell < ncells:
                r = cell // size
                c = cell - r * size
                b = (r // box) * box + c // box
                if cells[cell] != 0:  # back here after a dead end further on: take this cell's digit back
                    bit = np.int64(1) << (cells[cell] - 1)
                    row_used[r] ^= bit
                    col_used[c] ^= bit
                    box_used[b] ^= bit
                    cells[cell] = 0
                options = untried[cell]
                if options == 0:
                    cell -= 1  # dead end: back up to the previous cell and try its next digit
                    continue
                d = kth_bit(options, rand_below(state, popcount(options)))
                bit = np.int64(1) << d
                untried[cell] = options ^ bit
                cells[cell] = d + 1
                row_used[r] |= bit
                col_used[c] |= bit
                box_used[b] |= bit
                nodes += 1
                if lookahead and _starves_a_peer(cell, size, box, full, peers, row_used, col_used, box_used):
                    continue  # this digit leaves a later peer with no valid digit: try the next one here
                cell += 1
                if cell < ncells:
                    nr = cell // size
                    nc = cell - nr * size
                    nb = (nr // box) * box + nc // box
                    untried[cell] = full & ~(row_used[nr] | col_used[nc] | box_used[nb])
                if node_limit > 0 and nodes >= node_limit and cell < ncells:
                    break
            if cell == ncells:
                out_boards[i, :] = cells
                break
            restarts += 1
        out_restarts[i] = restarts
