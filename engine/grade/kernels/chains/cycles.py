"""Compiled static chains: Sudoku Explainer's "Forcing Chains & Cycles" (bidirectional cycles and forcing chains).

Three passes, as Sudoku Explainer makes them: links between the places of a digit only (X), between the candidates
of bivalue cells only (Y), and both. From each candidate a breadth-first walk alternates on and off states:

- a *forcing chain* ends on the start's own candidate with the opposite state: assumed on, it is forced off (the
  candidate goes); assumed off, it is forced on (the digit goes there). X and Y passes only; 6.6 with X links only,
  7.0 with both;
- a *cycle* comes back to the start, on, after at least four links: every candidate that sees an on and an off
  state of its digit along the cycle goes. 6.5 with one kind of link, 7.0 with both.

Each adds the length bonus of its complexity (the states of the chain). One call applies the lowest rated
conclusion over all passes and starts (ties: the shorter, then the first found).
"""
from __future__ import annotations

import numpy as np

from ...._jit import kernel_with, wide_kernel
from ....bits import lowbit_index, popcount
from ..state import _conclude
from .implications import _length_tenths
from .walk import _chain_states, _meet_walk, _no_chains, _walk, _walk_call, cycle_end, has_strong_link, links

CYCLE, FORCING = 0, 1
# the slots of a hint record (the target is a state; a cycle keeps the end node of its walk)
C_TENTHS, C_COMPLEXITY, C_KIND, C_TARGET, C_SOURCE, C_PASS, C_NODE = 0, 1, 2, 3, 4, 5, 6
C_SIZE = 7
NO_HINT = 1 << 30
X_PASS, Y_PASS, XY_PASS = 0, 1, 2


@wide_kernel(_nrt=False)
def _most_states(base, hint):
    """The longest chain (in states) that, rated from ``base``, could still beat the kept hint."""
    if hint[C_TENTHS] == NO_HINT:
        return 1 << 30
    cx = 1
    while True:
        tenths = base + _length_tenths(cx + 1)
        if tenths > hint[C_TENTHS] or (tenths == hint[C_TENTHS] and cx + 1 >= hint[C_COMPLEXITY]):
            return cx
        cx += 1


@wide_kernel
def cycle_masks(cands, houses, cell_houses, n):
    """What :func:`_cycle_eliminations` reads, as bitsets of cells (words of 64): ``(sees, has, acc)``, the cells of
    each cell's three houses (:func:`cycle_sees`), each digit's candidate cells, and the scratch of one cycle (a
    row per digit and state, then one for the cycle's cells)."""
    return cycle_masks_on(cands, n, cycle_sees(houses, cell_houses, cands.size))


@wide_kernel
def cycle_sees(houses, cell_houses, ncells):
    """The cells of each cell's three houses (itself among them: a cycle's own cells are left out anyway), as
    bitsets of cells: the grid's shape alone decides them, so the grader makes them once a batch (making them was
    most of :func:`cycle_masks`, a thirtieth of a static chain search)."""
    words = (ncells + 63) >> 6
    sees = np.zeros((ncells, words), np.uint64)
    for c in range(ncells):
        for k in range(cell_houses.shape[1]):  # (a slot that repeats the row adds nothing)
            for q in houses[cell_houses[c, k]]:
                sees[c, q >> 6] |= np.uint64(1) << np.uint64(q & 63)
    return sees


@wide_kernel
def cycle_masks_on(cands, n, sees):
    """:func:`cycle_masks` with the houses' bitsets ``sees`` already made."""
    ncells = cands.size
    words = sees.shape[1]
    has = np.zeros((n, words), np.uint64)
    for c in range(ncells):
        m = cands[c]
        while m:
            d = lowbit_index(m)
            m &= m - 1
            has[d, c >> 6] |= np.uint64(1) << np.uint64(c & 63)
    return sees, has, np.empty((2 * n + 1, words), np.uint64)


