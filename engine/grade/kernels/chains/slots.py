"""Slots: sets of chain states with their parents, the memory every forcing-chain kernel works in.

A state is a candidate on or off (:mod:`engine.grade.kernels.chains.implications`). A *slot* holds one set of states
and, for each, the states that forced it (its parents), in a shared pool. A slot's states are a bitset (``members``,
63 states to a word, a few cache lines a slot, cleared when the slot is emptied): membership is one bit, and what
several runs have in common is an AND of words, in state order (:func:`engine.grade.kernels.chains.forcing._common`),
not a scan of every state. Each emptying also moves the slot's generation (``gen``) on, so a memo can tell that a slot
it remembers was reused (engine.grade.kernels.chains.reuse). (Membership was a generation mark per state: a cache
line per state looked at, in arrays that outgrow the caches in nested searches; measured, the bits are faster, and
much faster on a host with little cache.) The workspace tuple also carries the
scratch of a run (queues, the working candidates and the places of each digit in each house, visit stamps, a
stack, the finds of the rules of a "+" run and their parents, the queue's ends so a run can stop and go on) and,
for nested chains only, which nested chain put each state in a slot (:mod:`engine.grade.finders.chains.nested`): a
state's complexity then counts each distinct nested chain behind it.
"""
from __future__ import annotations

import numpy as np

from ...._jit import kernel_with, wide_kernel


#: states to a word of a slot's member bits
BITS = 63
#: a state's origin word: where its parents start in the pool (the low bits; a pool holds 4 entries a state, under
#: 2**24 for any grid below 128x128), plus ONE for each parent (at most MOST: more are dropped, as from a full pool)
SHIFT = 24
ONE = 1 << SHIFT
FIRST = ONE - 1
MOST = 127


@wide_kernel
def _workspace(slots, ncells, n):
    """Room for ``slots`` sets of states (origin, gen, pool, top, members) and the scratch of a run."""
    return _nested_workspace(slots, ncells, n, 0)


