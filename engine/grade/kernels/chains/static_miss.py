"""Where the multiple forcing chains can conclude on a grid, proved without their runs.

The multiple forcing chains (engine.grade.kernels.chains.forcing, producer MULTIPLE) follow static links: their runs
remove no candidate, so the states a run reaches lie in what its assumption reaches in one fixed graph (its closure; a
run that forces some candidate both ways stops early, with fewer). The producer concludes only where every run
from a cell's candidates, or from a digit's places in a house, reaches a common state worth concluding. On the
hardest lists it finds nothing on most of the grids it is tried on, and where it finds something, only a few cells
and houses conclude; the search made a run from every candidate either way.

The closures of all states come from one pass instead: the graph's strongly connected parts (Tarjan's algorithm)
close in an order where every part a part leads to has closed before it, so a part's closure is its own states and
its successors' closures, as bits. A cell or house whose candidates' closures share no state worth concluding
cannot conclude (its runs reach less), so the search skips it, and makes no run for it; with none left, the search
would find nothing. The flags only ever take away cells and houses that conclude nothing, so the search stays
exact.

Inside a nested step the grids come by the thousand, each the step's grid less a run's removals, and the step's
closures bound theirs (:func:`_bound_miss`): on the hardest sample that bound proves every grid the grids' own
closures prove, at two fifths of the price.
"""
from __future__ import annotations

import numpy as np

from ...._jit import wide_kernel
from ....bits import lowbit_index, popcount
from ..state import _places_table
from .walk import links

@wide_kernel
def _static_miss(cands, houses, cell_houses, n):
    """True when the multiple forcing chains find nothing on ``cands`` (proved from the closures); False when
    the search must decide."""
    return _static_units(cands, houses, cell_houses, n, np.empty(cands.size + houses.shape[0] * n, np.int8)) == 0


