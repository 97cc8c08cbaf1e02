"""Compiled alternating inference chains, in the search order of aic.py.

Nodes are candidates, ``cell * n + digit - 1``; strong links come from :func:`_aic_strong`, weak links from
:func:`_aic_weak`, and the breadth-first search in :func:`_aic` walks them alternately.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..bits import popcount
from ._fast_links import _add_link, _bivalue_nodes, _conjugates, _remove_seen_by_both, _removes, _targets
from ._fast_state import _sees


@kernel
def _aic_strong(cands, houses, n, adj, nadj):
    """Strong links between candidates (node = cell * n + digit - 1): adj[v, :nadj[v]], ascending, no repeats."""
    nadj[:] = 0
    for c in range(cands.size):
        if popcount(cands[c]) == 2:
            a, b = _bivalue_nodes(cands, c, n)
            _add_link(adj, nadj, a, b)
            _add_link(adj, nadj, b, a)
    for h in range(3 * n):
        for d in range(n):
            a, b = _conjugates(cands, houses, h, np.int64(1) << d, n)
            if a >= 0:
                _add_link(adj, nadj, a * n + d, b * n + d)
                _add_link(adj, nadj, b * n + d, a * n + d)


@kernel
def _aic_weak(cands, peers, n, first, links):
    """Weak links as compressed rows: links[first[v]:first[v+1]] are the candidates ruled out when v is true,
    ascending (peers before the cell with the digit, the cell's other digits, peers after). Built once per
    search instead of per visit: a visit then touches only real links, not every peer and digit."""
    k = 0
    for v in range(cands.size * n):
        first[v] = k
        cell, d = v // n, v % n
        if not cands[cell] >> d & 1:
            continue
        for p in peers[cell]:
            if p < cell and cands[p] >> d & 1:
                links[k] = p * n + d
                k += 1
        for x in range(n):
            if x != d and cands[cell] >> x & 1:
                links[k] = cell * n + x
                k += 1
        for p in peers[cell]:
            if p > cell and cands[p] >> d & 1:
                links[k] = p * n + d
                k += 1
    first[cands.size * n] = k


@kernel
def _aic_removes(cands, s, d, e, f, targets, ntargets, row_of, col_of, box_of):
    """Whether "d at s or f at e" (digits 0-based) removes anything; ``targets`` are s's peers holding d."""
    if d == f:
        return _removes(targets, ntargets, e, row_of, col_of, box_of)
    if s == e:
        return cands[s] & ~((np.int64(1) << d) | (np.int64(1) << f)) != 0
    if _sees(s, e, row_of, col_of, box_of):
        return (cands[s] >> f & 1) + (cands[e] >> d & 1) > 0
    return False


@kernel
def _aic(cands, houses, peers, row_of, col_of, box_of, n):
    """BFS nodes are candidate * 2 + holds (holds = 1: the candidate is true)."""
    nodes = cands.size * n
    adj = np.empty((nodes, 4), np.int64)
    nadj = np.empty(nodes, np.int64)
    first = np.empty(nodes + 1, np.int64)
    total = 0
    for c in range(cands.size):
        total += popcount(cands[c])
    links = np.empty(total * (peers.shape[1] + n), np.int64)  # room for every link of every candidate
    seen = np.zeros(2 * nodes, np.int64)
    dist = np.empty(2 * nodes, np.int64)
    queue = np.empty(2 * nodes, np.int64)
    targets = np.empty(peers.shape[1], np.int64)
    _aic_strong(cands, houses, n, adj, nadj)
    _aic_weak(cands, peers, n, first, links)
    stamp = 0
    best_len, best_start, best_end = 1 << 30, -1, -1
    for start in range(nodes):
        if nadj[start] == 0:
            continue
        s, d = start // n, start % n
        ntargets = _targets(cands, peers, s, np.int64(1) << d, targets)
        stamp += 1
        seen[2 * start], dist[2 * start], queue[0] = stamp, 0, 2 * start
        head, tail = 0, 1
        while head < tail:
            node = queue[head]
            head += 1
            if dist[node] + 2 >= best_len:
                break  # every end still to come is at least as long as the best
            v, holds = node >> 1, node & 1
            lo, hi = (first[v], first[v + 1]) if holds else (0, nadj[v])
            for j in range(lo, hi):
                other = links[j] if holds else adj[v, j]
                nxt = 2 * other + 1 - holds
                if seen[nxt] == stamp:
                    continue
                seen[nxt], dist[nxt] = stamp, dist[node] + 1
                queue[tail] = nxt
                tail += 1
                if (not holds and other != start and dist[nxt] >= 3
                        and _aic_removes(cands, s, d, other // n, other % n, targets, ntargets,
                                         row_of, col_of, box_of)):
                    best_len, best_start, best_end = dist[nxt] + 1, start, other
                    break
    if best_start < 0:
        return False
    _aic_apply(cands, peers, row_of, col_of, box_of, n, best_start, best_end)
    return True


@kernel
def _aic_apply(cands, peers, row_of, col_of, box_of, n, a, b):
    """Remove what "candidate a or candidate b" rules out (the three cases of aic.py)."""
    s, d, e, f = a // n, a % n, b // n, b % n
    if d == f:
        _remove_seen_by_both(cands, peers, s, e, np.int64(1) << d, row_of, col_of, box_of)
    elif s == e:
        cands[s] &= (np.int64(1) << d) | (np.int64(1) << f)
    else:
        cands[s] &= ~(np.int64(1) << f)
        cands[e] &= ~(np.int64(1) << d)
