"""Compiled forcing chains: Nishio, multiple (cell and region) and dynamic forcing chains, as Sudoku Explainer
finds and rates them.

One producer call looks at every candidate of the grid the way Sudoku Explainer's ``Chaining`` does with its
flags (multiple, dynamic, Nishio), collects every conclusion, and applies the one with the lowest rating (ties: the
lower complexity, then the kind's sort key, then the first found):

- *contradiction*: assuming a candidate on (or off) forces some candidate both on and off, so it is off (on);
- *double*: a candidate is forced the same way whether some other candidate is on or off;
- *region*: a candidate is forced the same way by every place of a digit in a house;
- *cell*: a candidate is forced the same way by every candidate of a cell.

Ratings: Nishio 7.5, multiple 8.0, dynamic 8.5, each plus the length bonus of the conclusion's complexity (the
sum of the distinct states behind it over its chains). The slot layout of a call: one slot per digit for the
candidates of the cell being looked at, one for its off run, and one per place for region runs.
"""
from __future__ import annotations

import numpy as np

from ...._jit import kernel_with, wide_kernel
from ....bits import lowbit_index, popcount
# the producers, the argument of the table's forcing rows (engine/grade/kernels/families.py says each)
from ..families import DYNAMIC, DYNAMIC_PLUS, MULTIPLE, NISHIO, STATIC  # noqa: F401 (STATIC: the nested searches')
from ..misses import _changed_digits, _remember
from ..state import _conclude, SE_SLOTS
from .implications import NONE, _length_tenths, _propagate, _start_grid, _worth
from .reuse import _off_needed
from .slots import BITS, _ancestors, _first_path, _full_path, _new_conclusion, _reset, _workspace
from .space import _search_space_in, forcing_space
from .static_miss import _static_units

# the kinds of conclusion, stored in a hint's record (UNARY: a candidate on forces it off, or off forces it on;
# CYCLE: a candidate a cycle removes)
CONTRADICTION, DOUBLE, REGION, CELL, UNARY, CYCLE = 0, 1, 2, 3, 4, 5
# Sudoku Explainer's sort keys, the last tie-break
_SORT_KEY = (7, 1, 6, 5, 1, 1)
# the slots of a hint record
# (H_SOURCE: the assumed state; for a region conclusion, its digit. H_WHERE: the cell or house)
H_TENTHS, H_COMPLEXITY, H_SORT, H_TARGET, H_KIND, H_SOURCE, H_WHERE = 0, 1, 2, 3, 4, 5, 6
HINT_SIZE = 7
NO_HINT = 1 << 30


@wide_kernel(_nrt=False)
def _base_tenths(producer):
    return 75 if producer == NISHIO else (80 if producer == MULTIPLE else (85 if producer == DYNAMIC else 90))


@wide_kernel(_nrt=False)
def _consider(hint, found, tenths, complexity, kind, target, source, where):
    """Keep the conclusion if it sorts before the one kept (Sudoku Explainer's order: rating, complexity, key); or,
    when ``found`` has rows, add it there as a row like a hint record (``found[0, 0]``: how many rows follow; a
    full table drops the rest).

    ``found[0, 1]``, when positive, is the row where a table of the best (rating, complexity, key) collected for
    each target state starts (one row per state, to the end of ``found``; :data:`NO_HINT` where none): a
    conclusion on a target that has one sorting no later is not added. Its caller (the nested chains) keeps only
    the first of the conclusions that remove the same candidates, in that order, so such a row would be dropped
    there anyway; the table spares the rows, and (:func:`_hopeless`) the complexities, of the great majority of
    the conclusions a search inside collects (86 % of them on Golden Nugget)."""
    key = _SORT_KEY[kind]
    if found.shape[0]:
        table = found[0, 1]
        if table > 0 and kind != CYCLE:
            b = table + target
            if (tenths, complexity, key) >= (found[b, H_TENTHS], found[b, H_COMPLEXITY], found[b, H_SORT]):
                return
            found[b, H_TENTHS] = tenths
            found[b, H_COMPLEXITY] = complexity
            found[b, H_SORT] = key
        k = found[0, 0] + 1
        if k < (table if table > 0 else found.shape[0]):
            found[k, H_TENTHS] = tenths
            found[k, H_COMPLEXITY] = complexity
            found[k, H_SORT] = key
            found[k, H_TARGET] = target
            found[k, H_KIND] = kind
            found[k, H_SOURCE] = source
            found[k, H_WHERE] = where
            found[0, 0] = k
        return
    if (tenths, complexity, key) < (hint[H_TENTHS], hint[H_COMPLEXITY], hint[H_SORT]):
        hint[H_TENTHS] = tenths
        hint[H_COMPLEXITY] = complexity
        hint[H_SORT] = key
        hint[H_TARGET] = target
        hint[H_KIND] = kind
        hint[H_SOURCE] = source
        hint[H_WHERE] = where


