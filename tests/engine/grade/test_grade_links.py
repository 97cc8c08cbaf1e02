"""The link table of the chain searches (engine.grade.kernels.chains.walk.links) and the walks that read it.

The table is listed once per search of the static chains and the walks read it instead of scanning houses at
every node. Its twin here
is the definition, scanned the slow way in plain Python: weak links of a candidate on (the cell's other digits,
then the digit's other places in the box, row and column, each once), strong links of a candidate off (the cell's
other digit when it has two, the digit's other place in each house where it has two). The walk's twin is the same
breadth-first walk over those scanned links, recording nodes in the same order; the halfway walk's twin is the
plain distance from the source to its opposite state over those links, and a cycle's eliminations are those of
the definition, read off each cycle a walk closes. Candidate grids are arbitrary (hypothesis): the links are
defined on any grid, consistent or not.
"""
from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings, strategies as st

from engine.geometry import geometry
from engine.grade.kernels.chains.cycles import _cycle_eliminations, cycle_masks
from engine.grade.kernels.chains.walk import _meet_walk, _walk, cycle_end, has_strong_link, links
from engine.grade.kernels.state import SE_SLOTS, grader_units

BIG = 1 << 30


def _geo(box):
    geo = geometry(box)
    return geo, grader_units(geo)


def _weak(cands, geo, ch, c, d):
    """The off states candidate (c, d) on forces, in the scan's order (Y first, then box, row, column and the
    diagonals the cell is on)."""
    n = geo.size
    out = [2 * (c * n + e - 1) for e in range(1, n + 1) if e != d and cands[c] >> (e - 1) & 1]
    ys = len(out)
    seen = {c}
    for k in _units_in_order(ch, c):
        for c2 in geo.houses[k]:
            c2 = int(c2)
            if c2 not in seen and cands[c2] >> (d - 1) & 1:
                seen.add(c2)
                out.append(2 * (c2 * n + d - 1))
    return out, ys


def _strong(cands, geo, ch, c, d):
    """The on states candidate (c, d) off forces, by column: the cell's other digit, then box, row, column and
    the diagonals (-1 in a diagonal's column for a cell not on it)."""
    n = geo.size
    row = [-1] * (1 + ch.shape[1])
    others = [e for e in range(1, n + 1) if e != d and cands[c] >> (e - 1) & 1]
    if len(others) == 1:
        row[0] = 2 * (c * n + others[0] - 1) + 1
    for j, k in enumerate(SE_SLOTS[:ch.shape[1]]):
        if j >= 3 and ch[c, k] == ch[c, 0]:
            continue
        places = [int(c2) for c2 in geo.houses[ch[c, k]] if c2 != c and cands[c2] >> (d - 1) & 1]
        if len(places) == 1:
            row[1 + j] = 2 * (places[0] * n + d - 1) + 1
    return row


def _units_in_order(ch, c):
    """Cell c's units in Sudoku Explainer's order: box, row, column, then the diagonals it is on."""
    return [int(ch[c, k]) for j, k in enumerate(SE_SLOTS[:ch.shape[1]]) if j < 3 or ch[c, k] != ch[c, 0]]


def _slow_walk(source, cands, geo, ch, ylinks, xlinks, cycles, most):
    """The walk of engine.grade.kernels.chains.walk._walk over the scanned links: (forcing, closed, size, nodes,
    parents)."""
    n = geo.size
    nodes, parents, cycles_found = [source], [-1], []
    seen_on, seen_off = set(), set()
    (seen_on if source & 1 else seen_off).add(source >> 1)
    closing = []
    if cycles:
        c, d = divmod(source >> 1, n)
        row = _strong(cands, geo, ch, c, d + 1)
        closing = [t - 1 for j, t in enumerate(row) if t >= 0 and (ylinks if j == 0 else xlinks)]
    forcing, head, length, layer_end = -1, 0, 0, 1
    while head < len(nodes):
        length += 1
        if length + 1 > most:  # what closes or ends while layer L is expanded has L + 1 states
            break
        while head < layer_end:
            node = head
            head += 1
            s = nodes[node]
            c, d = divmod(s >> 1, n)
            if s & 1:
                weak, ys = _weak(cands, geo, ch, c, d + 1)
                for t in weak[0 if ylinks else ys:]:
                    if cycles and length >= 3 and t in closing:
                        a, chain = node, set()
                        while a >= 0:
                            chain.add(nodes[a])
                            a = parents[a]
                        if t not in chain:
                            cycles_found.append((node, t))
                    if (t >> 1) in seen_off:
                        continue
                    if t == source - 1 and forcing < 0:
                        nodes.append(t)
                        parents.append(node)
                        forcing = len(nodes) - 1
                        if cycles:
                            seen_off.add(t >> 1)
                        continue
                    seen_off.add(t >> 1)
                    nodes.append(t)
                    parents.append(node)
            else:
                row = _strong(cands, geo, ch, c, d + 1)
                for j, t in enumerate(row):
                    if t < 0 or not (ylinks if j == 0 else xlinks):
                        continue
                    if not cycles and t == source + 1 and forcing < 0:
                        nodes.append(t)
                        parents.append(node)
                        forcing = len(nodes) - 1
                        continue
                    if (t >> 1) in seen_on:
                        continue
                    seen_on.add(t >> 1)
                    nodes.append(t)
                    parents.append(node)
            if forcing >= 0 and not cycles:
                return forcing, len(cycles_found), -1, nodes, parents, cycles_found
        layer_end = len(nodes)
    complete = head >= len(nodes) and (cycles or forcing < 0)
    return forcing, len(cycles_found), len(nodes) if complete else -1, nodes, parents, cycles_found


