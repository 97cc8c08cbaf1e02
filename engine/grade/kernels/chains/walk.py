"""The breadth-first walk of Sudoku Explainer's static chains, from one candidate on or off.

States are those of :mod:`engine.grade.kernels.chains.implications`; a walk alternates on and off layers, following X
links (the digit's places in a house), Y links (a cell's candidates) or both, and records each state once with the
state that first reached it, so each recorded path is a shortest chain. :mod:`engine.grade.kernels.chains.cycles` runs
walks from every candidate and keeps the best cycle or forcing chain.

The candidates do not change during a search, so the links do not either: :func:`links` lists them once per search
and every walk reads the lists instead of scanning houses. A search makes hundreds of walks, and scanning the
houses at each node was most of their time (chains were the largest part of grading random minimal puzzles).
The lists keep the order in which the scan met the links (the cell's other digits, then the box, the row and the
column), so every walk records the same nodes in the same order as before.
"""
from __future__ import annotations

import numpy as np

from ...._jit import kernel_with, wide_kernel
from ....bits import digit_of, lowbit_index, popcount
from ..state import SE_SLOTS, _house_positions, _places_table

_U = np.uint64  # an unsigned index skips numba's negative-index test (the walk's hottest reads)

# the columns of a potential's strong links in the link table's ``strong`` (:func:`links`): the cell's other digit
# (Y), then the digit's other place in the box, the row and the column (X), and in the two diagonals on a shape
# with them (``strong.shape[1]`` columns: 4, or 6); -1 where there is none
STRONG_Y = 0


@wide_kernel
def links(cands, houses, cell_houses, n):
    """The link table of ``cands``: ``(start, xstart, weak, strong, closing)``.

    For a candidate potential ``p`` (``cell * n + digit - 1``), ``weak[start[p]:start[p + 1]]`` are the off states
    its on state forces: the cell's other digits (Y links, up to ``xstart[p]``), then the digit's other places in
    the box, the row and the column (and the diagonals), each once (X links). ``strong[p]`` are the on states its
    off state forces, by column (STRONG_Y, then the box, row, column and diagonals). ``closing`` is a walk's scratch
    (6 states: Y, box, row, column and the two diagonals)."""
    ncells = cands.size
    npot = ncells * n
    total = 0
    for c in range(ncells):
        total += popcount(cands[c])
    # the places of each digit in each house (bits by position) and each cell's position in its three houses: a
    # candidate's links come from the bits of its digit's places, not from a scan of its houses' cells (the scan
    # was most of the table's time)
    places = np.empty((houses.shape[0], n), np.int64)
    _places_table(cands, houses, n, places)
    nkinds = cell_houses.shape[1]
    position = np.empty((ncells, nkinds), np.int64)
    _house_positions(houses, cell_houses, n, position)
    start = np.zeros(npot + 1, np.int32)
    xstart = np.zeros(npot, np.int32)
    weak = np.empty(total * (nkinds + 1) * n + 1, np.int32)
    strong = np.full((npot, nkinds + 1), -1, np.int32)
    k = 0
    for c in range(ncells):
        m = cands[c]
        box = cell_houses[c, 2]
        for d in range(1, n + 1):
            p = c * n + d - 1
            start[p] = k
            bit = np.int64(1) << (d - 1)
            if not m & bit:
                xstart[p] = k
                continue
            others = m & ~bit
            if popcount(m) == 2:
                strong[p, STRONG_Y] = 2 * (c * n + digit_of(others) - 1) + 1
            while others:
                low = others & -others
                others ^= low
                weak[k] = 2 * (c * n + digit_of(low) - 1)
                k += 1
            xstart[p] = k
            for j in range(nkinds):
                kind = SE_SLOTS[j]
                h = cell_houses[c, kind]
                if j >= 3 and h == cell_houses[c, 0]:
                    continue  # a diagonal the cell is not on: its slot repeats the row
                rest = places[h, d - 1] & ~(np.int64(1) << position[c, kind])  # the digit's other places
                if rest and not rest & (rest - 1):  # one: a strong link
                    strong[p, 1 + j] = 2 * (houses[h, lowbit_index(rest)] * n + d - 1) + 1
                while rest:
                    low = rest & -rest
                    rest ^= low
                    c2 = houses[h, lowbit_index(low)]
                    if j != 0 and cell_houses[c2, 2] == box:
                        continue  # added with the box
                    weak[k] = 2 * (c2 * n + d - 1)
                    k += 1
    start[npot] = k
    return start, xstart, weak, strong, np.full(6, -1, np.int64)


