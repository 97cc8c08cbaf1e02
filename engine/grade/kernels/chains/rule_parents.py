"""Rule parents: what a chain found inside a nested run rests on (:mod:`engine.grade.finders.chains.nested`).

A nested chain is found on a run's working grid (the candidates left after the run's own removals). Sudoku
Explainer uses it only if it rests on those removals, and then its *rule parents* are the removals it rests on:
for each "on" state along its chains, the candidates the run removed from the cell (when the state is a cell's last
candidate) or from the house (when it is the digit's last place there) that made the state forced. Which of the two
a state was is read from its first parent, the off state that forced it: in the same cell, the cell; else the first
house (box, row, column, the order the run looks in) the two cells share. The chain's own assumption counts as the
cell's last candidate for a cell forcing chain, and the digit's last place in the house for a region one.
"""
from __future__ import annotations

import numpy as np

from ...._jit import kernel_with, wide_kernel
from ....bits import popcount
from .forcing import (CELL, CONTRADICTION, CYCLE, DOUBLE, DYNAMIC_PLUS, H_KIND, H_SOURCE, H_TARGET, H_WHERE,
                      MULTIPLE, REGION, STATIC, UNARY, _on_run)
from .implications import _propagate
from .plain import _plain_path_on, _walk_space
from .walk import links, no_links
from ..state import SE_SLOTS
from .slots import FIRST, ONE, _ancestry, _reset

#: what the assumption of a chain counts as when its rule parents are collected
NO_CAUSE, CELL_CAUSE = -2, -1  # else a house


@wide_kernel(_nrt=False)
def _cause_parents(x, cause, orig, work, houses, n, mark, out, count):
    """Add to ``out`` the removals behind on state ``x`` with ``cause`` (the cell, or a house); returns the count."""
    p = x >> 1
    c = p // n
    d = p % n + 1
    if cause == CELL_CAUSE:
        gone = orig[c] & ~work[c]
        for e in range(n):
            if gone >> e & 1:
                q = 2 * (c * n + e)
                if not mark[q]:
                    mark[q] = 1
                    out[count] = q
                    count += 1
    elif cause >= 0:
        bit = np.int64(1) << (d - 1)
        for i in range(n):
            c2 = houses[cause, i]
            if orig[c2] & bit and not work[c2] & bit:
                q = 2 * (c2 * n + d - 1)
                if not mark[q]:
                    mark[q] = 1
                    out[count] = q
                    count += 1
    return count


@wide_kernel(_nrt=False)
def _link_cause(x, y, cell_houses, n):
    """What made off state ``y`` force on state ``x``: the cell (CELL_CAUSE) or the house the two cells share."""
    c = (x >> 1) // n
    c2 = (y >> 1) // n
    if c2 != c:
        for k in range(cell_houses.shape[1]):  # box, row, column, diagonals (a slot that repeats the row
            kind = SE_SLOTS[k]  # matches only where the row did, before it)
            if cell_houses[c, kind] == cell_houses[c2, kind]:
                return cell_houses[c, kind]
    return np.int64(CELL_CAUSE)


@wide_kernel(_nrt=False)
def _chain_parents(ws, w, t, seed_cause, orig, work, houses, cell_houses, n, mark, out, count):
    """Add to ``out`` the rule parents of the chains leading to state ``t`` in slot ``w``; returns the count."""
    states = ws[12]
    k, _ = _ancestry(ws, w, t, states)
    for i in range(k):
        x = states[i]
        if x & 1:
            first = ws[0][w, x] < ONE
            cause = seed_cause if first else _link_cause(x, ws[4][w, ws[0][w, x] & FIRST], cell_houses, n)
            count = _cause_parents(x, cause, orig, work, houses, n, mark, out, count)
    return count


@wide_kernel
def _rule_parents(producer, row, ws, memo, orig, work, houses, cell_houses, n, out):
    """The rule parents (off states, in ``out``; returns how many) of a conclusion ``row`` (a hint record) that
    :func:`engine.grade.kernels.chains.forcing._forcing_search` collected on ``work`` with ``ws`` and ``memo``;
    ``orig``: the grid the run that ``work`` belongs to started from. Runs no longer in the workspace are made again."""
    table = links(work, houses, cell_houses, n) if producer == STATIC else no_links(cell_houses)
    return _rule_parents_marking(producer, row, ws, memo, orig, work, houses, cell_houses, n, out,
                                 np.zeros(2 * work.size * n, np.int8), table, _walk_space(work.size, n))


