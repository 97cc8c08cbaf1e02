"""Sudoku Explainer's plain chains as a search inside nested forcing chains (:mod:`engine.grade.finders.chains.nested`).

The row ``chains-and-cycles`` (:mod:`engine.grade.kernels.chains.cycles`) keeps the best conclusion; a nested run needs
every one, with the path each rests on. Here the same walks (:mod:`engine.grade.kernels.chains.walk`) in the same three
passes (X-links only, Y-links only, both) collect every cycle's eliminations and every forcing chain's
conclusion as rows of hint records (:func:`engine.grade.kernels.chains.forcing._consider`): a row's H_WHERE keeps the
pass and, for a cycle, which of the walk's cycles, so :func:`_plain_parents` can walk the same path again.
"""
from __future__ import annotations

import numpy as np

from ...._jit import kernel_with, wide_kernel
from ....bits import popcount
from .cycles import X_PASS, XY_PASS, Y_PASS, _cycle_eliminations, cycle_masks, cycle_masks_on, cycle_sees
from .forcing import CYCLE, UNARY, _consider, _worth
from .fresh_links import _concluding
from .implications import _length_tenths
from .walk import _chain_states, _meet_walk, _no_chains, _walk_call, cycle_end, has_strong_link, links


@wide_kernel
def _walk_space(ncells, n):
    """(nodes, parents, in_on, in_off, stamp) for walks on a grid of ``ncells`` cells."""
    cap = 2 * ncells * n * 12 + 256
    return (np.zeros(cap, np.int32), np.zeros(cap, np.int32), np.zeros(ncells * n, np.int32),
            np.zeros(ncells * n, np.int32), np.zeros(1, np.int64))


@wide_kernel(_nrt=False)
def _plain_walk(source, pas, cycles, table, walk):
    """The walk of pass ``pas`` from ``source`` over the links ``table`` (a cycle walk when ``cycles``): (forcing
    node, cycles closed)."""
    nodes, parents, in_on, in_off, stamp = walk
    if stamp[0] > (1 << 30):  # (a walk space shared by many walks: see _plain_search_in)
        for q in range(in_on.size):
            in_on[q] = 0
            in_off[q] = 0
        stamp[0] = 0
    stamp[0] += 1
    hit, closed, _ = _walk_call(source, table, pas != X_PASS, pas != Y_PASS, cycles, nodes, parents, in_on,
                                in_off, stamp[0], np.int64(1 << 30))
    return hit, closed


@kernel_with(inline="always")
def _cycle_rows(closed, p, pas, nodes, parents, n, gone, sees, has, acc, hint, found):
    """The rows of the ``closed`` cycles a walk of pass ``pas`` from candidate ``p`` on closed: each candidate a
    cycle removes, in potential order, as the rows are kept."""
    for k in range(closed):
        end, last = cycle_end(k, nodes)
        cx = _chain_states(end, nodes, parents) + 1
        tenths = (70 if pas == XY_PASS else 65) + _length_tenths(cx)
        count = _cycle_eliminations(end, last, nodes, parents, n, gone, sees, has, acc)
        for i in range(1, count):  # in potential order, sorted in place (a few; np.sort would allocate)
            q = gone[i]
            j = i
            while j > 0 and gone[j - 1] > q:
                gone[j] = gone[j - 1]
                j -= 1
            gone[j] = q
        for i in range(count):
            _consider(hint, found, tenths, cx, CYCLE, 2 * np.int64(gone[i]), 2 * p + 1, pas + 3 * k)


@wide_kernel
def _plain_search(cands, houses, cell_houses, n, found):
    """Every conclusion of Sudoku Explainer's "Forcing Chains & Cycles" on ``cands``, as rows of ``found``.

    The walks are those of the row's own search (:func:`engine.grade.kernels.chains.cycles._search`), without its
    bounds, since every conclusion is kept: a candidate's cycle walk (from it on, when it has a strong link) is
    its forcing walk from on too, the forcing walks from off (and from on without a cycle walk) meet halfway
    (:func:`engine.grade.kernels.chains.walk._meet_walk`), and a complete walk marks the states with no forcing
    chain of their own, whose walks are skipped. The rows and their order are those of three full walks a
    candidate (``tests/engine/grade/test_grade_nested.py`` holds them to that twin)."""
    _plain_search_in(cands, houses, cell_houses, n, found, _walk_space(cands.size, n),
                     cycle_sees(houses, cell_houses, cands.size), np.zeros(0, np.int64))