@wide_kernel(_nrt=False)
def _cycle_eliminations(end, last, nodes, parents, n, out, sees, has, acc):
    """Candidates that see an on state and an off state of their digit along the cycle whose on node ``end`` leads
    to the off state ``last`` and back to the source, off the cycle's cells: their potentials in ``out``, digit by
    digit; returns how many. ``sees``, ``has`` and ``acc`` are :func:`cycle_masks`'.

    On bitsets: a state adds its cell's peers to its digit's on or off row, and a digit's eliminations are the
    AND of its two rows with its candidate cells. Scanning each state's peers made the static chain search
    measurably slower (most cycles remove nothing, and each was scanned in full; docs/benchmarks.md, "Grading"). It allocates nothing, so that the search
    without reference counts (:func:`_search`) can call it."""
    words = has.shape[1]
    cyc = 2 * n  # acc's row of the cycle's cells
    for w in range(words):
        acc[cyc, w] = 0
    digits = 0  # the digits whose rows hold this cycle's states
    s = last
    node = end
    while True:
        p = s >> 1
        c = p // n
        d = p % n
        if not digits >> d & 1:
            digits |= np.int64(1) << d
            for w in range(words):
                acc[2 * d, w] = 0
                acc[2 * d + 1, w] = 0
        row = 2 * d + (s & 1)
        for w in range(words):
            acc[row, w] |= sees[c, w]
        acc[cyc, c >> 6] |= np.uint64(1) << np.uint64(c & 63)
        if node < 0:
            break
        s = nodes[node]
        node = parents[node]
    total = 0
    while digits:
        d = lowbit_index(digits)
        digits &= digits - 1
        for w in range(words):
            x = acc[2 * d, w] & acc[2 * d + 1, w] & has[d, w] & ~acc[cyc, w]
            while x:
                out[total] = ((w << 6) + np.int64(lowbit_index(x))) * n + d
                total += 1
                x &= x - np.uint64(1)
    return total


@wide_kernel
def _cycles_hint(cands, houses, cell_houses, peers, n, hint, elim):
    """The best cycle or forcing chain on ``cands`` in ``hint`` (C_TENTHS stays NO_HINT when none); a cycle's
    eliminations in ``elim`` (one flag per potential)."""
    hint[:] = NO_HINT
    _cycles_hint_on(cands, houses, cell_houses, peers, n, hint, elim, cycle_sees(houses, cell_houses, cands.size))


@wide_kernel
def _cycles_hint_on(cands, houses, cell_houses, peers, n, hint, elim, sees):
    """:func:`_cycles_hint` with the houses' bitsets of :func:`cycle_sees` already made, looking only for what
    beats the conclusion ``hint`` holds on entry (its rating and complexity: NO_HINT for any; bench_tries.py
    ``--perfect-bound`` starts it from its own answer)."""
    ncells = cands.size
    nstates = 2 * ncells * n
    cap = nstates * 12 + 256
    nodes = np.empty(cap, np.int32)  # a walk writes every node (and cycle pair) before reading it
    parents = np.empty(cap, np.int32)
    in_on = np.zeros(ncells * n, np.int32)
    in_off = np.zeros(ncells * n, np.int32)
    scratch = np.empty(ncells * n, np.int32)  # a cycle's eliminations, as potentials
    nochain = np.zeros(nstates, np.int8)  # pass + 1 where a state is known to force no opposite of its own
    sees, has, acc = cycle_masks_on(cands, n, sees)
    depth = np.empty(nstates, np.int32)  # a forcing walk writes a state's depth before reading it
    table = links(cands, houses, cell_houses, n)
    _search(cands, n, hint, elim, table, nodes, parents, in_on, in_off, scratch, nochain, sees, has, acc, depth)


