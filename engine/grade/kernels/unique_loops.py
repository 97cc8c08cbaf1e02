"""Compiled unique loops, twins of :mod:`engine.grade.finders.unique_loops`, in its search order: the walk (an
explicit stack where the Python walk recurses), and the steps of types 1 to 4 on each loop it finds (type 3, naked
and hidden sets with the two cells that hold extras, below the walk, with the house lookup in Sudoku Explainer's
order, box, row, column, that the walk and BUG share).

A step is ranked by ``key = rating tenths * 8 + type`` (lowest wins, the first found on a tie); the removals of
the best step so far are kept as one candidate mask per cell and applied at the end.
"""
from __future__ import annotations

import numpy as np

from ..._jit import kernel_with, wide_kernel
from ...bits import lowbit_index, popcount
from .state import _has_regions, _in_house, _nkinds, _se_slot, _sees
from .subsets import _next_combination

#: the key of a unique rectangle of type 1, the best step there is (the search stops there); NONE: no step yet
BEST = 45 * 8 + 1
NONE = 1 << 30


@wide_kernel(_nrt=False)
def _base_tenths(length):
    return 45 + (3 if length >= 10 else 0) + (2 if length >= 8 else (1 if length >= 6 else 0))


@kernel_with(_nrt=False)
def _loop_steps(path, length, both, best, best_rem, tmp, extras, cells, cands, houses, peers, cell_houses, n,
                scratch):
    """The steps of one valid loop, kept in ``best_rem`` when better than ``best``; the best key after it.
    Compiled without reference counts (its calls and loops over peers counted some at every loop found, which
    perf showed), so it allocates nothing: ``scratch`` is type 3's (type3_scratch)."""
    base = _base_tenths(length)
    m = 0
    rest = np.int64(0)
    for i in range(length):
        c = path[i]
        if popcount(cands[c]) > 2:
            extras[m] = c
            m += 1
            rest |= cands[c] & ~both
    if m == 1:
        key = base * 8 + 1
        if key < best:
            for c in range(cands.size):
                best_rem[c] = 0
            best_rem[extras[0]] = both
            return key
        return best
    if m < 2:
        return best
    if m > 2 or popcount(rest) == 1:
        key = base * 8 + 2
        if key < best:
            x = cands[extras[0]] & ~both
            x = x & -x
            for p in peers[extras[0]]:
                if cands[p] & x:
                    ok = True
                    for j in range(1, m):
                        ok &= _sees(p, extras[j], cell_houses)
                    if ok:
                        tmp[p] = x
            if _keep(tmp, best_rem, cands.size):
                best = key
    else:
        best = _type3(cells, cands, houses, cell_houses, n, extras[0], extras[1], both, base, best, tmp, best_rem,
                      scratch)
    if m == 2 and base * 8 + 4 < best:
        regions = _has_regions(houses, n)
        c1, c2 = extras[0], extras[1]
        low = both & -both
        locked_a = False  # a has no other place in a shared house
        locked_b = False  # nor b
        for k in range(_nkinds(cell_houses, regions)):
            h = _house_of(c1, k, cell_houses, regions)
            if not _in_house(c2, h, cell_houses):
                continue
            seen = np.int64(0)
            for i in range(n):
                c = houses[h, i]
                if c != c1 and c != c2:
                    seen |= cands[c]
            locked_a |= not seen & low
            locked_b |= not seen & (both & ~low)
        if locked_a or locked_b:
            other = both & ~low if locked_a else low
            for c in range(cands.size):
                best_rem[c] = 0
            best_rem[c1] = other
            best_rem[c2] = other
            best = base * 8 + 4
    return best


