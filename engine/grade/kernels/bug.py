"""Compiled BUG (bivalue universal grave), types 1-4, in the search order of engine/grade/finders/bug.py.

:func:`_bug` applies the step and returns its rating in tenths times 8 plus its kind (bug.PLUS_ONE .. bug.TYPE4,
engine.vocabulary.STEP_NAMES); 0 when there is none. It never places a digit: BUG+1 leaves a naked single.
"""
from __future__ import annotations

import numpy as np

from ..._jit import wide_kernel
from ...bits import popcount
from ..finders.bug import PLUS_ONE, TYPE1, TYPE2, TYPE3, TYPE4
from .state import _has_regions, _house_in_bug_order, _in_house, _nkinds, _sees
from .subsets import _next_combination
from .unique_loops import _house_of

#: the largest naked set of type 3 (bug.MAX_DEGREE)
MAX_DEGREE = 6


@wide_kernel
def _shared_house(found, m, kind, cell_houses, regions):
    """The house of kind ``kind`` (box, row, column, ...: unique_loops._house_of) holding all ``found[:m]``, or
    -1."""
    h = _house_of(found[0], kind, cell_houses, regions)
    for j in range(1, m):
        if not _in_house(found[j], h, cell_houses):
            return -1
    return h


@wide_kernel
def _bug(cells, cands, houses, peers, cell_houses, n):
    ncells = cands.size
    found = np.empty(ncells, np.int64)
    digits = np.zeros(ncells, np.int64)  # each cell's BUG digits
    common = np.zeros(ncells, np.bool_)  # the BUG cells' common peers, but themselves
    m = 0
    every = np.int64(0)
    regions = _has_regions(houses, n)
    for k in range(houses.shape[0]):
        h = _house_in_bug_order(k, n, regions)
        for d in range(n):
            bit = np.int64(1) << d
            count = 0
            wide = 0
            cell = -1
            for p in range(n):
                c = houses[h, p]
                if cands[c] & bit:
                    count += 1
                    if popcount(cands[c]) >= 3:
                        wide += 1
                        cell = c
            if count == 0 or count == 2:
                continue
            if wide == 0:
                return 0
            if wide > 1:
                continue
            if m == 0:
                for p in peers[cell]:
                    common[p] = True
            else:
                for c in range(ncells):  # the peers of every BUG cell
                    if common[c] and not _sees(c, cell, cell_houses):
                        common[c] = False
            if digits[cell] == 0:
                found[m] = cell
                m += 1
            for j in range(m):
                common[found[j]] = False
            digits[cell] |= bit
            every |= bit
            if m > 1 and popcount(every) > 1:
                left = False
                for c in range(ncells):
                    left |= common[c]
                if not left:
                    return 0
    for c in range(ncells):
        if cells[c] == 0 and popcount(cands[c] & ~digits[c]) != 2:
            return 0
    for h in range(houses.shape[0]):
        for d in range(n):
            count = 0
            for p in range(n):
                c = houses[h, p]
                count += (cands[c] & ~digits[c]) >> d & 1
            if count != 0 and count != 2:
                return 0
    if m == 1:  # type 1: the cell's other candidates go (one BUG digit: a naked single is left)
        cands[found[0]] &= every
        return 56 * 8 + (PLUS_ONE if popcount(every) == 1 else TYPE1)
    if popcount(every) == 1:
        changed = False
        for c in range(ncells):
            if common[c] and cands[c] & every:
                cands[c] &= ~every
                changed = True
        if changed:
            return 57 * 8 + TYPE2
        return _type4(cands, found, m, digits, every, cell_houses, regions)
    any_common = False
    for c in range(ncells):
        any_common |= common[c]
    if not any_common:
        return 0
    made = _type4(cands, found, m, digits, every, cell_houses, regions)
    if made:
        return made
    return _type3(cands, houses, found, m, every, cell_houses, regions, n)


@wide_kernel
def _type4(cands, found, m, digits, every, cell_houses, regions):
    if m != 2:
        return 0
    c1, c2 = found[0], found[1]
    common = cands[c1] & cands[c2] & ~every
    if popcount(common) != 1:
        return 0
    for kind in range(_nkinds(cell_houses, regions)):
        if _shared_house(found, m, kind, cell_houses, regions) >= 0:
            cands[c1] &= digits[c1] | common
            cands[c2] &= digits[c2] | common
            return 57 * 8 + TYPE4
    return 0


@wide_kernel
def _type3(cands, houses, found, m, every, cell_houses, regions, n):
    small = np.empty(n, np.int64)
    masks = np.empty(n, np.int64)
    idx = np.empty(MAX_DEGREE, np.int64)
    for kind in range(_nkinds(cell_houses, regions)):
        h = _shared_house(found, m, kind, cell_houses, regions)
        if h < 0:
            continue
        s = 0
        for p in range(n):
            c = houses[h, p]
            if popcount(cands[c]) >= 2:
                bug = False
                for j in range(m):
                    bug |= found[j] == c
                if not bug:
                    small[s] = c
                    masks[s] = cands[c]
                    s += 1
        for degree in range(2, MAX_DEGREE + 1):
            r = degree - 1
            if n - m < degree or s < r:
                continue
            for j in range(r):
                idx[j] = j
            while True:
                union = np.int64(0)
                for j in range(r):
                    union |= masks[idx[j]]
                if popcount(union) == degree and popcount(union | every) == degree:
                    changed = False
                    for p in range(n):
                        c = houses[h, p]
                        if not cands[c] & union:
                            continue
                        skip = False
                        for j in range(m):
                            skip |= found[j] == c
                        for j in range(r):
                            skip |= small[idx[j]] == c
                        if not skip:
                            cands[c] &= ~union
                            changed = True
                    if changed:
                        return (57 + degree - 1) * 8 + TYPE3
                if not _next_combination(idx, r, s):
                    break
    return 0