@kernel_with(_nrt=False)
def _search(cands, n, hint, elim, table, nodes, parents, in_on, in_off, scratch, nochain, sees, has, acc, depth):
    """The search of :func:`_cycles_hint` on its scratch arrays. Compiled without numba's reference counting: it
    allocates nothing and keeps no array, and its inlined walks otherwise counted references to their arrays at
    every walk (docs/development.md, "Reference counts")."""
    ncells = cands.size
    stamp = 0
    cycle_walk = cands.size > 0  # a variable: a literal True would compile another copy of the walk
    for pas in (X_PASS, Y_PASS, XY_PASS):
        ylinks = pas != X_PASS
        xlinks = pas != Y_PASS
        cycle_base = 70 if pas == XY_PASS else 65
        forcing_base = 70 if pas == XY_PASS else 66
        # the longest cycle and forcing chain that could still beat the kept hint: they change only with it, so
        # they are worked out again only then (working them out at every candidate slowed the search measurably:
        # docs/benchmarks.md, "Grading")
        most_cycle = _most_states(cycle_base, hint)
        most_forcing = _most_states(forcing_base, hint)
        for c in range(ncells):
            if most_cycle < 4 and (not xlinks or most_forcing < 3):
                break  # nothing left in this pass could beat the hint
            m = cands[c]
            card = popcount(m)
            if card < 2 or (not xlinks and card > 2):
                continue
            for d in range(1, n + 1):
                if not m >> (d - 1) & 1:
                    continue
                p = c * n + d - 1
                # cycles from the candidate on
                base = cycle_base
                most = most_cycle
                closed = 0
                # the cycle walk from the candidate on is the forcing walk from it too, as deep as the forcing walk
                # could look or deeper (a cycle's rating starts no higher): its node for the candidate off, if any,
                # is the forcing walk's end, and without one the forcing walk would find none. A candidate without
                # a strong link closes no cycle: the forcing walk alone (it looks half as deep) is cheaper then
                cycled = most >= 4 and has_strong_link(p, table, ylinks, xlinks)
                ahead = -1
                if cycled:
                    stamp += 1
                    ahead, closed, size = _walk(2 * p + 1, table, ylinks, xlinks, cycle_walk, nodes, parents, in_on,
                                                in_off, stamp, most)
                    if xlinks:
                        _no_chains(size, nodes, in_on, in_off, stamp, nochain, pas + 1)
                for k in range(closed):
                    end, last = cycle_end(k, nodes)
                    cx = _chain_states(end, nodes, parents) + 1
                    tenths = base + _length_tenths(cx)
                    if (tenths, cx) < (hint[C_TENTHS], hint[C_COMPLEXITY]):
                        gone = _cycle_eliminations(end, last, nodes, parents, n, scratch, sees, has, acc)
                        if gone:
                            hint[C_TENTHS] = tenths
                            hint[C_COMPLEXITY] = cx
                            hint[C_KIND] = CYCLE
                            hint[C_TARGET] = -1
                            hint[C_SOURCE] = 2 * p + 1
                            hint[C_PASS] = pas
                            hint[C_NODE] = k
                            for q in range(elim.size):  # loops: a slice copy may allocate
                                elim[q] = 0
                            for q in range(gone):
                                elim[scratch[q]] = 1
                            most_cycle = _most_states(cycle_base, hint)
                            most_forcing = _most_states(forcing_base, hint)
                if not xlinks:
                    continue
                base = forcing_base
                for source in (2 * p + 1, 2 * p):
                    most = most_forcing
                    if most < 3:
                        break
                    if nochain[source] == pas + 1:
                        continue
                    if source & 1 and cycled:
                        if ahead < 0:
                            continue
                        cx = _chain_states(ahead, nodes, parents)
                    else:
                        stamp += 1
                        chain, size = _meet_walk(source, table, ylinks, xlinks, nodes, in_on, in_off, depth, stamp,
                                                 most)
                        if chain < 0:
                            if size >= 0:
                                _no_chains(size, nodes, in_on, in_off, stamp, nochain, pas + 1)
                            continue
                        cx = chain + 1
                    tenths = base + _length_tenths(cx)
                    if (tenths, cx) < (hint[C_TENTHS], hint[C_COMPLEXITY]):
                        hint[C_TENTHS] = tenths
                        hint[C_COMPLEXITY] = cx
                        hint[C_KIND] = FORCING
                        hint[C_TARGET] = source ^ 1
                        hint[C_SOURCE] = source
                        hint[C_PASS] = pas
                        hint[C_NODE] = -1
                        most_cycle = _most_states(cycle_base, hint)
                        most_forcing = _most_states(forcing_base, hint)


@wide_kernel
def _cycles_on(cells, cands, houses, cell_houses, peers, n, hint, sees):
    """One step of the static chains: 0 when nothing is found, 1 when candidates were removed, 2 when a digit was
    placed. ``sees``: the houses' bitsets of :func:`cycle_sees` (the grader makes them once a batch)."""
    elim = np.zeros(cands.size * n, np.int8)
    hint[:] = NO_HINT
    _cycles_hint_on(cands, houses, cell_houses, peers, n, hint, elim, sees)
    if hint[C_TENTHS] == NO_HINT:
        return 0
    if hint[C_KIND] == CYCLE:
        for k in range(elim.size):
            if elim[k]:
                cands[k // n] &= ~(np.int64(1) << (k % n))
        return 1
    return 2 if _conclude(cells, cands, peers, hint[C_TARGET], n) else 1


@wide_kernel
def _cycles_links(cands, houses, cell_houses, n, hint, out):
    """The chain of a kept hint, from its start to its end (a cycle: back to its start), as states in ``out``;
    returns how many."""
    ncells = cands.size
    cap = 2 * ncells * n * 12 + 256
    nodes = np.zeros(cap, np.int32)
    parents = np.zeros(cap, np.int32)
    in_on = np.zeros(ncells * n, np.int32)
    in_off = np.zeros(ncells * n, np.int32)
    pas = hint[C_PASS]
    cycle = hint[C_KIND] == CYCLE
    table = links(cands, houses, cell_houses, n)
    hit, _, _ = _walk_call(hint[C_SOURCE], table, pas != X_PASS, pas != Y_PASS or not cycle, cycle, nodes, parents,
                           in_on, in_off, np.int64(1), np.int64(1 << 30))
    end, last = cycle_end(hint[C_NODE], nodes) if cycle else (hit, -1)
    size = _chain_states(end, nodes, parents)
    node = end
    for k in range(size - 1, -1, -1):
        out[k] = nodes[node]
        node = parents[node]
    if cycle:
        out[size] = last
        out[size + 1] = hint[C_SOURCE]
        size += 2
    return size
