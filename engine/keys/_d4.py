"""Kernel: canonical keys under the 8 symmetries of the square (private; use :mod:`engine.keys`).

The key of a grid is the smallest of its 8 images, comparing flat arrays in reading order. The images are never
built: image ``j`` at cell ``p`` is ``cells[perms[j, p]]``, so the kernel compares image ``j`` with the best one
so far cell by cell and stops at the first difference (on boards that is almost always the first or second
cell). Only the winner is copied out. Cost: docs/benchmarks.md, Canonical keys (bench/bench_keys.py).
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel


@kernel
def _d4_keys(boards, perms, out, which):
    """For each row of ``boards`` (m, ncells) write its smallest image to ``out`` and the image's index (into
    :data:`engine.keys.transforms.D4_NAMES`) to ``which``. Ties go to the first index."""
    m, ncells = boards.shape
    nimages = perms.shape[0]
    for k in range(m):
        g = boards[k]
        best = 0
        for j in range(1, nimages):
            for p in range(ncells):
                a = g[perms[j, p]]
                c = g[perms[best, p]]
                if a != c:
                    if a < c:
                        best = j
                    break
        for p in range(ncells):
            out[k, p] = g[perms[best, p]]
        which[k] = best


def d4_tables(box: int) -> np.ndarray:
    """(8, ncells) int32: row j is the cell permutation of the j-th symmetry of the square."""
    from .transforms import d4_group

    return np.ascontiguousarray(np.stack([t.perm for t in d4_group(box)]), dtype=np.int32)