@wide_kernel
def _nested_workspace(slots, ncells, n, nests):
    """A workspace whose slots also record which of up to ``nests`` nested chains put each state there."""
    nstates = 2 * ncells * n
    gen = np.ones(slots, np.int32)
    # origin[w, s]: where state s's parents start in slot w's pool and how many it has, in one word (ONE counts a
    # parent) so that adding a state writes 4 bytes (the slots of a nested search outgrow the caches: their bytes
    # are what they cost); written when the state is added, so never zeroed (membership is the bits of ``members``)
    origin = np.empty((slots, nstates), np.int32)
    pool = np.empty((slots, nstates * 4 + 64), np.int32)
    top = np.zeros(slots, np.int32)
    queue = np.zeros(nstates + 1, np.int32)
    work = np.zeros(ncells, np.int64)
    visit = np.zeros(nstates, np.int32)
    stack = np.zeros(nstates + 1, np.int32)
    stamp = np.zeros(3, np.int32)  # [visit stamp, (unused), conclusion stamp (nested chains)]
    # the places of each digit in each house of a run's working grid, as bits of positions in the house (a run
    # reads "the digit's other places in the cell's houses" at every state: bits, not scans of the houses), the
    # same for the grid the runs start from, the candidates those were made from (-1: none yet), and each cell's
    # position in its row, column and box, and diagonals (engine/grade/kernels/chains/implications.py, _start;
    # room for the most houses and units a shape has: two diagonals more)
    places = np.zeros((3 * n + 2, n), np.int64)
    start_places = np.zeros((3 * n + 2, n), np.int64)
    basis = np.full(ncells, -1, np.int64)
    position = np.zeros((ncells, 5), np.int64)
    found = np.zeros(nstates + 1, np.int32)  # what the rules of a dynamic (+) run add
    parents = np.zeros(6 * n + 8, np.int32)  # a + rule's parents, then a pattern's eliminations (plus.py)
    ends = np.zeros(4, np.int64)  # the queues' heads and tails between two calls of _follow
    # nest[w, s]: the nested chain (1..) that put s in slot w, 0 for none; nest_cx[k]: chain k's complexity;
    # nest_seen: visit stamps over the chains
    nest = np.zeros((slots if nests else 0, nstates), np.int32)
    nest_cx = np.zeros(nests + 1, np.int64)
    nest_seen = np.zeros(nests + 1, np.int32)
    # members[w]: slot w's states as bits, 63 to a word (the plain-Python popcount of the kernels run without JIT
    # counts no sign bit); kept beside the marks by every add (_put, and _follow's written-out adds)
    members = np.zeros((slots, nstates // BITS + 1), np.int64)
    # the candidates a run removed from its working grid ([0]: how many), put back when the next run starts
    # (engine/grade/kernels/chains/implications.py, _start_grid)
    undo = np.zeros(ncells * n + 1, np.int64)
    return (origin, gen, position, undo, pool, top, queue, work, visit, stack, stamp, basis, found, parents, ends, nest,
            nest_cx, nest_seen, members, places, start_places)


@wide_kernel(_nrt=False)
def _reset(ws, w):
    ws[1][w] += 1
    ws[5][w] = 0
    members = ws[18]
    for k in range(members.shape[1]):
        members[w, k] = 0


@wide_kernel(_nrt=False)
def _has(ws, w, s):
    return _in(ws[18], w, s)


@kernel_with(inline="always")
def _in(members, w, s):
    """:func:`_has` on the slots' member bits."""
    return members[w, s // BITS] >> (s % BITS) & 1 != 0


@wide_kernel(_nrt=False)
def _add(ws, w, s, parent):
    """Put state ``s`` in slot ``w`` with one parent (none when ``parent`` < 0); more may follow (:func:`_parent`)."""
    _put(ws[0], ws[4], ws[5], ws[15], ws[18], w, s, parent)


@wide_kernel(_nrt=False)
def _parent(ws, w, s, parent):
    """Add a parent to the state added last (a full pool drops it: the chain only looks shorter)."""
    _pool_parent(ws[0], ws[4], ws[5], w, s, parent)


# The same two on the workspace's arrays. Why: a compiled call counts references to each of its array arguments on
# the way in and out, and a tuple counts every array in it (numba's NRT_incref/NRT_decref, atomic operations);
# numba's pass that removes needless counts mostly fails on such calls. The runs added each state through a call
# that took the whole workspace: measured (perf), much of the multiple forcing chains' time went to those counts.
# Inlining a helper that takes the arrays still counts them at each use, so the runs' innermost loop
# (engine/grade/kernels/chains/implications.py, _follow) writes these few lines out; they serve the callers outside it
# (docs/development.md, "Reference counts").


@kernel_with(inline="always")
def _put(origin, pool, top, nest, members, w, s, parent):
    """:func:`_add` on the workspace's arrays (``nest``: its nested-chain marks, no rows when it has none)."""
    members[w, s // BITS] |= np.int64(1) << (s % BITS)
    origin[w, s] = top[w]
    if nest.shape[0]:
        nest[w, s] = 0
    if parent >= 0:
        _pool_parent(origin, pool, top, w, s, parent)


@kernel_with(inline="always")
def _pool_parent(origin, pool, top, w, s, parent):
    """:func:`_parent` on the workspace's arrays."""
    if top[w] < pool.shape[1] and origin[w, s] >> SHIFT < MOST:
        pool[w, top[w]] = parent
        top[w] += 1
        origin[w, s] += ONE


@wide_kernel(_nrt=False)
def _new_conclusion(ws):
    """Start the complexity of a new conclusion: the nested chains behind its chains count afresh."""
    ws[10][2] += 1


@wide_kernel(_nrt=False)
def _ancestors(ws, w, s):
    """How many distinct states lead to ``s`` in slot ``w``, ``s`` included: the complexity of its chain (with
    nested chains, as Sudoku Explainer counts it, plus the complexity of each distinct nested chain behind it)."""
    total, nested = _ancestry(ws, w, s, ws[12])
    return total + nested


@wide_kernel(_nrt=False)
def _first_path(ws, w, s):
    """How many states the chain that first reached ``s`` in slot ``w`` has (its first parents back to the
    assumption, ``s`` included): a lower bound of :func:`_ancestors` for the price of one load a state, as every
    state of that chain is one of the distinct states it counts."""
    origin, pool = ws[0], ws[4]
    length = 1
    x = s
    while origin[w, x] >= ONE:
        x = pool[w, origin[w, x] & FIRST]
        length += 1
    return length


@wide_kernel(_nrt=False)
def _ancestry(ws, w, s, out):
    """The distinct states that lead to ``s`` in slot ``w`` (``s`` included), written to ``out``: how many, and the
    summed complexity of the nested chains that put any of them there, each counted once per conclusion (since
    :func:`_new_conclusion`: Sudoku Explainer counts a nested chain once over all the chains of a conclusion)."""
    origin, pool, visit, stack, stamp = ws[0], ws[4], ws[8], ws[9], ws[10]
    nest, nest_cx, nest_seen = ws[15], ws[16], ws[17]
    nested = nest.shape[0] > 0
    stamp[0] += 1
    mark = stamp[0]
    visit[s] = mark
    stack[0] = s
    depth = 1
    total = 0
    extra = 0
    while depth:
        depth -= 1
        x = stack[depth]
        out[total] = x
        total += 1
        if nested and nest[w, x] and nest_seen[nest[w, x]] != stamp[2]:
            nest_seen[nest[w, x]] = stamp[2]
            extra += nest_cx[nest[w, x]]
        o = origin[w, x]
        for k in range(o & FIRST, (o & FIRST) + (o >> SHIFT)):
            q = pool[w, k]
            if visit[q] != mark:
                visit[q] = mark
                stack[depth] = q
                depth += 1
    return total, extra


@wide_kernel
def _full_path(ws, w, s, out, size):
    """Append to ``out`` (from ``size``) the chain that first reached state ``s`` in slot ``w``: its first parents
    back to the assumption, written from the assumption forward, each state followed by its other parents, each
    written as ``-2 - parent`` (a state of a dynamic chain may need several removals, the other places of a digit
    in a house, and a person following the chain needs them all). Returns the new size."""
    origin, pool = ws[0], ws[4]
    length = 0
    x = s
    while True:
        length += 1
        if origin[w, x] < ONE:
            break
        x = pool[w, origin[w, x] & FIRST]
    path = np.empty(length, np.int32)
    x = s
    for k in range(length - 1, -1, -1):
        path[k] = x
        if origin[w, x] >= ONE:
            x = pool[w, origin[w, x] & FIRST]
    for k in range(length):
        x = path[k]
        out[size] = x
        size += 1
        o = origin[w, x]
        for j in range((o & FIRST) + 1, (o & FIRST) + (o >> SHIFT)):
            out[size] = -2 - pool[w, j]
            size += 1
    return size


def parents_of(ws, w: int, s: int) -> list[int]:
    """State ``s``'s parents in slot ``w``, in order (plain Python: for the tests and for reading a workspace)."""
    o = int(ws[0][w, s])
    return [int(q) for q in ws[4][w, (o & FIRST):(o & FIRST) + (o >> SHIFT)]]