@wide_kernel
def _unique_loop(cells, cands, houses, peers, cell_houses, n):
    """Apply the best unique-loop step: ``key * 2 + 1`` for a loop of more than four cells, ``key * 2`` for a
    unique rectangle (key: tenths * 8 + type, see above); 0 when there is none."""
    ncells = cands.size
    path = np.empty(ncells + 1, np.int64)
    kind = np.empty(ncells + 1, np.int64)
    pos = np.empty(ncells + 1, np.int64)
    allowed = np.empty(ncells + 1, np.int64)
    extra = np.empty(ncells + 1, np.int64)
    last = np.empty(ncells + 1, np.int64)
    on_path = np.zeros(ncells, np.bool_)
    par = np.zeros((houses.shape[0], 2), np.int64)
    best_rem = np.zeros(ncells, np.int64)
    tmp = np.zeros(ncells, np.int64)
    extras = np.empty(ncells, np.int64)
    scratch3 = type3_scratch(n)
    # each cell's units in Sudoku Explainer's order (box, row, column, ...: kinds as _house_of numbers them), read
    # in the loops below instead of calling _house_of: a call counts references to the arrays it takes, inlined or
    # not, 243 calls a try (docs/development.md)
    regions = _has_regions(houses, n)
    nkinds = _nkinds(cell_houses, regions)  # (a Latin square's region slot repeats the row: state.grader_units)
    hof = np.empty((ncells, nkinds), np.int64)
    for c in range(ncells):
        for k in range(nkinds):
            hof[c, k] = cell_houses[c, _se_slot(k, regions)]
    # each house's cells as bits (for the cells each pair of digits may loop through)
    nhouses = houses.shape[0]
    words = (ncells + 63) >> 6
    house_bits = np.zeros((nhouses, words), np.uint64)
    for h in range(nhouses):
        for c in houses[h]:
            house_bits[h, c >> 6] |= np.uint64(1) << np.uint64(c & 63)
    keep = np.empty(words, np.uint64)
    # the distinct pairs of digits of the cells with two, and each such cell's pair
    npairs = 0
    pairs = np.empty(ncells, np.int64)
    which = np.full(ncells, -1, np.int64)
    for c in range(ncells):
        if popcount(cands[c]) == 2:
            j = 0
            while j < npairs and pairs[j] != cands[c]:
                j += 1
            if j == npairs:
                pairs[npairs] = cands[c]
                npairs += 1
            which[c] = j
    eligible_of = np.zeros((npairs, ncells), np.bool_)
    done = np.zeros(npairs, np.bool_)
    best = NONE
    longer = 0  # the best step's loop has more than four cells
    for start in range(ncells):
        if which[start] < 0:
            continue
        both = cands[start]
        # a cell of a valid loop shares each of its houses with another cell of the loop: keep only the cells
        # with both digits whose every house holds another such cell (to a fixed point). Only steps into the
        # others are cut (their extras are still gathered), so the loops found are the same, found sooner.
        # (They depend on the two digits only: found once for each pair.)
        eligible = eligible_of[which[start]]
        if not done[which[start]]:
            done[which[start]] = True
            # on bitsets of cells: a house with one such cell left loses it, until none has one
            for w in range(words):
                keep[w] = 0
            for c in range(ncells):
                if cands[c] & both == both:
                    keep[c >> 6] |= np.uint64(1) << np.uint64(c & 63)
            changed = True
            while changed:
                changed = False
                for h in range(nhouses):
                    total = 0
                    for w in range(words):
                        total += popcount(keep[w] & house_bits[h, w])
                    if total == 1:
                        changed = True
                        for w in range(words):
                            keep[w] &= ~house_bits[h, w]
            for w in range(words):
                x = keep[w]
                while x:
                    eligible[(w << 6) + lowbit_index(x)] = True
                    x &= x - np.uint64(1)
        if not eligible[start]:
            continue
        path[0] = start
        on_path[start] = True
        for k in range(nkinds):
            par[hof[start, k], 0] = 1
        kind[0], pos[0], allowed[0], extra[0], last[0] = 0, 0, 2, 0, -1
        length = 1
        while length > 0:
            d = length - 1
            cell = path[d]
            pushed = False
            while kind[d] < nkinds and not pushed:
                k = kind[d]
                if k == last[d]:
                    kind[d] += 1
                    continue
                h = hof[cell, k]
                while pos[d] < n:
                    nxt = houses[h, pos[d]]
                    pos[d] += 1
                    if nxt == start:
                        if length >= 4:
                            valid = True
                            for i in range(length):
                                for kk in range(nkinds):
                                    g = hof[path[i], kk]
                                    valid &= par[g, 0] == 1 and par[g, 1] == 1
                            if valid:
                                key = _loop_steps(path, length, both, best, best_rem, tmp, extras, cells, cands,
                                                  houses, peers, cell_houses, n, scratch3)
                                if key < best:
                                    best = key
                                    longer = 1 if length > 4 else 0
                                if best == BEST:
                                    for c in range(ncells):
                                        cands[c] &= ~best_rem[c]
                                    return BEST * 2 + longer
                        continue
                    pot = cands[nxt]
                    if on_path[nxt] or pot & both != both:
                        continue
                    if pot == both and nxt < start:
                        # a loop through an earlier cell with only the two digits was walked from that cell, the
                        # first start it has: found again here it would change nothing (a later find wins no tie)
                        continue
                    extra[d] |= pot & ~both
                    size = popcount(pot)
                    if not (size == 2 or popcount(extra[d]) == 1 or allowed[d] > 0):
                        continue
                    p = length & 1
                    # a longer loop rates no lower: once it cannot beat the best step, stop growing
                    clash = not eligible[nxt] or _base_tenths(length + 1) * 8 + 1 >= best
                    for kk in range(nkinds):
                        clash |= par[hof[nxt, kk], p] != 0
                    if clash:
                        continue
                    for kk in range(nkinds):
                        par[hof[nxt, kk], p] = 1
                    on_path[nxt] = True
                    path[length] = nxt
                    kind[length], pos[length], extra[length], last[length] = 0, 0, extra[d], k
                    allowed[length] = allowed[d] - (1 if size > 2 else 0)
                    length += 1
                    pushed = True
                    break
                if not pushed:
                    kind[d] += 1
                    pos[d] = 0
            if not pushed:
                for kk in range(nkinds):
                    par[hof[cell, kk], d & 1] = 0
                on_path[cell] = False
                length -= 1
    if best == NONE:
        return 0
    for c in range(ncells):
        cands[c] &= ~best_rem[c]
    return best * 2 + longer


