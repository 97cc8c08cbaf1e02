"""Compiled parts of nested forcing chains (:mod:`engine.grade.finders.chains.nested`): the searches inside a run,
what of their conclusions a run keeps (those resting on its removals: :mod:`.rule_parents`) and how those join the
run. The run's own loop is :mod:`.nested_runs`.
"""
from __future__ import annotations

import numpy as np

from ...._jit import kernel_with, wide_kernel
from ....bits import popcount
from .forcing import (CYCLE, H_COMPLEXITY, H_KIND, H_SORT, H_SOURCE, H_TARGET, H_TENTHS, H_WHERE, HINT_SIZE, MULTIPLE,
                      STATIC, _digits_scratch, _forcing_digits)
from .implications import _push_off
from .plain import _plain_search_in
from .rule_parents import _plain_rests_nowhere, _rule_parents_marking
from .slots import _add, _has, _parent
from .static_miss import _static_units
from .walk import links, no_links


@wide_kernel
def _collect(producer, cands, houses, cell_houses, n, found, ws, memo, same, base_off):
    """Every conclusion of ``producer`` on ``cands`` as rows of ``found`` (engine.grade.kernels.chains.forcing._consider), with the runs left in
    ``ws`` and ``memo``: the searches inside nested chains. The multiple forcing chains look only at the cells and
    houses that may conclude, proved without runs (engine.grade.kernels.chains.static_miss; as forcing._forcing
    does): on the grids runs stall on in the hardest puzzles, nine in ten have none, and the proof costs a quarter
    of the search it spares. ``same`` and ``base_off``: the runs taken from the step's grid (:mod:`.reuse`), or
    empty."""
    units = np.zeros(0, np.int8)
    if producer == MULTIPLE:
        units = np.empty(cands.size + houses.shape[0] * n, np.int8)
        if not _static_units(cands, houses, cell_houses, n, units):
            return
    _forcing_digits(producer, cands, houses, cell_houses, n, np.empty(HINT_SIZE, np.int64), found, ws, memo,
                    np.int64(-1), _digits_scratch(n), units, same, base_off)


@wide_kernel
def _plain_inside(spare, orig, work, houses, cell_houses, n, found, walk, sees, before):
    """The plain search inside a nested run on ``work`` (engine.grade.kernels.chains.plain._plain_search_in, with
    ``walk``, ``sees`` and ``before``), its rows in ``found`` (which it empties first): ``(how many, whether one is
    a cycle's)``, how many -1 when, with ``spare``, it was spared because no chain on ``work`` can rest on the
    removals from ``orig`` (rule_parents._plain_rests_nowhere). One call for the two (and the cycles told here, not
    found in numpy): the plain searches inside come by the tens of thousands, four in five finding nothing."""
    if spare and _plain_rests_nowhere(orig, work, houses, cell_houses, n):
        return -1, False
    found[0, 0] = 0
    found[0, 1] = 0  # every cycle and chain (a cycle's rows remove together)
    _plain_search_in(work, houses, cell_houses, n, found, walk, sees, before)
    cycles = False
    for i in range(1, found[0, 0] + 1):
        cycles |= found[i, H_KIND] == CYCLE
    return found[0, 0], cycles


@wide_kernel
def _add_nested(ws, w, states, k, parents, nparents, nest):
    """Put the off states ``states[:k]`` that slot ``w`` lacks into it, each with the ``parents[:nparents]`` it has
    and nested chain ``nest``; returns how many were new (written back to the front of ``states``)."""
    new = 0
    for i in range(k):
        e = states[i]
        if _has(ws, w, e):
            continue
        _add(ws, w, e, -1)
        for j in range(nparents):
            if _has(ws, w, parents[j]):
                _parent(ws, w, e, parents[j])
        ws[15][w, e] = nest
        states[new] = e
        new += 1
    return new


