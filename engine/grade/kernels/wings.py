"""Compiled XY-Wing and XYZ-Wing, in the search order of engine/grade/finders/wings.py (one kernel: they differ
only in the pivot's size, which pincers fit it, and whether the removed cells must also see the pivot)."""
from __future__ import annotations

import numpy as np

from ..._jit import kernel_with, wide_kernel
from ...bits import popcount
from .state import _sees


@wide_kernel
def _wing(cands, peers, cell_houses, xyz):
    """XY-Wing (``xyz`` False) or XYZ-Wing (True)."""
    return _wing_on(cands, peers, cell_houses, xyz, np.empty(peers.shape[1], np.int64))


@kernel_with(_nrt=False)
def _wing_on(cands, peers, cell_houses, xyz, wings):
    """:func:`_wing` with its scratch ``wings`` (a pivot's pincers). Compiled without reference counts: its loops
    over peers and its calls of ``_sees`` counted references at every pivot and pair (perf: as much time in the
    counters as in the wings' own work)."""
    for pivot in range(cands.size):
        pm = cands[pivot]
        if popcount(pm) != (3 if xyz else 2):
            continue
        m = 0
        for p in peers[pivot]:
            if popcount(cands[p]) == 2 and (cands[p] & ~pm == 0 if xyz else popcount(cands[p] & pm) == 1):
                wings[m] = p
                m += 1
        for a in range(m):
            p1 = wings[a]
            for b in range(a + 1, m):
                p2 = wings[b]
                if xyz:
                    if cands[p1] == cands[p2]:
                        continue
                    z = cands[p1] & cands[p2]
                else:
                    if cands[p1] & pm == cands[p2] & pm:
                        continue
                    z = cands[p1] & ~pm
                    if z != cands[p2] & ~pm:
                        continue
                changed = False
                for c in peers[p1]:
                    if (cands[c] & z and _sees(c, p2, cell_houses)
                            and (not xyz or _sees(c, pivot, cell_houses))):
                        cands[c] &= ~z
                        changed = True
                if changed:
                    return True
    return False