@wide_kernel
def _plain_search_in(cands, houses, cell_houses, n, found, walk, sees, before):
    """:func:`_plain_search` with a walk space (:func:`_walk_space`) that earlier searches may have used (a walk
    marks its states with a stamp one above the last, so older marks count for nothing; the marks start again
    past 2**30) and the cells each cell sees (:func:`engine.grade.kernels.chains.cycles.cycle_sees`): the searches inside
    nested chains run thousands of these, most of them finding nothing, and zeroing 140 kB of walk space and making
    the bitsets again was a tenth of each.

    ``before``: empty, or a grid holding every candidate of ``cands`` on which this search concludes nothing (a
    nested step's grid): then the states with a forcing chain are known before any forcing walk (from the strong
    links ``before`` lacks: :mod:`engine.grade.kernels.chains.fresh_links`), and only theirs are made."""
    table = links(cands, houses, cell_houses, n)
    nodes, parents, in_on, in_off, stamp = walk
    if stamp[0] > (1 << 30):  # the marks are int32: start again long before they could overflow
        in_on[:] = 0
        in_off[:] = 0
        stamp[0] = 0
    nstates = 2 * cands.size * n
    known = before.size > 0
    reach = np.ones((3, nstates), np.int8)  # by pass: the states whose forcing walk may conclude something
    changed = np.int64(-1)  # the digits whose X links may differ from before's (all when there is none)
    if known:  # exactly those that do
        changed = 0
        for c in range(cands.size):
            changed |= before[c] & ~cands[c]
        reach[X_PASS] = 0
        reach[XY_PASS] = 0
        _concluding(before, cands, table, houses, cell_houses, n, False, True, reach[X_PASS], walk)
        _concluding(before, cands, table, houses, cell_houses, n, True, True, reach[XY_PASS], walk)
    sees, has, acc = cycle_masks_on(cands, n, sees)
    _plain_passes(cands, n, np.zeros(7, np.int64), found, table, nodes, parents, in_on, in_off, stamp,
                  np.zeros(cands.size * n, np.int32),  # a cycle's eliminations (potentials)
                  np.zeros(nstates, np.int32),  # a meet walk's scratch
                  np.zeros(nstates, np.int32),  # pass + 1 where a state is known to have no forcing chain
                  sees, has, acc, reach, not known, changed)  # (the hint record is unused: found has rows)