@wide_kernel
def no_links(cell_houses):
    """An empty link table, of :func:`links`'s types: for a caller that needs one only on some paths."""
    return (np.zeros(1, np.int32), np.zeros(0, np.int32), np.zeros(0, np.int32),
            np.full((0, cell_houses.shape[1] + 1), -1, np.int32), np.full(6, -1, np.int64))


@wide_kernel(_nrt=False)
def _walk_call(source, table, ylinks, xlinks, cycles, nodes, parents, in_on, in_off, stamp, most):
    """:func:`_walk` as a call of its own, for the callers that walk rarely (an explanation, the nested chains'
    plain search): ``_walk`` is inlined where it is hot, the static chain search, since a call would count
    references to its nine arrays each time (see engine/grade/kernels/chains/slots.py), and each inlined copy costs
    compile time."""
    return _walk(source, table, ylinks, xlinks, cycles, nodes, parents, in_on, in_off, stamp, most)


@kernel_with(inline="always")
def _walk(source, table, ylinks, xlinks, cycles, nodes, parents, in_on, in_off, stamp, most):
    """Breadth-first from ``source`` (a state) over the links of ``table`` (:func:`links`); ``nodes``/``parents``
    receive the walk (node 0 is the source).
    Returns ``(forcing_node, cycles_found, size)``: the node where the source's opposite state is reached (-1
    if never; X links only end there; a forcing walk stops there, a cycle walk goes on), when ``cycles`` the count
    of cycles found, stored as pairs at the end of ``nodes`` (:func:`cycle_end`), and the number of nodes when the
    walk reached everything the source forces (-1 when it stopped early). Chains of more than ``most`` states are
    not looked for (they would rate no better than a conclusion already found): a cycle that closes while layer L
    is expanded, like a forcing chain that ends in it, has L + 1 states, so the walk stops after layer most - 1.

    A cycle comes back to the source (on) from an off state that is one of its strong links. Every such off state
    is a weak link of the source too, so the walk records it at the first layer, and a walk that expands each off
    state once could never close a cycle of four links or more. Sudoku Explainer's cycle walk expands an off state
    once per way in (never one of the chain's own states again); the other ways in add nothing but the closing
    link, so they are not recorded as nodes: an on state that reaches one of the source's strong links, at the
    third layer or later, by a state not already on its chain, closes a cycle there and then."""
    start, xstart, weak, strong, closing = table
    nodes[0] = source
    parents[0] = -1
    # the off states that force the source on (its strong links): the cycles close through these
    closing[:] = -1
    if cycles:
        _strong_links(source >> 1, strong, ylinks, xlinks, closing)
    if source & 1:
        in_on[source >> 1] = stamp
    else:
        in_off[source >> 1] = stamp
    size = 1
    head = 0
    closed = 0
    cap = nodes.size
    forcing = -1
    length = 0
    layer_end = 1
    # the closing states in locals (a cell's Y link and one a house: six with the diagonals, the last two -1 on
    # other shapes): the inner loops below are written out, not calls of small helpers, since every array a helper
    # takes is reference-counted at each call even when numba inlines it (those counts were a real share of the
    # static chains' time: docs/development.md, "Reference counts"; docs/benchmarks.md, "Grading")
    close0, close1, close2, close3, close4, close5 = closing[0], closing[1], closing[2], closing[3], closing[4], \
        closing[5]
    while head < size and size + 2 * closed < cap - 64:
        length += 1
        if length + 1 > most:
            break
        while head < layer_end and size + 2 * closed < cap - 64:
            node = head
            head += 1
            s = nodes[_U(node)]
            p = _U(s >> 1)
            if s & 1:
                # on -> off: the cell's other candidates (Y), the digit's other places in the houses
                for i in range(start[p] if ylinks else xstart[p], start[p + 1]):
                    t = weak[_U(i)]
                    if cycles and length >= 3 and (t == close0 or t == close1 or t == close2 or t == close3
                                                   or t == close4 or t == close5):
                        # t forces the source back on: a cycle closes unless t is already on the chain to node
                        a = node
                        while a >= 0 and nodes[a] != t:
                            a = parents[a]
                        if a < 0:
                            k = cap - 1 - 2 * closed
                            nodes[k] = node
                            nodes[k - 1] = t
                            closed += 1
                    if in_off[_U(t >> 1)] == stamp:
                        continue
                    if t == source - 1 and forcing < 0:
                        forcing = size
                        if not cycles:  # a forcing walk records its end but does not go on from it
                            nodes[size] = t
                            parents[size] = node
                            size += 1
                            continue
                    in_off[_U(t >> 1)] = stamp
                    nodes[_U(size)] = t
                    parents[_U(size)] = node
                    size += 1
            else:
                # off -> on: the cell's last other candidate (Y), the digit's last other place in a house (X)
                for j in range(0 if ylinks else 1, strong.shape[1] if xlinks else 1):
                    t = strong[p, j]
                    if t < 0:
                        continue
                    if not cycles and t == source + 1 and forcing < 0:
                        forcing = size
                        nodes[size] = t
                        parents[size] = node
                        size += 1
                        continue
                    if in_on[_U(t >> 1)] == stamp:
                        continue
                    in_on[_U(t >> 1)] = stamp
                    nodes[_U(size)] = t
                    parents[_U(size)] = node
                    size += 1
            if forcing >= 0 and not cycles:
                return forcing, closed, -1
        layer_end = size
    complete = head >= size and (cycles or forcing < 0)
    return forcing, closed, size if complete else -1


