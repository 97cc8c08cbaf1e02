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
    Returns ``(forcing_node, cycle_nodes_found, size)``: the node where the source's opposite state is reached (-1
    if never; X links only end there), when ``cycles`` the count of nodes that closed a cycle, stored at the end of
    ``nodes`` (``nodes[-1 - k]``), and the number of nodes when the walk reached everything the source forces
    (-1 when it stopped early). Chains of more than ``most`` states are not looked for (they would rate no
    better than a conclusion already found)."""
    nodes[0] = source
    parents[0] = -1
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
    while head < size and size < cap - 64:
        length += 1
        if length + (0 if cycles else 1) > most:
            break
        while head < layer_end and size < cap - 64:
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
                        size, forcing = _visit_off(t, node, source, nodes, parents, in_off, stamp, size, cycles,
                                                   forcing)
            else:
                # off -> on: the cell's last other candidate (Y), the digit's last other place in a house (X)
                if ylinks and popcount(cands[c]) == 2:
                    t = 2 * (c * n + digit_of(cands[c] & ~bit) - 1) + 1
                    size, forcing, closed = _visit_on(t, node, source, nodes, parents, in_on, stamp, size, length,
                                                      cycles, forcing, closed)
                if xlinks:
                    for k in (2, 0, 1):
                        other = _other_place(cands, houses, cell_houses[c, k], c, bit, n)
                        if other >= 0:
                            t = 2 * (other * n + d - 1) + 1
                            size, forcing, closed = _visit_on(t, node, source, nodes, parents, in_on, stamp, size,
                                                              length, cycles, forcing, closed)
            if forcing >= 0 and not cycles:
                return forcing, closed, -1
        layer_end = size
    complete = head >= size and forcing < 0
    return forcing, closed, size if complete else -1


@wide_kernel
def _same_box(a, b, cell_houses):
    return cell_houses[a, 2] == cell_houses[b, 2]


@wide_kernel
def _visit_off(t, node, source, nodes, parents, in_off, stamp, size, cycles, forcing):
    # Sudoku Explainer's cycle walk expands an off state once per way in (never straight back along its own chain);
    # once is enough here: it finds the short cycles that rate lowest, at a fraction of the cost
    if in_off[t >> 1] == stamp:
        return size, forcing
    if t == source - 1 and forcing < 0 and not cycles:
        nodes[size] = t
        parents[size] = node
        return size + 1, size
    in_off[t >> 1] = stamp
    nodes[size] = t
    parents[size] = node
    return size + 1, forcing


@wide_kernel
def _visit_on(t, node, source, nodes, parents, in_on, stamp, size, length, cycles, forcing, closed):
    if cycles and length >= 4 and t == source:
        k = nodes.size - 1 - closed
        nodes[k] = node  # the node that closes the cycle
        return size, forcing, closed + 1
    if not cycles and t == source + 1 and forcing < 0:
        nodes[size] = t
        parents[size] = node
        return size + 1, size, closed
    if in_on[t >> 1] == stamp:
        return size, forcing, closed
    in_on[t >> 1] = stamp
    nodes[size] = t
    parents[size] = node
    return size + 1, forcing, closed


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