@kernel_with(inline="always")
def _hopeless(hint, found, base, least, kind, target):
    """Whether a conclusion on ``target`` whose complexity is at least ``least`` cannot sort before the kept one (so
    its complexity need not be counted): its rating grows with the complexity, and a tie keeps the one found first.
    When every conclusion is collected in ``found``: never, unless ``found`` keeps its table of the best for each
    target (:func:`_consider`), against which the same holds."""
    if found.shape[0]:
        table = found[0, 1]
        if table <= 0:
            return False
        b = table + target
        return (base + _length_tenths(least), least, _SORT_KEY[kind]) >= (found[b, H_TENTHS],
                                                                          found[b, H_COMPLEXITY], found[b, H_SORT])
    return (base + _length_tenths(least), least, _SORT_KEY[kind]) >= (hint[H_TENTHS], hint[H_COMPLEXITY],
                                                                      hint[H_SORT])


@wide_kernel(_nrt=False)
def _on_run(ws, memo, p, scratch, cands, houses, cell_houses, n, ylinks, dynamic, level):
    """The slot holding the run from candidate ``p`` on: remembered when there is room (a candidate's run serves
    its own contradiction, its cell's chains and the region chains of each of its houses), else made again in slot
    ``scratch``. ``memo`` rows: 0 the slot of each candidate (-1: none), 1-2 the contradiction it found; ``memo[3,
    0]`` the next free slot, ``memo[3, 1]`` the end of the remembered slots."""
    w = memo[0, p]
    if w >= 0:
        return w
    w = scratch
    if memo[3, 0] < memo[3, 1]:
        w = memo[3, 0]
        memo[3, 0] += 1
        memo[0, p] = w
    _reset(ws, w)
    on, off = _propagate(ws, w, 2 * p + 1, cands, houses, cell_houses, n, ylinks, dynamic, level)
    memo[1, p] = on
    memo[2, p] = off
    return w


@wide_kernel
def _forcing_hint(producer, cands, houses, cell_houses, n, hint):
    """Fill ``hint`` with the best conclusion of ``producer`` on ``cands`` (H_TENTHS stays NO_HINT when none)."""
    _forcing_hint_on(producer, cands, houses, cell_houses, n, hint, np.int64(-1))


@wide_kernel
def _forcing_hint_on(producer, cands, houses, cell_houses, n, hint, digits):
    """:func:`_forcing_hint` looking only at the candidates of ``digits`` (a bit each; Nishio only, see
    :func:`_forcing_digits`)."""
    _forcing_hint_in(producer, cands, houses, cell_houses, n, hint, digits, forcing_space(cands.size, n, 0),
                     np.zeros(0, np.int8))


@wide_kernel
def _forcing_hint_in(producer, cands, houses, cell_houses, n, hint, digits, space, units):
    """:func:`_forcing_hint_on` in the shared workspace ``space`` when it has room (:func:`forcing_space`), looking
    only at the cells and houses ``units`` flags (engine.grade.kernels.chains.static_miss._static_units; MULTIPLE only,
    an empty array for all)."""
    ws, memo = _search_space_in(cands, n, space)
    _forcing_digits(producer, cands, houses, cell_houses, n, hint, np.zeros((0, HINT_SIZE), np.int64), ws, memo,
                    digits, _digits_scratch(n), units, np.zeros(0, np.int8), np.zeros((0, 0), np.int64))


@wide_kernel
def _digits_scratch(n):
    """The scratch of :func:`_forcing_digits`, which allocates nothing itself: the slots of a cell's runs (row 0)
    and a region's (row 1)."""
    return np.empty((2, n), np.int64)