@kernel_with(inline="always")
def _meet_walk(source, table, ylinks, xlinks, nodes, in_on, in_off, depth, stamp, most):
    """The shortest forcing chain from ``source`` to its opposite state, found halfway: ``(links, size)``, links
    -1 when there is none of at most ``most`` states, and size the number of states reached when the walk reached
    everything the source forces (else -1; :func:`_no_chains` reads them from ``nodes``).

    Why halfway: the links of every pass come in contrapositive pairs (on A -> off B with on B -> off A, off A ->
    on B with off B -> on A), so a chain from state x to the source's opposite is, read backwards, a chain from the
    source to x's opposite. The shortest forcing chain therefore has ``min(d(x) + d(opposite of x))`` links over
    the states x the walk reaches (d: depth in the walk), and its middle state and that state's opposite both lie
    within half its length. A walk to half the length reaches far fewer states than the full walk of
    :func:`_walk` (docs/benchmarks.md, "Grading"). The chain itself (for an explanation) is the full walk's, which finds
    the same length. ``depth`` (one per state) is scratch."""
    start, xstart, weak, strong, _ = table
    nodes[0] = source
    depth[source] = 0
    if source & 1:
        in_on[source >> 1] = stamp
    else:
        in_off[source >> 1] = stamp
    limit = most - 1  # links
    best = limit + 1
    size = 1
    head = 0
    length = 0
    layer_end = 1
    while head < size:
        length += 1
        if 2 * length - 1 > limit:  # the middle of a chain of at most ``limit`` links lies nearer
            break
        while head < layer_end:
            s = nodes[_U(head)]
            head += 1
            p = _U(s >> 1)
            if s & 1:
                for i in range(start[p] if ylinks else xstart[p], start[p + 1]):
                    t = weak[_U(i)]
                    q = _U(t >> 1)
                    if in_off[q] == stamp:
                        continue
                    in_off[q] = stamp
                    depth[_U(t)] = length
                    if in_on[q] == stamp and length + depth[_U(t + 1)] < best:
                        best = length + depth[_U(t + 1)]
                    nodes[_U(size)] = t
                    size += 1
            else:
                for j in range(0 if ylinks else 1, strong.shape[1] if xlinks else 1):
                    t = strong[p, j]
                    if t < 0:
                        continue
                    q = _U(t >> 1)
                    if in_on[q] == stamp:
                        continue
                    in_on[q] = stamp
                    depth[_U(t)] = length
                    if in_off[q] == stamp and length + depth[_U(t - 1)] < best:
                        best = length + depth[_U(t - 1)]
                    nodes[_U(size)] = t
                    size += 1
        layer_end = size
        if best <= limit:  # the first layer with a pair: the shortest chain's middle is no further
            return best, -1
    return -1, size if head >= size else -1