@wide_kernel
def _static_units(cands, houses, cell_houses, n, units):
    """Flag in ``units`` the cells (``units[c]``) and the digits' places in houses (``units[ncells + h * n + d -
    1]``) whose candidates' closures share a state worth concluding: only those can give the multiple forcing
    chains a conclusion. Returns how many are flagged (0: the search would find nothing)."""
    ncells = cands.size
    units[:] = 0
    index, cand, k, part, sets = _static_closures(cands, houses, cell_houses, n)
    words = sets.shape[1]
    # each digit's places in each house as bits of positions (the region chains' units below)
    places = np.empty((houses.shape[0], n), np.int64)
    _places_table(cands, houses, n, places)
    worth = np.zeros(words, np.uint64)  # off states always; on states of cells with another candidate
    for i in range(k):
        worth[(2 * i) // 64] |= np.uint64(1) << np.uint64((2 * i) % 64)
        if popcount(cands[cand[i] // n]) >= 2:
            worth[(2 * i + 1) // 64] |= np.uint64(1) << np.uint64((2 * i + 1) % 64)
    common = np.empty(words, np.uint64)
    flagged = 0
    for c in range(ncells):  # cell forcing chains
        m = cands[c]
        if popcount(m) < 2:
            continue
        common[:] = worth
        for d in range(n):
            if m >> d & 1:
                row = sets[part[2 * index[c * n + d] + 1]]
                for wd in range(words):
                    common[wd] &= row[wd]
        for wd in range(words):
            if common[wd]:
                units[c] = 1
                flagged += 1
                break
    for h in range(houses.shape[0]):  # region forcing chains, from houses whose digit's first place has 3+ candidates
        for d in range(n):
            spots = places[h, d]
            if popcount(spots) < 2 or popcount(cands[houses[h, lowbit_index(spots)]]) <= 2:
                continue
            common[:] = worth
            while spots:
                low = spots & -spots
                spots ^= low
                row = sets[part[2 * index[houses[h, lowbit_index(low)] * n + d] + 1]]
                for wd in range(words):
                    common[wd] &= row[wd]
            for wd in range(words):
                if common[wd]:
                    units[ncells + h * n + d] = 1
                    flagged += 1
                    break
    return flagged


@wide_kernel
def _static_closures(cands, houses, cell_houses, n):
    """The closures of the static links of ``cands``: ``(index, cand, k, part, sets)``, candidate ``p = c * n + d``
    numbered ``i = index[p]`` (-1: none; ``cand[i] = p``, ``k`` of them), its off and on states nodes ``2i`` and
    ``2i + 1``, node ``v``'s closure the bits ``sets[part[v]]``."""
    ncells = cands.size
    index = np.full(ncells * n, -1, np.int64)  # candidate p = c * n + d -> i; its states are nodes 2i, 2i + 1
    cand = np.empty(ncells * n, np.int64)
    k = 0
    for c in range(ncells):
        for d in range(n):
            if cands[c] >> d & 1:
                index[c * n + d] = k
                cand[k] = c * n + d
                k += 1
    nodes = 2 * k
    # the links, as the static chains' table lists them (engine.grade.kernels.chains.walk.links: on -> off, the cell's
    # other candidates and the digit's other places in its box, row and column; off -> on, a bivalue cell's other
    # candidate and the digit's one other place in a house), renumbered to the candidates here so that the
    # closures' bits are as few as the states; node v's from first[v]
    start, _, weak, strong, _ = links(cands, houses, cell_houses, n)
    first = np.empty(nodes + 1, np.int64)
    out = np.empty(nodes * 2 * n + 1, np.int64)  # room: a candidate's two states link to fewer than 4n
    e = 0
    for i in range(k):
        p = cand[i]
        first[2 * i] = e  # off
        for j in range(strong.shape[1]):
            t = strong[p, j]
            if t >= 0:
                out[e] = 2 * index[t >> 1] + 1
                e += 1
        first[2 * i + 1] = e  # on
        for q in range(start[p], start[p + 1]):
            out[e] = 2 * index[weak[q] >> 1]
            e += 1
    first[nodes] = e
    part, sets = _closures(nodes, first, out, (nodes + 63) // 64)
    return index, cand, k, part, sets


@wide_kernel
def _bound_miss(orig, work, houses, cell_houses, n, index, part, sets, before):
    """True when the multiple forcing chains surely find nothing on ``work``, a grid with no candidate ``orig``
    lacks, from ``orig``'s closures (:func:`_static_closures`: ``index``, ``part``, ``sets``) and places
    (``before``, state._places_table's), made once for the many grids of a nested step's runs; False when
    :func:`_static_miss` must decide.

    Every link of ``work``'s static graph is one of ``orig``'s, but for the *fresh* strong links: a cell's last two
    candidates, a digit's last two places in a house, where ``orig`` had more. So a state's closure on ``work`` lies
    within its closure on the graph of ``orig`` with the fresh links added: its closure on ``orig`` and, for each
    fresh link whose near end that holds, the closure of its far end on that graph (found first for each far end,
    adding closures on ``orig`` until no fresh link adds more; one pass then serves each state, as those closures
    are closed under every link). If for every cell and house (as :func:`_static_units` takes them) those bounds
    share no state worth concluding on ``work``, neither do the closures, and the search finds nothing; else it
    cannot tell. Paths through candidates ``work`` lacks count too, so it could prove less than
    :func:`_static_miss`; on the hardest sample it proves the same grids, for a fraction of the price (no link
    table, no closures of ``work``)."""
    ncells = work.size
    words = sets.shape[1]
    one = np.uint64(1)
    # the fresh strong links as node pairs (off u -> on t)
    fresh = np.empty((2 * (ncells + houses.shape[0] * n), 2), np.int64)
    nf = 0
    for c in range(ncells):
        if popcount(work[c]) == 2 and popcount(orig[c]) > 2:
            a = c * n + lowbit_index(work[c])
            b = c * n + lowbit_index(work[c] & (work[c] - 1))
            fresh[nf, 0], fresh[nf, 1] = 2 * index[a], 2 * index[b] + 1
            fresh[nf + 1, 0], fresh[nf + 1, 1] = 2 * index[b], 2 * index[a] + 1
            nf += 2
    now = np.empty((houses.shape[0], n), np.int64)
    _places_table(work, houses, n, now)
    for h in range(houses.shape[0]):
        for d in range(n):
            spots = now[h, d]
            if popcount(spots) == 2 and popcount(before[h, d]) > 2:
                a = houses[h, lowbit_index(spots)] * n + d
                b = houses[h, lowbit_index(spots & (spots - 1))] * n + d
                fresh[nf, 0], fresh[nf, 1] = 2 * index[a], 2 * index[b] + 1
                fresh[nf + 1, 0], fresh[nf + 1, 1] = 2 * index[b], 2 * index[a] + 1
                nf += 2
    # each fresh link's far end's closure with the fresh links
    far = np.empty((max(nf, 1), words), np.uint64)
    for f in range(nf):
        row = sets[part[fresh[f, 1]]]
        for wd in range(words):
            far[f, wd] = row[wd]
        grown = True
        while grown:
            grown = False
            for g in range(nf):
                u, t = fresh[g, 0], fresh[g, 1]
                if far[f, u // 64] >> np.uint64(u % 64) & one and not far[f, t // 64] >> np.uint64(t % 64) & one:
                    add = sets[part[t]]
                    for wd in range(words):
                        far[f, wd] |= add[wd]
                    grown = True
    # each candidate's on state's bound, and the states worth concluding on work (orig's numbering)
    bound = np.empty((ncells * n, words), np.uint64)
    worth = np.zeros(words, np.uint64)
    for c in range(ncells):
        m = work[c]
        while m:
            p = c * n + lowbit_index(m)
            m &= m - 1
            i = index[p]
            worth[(2 * i) // 64] |= one << np.uint64((2 * i) % 64)
            if popcount(work[c]) >= 2:
                worth[(2 * i + 1) // 64] |= one << np.uint64((2 * i + 1) % 64)
            row = sets[part[2 * i + 1]]
            for wd in range(words):
                bound[p, wd] = row[wd]
            for f in range(nf):
                u, t = fresh[f, 0], fresh[f, 1]
                if bound[p, u // 64] >> np.uint64(u % 64) & one and not bound[p, t // 64] >> np.uint64(t % 64) & one:
                    for wd in range(words):
                        bound[p, wd] |= far[f, wd]
    common = np.empty(words, np.uint64)
    for c in range(ncells):  # cell forcing chains
        m = work[c]
        if popcount(m) < 2:
            continue
        for wd in range(words):
            common[wd] = worth[wd]
        while m:
            p = c * n + lowbit_index(m)
            m &= m - 1
            for wd in range(words):
                common[wd] &= bound[p, wd]
        for wd in range(words):
            if common[wd]:
                return False
    for h in range(houses.shape[0]):  # region forcing chains (from houses whose first place has 3+ candidates)
        for d in range(n):
            spots = now[h, d]
            if popcount(spots) < 2 or popcount(work[houses[h, lowbit_index(spots)]]) <= 2:
                continue
            for wd in range(words):
                common[wd] = worth[wd]
            while spots:
                low = spots & -spots
                spots ^= low
                p = houses[h, lowbit_index(low)] * n + d
                for wd in range(words):
                    common[wd] &= bound[p, wd]
            for wd in range(words):
                if common[wd]:
                    return False
    return True


@wide_kernel
def _closures(nodes, first, links, words):
    """``(part, sets)``: each node's strongly connected part, and each part's closure as bits of nodes (Tarjan's
    algorithm without recursion: a part closes after every part it leads to, so its closure is its own nodes and
    the closures of the parts its links leave to)."""
    order = np.full(nodes, -1, np.int64)
    low = np.empty(nodes, np.int64)
    part = np.full(nodes, -1, np.int64)
    held = np.zeros(nodes, np.bool_)
    stack = np.empty(nodes, np.int64)
    calls = np.empty(nodes, np.int64)
    edge = np.empty(nodes, np.int64)
    sets = np.zeros((nodes, words), np.uint64)
    top = 0
    depth = 0
    seen = 0
    parts = 0
    for root in range(nodes):
        if order[root] >= 0:
            continue
        order[root] = low[root] = seen
        seen += 1
        stack[top] = root
        top += 1
        held[root] = True
        calls[0] = root
        edge[0] = first[root]
        depth = 1
        while depth:
            v = calls[depth - 1]
            e = edge[depth - 1]
            if e < first[v + 1]:
                edge[depth - 1] = e + 1
                w = links[e]
                if order[w] < 0:
                    order[w] = low[w] = seen
                    seen += 1
                    stack[top] = w
                    top += 1
                    held[w] = True
                    calls[depth] = w
                    edge[depth] = first[w]
                    depth += 1
                elif held[w] and order[w] < low[v]:
                    low[v] = order[w]
                continue
            depth -= 1
            if depth and low[v] < low[calls[depth - 1]]:
                low[calls[depth - 1]] = low[v]
            if low[v] != order[v]:
                continue
            bottom = top  # v's part: the stack down to v
            while True:
                bottom -= 1
                x = stack[bottom]
                held[x] = False
                part[x] = parts
                sets[parts, x // 64] |= np.uint64(1) << np.uint64(x % 64)
                if x == v:
                    break
            for j in range(bottom, top):
                x = stack[j]
                for f in range(first[x], first[x + 1]):
                    t = links[f]
                    # a part closed before (one still open would have lowered v's low), unless the closure holds
                    # the node already: then it came with a closure that holds all the node's own
                    if part[t] != parts and not sets[parts, t // 64] >> np.uint64(t % 64) & np.uint64(1):
                        y = part[t]
                        for wd in range(words):
                            sets[parts, wd] |= sets[y, wd]
            top = bottom
            parts += 1
    return part, sets