@wide_kernel
def _stable_order(key):
    """The indices of ``key`` in ascending order, ties in index order (a bottom-up merge sort). Written out rather
    than numba's ``argsort(kind="mergesort")``, whose generic code was a second of the first nested step's
    compile."""
    k = key.size
    order = np.arange(k)
    spare = np.empty(k, np.int64)
    width = 1
    while width < k:
        for lo in range(0, k, 2 * width):
            mid = min(lo + width, k)
            hi = min(lo + 2 * width, k)
            a, b, j = lo, mid, lo
            while a < mid and b < hi:
                if key[order[b]] < key[order[a]]:  # strictly less: a tie keeps the left run's first
                    spare[j] = order[b]
                    b += 1
                else:
                    spare[j] = order[a]
                    a += 1
                j += 1
            while a < mid:
                spare[j] = order[a]
                a += 1
                j += 1
            while b < hi:
                spare[j] = order[b]
                b += 1
                j += 1
        order, spare = spare, order
        width *= 2
    return order


@wide_kernel
def _cycle_hints(rows, work, n):
    """The plain search's conclusions ``rows`` (collected on ``work``, some a cycle's) as Sudoku Explainer's hints,
    which :func:`_kept` then takes as they are (its ``given``): in its order (rating, complexity, sort key; a tie
    keeps the order found), a cycle's rows as one hint (at its first, removing every row's target), and of hints
    that remove the same candidates only the first (SE keeps its hints in a set that holds one of each: a later
    equal hint is dropped even where the first rests on no removal). Returns ``(found, ends, given)``: ``found``'s
    row 0 holds the count, rows 1 on the hints; hint ``i`` removes ``given[ends[i]:ends[i + 1]]``, in the order
    its eliminations leave SE's hash map (:func:`_hashmap_order`). Compiled: it was the nested searches' costliest
    Python (a fifth of a millisecond a search with cycles); the tests' twin is that Python."""
    k = rows.shape[0]
    key = np.empty(k, np.int64)
    for i in range(k):
        key[i] = (rows[i, H_TENTHS] << 40) | (rows[i, H_COMPLEXITY] << 4) | rows[i, H_SORT]
    order = _stable_order(key)
    size = k * n + 1  # (a hint removes at most a cell's other candidates, or a target per cycle row)
    states = np.empty(size, np.int32)
    ascending = np.empty(size, np.int32)  # each kept hint's states sorted, once each: its set, to compare
    ascending_ends = np.zeros(k + 1, np.int64)
    found = np.zeros((k + 1, HINT_SIZE), np.int64)
    ends = np.zeros(k + 1, np.int64)
    taken = np.zeros(k, np.bool_)  # rows of a cycle already in its hint
    m = ns = na = 0
    for a in range(k):
        i = order[a]
        if taken[i]:
            continue
        first = ns
        target = rows[i, H_TARGET]
        if rows[i, H_KIND] == CYCLE:
            for b in range(a, k):
                j = order[b]
                if rows[j, H_KIND] == CYCLE and rows[j, H_SOURCE] == rows[i, H_SOURCE] and \
                        rows[j, H_WHERE] == rows[i, H_WHERE]:
                    taken[j] = True
                    states[ns] = rows[j, H_TARGET]
                    ns += 1
        else:
            ns = _removed(target, work, n, states, ns)
        # its set: sorted, each state once
        start = na
        for j in range(first, ns):
            x = states[j]
            at = na
            while at > start and ascending[at - 1] > x:
                at -= 1
            if at > start and ascending[at - 1] == x:
                continue
            for q in range(na, at, -1):
                ascending[q] = ascending[q - 1]
            ascending[at] = x
            na += 1
        repeated = False
        for h in range(m):
            a0, a1 = ascending_ends[h], ascending_ends[h + 1]
            if a1 - a0 == na - start:
                repeated = True
                for q in range(na - start):
                    if ascending[a0 + q] != ascending[start + q]:
                        repeated = False
                        break
                if repeated:
                    break
        if repeated:
            ns, na = first, start
            continue
        _hashmap_order(states, first, ns, n)
        for col in range(HINT_SIZE):
            found[m + 1, col] = rows[i, col]
        m += 1
        ends[m] = ns
        ascending_ends[m] = na
    found[0, 0] = m
    return found[:m + 1].copy(), ends[:m + 1].copy(), states[:ns].copy()


@kernel_with(inline="always")
def _removed(target, work, n, states, ns):
    """Write the off states of what conclusion ``target`` removes on ``work`` at ``states[ns:]`` and return the new
    end: an off state itself; a placement, the cell's other candidates."""
    if not target & 1:
        states[ns] = target
        return ns + 1
    p = target >> 1
    c = p // n
    for e in range(n):
        if work[c] >> e & 1 and e != p % n:
            states[ns] = 2 * (c * n + e)
            ns += 1
    return ns


