"""The breadth-first walk of Sudoku Explainer's static chains, from one candidate on or off.

States are those of :mod:`engine.grade._fast_implications`; a walk alternates on and off layers, following X
links (the digit's places in a house), Y links (a cell's candidates) or both, and records each state once with the
state that first reached it, so each recorded path is a shortest chain. :mod:`engine.grade._fast_cycles` runs walks
from every candidate and keeps the best cycle or forcing chain.
"""
from __future__ import annotations

import numpy as np

from .._jit import wide_kernel
from ..bits import digit_of, popcount
from ._fast_state import _other_place


@wide_kernel
def _walk(source, cands, houses, cell_houses, n, ylinks, xlinks, cycles, nodes, parents, in_on, in_off, stamp,
          most):
    """Breadth-first from ``source`` (a state); ``nodes``/``parents`` receive the walk (node 0 is the source).
    Returns ``(forcing_node, cycles_found, size)``: the node where the source's opposite state is reached (-1
    if never; X links only end there; a forcing walk stops there, a cycle walk goes on), when ``cycles`` the count of cycles found, stored as pairs at the end of
    ``nodes`` (:func:`cycle_end`), and the number of nodes when the walk reached everything the source forces
    (-1 when it stopped early). Chains of more than ``most`` states are not looked for (they would rate no
    better than a conclusion already found).

    A cycle comes back to the source (on) from an off state that is one of its strong links. Every such off state
    is a weak link of the source too, so the walk records it at the first layer, and a walk that expands each off
    state once could never close a cycle of four links or more. Sudoku Explainer's cycle walk expands an off state
    once per way in (never one of the chain's own states again); the other ways in add nothing but the closing
    link, so they are not recorded as nodes: an on state that reaches one of the source's strong links, at the
    third layer or later, by a state not already on its chain, closes a cycle there and then."""
    nodes[0] = source
    parents[0] = -1
    # the off states that force the source on (its strong links): the cycles close through these
    closing = np.full(4, -1, np.int64)
    if cycles:
        _strong_links(source, cands, houses, cell_houses, n, ylinks, xlinks, closing)
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
    while head < size and size + 2 * closed < cap - 64:
        length += 1
        if length + (0 if cycles else 1) > most:
            break
        while head < layer_end and size + 2 * closed < cap - 64:
            node = head
            head += 1
            s = nodes[node]
            p = s >> 1
            c = p // n
            d = p % n + 1
            bit = np.int64(1) << (d - 1)
            if s & 1:
                # on -> off: the cell's other candidates (Y), the digit's other places in the houses
                others = cands[c] & ~bit if ylinks else np.int64(0)
                while others:
                    low = others & -others
                    others ^= low
                    t = 2 * (c * n + digit_of(low) - 1)
                    if cycles and length >= 3:
                        closed = _close(t, node, closing, nodes, parents, closed)
                    size, forcing = _visit_off(t, node, source, nodes, parents, in_off, stamp, size, cycles,
                                               forcing)
                for k in (2, 0, 1):
                    h = cell_houses[c, k]
                    for i in range(n):
                        c2 = houses[h, i]
                        if c2 == c or not cands[c2] & bit:
                            continue
                        if k != 2 and _same_box(c, c2, cell_houses):
                            continue  # added with the box
                        t = 2 * (c2 * n + d - 1)
                        if cycles and length >= 3:
                            closed = _close(t, node, closing, nodes, parents, closed)
                        size, forcing = _visit_off(t, node, source, nodes, parents, in_off, stamp, size, cycles,
                                                   forcing)
            else:
                # off -> on: the cell's last other candidate (Y), the digit's last other place in a house (X)
                if ylinks and popcount(cands[c]) == 2:
                    t = 2 * (c * n + digit_of(cands[c] & ~bit) - 1) + 1
                    size, forcing = _visit_on(t, node, source, nodes, parents, in_on, stamp, size, cycles, forcing)
                if xlinks:
                    for k in (2, 0, 1):
                        other = _other_place(cands, houses, cell_houses[c, k], c, bit, n)
                        if other >= 0:
                            t = 2 * (other * n + d - 1) + 1
                            size, forcing = _visit_on(t, node, source, nodes, parents, in_on, stamp, size, cycles,
                                                      forcing)
            if forcing >= 0 and not cycles:
                return forcing, closed, -1
        layer_end = size
    complete = head >= size and (cycles or forcing < 0)
    return forcing, closed, size if complete else -1


