"""What the compiled colouring and chain kernels share: strong links, and what a chain's two ends rule out.

A node of a chain is a candidate, numbered ``cell * n + digit - 1`` where a chain mixes digits. Link tables are
``adj[v, :nadj[v]]``: v's partners ascending without repeats, so a search visits them in the order the Python
modules (simple_colouring.py, x_chain.py, xy_chain.py, aic.py) do.
"""
from __future__ import annotations

from .._jit import kernel
from ..bits import lowbit_index, popcount
from ._fast_state import _places, _sees


@kernel
def _add_link(adj, nadj, x, y):
    for j in range(nadj[x]):
        if adj[x, j] == y:
            return
    j = nadj[x]  # insert y keeping the row sorted
    while j > 0 and adj[x, j - 1] > y:
        adj[x, j] = adj[x, j - 1]
        j -= 1
    adj[x, j] = y
    nadj[x] += 1


@kernel
def _conjugates(cands, houses, h, bit, n):
    """The two cells of house ``h`` that may hold ``bit``, in house order, when there are exactly two; else
    (-1, -1)."""
    mask = _places(cands, houses, h, bit, n)
    if popcount(mask) != 2:
        return -1, -1
    return houses[h, lowbit_index(mask)], houses[h, lowbit_index(mask & (mask - 1))]


@kernel
def _strong_links(cands, houses, n, bit, adj, nadj):
    """Conjugate pairs of one digit: adj[c, :nadj[c]] the partners of c, ascending, without repeats.

    What :func:`_conjugates` and :func:`_add_link` do, written out by hand: this runs for every digit at every
    colouring and X-chain step, and calling the two here measured 10-15 % slower."""
    nadj[:] = 0
    for h in range(3 * n):
        a, b, count = -1, -1, 0
        for i in range(n):
            c = houses[h, i]
            if cands[c] & bit:
                count += 1
                if count == 1:
                    a = c
                else:
                    b = c
        if count != 2:
            continue
        for x, y in ((a, b), (b, a)):
            known = False
            for j in range(nadj[x]):
                known |= adj[x, j] == y
            if not known:
                j = nadj[x]  # insert y keeping the row sorted
                while j > 0 and adj[x, j - 1] > y:
                    adj[x, j] = adj[x, j - 1]
                    j -= 1
                adj[x, j] = y
                nadj[x] += 1


@kernel
def _bivalue_nodes(cands, cell, n):
    """The two candidates (as nodes) of a cell with exactly two, the lower digit first."""
    m = cands[cell]
    return cell * n + lowbit_index(m), cell * n + lowbit_index(m & (m - 1))


@kernel
def _targets(cands, peers, start, bit, out):
    """The peers of ``start`` holding ``bit``, into ``out``; how many. Chains end by asking which of them also
    see the far end; listing them once per start rather than once per end halved the chains' run time."""
    count = 0
    for p in peers[start]:
        if cands[p] & bit:
            out[count] = p
            count += 1
    return count


@kernel
def _removes(targets, count, end, row_of, col_of, box_of):
    for i in range(count):
        if targets[i] != end and _sees(targets[i], end, row_of, col_of, box_of):
            return True
    return False


@kernel
def _remove_seen_by_both(cands, peers, start, end, bit, row_of, col_of, box_of):
    """Remove ``bit`` from the cells that see both ``start`` and ``end``: one of the two holds it. The removal
    :func:`_removes` promised for ``targets`` listed from ``start``."""
    for p in peers[start]:
        if cands[p] & bit and p != end and _sees(p, end, row_of, col_of, box_of):
            cands[p] &= ~bit