@wide_kernel(_nrt=False)
def _hashmap_order(states, first, end, n):
    """Put the off states ``states[first:end]`` in the order Sudoku Explainer's hint yields them: it keeps a hint's
    eliminations in a Java ``HashMap`` keyed by the cell (its hash is its index), which yields cells by ``index mod
    capacity`` (16, doubled past three quarters full) and each cell's digits upwards. (Cells sharing a bucket come
    in the order the hint met them, for a cycle the order of its walk; they are rare, and taken here by index.)
    That order is the order the run follows them (:func:`engine.grade.kernels.chains.plus._emit_hint` does the
    same for the rules)."""
    cells = 0
    for j in range(first, end):  # the distinct cells (a state's cell not met before it)
        c = (states[j] >> 1) // n
        new = True
        for q in range(first, j):
            if (states[q] >> 1) // n == c:
                new = False
                break
        cells += new
    cap = 16
    while cells * 4 > cap * 3:
        cap *= 2
    for j in range(first + 1, end):  # an insertion sort by (bucket, state): a hint removes a few dozen at most
        x = states[j]
        bx = ((x >> 1) // n) & (cap - 1)
        q = j - 1
        while q >= first and (((states[q] >> 1) // n) & (cap - 1) > bx or (
                ((states[q] >> 1) // n) & (cap - 1) == bx and states[q] > x)):
            states[q + 1] = states[q]
            q -= 1
        states[q + 1] = x


@wide_kernel
def _kept(producer, found, ws, memo, orig, work, houses, cell_houses, n, given, given_ends, walk):
    """What a search inside (a forcing search, not the plain one: no cycles) collected in ``found`` and a nested run
    uses, as :meth:`engine.grade.finders.chains.nested._Search.inside` describes it: the conclusions in Sudoku
    Explainer's order (rating, complexity, sort key; a tie keeps the order found), of those that remove the same
    candidates only the first, and of those only the ones that rest on the run's removals (with rule parents).
    Returns ``(rows, states, state_ends, parents, parent_ends)``: the kept hint records, and the off states each
    adds (ascending: one cell's) and its rule parents, row ``i``'s from ``ends[i]`` to ``ends[i + 1]``.

    ``given_ends`` empty, or (the plain search's rows with cycles, which Python groups and sifts) the hints already
    in order and sifted, ``found``'s rows, each removing ``given[given_ends[i]:given_ends[i + 1]]``: only their
    rule parents are looked for. (One kernel for both, so that the rule parents' large tree is compiled once.)
    ``walk``: a walk space (engine.grade.kernels.chains.plain._walk_space) for the plain chains' paths.

    Compiled because a nested step keeps tens of conclusions from each of thousands of searches: in Python, this
    and adding them to the run (:func:`_add_kept`) was a fifth of the hardest puzzles' time."""
    k = found[0, 0]
    nstates = 2 * work.size * n
    presifted = given_ends.size > 0
    key = np.zeros(k, np.int64)  # (all equal when presifted: the order given)
    if not presifted:
        for i in range(k):
            key[i] = (found[1 + i, H_TENTHS] << 40) | (found[1 + i, H_COMPLEXITY] << 4) | found[1 + i, H_SORT]
    order = _stable_order(key)
    seen = np.zeros(nstates, np.bool_)  # the candidates a kept conclusion removes, by the one state naming them
    mark = np.zeros(nstates, np.int8)
    out = np.empty(nstates, np.int32)
    rows = np.empty((k, found.shape[1]), np.int64)
    states = np.empty(k * n + given.size + 1, np.int32)
    state_ends = np.zeros(k + 1, np.int64)
    parents = np.empty(max(nstates, 64), np.int32)
    parent_ends = np.zeros(k + 1, np.int64)
    # the plain chains' paths are walked again on the link table, made once here
    table = links(work, houses, cell_houses, n) if producer == STATIC else no_links(cell_houses)
    m = 0
    ns = 0
    npar = 0
    for i in order:
        row = found[1 + i]
        target = row[H_TARGET]
        # what it removes, named by one state: an off state itself; a placement the cell's other candidates, the
        # other candidate's off state when it is one (the same removal as that off state's conclusion), else the
        # placement (no other conclusion removes the same candidates)
        name = target
        c = (target >> 1) // n
        if target & 1 and popcount(work[c]) == 2:
            other = work[c] & ~(np.int64(1) << ((target >> 1) % n))
            e = 0
            while not other >> e & 1:
                e += 1
            name = 2 * (c * n + e)
        if not presifted:
            if seen[name]:
                continue
            seen[name] = True
        count = _rule_parents_marking(producer, row, ws, memo, orig, work, houses, cell_houses, n, out, mark, table,
                                      walk)
        for j in range(count):  # (the marks back to zeros for the next conclusion)
            mark[out[j]] = 0
        if count == 0:  # it was there before the run: not the run's to use
            continue
        rows[m] = row
        if presifted:
            for j in range(given_ends[i], given_ends[i + 1]):
                states[ns] = given[j]
                ns += 1
        else:
            ns = _removed(target, work, n, states, ns)
        if npar + count > parents.size:
            grown = np.empty(2 * parents.size + count, np.int32)
            grown[:npar] = parents[:npar]
            parents = grown
        parents[npar:npar + count] = out[:count]
        npar += count
        m += 1
        state_ends[m] = ns
        parent_ends[m] = npar
    # (copies: the memo of searches inside keeps these, and the buffers are sized for the worst case)
    return rows[:m].copy(), states[:ns].copy(), state_ends[:m + 1].copy(), parents[:npar].copy(), \
        parent_ends[:m + 1].copy()


@wide_kernel
def _narrow(rows, states, state_ends, parents, parent_ends, cands, n):
    """What a search inside kept (:func:`_kept`'s five arrays) as it is on the step's grid ``cands``, which lacks
    none of the candidates of the grid it was found on: each conclusion's rule parents that ``cands`` still has, in
    their order, and only the conclusions left with some (engine.grade.finders.chains.inside._narrowed). Returns
    ``(changed, ...the five)``, the arrays given when nothing changed. Compiled: a step meets thousands of such
    searches an earlier step made, and numpy's eight calls for it cost twenty times this."""
    k = rows.shape[0]
    still = np.empty(parents.size, np.bool_)
    changed = False
    for j in range(parents.size):
        p = parents[j] >> 1
        still[j] = cands[p // n] >> (p % n) & 1 == 1
        changed |= not still[j]
    if not changed:
        return False, rows, states, state_ends, parents, parent_ends
    kept_rows = np.empty_like(rows)
    kept_states = np.empty_like(states)
    kept_state_ends = np.zeros(k + 1, np.int64)
    kept_parents = np.empty_like(parents)
    kept_parent_ends = np.zeros(k + 1, np.int64)
    m = ns = npar = 0
    for i in range(k):
        first = npar
        for j in range(parent_ends[i], parent_ends[i + 1]):
            if still[j]:
                kept_parents[npar] = parents[j]
                npar += 1
        if npar == first:  # no parent left: the search would drop it
            continue
        kept_rows[m] = rows[i]
        for j in range(state_ends[i], state_ends[i + 1]):
            kept_states[ns] = states[j]
            ns += 1
        m += 1
        kept_state_ends[m] = ns
        kept_parent_ends[m] = npar
    return True, kept_rows[:m].copy(), kept_states[:ns].copy(), kept_state_ends[:m + 1].copy(), \
        kept_parents[:npar].copy(), kept_parent_ends[:m + 1].copy()


@wide_kernel
def _add_kept(ws, w, rows, states, state_ends, parents, parent_ends, first, last):
    """Add to the run in slot ``w`` the off states of every conclusion a search inside kept (:func:`_kept`), each
    with its rule parents and as nested chain ``first + i`` (``last`` is the last id: the ones after share it),
    and queue the new ones to be followed; returns how many were new."""
    fresh = np.empty(max(states.size, 1), np.int32)
    new = 0
    for i in range(rows.shape[0]):
        nest = min(first + i, last)
        ws[16][nest] = rows[i, H_COMPLEXITY]
        a, b = state_ends[i], state_ends[i + 1]
        for j in range(a, b):
            fresh[j - a] = states[j]
        added = _add_nested(ws, w, fresh, b - a, parents[parent_ends[i]:parent_ends[i + 1]],
                            parent_ends[i + 1] - parent_ends[i], nest)
        _push_off(ws, fresh, added)
        new += added
    return new