@wide_kernel
def _forcing_search(producer, cands, houses, cell_houses, n, hint, found, ws, memo):
    """The search of :func:`_forcing_hint` in the given workspace; with rows in ``found``, every conclusion is
    added there instead (:func:`_consider`), and the remembered runs stay in ``ws`` for the caller."""
    _forcing_digits(producer, cands, houses, cell_houses, n, hint, found, ws, memo, np.int64(-1), _digits_scratch(n),
                    np.zeros(0, np.int8), np.zeros(0, np.int8), np.zeros((0, 0), np.int64))


@kernel_with(_nrt=False)
def _forcing_digits(producer, cands, houses, cell_houses, n, hint, found, ws, memo, digits, slots, units, same,
                    base_off):
    """:func:`_forcing_search` from the candidates of ``digits`` only (a bit each; -1 for all). Only Nishio may be
    given fewer: its chains follow one digit (X links), so each of its conclusions comes from that digit's places
    alone, while the other producers' cell chains join the digits of a cell. ``slots``: scratch
    (:func:`_digits_scratch`). ``units``: empty, or (MULTIPLE only) the cells and houses that may conclude, as
    engine.grade.kernels.chains.static_miss._static_units flags them; the others are skipped, with the runs only they
    need. ``same`` and ``base_off``: empty, or (a search inside nested chains, on a grid that lacks some candidates
    of a base grid where this search concludes nothing: engine.grade.kernels.chains.reuse) for each candidate
    whether its run on, and its run off, is the one it makes on the base grid (bits 1 and 2), then whether each
    cell's and each region's chain is (engine.grade.kernels.chains.reuse._reuse), and the states of its run off
    there; ``memo`` then already holds the runs on that are the same.

    Compiled without numba's reference counting, and so is everything it calls (numba compiles callees with the
    caller's flags): the workspace ``ws`` is a tuple of 18 arrays, and every call that took it counted a reference
    to each of them, in and out, with atomic operations (docs/development.md, "Reference counts"). Nothing below
    allocates or keeps an array, which is what running without the counts needs."""
    hint[:] = NO_HINT
    ncells = cands.size
    nishio = producer == NISHIO
    dynamic = producer != MULTIPLE
    multiple = producer != NISHIO
    level = 1 if producer == DYNAMIC_PLUS else 0
    base = _base_tenths(producer)
    ylinks = not nishio  # (one variable for every call below: a literal True would compile callees twice)
    cell_kind = np.int64(CELL)
    none = np.int64(-1)
    off_slot = n
    region_slot = n + 1
    cell_slots = slots[0]
    _start_grid(ws, cands, houses, cell_houses)  # the region chains read the places it makes (before any run)
    for c in range(ncells):
        m = cands[c]
        card = popcount(m)
        if not (card > 2 or (card > 1 and dynamic)):
            continue
        for d in range(1, n + 1):
            bit = np.int64(1) << (d - 1)
            if not m & bit or not digits & bit:
                continue
            p = c * n + d - 1
            w = -1  # the run from p on: made here unless only a flagged house's region chains need it
            if dynamic or not units.size:
                w = _on_run(ws, memo, p, d - 1, cands, houses, cell_houses, n, ylinks, dynamic, level)
            on, off = memo[1, p], memo[2, p]
            if dynamic and on != NONE and not _hopeless(
                    hint, found, base, _first_path(ws, w, on) + _first_path(ws, w, off), CONTRADICTION, 2 * p):
                # the candidate cannot be on
                _new_conclusion(ws)
                cx = _ancestors(ws, w, on) + _ancestors(ws, w, off)
                _consider(hint, found, base + _length_tenths(cx), cx, CONTRADICTION, 2 * p, 2 * p + 1, c)
            double = card >= 3 and dynamic and not nishio
            if (dynamic or double) and (not same.size or _off_needed(same, base_off, ws[18], w, p, double, cands, n)):
                _reset(ws, off_slot)
                on2, off2 = _propagate(ws, off_slot, 2 * p, cands, houses, cell_houses, n, ylinks, dynamic,
                                       level)
                if on2 != NONE and _worth(cands, 2 * p + 1, n) and not _hopeless(
                        hint, found, base, _first_path(ws, off_slot, on2) + _first_path(ws, off_slot, off2),
                        CONTRADICTION, 2 * p + 1):  # the candidate cannot be off
                    _new_conclusion(ws)
                    cx = _ancestors(ws, off_slot, on2) + _ancestors(ws, off_slot, off2)
                    _consider(hint, found, base + _length_tenths(cx), cx, CONTRADICTION, 2 * p + 1, 2 * p, c)
                if double:
                    _double(ws, w, off_slot, p, c, base, cands, n, hint, found)
            if not nishio:
                _region_chains(ws, memo, w, region_slot, c, d, multiple, ylinks, dynamic, level, base, cands, houses,
                               cell_houses, n, hint, found, slots[1], units, same)
        if not nishio and (card == 2 or (multiple and card > 2)) and (not units.size or units[c]) and not (
                same.size and same[ncells * n + c]):
            k = 0
            for d in range(1, n + 1):
                if m >> (d - 1) & 1:
                    cell_slots[k] = _on_run(ws, memo, c * n + d - 1, d - 1, cands, houses, cell_houses, n, ylinks,
                                            dynamic, level)
                    k += 1
            _common(ws, cell_slots, card, cell_kind, none, c, base, cands, n, hint, found)


