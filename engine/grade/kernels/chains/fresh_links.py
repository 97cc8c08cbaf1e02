"""Which walks of the plain search inside a nested run can conclude: those that can reach a fresh strong link.

The nested rows are tried only on a step's grid where the plain search (Sudoku Explainer's "Forcing Chains &
Cycles", a row far below) concludes nothing. A run's grid has no candidate the step's lacks, so every weak link
of the run's grid is one of the step's, and a strong link (a cell's last two candidates, a digit's last two
places in a house) is new only where the run removed a candidate: call those *fresh*. A forcing walk that meets no
fresh link walks the step's links alone, reaches only what it reached on the step's grid, and so reaches its
opposite state there too if here: the step's search would have concluded. So on a run's grid only the walks
that can reach a fresh link may end in a forcing chain, and the rest are spared.

Cycles are not spared: which cycle a walk closes depends on the path its breadth-first tree took, and that tree
differs on the run's grid even where every link is the step's. On the hardest sample the sparing took the plain
searches inside from 8.9 s to 7.4 s (119 to 100 us each), the search of what can be reached included.
"""
from __future__ import annotations

import numpy as np

from ...._jit import wide_kernel
from ....bits import popcount
from ..state import SE_SLOTS, _places_table
from .walk import STRONG_Y


@wide_kernel
def _reaching_fresh(before, cands, table, houses, cell_houses, n, ylinks, xlinks):
    """One int8 per state (``2 * potential + on``): 1 where a walk of the pass (Y links when ``ylinks``, X links
    when ``xlinks``) from that state over the links ``table`` of ``cands`` (engine.grade.kernels.chains.walk.links)
    can reach a strong link that ``before`` (a grid holding every candidate of ``cands``) lacks.

    Found backwards from the fresh links' off states, since links go both ways: an off state is reached from the on
    states of its weak links, an on state from the off state of its strong partner."""
    start, xstart, weak, strong, _ = table
    npot = cands.size * n
    places = np.empty((houses.shape[0], n), np.int64)
    _places_table(before, houses, n, places)
    reach = np.zeros(2 * npot, np.int8)
    stack = np.empty(2 * npot, np.int64)
    top = 0
    nkinds = cell_houses.shape[1]
    for q in range(npot):
        c = q // n
        d = q % n
        if not cands[c] >> d & 1:
            continue
        fresh = ylinks and strong[q, STRONG_Y] >= 0 and popcount(before[c]) > 2
        if xlinks:
            for j in range(nkinds):
                if strong[q, 1 + j] >= 0 and popcount(places[cell_houses[c, SE_SLOTS[j]], d]) > 2:
                    fresh = True
        if fresh:  # the walk that reaches this off state goes on through the fresh link
            reach[2 * q] = 1
            stack[top] = 2 * q
            top += 1
    while top:
        top -= 1
        s = stack[top]
        p = s >> 1
        if s & 1:  # on: from the off state of its strong partner
            for j in range(0 if ylinks else 1, strong.shape[1] if xlinks else 1):
                t = strong[p, j]
                if t >= 0 and not reach[t - 1]:
                    reach[t - 1] = 1
                    stack[top] = t - 1
                    top += 1
        else:  # off: from the on states of its weak links
            for i in range(start[p] if ylinks else xstart[p], start[p + 1]):
                t = weak[i] + 1
                if not reach[t]:
                    reach[t] = 1
                    stack[top] = t
                    top += 1
    return reach