@wide_kernel(_nrt=False)
def _reach_walk(source, table, ylinks, xlinks, nodes, in_on, in_off, stamp):
    """Every state ``source`` forces over the links of ``table`` (Y links when ``ylinks``, X links when
    ``xlinks``), itself included, in ``nodes``: returns how many. Breadth-first, marking states with ``stamp`` as
    :func:`_walk` does; no paths kept (:mod:`.fresh_links` needs only what is reached)."""
    start, xstart, weak, strong, _ = table
    nodes[0] = source
    if source & 1:
        in_on[source >> 1] = stamp
    else:
        in_off[source >> 1] = stamp
    size = 1
    head = 0
    while head < size:
        s = nodes[_U(head)]
        head += 1
        p = _U(s >> 1)
        if s & 1:
            for i in range(start[p] if ylinks else xstart[p], start[p + 1]):
                t = weak[_U(i)]
                if in_off[_U(t >> 1)] != stamp:
                    in_off[_U(t >> 1)] = stamp
                    nodes[_U(size)] = t
                    size += 1
        else:
            for j in range(0 if ylinks else 1, strong.shape[1] if xlinks else 1):
                t = strong[p, j]
                if t >= 0 and in_on[_U(t >> 1)] != stamp:
                    in_on[_U(t >> 1)] = stamp
                    nodes[_U(size)] = t
                    size += 1
    return size


@kernel_with(inline="always")
def _strong_links(p, strong, ylinks, xlinks, closing):
    """The off states that force potential ``p`` on by one link, in ``closing``: the other candidate of its cell
    when it has two (Y), the digit's other place in a house of the cell where it has two (X). Returns how many."""
    k = 0
    for j in range(0 if ylinks else 1, strong.shape[1] if xlinks else 1):
        t = strong[p, j]
        if t >= 0:
            closing[k] = t - 1
            k += 1
    return k


@kernel_with(inline="always")
def has_strong_link(p, table, ylinks, xlinks):
    """Whether potential ``p`` has a strong link the pass follows: without one, no cycle comes back to it. (It
    lists them in the table's walk scratch, which every walk resets.)"""
    return _strong_links(p, table[3], ylinks, xlinks, table[4]) > 0


@wide_kernel(_nrt=False)
def cycle_end(k, nodes):
    """Cycle ``k`` of a walk: (the on node that closed it, the off state that leads back to the source)."""
    return nodes[nodes.size - 1 - 2 * k], nodes[nodes.size - 2 - 2 * k]


@wide_kernel(_nrt=False)
def _no_chains(size, nodes, in_on, in_off, stamp, nochain, mark):
    """After a complete walk (``size`` >= 0 nodes): every state it reached forces only states it reached too, so a
    reached state whose opposite was not reached has no forcing chain of its own; mark it (the pass's ``mark``) so
    its walk is skipped."""
    for k in range(size):
        x = nodes[k]
        conj_seen = in_off[x >> 1] == stamp if x & 1 else in_on[x >> 1] == stamp
        if not conj_seen:
            nochain[x] = mark


@wide_kernel(_nrt=False)
def _chain_states(node, nodes, parents):
    count = 0
    while node >= 0:
        count += 1
        node = parents[node]
    return count