@wide_kernel(_nrt=False)
def _double(ws, w, off_slot, p, c, base, cands, n, hint, found):
    """Double forcing chains: states both the run of candidate ``p`` on (slot ``w``) and its run off reach."""
    members = ws[18]
    for k in range(members.shape[1]):
        x = members[w, k] & members[off_slot, k]
        while x:
            low = x & -x
            x ^= low
            t = k * BITS + lowbit_index(low)
            if _worth(cands, t, n) and not _hopeless(
                    hint, found, base, _first_path(ws, w, t) + _first_path(ws, off_slot, t), DOUBLE, t):
                _new_conclusion(ws)
                cx = _ancestors(ws, w, t) + _ancestors(ws, off_slot, t)
                _consider(hint, found, base + _length_tenths(cx), cx, DOUBLE, t, 2 * p + 1, c)


@wide_kernel(_nrt=False)
def _common(ws, slots, k, kind, source, where, base, cands, n, hint, found):
    """Conclusions every run of ``slots[:k]`` reaches (a cell's or a region's forcing chains), in state order: the
    AND of the runs' member bits, word by word."""
    members = ws[18]
    for wd in range(members.shape[1]):
        x = members[slots[0], wd]
        for i in range(1, k):
            x &= members[slots[i], wd]
        while x:
            low = x & -x
            x ^= low
            t = wd * BITS + lowbit_index(low)
            if not _worth(cands, t, n):
                continue
            least = 0
            for i in range(k):
                least += _first_path(ws, slots[i], t)
            if _hopeless(hint, found, base, least, kind, t):
                continue
            cx = 0
            _new_conclusion(ws)
            for i in range(k):
                cx += _ancestors(ws, slots[i], t)
            _consider(hint, found, base + _length_tenths(cx), cx, kind, t, source, where)


@wide_kernel(_nrt=False)
def _region_chains(ws, memo, w, first_slot, c, d, multiple, ylinks, dynamic, level, base, cands, houses, cell_houses,
                   n, hint, found, slots, units, same):
    """Region forcing chains on digit ``d`` from the houses of cell ``c`` where ``c`` is the digit's first place
    (so each house is looked at once); slot ``w`` holds the run from ``c`` being ``d`` (-1: made here when a house
    needs it); ``slots``: scratch (n); ``units`` and ``same``: as :func:`_forcing_digits` takes them."""
    made = ws[20]  # the digit's places in each house of ``cands``, as bits (made by _start_grid)
    for k in range(cell_houses.shape[1]):  # the box, the row, the column, the diagonals
        h = cell_houses[c, SE_SLOTS[k]]
        if k >= 3 and h == cell_houses[c, 0]:
            continue  # a diagonal the cell is not on: its slot repeats the row
        rest = made[h, d - 1]
        places = popcount(rest)
        if houses[h, lowbit_index(rest)] != c or not (places == 2 or (multiple and places > 2)):
            continue
        if units.size and not units[cands.size + h * n + d - 1]:
            continue  # its runs share no state worth concluding
        if same.size and same[cands.size * (n + 1) + h * n + d - 1]:
            continue  # its runs are the base grid's, where it concludes nothing
        if w < 0:
            w = _on_run(ws, memo, c * n + d - 1, d - 1, cands, houses, cell_houses, n, ylinks, dynamic, level)
        slots[0] = w
        j = 1
        rest &= rest - 1  # c is the first place
        while rest:
            low = rest & -rest
            rest ^= low
            c2 = houses[h, lowbit_index(low)]
            slots[j] = _on_run(ws, memo, c2 * n + d - 1, first_slot + j - 1, cands, houses, cell_houses, n, ylinks,
                               dynamic, level)
            j += 1
        _common(ws, slots, j, np.int64(REGION), np.int64(d), h, base, cands, n, hint, found)


