"""Which states of the plain search inside a nested run have a forcing chain: found from the fresh strong links.

The nested rows are tried only on a step's grid where the plain search (Sudoku Explainer's "Forcing Chains &
Cycles", a row far below) concludes nothing. A run's grid has no candidate the step's lacks, so every weak link
of the run's grid is one of the step's, and a strong link (a cell's last two candidates, a digit's last two
places in a house) is new only where the run removed a candidate: call those *fresh*. A forcing chain (a state
that forces its own opposite) made of the step's links alone would have concluded on the step's grid, so every
forcing chain here crosses a fresh link: ``s -> ... -> B off => A on -> ... -> not s``, where A and B are the two
ends of the fresh link. The links come in contrapositive pairs (on X forces off Y exactly when on Y forces off X;
off X forces on Y exactly when off Y forces on X), so the chain's second half read backwards says ``s`` forces A
off too: ``s`` forces both ends of the fresh link off. Conversely, a state that forces both ends of any strong
link off forces one of them on as well (off A forces on B), so it forces its own opposite. And ``s`` forces X off
exactly when X on forces ``not s``. Hence, exactly:

    ``s`` has a forcing chain  <=>  for some fresh link (A, B), ``not s`` is reached from both A on and B on.

Two walks a fresh link (a run leaves a handful) instead of a walk from every state: :func:`_concluding` lists the
states with a chain, and the plain search walks again only from those, for the chain's length (before, it walked
from every state that could reach a fresh link: with the X cycle walks it now skips, plain._plain_passes, the plain
searches inside on the hardest sample went from 79 to 44 us each). Cycles are not found this way: which cycle a walk
closes depends on the path its breadth-first tree took, so their walks are all made.
"""
from __future__ import annotations

import numpy as np

from ...._jit import wide_kernel
from ....bits import lowbit_index, popcount
from .walk import _reach_walk


@wide_kernel
def _concluding(before, cands, table, houses, cell_houses, n, ylinks, xlinks, out, walk):
    """Set ``out[s] = 1`` (one int8 per state, ``2 * potential + on``) for each state ``s`` whose forcing walk in
    the pass (Y links when ``ylinks``, X links when ``xlinks``) over the links ``table`` of ``cands``
    (engine.grade.kernels.chains.walk.links) reaches its opposite, given ``before``: a grid holding every candidate
    of ``cands`` on which that pass concludes nothing. ``walk``: a walk space (plain._walk_space).

    The fresh links are found from the removed candidates (a unit that lost one and has two left), not by
    scanning every strong link: a run removes a few."""
    nodes, _, in_on, in_off, stamp = walk
    first = np.zeros(2 * cands.size * n, np.int32)  # the states reached from a link's first end, by walk number
    done = np.zeros(cands.size + houses.shape[0] * n, np.bool_)  # the cells and houses' digits already paired
    walks = 0
    for c in range(cands.size):
        gone = before[c] & ~cands[c]
        if not gone:
            continue
        if ylinks and popcount(cands[c]) == 2 and not done[c]:  # the cell's last two candidates
            done[c] = True
            low = cands[c] & -cands[c]
            walks = _pair(c * n + lowbit_index(low), c * n + lowbit_index(cands[c] ^ low), table, ylinks, xlinks,
                          out, first, walks, nodes, in_on, in_off, stamp)
        if not xlinks:
            continue
        while gone:
            d = lowbit_index(gone)
            gone &= gone - 1
            for j in range(cell_houses.shape[1]):
                h = cell_houses[c, j]
                if (j >= 3 and h == cell_houses[c, 0]) or done[cands.size + h * n + d]:
                    continue  # (a shape's repeated row slot; a house met from another of its removals)
                done[cands.size + h * n + d] = True
                a = b = -1
                count = 0
                for i in range(houses.shape[1]):
                    if cands[houses[h, i]] >> d & 1:
                        count += 1
                        a, b = b, houses[h, i]
                if count == 2:  # the digit's last two places in the house
                    walks = _pair(a * n + d, b * n + d, table, ylinks, xlinks, out, first, walks, nodes, in_on,
                                  in_off, stamp)


@wide_kernel(_nrt=False)
def _pair(q, r, table, ylinks, xlinks, out, first, walks, nodes, in_on, in_off, stamp):
    """For the fresh strong link between potentials ``q`` and ``r``: mark in ``out`` the opposite of every state
    reached from both q on and r on; returns the walk number ``first`` now marks (one more)."""
    walks += 1
    stamp[0] += 1
    size = _reach_walk(2 * q + 1, table, ylinks, xlinks, nodes, in_on, in_off, stamp[0])
    for i in range(size):
        first[nodes[i]] = walks
    stamp[0] += 1
    size = _reach_walk(2 * r + 1, table, ylinks, xlinks, nodes, in_on, in_off, stamp[0])
    for i in range(size):
        x = nodes[i]
        if first[x] == walks:
            out[x ^ 1] = 1
    return walks
