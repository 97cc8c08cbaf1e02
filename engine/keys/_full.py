"""Kernel: full-equivalence keys for a batch of grids in one nogil call (private; use :mod:`engine.keys`).

Each grid goes to the search that fits it: complete valid boards to :func:`engine.keys._board.board_key`,
other grids without conflicts (puzzles) to :func:`engine.keys._grid.grid_key`. Grids with a conflict get no
key (status CONFLICT): relabelling and line moves are defined for them, but the catalogue never stores them and
the searches rely on each digit appearing at most once per house.

Caution (measured): numba's on-disk cache keys a kernel on its own file only, so after editing ``_board.py`` or
``_grid.py`` a cached :func:`full_keys` kept running the old code of the kernels it calls (a slowdown was seen
this way). The cache directory keyed on the engine's source (:mod:`engine.cache`) is the cure.
"""
from __future__ import annotations

import numpy as np

from ._board import board_key
from ._grid import grid_key
from .._jit import kernel

from .errors import CONFLICT, OK, TOO_MANY  # the statuses it writes

BOARD = 0
PUZZLE = 1


@kernel
def classify(cells, b):
    """BOARD (complete, no conflict), PUZZLE (blanks, no conflict) or CONFLICT."""
    n = b * b
    seen = np.zeros((3, n, n + 1), dtype=np.bool_)
    blanks = False
    for r in range(n):
        for c in range(n):
            d = cells[r * n + c]
            if d == 0:
                blanks = True
                continue
            k = (r // b) * b + c // b
            if seen[0, r, d] or seen[1, c, d] or seen[2, k, d]:
                return CONFLICT
            seen[0, r, d] = True
            seen[1, c, d] = True
            seen[2, k, d] = True
    return PUZZLE if blanks else BOARD


@kernel
def full_keys(grids, b, out, perms, status, max_states):
    """Keys of every row of ``grids`` (m, ncells) into ``out``, the permutations into ``perms`` and per-grid
    status (OK, TOO_MANY, CONFLICT) into ``status``."""
    for k in range(grids.shape[0]):
        kind = classify(grids[k], b)
        if kind == CONFLICT:
            status[k] = CONFLICT
            out[k, :] = 0
            perms[k, :] = 0
        elif kind == BOARD:
            board_key(grids[k], b, out[k], perms[k])
            status[k] = OK
        else:
            status[k] = grid_key(grids[k], b, out[k], perms[k], max_states)