@wide_kernel
def _forcing(producer, cells, cands, houses, cell_houses, peers, n, hint, memo, space):
    """One step of ``producer``: 0 when it finds nothing, 1 when it removed a candidate, 2 when it placed a digit;
    the rating in tenths is ``hint[H_TENTHS]``. Nishio looks only at the digits whose places changed since its last
    miss on this puzzle (``memo``: its row's of the memo of misses, :mod:`engine.grade.kernels.misses`): the others
    would miss again. ``space``: the batch's shared workspace (:func:`forcing_space`)."""
    nishio = producer == NISHIO
    digits = _changed_digits(memo, cands) if nishio else np.int64(-1)
    units = np.zeros(0, np.int8)
    if producer == MULTIPLE:  # the cells and houses that may conclude, proved without runs
        units = np.empty(cands.size + houses.shape[0] * n, np.int8)
        if not _static_units(cands, houses, cell_houses, n, units):
            hint[:] = NO_HINT  # none (engine.grade.kernels.chains.static_miss)
            return 0
    _forcing_hint_in(producer, cands, houses, cell_houses, n, hint, digits, space, units)
    if nishio:
        _remember(memo, cands, hint[H_TENTHS] == NO_HINT)
    if hint[H_TENTHS] == NO_HINT:
        return 0
    return 2 if _conclude(cells, cands, peers, hint[H_TARGET], n) else 1


@wide_kernel
def _forcing_links(producer, cands, houses, cell_houses, n, hint, out):
    """The chains of a kept conclusion, each from its assumption to the conclusion (a contradiction: to both
    states of the candidate forced both ways), as states in ``out`` separated by -1, each state followed by its
    other parents (:func:`engine.grade.kernels.chains.slots._full_path`); returns how many entries.
    The runs are made again exactly as the search made them, so they have the same parents."""
    ncells = cands.size
    dynamic = producer != MULTIPLE
    nishio = producer == NISHIO
    level = 1 if producer == DYNAMIC_PLUS else 0
    ws = _workspace(1, ncells, n)
    kind = hint[H_KIND]
    target = hint[H_TARGET]
    size = 0
    if kind == CONTRADICTION or kind == DOUBLE:
        seeds = (hint[H_SOURCE], hint[H_SOURCE] ^ 1)
        for k in range(1 if kind == CONTRADICTION else 2):
            _reset(ws, 0)
            on, off = _propagate(ws, 0, seeds[k], cands, houses, cell_houses, n, not nishio, dynamic, level)
            ends = (on, off) if kind == CONTRADICTION else (target, NONE)
            for e in ends:
                if e != NONE:
                    size = _full_path(ws, 0, e, out, size)
                    out[size] = -1
                    size += 1
        return size
    where = hint[H_WHERE]
    d = hint[H_SOURCE]  # a region conclusion keeps its digit there
    for i in range(n):
        if kind == REGION:
            c = houses[where, i]
            if not cands[c] >> (d - 1) & 1:
                continue
            seed = 2 * (c * n + d - 1) + 1
        else:
            if not cands[where] >> i & 1:
                continue
            seed = 2 * (where * n + i) + 1
        _reset(ws, 0)
        _propagate(ws, 0, seed, cands, houses, cell_houses, n, not nishio, dynamic, level)
        size = _full_path(ws, 0, target, out, size)
        out[size] = -1
        size += 1
    return size
