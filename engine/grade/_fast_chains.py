"""Compiled simple colouring, X-Chain and XY-Chain, in the search order of simple_colouring.py, x_chain.py and
xy_chain.py. The chains search breadth first, so the chain found is a shortest one, as in the Python modules."""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..bits import popcount
from ._fast_links import _bivalue_nodes, _remove_seen_by_both, _removes, _strong_links, _targets
from ._fast_state import _sees


@kernel
def _colouring(cands, houses, peers, row_of, col_of, box_of, n):
    ncells = cands.size
    adj = np.empty((ncells, 3), np.int64)
    nadj = np.empty(ncells, np.int64)
    colour = np.empty(ncells, np.int64)
    cluster = np.empty(ncells, np.int64)
    queue = np.empty(ncells, np.int64)
    for d in range(1, n + 1):
        bit = np.int64(1) << (d - 1)
        _strong_links(cands, houses, n, bit, adj, nadj)
        cluster[:] = -1
        for start in range(ncells):
            if nadj[start] == 0 or cluster[start] >= 0:
                continue
            cluster[start], colour[start] = start, 0
            queue[0] = start
            head, tail, ok = 0, 1, True
            while head < tail:
                c = queue[head]
                head += 1
                for j in range(nadj[c]):
                    o = adj[c, j]
                    if cluster[o] < 0:
                        cluster[o], colour[o] = start, 1 - colour[c]
                        queue[tail] = o
                        tail += 1
                    elif colour[o] == colour[c]:
                        ok = False
            if not ok:
                continue
            for side in range(2):  # wrap: two cells of one colour in one house
                clash = False
                for a in range(tail):
                    for b in range(a + 1, tail):
                        x, y = queue[a], queue[b]
                        clash |= colour[x] == side and colour[y] == side and _sees(x, y, row_of, col_of, box_of)
                if clash:
                    for a in range(tail):
                        if colour[queue[a]] == side:
                            cands[queue[a]] &= ~bit
                    return True
            changed = False
            for c in range(ncells):  # trap: a cell outside the cluster that sees both colours
                if not cands[c] & bit or cluster[c] == start:
                    continue
                seen = 0
                for a in range(tail):
                    if _sees(c, queue[a], row_of, col_of, box_of):
                        seen |= 1 << colour[queue[a]]
                if seen == 3:
                    cands[c] &= ~bit
                    changed = True
            if changed:
                return True
    return False


@kernel
def _x_chain(cands, houses, peers, row_of, col_of, box_of, n):
    ncells = cands.size
    adj = np.empty((ncells, 3), np.int64)
    nadj = np.empty(ncells, np.int64)
    seen = np.zeros(2 * ncells, np.int64)  # BFS stamp per node (cell * 2 + holds)
    dist = np.empty(2 * ncells, np.int64)
    queue = np.empty(2 * ncells, np.int64)
    targets = np.empty(peers.shape[1], np.int64)
    stamp = 0
    for d in range(1, n + 1):
        bit = np.int64(1) << (d - 1)
        _strong_links(cands, houses, n, bit, adj, nadj)
        linked = 0
        for c in range(ncells):
            linked += nadj[c] > 0
        if linked < 3:
            continue
        best_len, best_start, best_end = 1 << 30, -1, -1
        for start in range(ncells):
            if nadj[start] == 0:
                continue
            ntargets = _targets(cands, peers, start, bit, targets)
            stamp += 1
            seen[2 * start], dist[2 * start], queue[0] = stamp, 0, 2 * start
            head, tail = 0, 1
            while head < tail:
                node = queue[head]
                head += 1
                if dist[node] + 2 >= best_len:
                    break  # every end still to come is at least as long as the best
                cell, holds = node >> 1, node & 1
                count = peers.shape[1] if holds else nadj[cell]
                for j in range(count):
                    other = peers[cell, j] if holds else adj[cell, j]
                    if holds and not cands[other] & bit:
                        continue
                    nxt = 2 * other + 1 - holds
                    if seen[nxt] == stamp:
                        continue
                    seen[nxt], dist[nxt] = stamp, dist[node] + 1
                    queue[tail] = nxt
                    tail += 1
                    if not holds and other != start and dist[nxt] >= 3 and _removes(targets, ntargets, other,
                                                                                        row_of, col_of, box_of):
                        best_len, best_start, best_end = dist[nxt] + 1, start, other
                        break
        if best_start >= 0:
            _remove_seen_by_both(cands, peers, best_start, best_end, bit, row_of, col_of, box_of)
            return True
    return False


@kernel
def _xy_chain(cands, peers, row_of, col_of, box_of, n):
    """Nodes are cell * n + (digit - 1): "the cell holds digit" when the start is not z."""
    ncells = cands.size
    flip = np.full(ncells * n, -1, np.int64)  # a bivalue cell's candidate -> its other candidate
    for c in range(ncells):
        if popcount(cands[c]) == 2:
            a, b = _bivalue_nodes(cands, c, n)
            flip[a], flip[b] = b, a
    seen = np.zeros(ncells * n, np.int64)
    dist = np.empty(ncells * n, np.int64)
    queue = np.empty(ncells * n, np.int64)
    targets = np.empty(peers.shape[1], np.int64)
    stamp = 0
    best_len, best_start, best_end, best_z = 1 << 30, -1, -1, np.int64(0)
    for first_z in range(ncells * n):  # the start cell and z, as the node "start holds z"
        if flip[first_z] < 0:
            continue
        start, bit_z = first_z // n, np.int64(1) << (first_z % n)
        ntargets = _targets(cands, peers, start, bit_z, targets)
        first = flip[first_z]
        stamp += 1
        seen[first], dist[first], queue[0] = stamp, 1, first
        head, tail = 0, 1
        while head < tail:
            node = queue[head]
            head += 1
            if dist[node] + 1 >= best_len:
                break
            cell, d = node // n, node % n
            for p in peers[cell]:
                nxt = flip[p * n + d]
                if nxt < 0 or seen[nxt] == stamp:
                    continue
                seen[nxt], dist[nxt] = stamp, dist[node] + 1
                queue[tail] = nxt
                tail += 1
                if (nxt % n == first_z % n and p != start and dist[nxt] >= 3
                        and _removes(targets, ntargets, p, row_of, col_of, box_of)):
                    best_len, best_start, best_end, best_z = dist[nxt], start, p, bit_z
                    break
    if best_start < 0:
        return False
    _remove_seen_by_both(cands, peers, best_start, best_end, best_z, row_of, col_of, box_of)
    return True