def _candidates_of(box, cands):
    """(geometry, cell houses, n, the candidate potentials) of a case."""
    geo, ch = _geo(box)
    n = geo.size
    return geo, ch, n, [c * n + d for c in range(cands.size) for d in range(n) if cands[c] >> d & 1]


def _walk_space(cands, geo, ch):
    """The link table of ``cands`` and a walk's arrays: (table, nodes, parents, in_on, in_off)."""
    n = geo.size
    cap = 2 * cands.size * n * 12 + 256
    return (links(cands, geo.houses, ch, n), np.zeros(cap, np.int32), np.zeros(cap, np.int32),
            np.zeros(cands.size * n, np.int32), np.zeros(cands.size * n, np.int32))


def _grid(box):
    n = box * box
    cell = st.integers(0, (1 << n) - 1).map(lambda m: m if bin(m).count("1") != 1 else 0)
    return st.lists(cell, min_size=n * n, max_size=n * n).map(lambda xs: np.array(xs, np.int64))


def _chainy_grid(box):
    """Grids of cells with no, two or three candidates: many strong links, so that walks close cycles."""
    n = box * box
    cell = st.sets(st.integers(0, n - 1), min_size=2, max_size=3).map(lambda ds: sum(1 << d for d in ds))
    cell = st.one_of(st.just(0), cell, cell)
    return st.lists(cell, min_size=n * n, max_size=n * n).map(lambda xs: np.array(xs, np.int64))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([2, 3]).flatmap(lambda box: st.tuples(st.just(box), _grid(box))))
def test_the_link_table_lists_the_links_of_the_definition(case):
    box, cands = case
    geo, ch = _geo(box)
    n = geo.size
    table = links(cands, geo.houses, ch, n)
    start, xstart, weak, strong, _ = table
    for c in range(cands.size):
        for d in range(1, n + 1):
            p = c * n + d - 1
            if not cands[c] >> (d - 1) & 1:
                assert start[p] == start[p + 1]
                continue
            want, ys = _weak(cands, geo, ch, c, d)
            assert list(weak[start[p]:start[p + 1]]) == want
            assert xstart[p] - start[p] == ys
            row = _strong(cands, geo, ch, c, d)
            assert list(strong[p]) == row
            # a pass closes cycles through a candidate only by a strong link it follows
            for ylinks, xlinks in ((False, True), (True, False), (True, True)):
                want = any(t >= 0 and (ylinks if j == 0 else xlinks) for j, t in enumerate(row))
                assert has_strong_link(p, table, ylinks, xlinks) == want


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([2, 3]).flatmap(lambda box: st.tuples(st.just(box), _grid(box), st.data())))
def test_every_walk_over_the_table_is_the_walk_over_scanned_links(case):
    box, cands, data = case
    geo, ch, n, pots = _candidates_of(box, cands)
    if not pots:
        return
    table, nodes, parents, in_on, in_off = _walk_space(cands, geo, ch)
    cap = nodes.size
    stamp = 0
    for _ in range(6):
        p = data.draw(st.sampled_from(pots))
        source = 2 * p + data.draw(st.integers(0, 1))
        ylinks, xlinks = data.draw(st.sampled_from([(False, True), (True, False), (True, True)]))
        cycles = data.draw(st.booleans())
        most = data.draw(st.sampled_from([3, 4, 6, BIG]))
        stamp += 1
        hit, closed, size = _walk(source, table, ylinks, xlinks, cycles, nodes, parents, in_on, in_off, stamp, most)
        s_hit, s_closed, s_size, s_nodes, s_parents, s_cycles = _slow_walk(source, cands, geo, ch, ylinks, xlinks,
                                                                           cycles, most)
        assert (hit, closed, size) == (s_hit, s_closed, s_size)
        k = len(s_nodes)
        assert list(nodes[:k]) == s_nodes and list(parents[:k]) == s_parents
        for j, (node, t) in enumerate(s_cycles):
            assert (nodes[cap - 1 - 2 * j], nodes[cap - 2 - 2 * j]) == (node, t)