# -- type 3: naked and hidden sets with the two cells that hold extras (the finder's type3) ----------------------------

#: the largest naked or hidden set (engine.grade.finders.unique_loops.MAX_DEGREE)
MAX_DEGREE = 4


@kernel_with(inline="always")
def _house_of(cell, kind, cell_houses, regions):
    """The house of ``cell`` of kind 0 (box), 1 (row), 2 (column), ... (state._se_slot; ``regions`` False on a
    Latin square: 0 row, 1 column)."""
    return cell_houses[cell, _se_slot(kind, regions)]


@wide_kernel
def type3_scratch(n):
    """The scratch of :func:`_type3` for ``n`` digits: the other cells of a house, their candidates, the digits
    left, and a combination's indices (one row each)."""
    return np.empty((4, max(n, MAX_DEGREE)), np.int64)


@wide_kernel(_nrt=False)
def _type3(cells, cands, houses, cell_houses, n, c1, c2, both, base, best, tmp, best_rem, scratch):
    """Type 3 steps better than ``best`` (a key, rating tenths * 8 + 3), kept in ``best_rem``; the best key.
    ``scratch``: :func:`type3_scratch` (it allocates nothing: its caller runs without reference counts)."""
    extra = (cands[c1] | cands[c2]) & ~both
    shared = extra & cands[c1] & cands[c2]
    others = scratch[0]
    masks = scratch[1]
    rest = scratch[2]
    idx = scratch[3]
    regions = _has_regions(houses, n)
    for degree in range(popcount(extra), MAX_DEGREE + 1):
        if (base + degree - 2) * 8 + 3 >= best:
            return best
        for k in range(_nkinds(cell_houses, regions)):
            h = _house_of(c1, k, cell_houses, regions)
            if not _in_house(c2, h, cell_houses):
                continue
            empty = 0
            for i in range(n):
                if cells[houses[h, i]] == 0:
                    empty += 1
            key = (base + degree - 1) * 8 + 3
            if degree * 2 <= empty and key < best:
                m = 0
                for i in range(n):
                    c = houses[h, i]
                    if c != c1 and c != c2 and popcount(cands[c]) >= 2:
                        others[m] = c
                        masks[m] = cands[c]
                        m += 1
                r = degree - 1
                if m >= r:
                    for j in range(r):
                        idx[j] = j
                    while True:
                        union = np.int64(0)
                        for j in range(r):
                            union |= masks[idx[j]]
                        if popcount(union | shared) == degree and popcount(union | extra) == degree:
                            union |= extra
                            for i in range(n):
                                c = houses[h, i]
                                if c == c1 or c == c2 or not cands[c] & union:
                                    continue
                                chosen = False
                                for j in range(r):
                                    chosen |= others[idx[j]] == c
                                if not chosen:
                                    tmp[c] = cands[c] & union
                            if _keep(tmp, best_rem, cands.size):
                                best = key
                                break
                        if not _next_combination(idx, r, m):
                            break
            key = (base + degree - 2) * 8 + 3
            if degree * 2 < empty and key < best:
                m = 0
                for d in range(1, n + 1):
                    if not (both | extra) >> (d - 1) & 1:
                        rest[m] = d
                        m += 1
                r = degree - 2
                if m >= r:
                    for j in range(r):
                        idx[j] = j
                    while True:
                        hidden = both
                        for j in range(r):
                            hidden |= np.int64(1) << (rest[idx[j]] - 1)
                        places = np.int64(0)
                        ok = True
                        for d in range(n):
                            if hidden >> d & 1:
                                at = np.int64(0)
                                for i in range(n):
                                    c = houses[h, i]
                                    if c != c2 and cands[c] >> d & 1:
                                        at |= np.int64(1) << i
                                ok &= at != 0
                                places |= at
                        if ok and popcount(places) == degree:
                            for i in range(n):
                                c = houses[h, i]
                                if places >> i & 1 and c != c1 and cands[c] & ~hidden:
                                    tmp[c] = cands[c] & ~hidden
                            if _keep(tmp, best_rem, cands.size):
                                best = key
                                break
                        if not _next_combination(idx, r, m):
                            break
    return best


@wide_kernel(_nrt=False)
def _keep(tmp, best_rem, ncells):
    """Copy ``tmp`` to ``best_rem`` when it removes something (and clear it); whether it did."""
    found = False
    for c in range(ncells):
        if tmp[c]:
            found = True
            break
    if found:
        for c in range(ncells):
            best_rem[c] = tmp[c]
            tmp[c] = 0
    return found
