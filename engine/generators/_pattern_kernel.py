"""The compiled seed-003 construction (see :mod:`engine.generators.pattern` for what it reaches)."""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ._rng import rand_below, seed_state


@kernel
def _shuffle(state, values):
    """Fisher-Yates in place, drawing from the board's stream (last slot first)."""
    for k in range(values.shape[0] - 1, 0, -1):
        j = rand_below(state, k + 1)
        values[k], values[j] = values[j], values[k]


@kernel
def _band_preserving_order(state, box, order, group, within):
    """A random order of the n lines that keeps bands (or stacks) together: bands shuffled, lines in each too."""
    for k in range(box):
        group[k] = k
    _shuffle(state, group)
    for g in range(box):
        for k in range(box):
            within[k] = k
        _shuffle(state, within)
        for k in range(box):
            order[g * box + k] = group[g] * box + within[k]


@kernel
def pattern_boards(size, box, seeds, shuffle, out_boards):
    """Fill ``out_boards[i]`` with the pattern board of ``seeds[i]``.

    The top-left (seed) box holds a random permutation of the digits; the box in band B, stack S is the seed
    box with its rows turned by S and its columns by B: ``cell(B*b + i, S*b + j) = seed[(i + S) % b][(j + B) % b]``
    (seed 003's table for b = 3, hard-coded there as 81 assignments). With ``shuffle``, rows are then permuted
    within bands, bands among themselves, and the same for columns and stacks.
    """
    ncells = size * size
    seed_box = np.zeros(size, dtype=np.int8)
    plain = np.zeros(ncells, dtype=np.int8)
    rows = np.zeros(size, dtype=np.int64)
    cols = np.zeros(size, dtype=np.int64)
    group = np.zeros(box, dtype=np.int64)
    within = np.zeros(box, dtype=np.int64)
    state = np.zeros(1, dtype=np.uint64)
    for i in range(seeds.shape[0]):
        seed_state(state, seeds[i])
        for k in range(size):
            seed_box[k] = k + 1
        _shuffle(state, seed_box)
        for band in range(box):
            for stack in range(box):
                for r in range(box):
                    for c in range(box):
                        value = seed_box[((r + stack) % box) * box + (c + band) % box]
                        plain[(band * box + r) * size + stack * box + c] = value
        if shuffle:
            _band_preserving_order(state, box, rows, group, within)
            _band_preserving_order(state, box, cols, group, within)
            for r in range(size):
                for c in range(size):
                    out_boards[i, r * size + c] = plain[rows[r] * size + cols[c]]
        else:
            out_boards[i, :] = plain