def _distances(source, cands, geo, ch, ylinks, xlinks):
    """Breadth-first distance in links from ``source`` to every state it forces, over the scanned links."""
    n = geo.size
    dist, frontier = {source: 0}, [source]
    while frontier:
        nxt = []
        for s in frontier:
            c, d = divmod(s >> 1, n)
            if s & 1:
                weak, ys = _weak(cands, geo, ch, c, d + 1)
                targets = weak[0 if ylinks else ys:]
            else:
                row = _strong(cands, geo, ch, c, d + 1)
                targets = [t for j, t in enumerate(row) if t >= 0 and (ylinks if j == 0 else xlinks)]
            for t in targets:
                if t not in dist:
                    dist[t] = dist[s] + 1
                    nxt.append(t)
        frontier = nxt
    return dist


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([2, 3]).flatmap(
    lambda box: st.tuples(st.just(box), st.one_of(_grid(box), _chainy_grid(box)), st.data())))
def test_the_halfway_walk_finds_the_shortest_forcing_chain(case):
    """_meet_walk's length is the plain distance from the source to its opposite state (when the chain has at
    most ``most`` states), and a walk it reports complete reached exactly the states the source forces."""
    box, cands, data = case
    geo, ch, n, pots = _candidates_of(box, cands)
    if not pots:
        return
    table = links(cands, geo.houses, ch, n)
    nodes = np.zeros(2 * cands.size * n + 8, np.int32)
    depth = np.zeros(2 * cands.size * n, np.int32)
    in_on = np.zeros(cands.size * n, np.int32)
    in_off = np.zeros(cands.size * n, np.int32)
    for stamp in range(1, 9):
        source = 2 * data.draw(st.sampled_from(pots)) + data.draw(st.integers(0, 1))
        ylinks, xlinks = data.draw(st.sampled_from([(False, True), (True, True)]))  # the passes with forcing
        most = data.draw(st.sampled_from([3, 4, 5, 8, 12, BIG]))
        chain, size = _meet_walk(source, table, ylinks, xlinks, nodes, in_on, in_off, depth, stamp, most)
        dist = _distances(source, cands, geo, ch, ylinks, xlinks)
        shortest = dist.get(source ^ 1, -1)
        assert chain == (shortest if 0 <= shortest <= most - 1 else -1)
        if size >= 0:
            assert chain < 0 and shortest < 0
            assert sorted(nodes[:size]) == sorted(dist)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([2, 3]).flatmap(lambda box: st.tuples(st.just(box), _chainy_grid(box), st.data())))
def test_a_cycles_eliminations_are_the_candidates_that_see_both_its_states(case):
    """_cycle_eliminations on bitsets, on every cycle of random walks: the candidates of a digit, off the cycle's
    cells, that share a house with an on state and with an off state of that digit on the cycle."""
    box, cands, data = case
    geo, ch, n, pots = _candidates_of(box, cands)
    if not pots:
        return
    table, nodes, parents, in_on, in_off = _walk_space(cands, geo, ch)
    cap = nodes.size
    out = np.zeros(cands.size * n, np.int32)
    sees, has, acc = cycle_masks(cands, geo.houses, ch, n)
    cycles_seen = []
    for stamp in range(1, 5):
        source = 2 * data.draw(st.sampled_from(pots)) + 1
        ylinks, xlinks = data.draw(st.sampled_from([(False, True), (True, False), (True, True)]))
        _, closed, _ = _walk(source, table, ylinks, xlinks, True, nodes, parents, in_on, in_off, stamp, BIG)
        for k in range(closed):
            end, last = cycle_end(k, nodes)
            states, node = [last], end
            while node >= 0:
                states.append(int(nodes[node]))
                node = parents[node]
            cells = {(s >> 1) // n for s in states}
            want = set()
            for c in range(cands.size):
                for d in range(n):
                    if c in cells or not cands[c] >> d & 1:
                        continue
                    kinds = {s & 1 for s in states if (s >> 1) % n == d and int((s >> 1) // n) in geo.peers[c]}
                    if kinds == {0, 1}:
                        want.add(c * n + d)
            count = _cycle_eliminations(end, last, nodes, parents, n, out, sees, has, acc)
            assert sorted(out[:count]) == sorted(want) and count == len(want)
            cycles_seen.append(count)
    assume(cycles_seen)  # hypothesis looks for grids where the walks close cycles