@wide_kernel
def _same_box(a, b, cell_houses):
    return cell_houses[a, 2] == cell_houses[b, 2]


@wide_kernel
def _strong_links(source, cands, houses, cell_houses, n, ylinks, xlinks, closing):
    """The off states that force ``source`` (on) by one link, in ``closing``: the other candidate of its cell when
    it has two (Y), the digit's other place in a house of the cell where it has two (X)."""
    p = source >> 1
    c = p // n
    d = p % n + 1
    bit = np.int64(1) << (d - 1)
    k = 0
    if ylinks and popcount(cands[c]) == 2:
        closing[k] = 2 * (c * n + digit_of(cands[c] & ~bit) - 1)
        k += 1
    if xlinks:
        for j in (2, 0, 1):
            other = _other_place(cands, houses, cell_houses[c, j], c, bit, n)
            if other >= 0:
                closing[k] = 2 * (other * n + d - 1)
                k += 1


@wide_kernel
def _close(t, node, closing, nodes, parents, closed):
    """On state ``node`` reaches off state ``t``: when ``t`` forces the source back on and is not already on the
    chain to ``node``, a cycle closes; it is kept as the pair (``node``, ``t``) at the end of ``nodes``."""
    if t != closing[0] and t != closing[1] and t != closing[2] and t != closing[3]:
        return closed
    a = node
    while a >= 0:
        if nodes[a] == t:
            return closed
        a = parents[a]
    k = nodes.size - 1 - 2 * closed
    nodes[k] = node
    nodes[k - 1] = t
    return closed + 1


@wide_kernel
def cycle_end(k, nodes):
    """Cycle ``k`` of a walk: (the on node that closed it, the off state that leads back to the source)."""
    return nodes[nodes.size - 1 - 2 * k], nodes[nodes.size - 2 - 2 * k]


@wide_kernel
def _visit_off(t, node, source, nodes, parents, in_off, stamp, size, cycles, forcing):
    if in_off[t >> 1] == stamp:
        return size, forcing
    if t == source - 1 and forcing < 0:
        nodes[size] = t
        parents[size] = node
        if cycles:  # a cycle walk goes on through it
            in_off[t >> 1] = stamp
        return size + 1, size
    in_off[t >> 1] = stamp
    nodes[size] = t
    parents[size] = node
    return size + 1, forcing


@wide_kernel
def _visit_on(t, node, source, nodes, parents, in_on, stamp, size, cycles, forcing):
    if not cycles and t == source + 1 and forcing < 0:
        nodes[size] = t
        parents[size] = node
        return size + 1, size
    if in_on[t >> 1] == stamp:
        return size, forcing
    in_on[t >> 1] = stamp
    nodes[size] = t
    parents[size] = node
    return size + 1, forcing


@wide_kernel
def _no_chains(size, nodes, in_on, in_off, stamp, nochain, mark):
    """After a complete walk (``size`` >= 0 nodes): every state it reached forces only states it reached too, so a
    reached state whose opposite was not reached has no forcing chain of its own; mark it (the pass's ``mark``) so
    its walk is skipped."""
    for k in range(size):
        x = nodes[k]
        conj_seen = in_off[x >> 1] == stamp if x & 1 else in_on[x >> 1] == stamp
        if not conj_seen:
            nochain[x] = mark


@wide_kernel
def _chain_states(node, nodes, parents):
    count = 0
    while node >= 0:
        count += 1
        node = parents[node]
    return count