# Inlined into its two callers (_rule_parents, _kept): numba emits the whole tree below a kernel again for every
# kernel above it, and this tree (runs made again, plain paths walked again) is large; as a kernel of its own,
# with a wrapper between, it was several seconds of the first nested step's compile (docs/development.md).
@kernel_with(inline="always")
def _rule_parents_marking(producer, row, ws, memo, orig, work, houses, cell_houses, n, out, mark, table, walk):
    """:func:`_rule_parents` with the scratch ``mark`` (zeros, one a state), leaving a mark on each rule parent; for
    the plain search (``producer`` STATIC), ``work``'s link table and a walk space (engine.grade.kernels.chains.plain:
    made once for all the search's rows, not once a row)."""
    dynamic = producer != MULTIPLE
    level = np.int64(1) if producer == DYNAMIC_PLUS else np.int64(0)
    ylinks = level >= 0  # True, as a variable (see _forcing_search)
    kind, target, source, where = row[H_KIND], row[H_TARGET], row[H_SOURCE], row[H_WHERE]
    count = 0
    scratch = n  # the search's off slot: free once the search is over
    if kind == REGION or kind == CELL:
        d = source
        for i in range(n):
            if kind == REGION:
                c = houses[where, i]
                if not work[c] >> (d - 1) & 1:
                    continue
                p = c * n + d - 1
                cause = where
            else:
                if not work[where] >> i & 1:
                    continue
                p = where * n + i
                cause = np.int64(CELL_CAUSE)
            w = _on_run(ws, memo, p, scratch, work, houses, cell_houses, n, ylinks, dynamic, level)
            count = _chain_parents(ws, w, target, cause, orig, work, houses, cell_houses, n, mark, out, count)
        return count
    if kind == UNARY or kind == CYCLE:
        return _plain_parents(kind, source, where, orig, work, houses, cell_houses, n, mark, out, table, walk)
    p = source >> 1
    cause = np.int64(NO_CAUSE)
    if source & 1:
        w = _on_run(ws, memo, p, scratch, work, houses, cell_houses, n, ylinks, dynamic, level)
        on, off = memo[1, p], memo[2, p]
    else:
        w = scratch
        _reset(ws, w)
        on, off = _propagate(ws, w, source, work, houses, cell_houses, n, ylinks, dynamic, level)
    if kind == CONTRADICTION:
        count = _chain_parents(ws, w, on, cause, orig, work, houses, cell_houses, n, mark, out, count)
        return _chain_parents(ws, w, off, cause, orig, work, houses, cell_houses, n, mark, out, count)
    count = _chain_parents(ws, w, target, cause, orig, work, houses, cell_houses, n, mark, out, count)
    if kind == DOUBLE:  # and the run from the candidate off
        w = scratch
        _reset(ws, w)
        _propagate(ws, w, source ^ 1, work, houses, cell_houses, n, ylinks, dynamic, level)
        count = _chain_parents(ws, w, target, cause, orig, work, houses, cell_houses, n, mark, out, count)
    return count


@wide_kernel(_nrt=False)
def _plain_parents(kind, source, where, orig, work, houses, cell_houses, n, mark, out, table, walk):
    """The rule parents of a plain chain or cycle (:mod:`engine.grade.kernels.chains.plain`) on ``work``, whose
    link table is ``table``: along its one path (a cycle's back to its source through its closing off state),
    walked again in ``walk``."""
    nodes, parents = walk[0], walk[1]
    node, last = _plain_path_on(kind, source, where, table, walk)
    count = 0
    if last >= 0:
        count = _cause_parents(source, _link_cause(source, last, cell_houses, n), orig, work, houses, n, mark, out,
                               count)
    while node >= 0 and parents[node] >= 0:
        x = nodes[node]
        if x & 1:
            count = _cause_parents(x, _link_cause(x, nodes[parents[node]], cell_houses, n), orig, work, houses, n,
                                   mark, out, count)
        node = parents[node]
    return count


@wide_kernel
def _plain_rests_nowhere(orig, work, houses, cell_houses, n):
    """Whether no chain or cycle of the plain search on ``work`` can rest on the removals from ``orig`` (so that
    :meth:`engine.grade.finders.chains.nested._Search.inside` keeps none of them and the search can be spared):
    the rule parents of a plain chain (:func:`_plain_parents`) are the removals in the cause of each of its strong
    links, as :func:`_link_cause` names it: the cell of a bivalue cell's link, else the first house the two
    places share (box, row, column: not always the house with two places). So when no bivalue cell lost a
    candidate, and for no digit with two places in a house does that cause hold a removal of the digit, no chain
    has one. On the hardest puzzles, about one grid in seven where a run stalls."""
    for c in range(work.size):
        if popcount(work[c]) == 2 and orig[c] != work[c]:
            return False
    for h in range(houses.shape[0]):
        for d in range(n):
            bit = np.int64(1) << d
            first = -1
            second = -1
            for i in range(houses.shape[1]):
                c = houses[h, i]
                if work[c] & bit:
                    if first < 0:
                        first = c
                    elif second < 0:
                        second = c
                    else:
                        second = -2  # three or more
                        break
            if second < 0:
                continue
            cause = _link_cause(2 * (first * n + d) + 1, 2 * (second * n + d), cell_houses, n)
            for i in range(houses.shape[1]):
                c = houses[cause, i]
                if orig[c] & bit and not work[c] & bit:
                    return False
    return True