@kernel_with(_nrt=False)
def _plain_passes(cands, n, hint, found, table, nodes, parents, in_on, in_off, stamp, gone, depth, nochain, sees, has,
                  acc, reach, marking, changed):
    """The three passes of :func:`_plain_search_in` on its scratch arrays. Compiled without numba's reference
    counting: it allocates nothing, and its calls counted their array arguments at every walk, a tenth of a
    nested puzzle's time (docs/development.md, "Reference counts"). ``marking``: whether complete walks mark the
    states without a forcing chain (not needed where ``reach`` holds exactly the states with one). ``changed``: the
    digits (bits) whose cycle walks of the X pass are made; an X walk reads one digit's places alone, so on a grid
    that lost none of the digit's candidates it is the walk made on ``before``, which closed no cycle that removes
    anything."""
    yes = cands.size > 0  # True and False as variables: literals would compile the walks twice
    unbounded = np.int64(1 << 30)
    for pas in (X_PASS, Y_PASS, XY_PASS):
        ylinks = pas != X_PASS
        xlinks = pas != Y_PASS
        for c in range(cands.size):
            m = cands[c]
            card = popcount(m)
            if card < 2 or (pas == Y_PASS and card > 2):
                continue
            for d in range(1, n + 1):
                if not m >> (d - 1) & 1:
                    continue
                p = c * n + d - 1
                closed = 0
                ahead = -1
                cycled = has_strong_link(p, table, ylinks, xlinks)
                if cycled and (pas != X_PASS or changed >> (d - 1) & 1):  # (else no cycle, nor a forcing chain)
                    stamp[0] += 1
                    ahead, closed, size = _walk_call(2 * p + 1, table, ylinks, xlinks, yes, nodes, parents, in_on,
                                                     in_off, stamp[0], unbounded)
                    if marking and xlinks and size >= 0:
                        _no_chains(size, nodes, in_on, in_off, stamp[0], nochain, pas + 1)
                _cycle_rows(closed, p, pas, nodes, parents, n, gone, sees, has, acc, hint, found)
                if pas == Y_PASS:  # forcing Y-chains do not exist (their length would be both odd and even)
                    continue
                for source in (2 * p + 1, 2 * p):
                    if nochain[source] == pas + 1:
                        continue
                    if source & 1 and cycled:  # the cycle walk's node for the candidate off ends the chain
                        if ahead < 0:
                            continue
                        cx = _chain_states(ahead, nodes, parents)
                    else:
                        if not reach[pas, source]:  # (no chain: fresh_links)
                            continue
                        stamp[0] += 1
                        chain, size = _meet_walk(source, table, ylinks, xlinks, nodes, in_on, in_off, depth,
                                                 stamp[0], unbounded)
                        if chain < 0:
                            if marking and size >= 0:
                                _no_chains(size, nodes, in_on, in_off, stamp[0], nochain, pas + 1)
                            continue
                        cx = chain + 1
                    if _worth(cands, source ^ 1, n):
                        tenths = (70 if pas == XY_PASS else 66) + _length_tenths(cx)
                        _consider(hint, found, tenths, cx, UNARY, source ^ 1, source, pas)


@wide_kernel
def _plain_search_walking(cands, houses, cell_houses, n, found):
    """The twin of :func:`_plain_search` for the tests: three full walks a candidate and pass, nothing skipped."""
    walk = _walk_space(cands.size, n)
    table = links(cands, houses, cell_houses, n)
    nodes, parents = walk[0], walk[1]
    gone = np.zeros(cands.size * n, np.int32)
    sees, has, acc = cycle_masks(cands, houses, cell_houses, n)
    hint = np.zeros(7, np.int64)
    yes = cands.size > 0
    no = not yes
    for pas in (X_PASS, Y_PASS, XY_PASS):
        for c in range(cands.size):
            m = cands[c]
            card = popcount(m)
            if card < 2 or (pas == Y_PASS and card > 2):
                continue
            for d in range(1, n + 1):
                if not m >> (d - 1) & 1:
                    continue
                p = c * n + d - 1
                _, closed = _plain_walk(2 * p + 1, pas, yes, table, walk)
                _cycle_rows(closed, p, pas, nodes, parents, n, gone, sees, has, acc, hint, found)
                if pas == Y_PASS:
                    continue
                for source in (2 * p + 1, 2 * p):
                    hit, _ = _plain_walk(source, pas, no, table, walk)
                    if hit >= 0 and _worth(cands, nodes[hit], n):
                        cx = _chain_states(hit, nodes, parents)
                        tenths = (70 if pas == XY_PASS else 66) + _length_tenths(cx)
                        _consider(hint, found, tenths, cx, UNARY, nodes[hit], source, pas)


@wide_kernel
def _plain_path(kind, source, where, cands, houses, cell_houses, n, walk):
    """Walk again the path of a row of :func:`_plain_search`: its last node (the cycle's closing on node, or the
    forcing chain's end), and for a cycle the off state that leads back to the source (else -1)."""
    return _plain_path_on(kind, source, where, links(cands, houses, cell_houses, n), walk)


@wide_kernel(_nrt=False)
def _plain_path_on(kind, source, where, table, walk):
    """:func:`_plain_path` over the grid's link table ``table``."""
    pas = where % 3
    if kind == CYCLE:
        _plain_walk(source, pas, kind == CYCLE, table, walk)
        return cycle_end(where // 3, walk[0])
    hit, _ = _plain_walk(source, pas, kind == CYCLE, table, walk)
    return hit, -1
