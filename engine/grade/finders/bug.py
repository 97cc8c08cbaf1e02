"""Bivalue Universal Grave (BUG), Sudoku Explainer's types 1-4.

A state where every blank cell has two candidates and every digit has two places in every house it still misses
is a BUG: it has no solution or several. So in a puzzle with one solution, once the *BUG digits* are taken away
(a digit with another count of places in a house is a BUG digit of its one cell there with three or more
candidates), at least one BUG cell holds one of its BUG digits:

- type 1 (BUG+1, 5.6): one BUG cell: it holds one of its BUG digits (its other candidates go; with one BUG
  digit a naked single is left, placed by the next step, as Sudoku Explainer does);
- type 2 (5.7): BUG cells with one BUG digit x between them: x leaves every cell that sees them all;
- type 3 (5.7 + 0.1 per cell of the set beyond the first, 5.8 for a pair): BUG cells in one house, whose BUG
  digits act as one cell: with other cells of the house they form a naked set, removed from the rest of it;
- type 4 (5.7): two BUG cells in one house sharing one other digit v: each holds v or its BUG digits.

Search (Sudoku Explainer's): houses by kind (boxes, rows, then columns), each kind in order, digits ascending
find the BUG cells; then type 1, or type 2 before type 4 (one BUG digit), or type 4 before type 3 (several).
Type 3 tries house kinds in that order, then sets of 2..6 cells, other cells in house order, lexicographically.
"""
from __future__ import annotations

from itertools import combinations

from ...bits import digits_of
from ..state import State, Step, cell_list, describe_eliminations
from .unique_loops import kinds

#: the largest naked set of type 3
MAX_DEGREE = 6
#: the kinds of BUG step (engine.vocabulary.STEP_NAMES); the compiled twin returns the same (engine.grade.kernels.bug)
PLUS_ONE, TYPE1, TYPE2, TYPE3, TYPE4 = 0, 1, 2, 3, 4


def bug_cells(state: State):
    """(BUG cells in the order found, cell -> its BUG digits mask, their cells' common peers) when the state is a
    BUG once the BUG digits are taken away, else None."""
    t = state.t
    cands = state.cands
    found: list[int] = []
    digits: dict[int, int] = {}
    every = 0
    common: set[int] | None = None
    # boxes, rows, columns, then the diagonals (they follow the regions)
    order = list(t.regions) + list(range(2 * t.n)) + list(range(2 * t.n + len(t.regions), len(t.houses)))
    for h in order:
        for d in range(1, t.n + 1):
            bit = 1 << (d - 1)
            places = [c for c in t.houses[h] if cands[c] & bit]
            if len(places) in (0, 2):
                continue
            wide = [c for c in places if cands[c].bit_count() >= 3]
            if not wide:
                return None  # a digit without two places and no cell to blame: not a BUG
            if len(wide) > 1:
                continue
            c = wide[0]
            if c not in digits:
                found.append(c)
            digits[c] = digits.get(c, 0) | bit
            every |= bit
            common = set(t.peers[c]) if common is None else common & t.peer_sets[c]
            common -= set(found)
            if len(found) > 1 and every.bit_count() > 1 and not common:
                return None  # no type can follow
    rest = [cands[c] & ~digits.get(c, 0) for c in range(t.ncells)]
    if any(state.cells[c] == 0 and rest[c].bit_count() != 2 for c in range(t.ncells)):
        return None
    for house in t.houses:
        for d in range(t.n):
            if sum(rest[c] >> d & 1 for c in house) not in (0, 2):
                return None
    return found, digits, common


def _shared_houses(t, cells) -> list[int]:
    return [h for h in kinds(t, cells[0]) if all(h in t.cell_houses[c] for c in cells)]


def _type4(state: State, name: str, found, digits, every):
    t = state.t
    c1, c2 = found
    common = state.cands[c1] & state.cands[c2] & ~every
    if common.bit_count() != 1:
        return None
    houses = _shared_houses(t, found)
    if not houses:
        return None
    v = digits_of(common)[0]
    elims = tuple((c, d) for c in found for d in digits_of(state.cands[c] & ~digits[c] & ~common))
    return Step(name, 5.7, f"BUG type 4: {cell_list(t, found)} in {t.house_name(houses[0])} share {t.symbol(v)}, one of them "
                           f"holds its BUG digit: removes {describe_eliminations(t, elims)}",
                eliminations=tuple(sorted(elims)), cells=tuple(found), houses=(houses[0],), kind=TYPE4)


def _type3(state: State, name: str, found, every):
    t = state.t
    cands = state.cands
    for h in _shared_houses(t, found):
        region = [c for c in t.houses[h] if c not in found]
        small = [c for c in region if cands[c].bit_count() >= 2]
        for degree in range(2, MAX_DEGREE + 1):
            if len(region) < degree:
                continue
            for chosen in combinations(small, degree - 1):
                union = 0
                for c in chosen:
                    union |= cands[c]
                if union.bit_count() != degree or (union | every).bit_count() != degree:
                    continue
                elims = tuple((c, d) for c in region if c not in chosen for d in digits_of(cands[c] & union))
                if elims:
                    return Step(name, (57 + degree - 1) / 10,
                                f"BUG type 3: {cell_list(t, found)} hold one of "
                                f"{t.symbols(digits_of(every))}: with {cell_list(t, chosen)} a naked set "
                                f"{t.symbols(digits_of(union))} in {t.house_name(h)}: "
                                f"removes {describe_eliminations(t, elims)}",
                                eliminations=tuple(sorted(elims)), cells=tuple(found) + chosen, houses=(h,),
                                kind=TYPE3)
    return None


def find(state: State, name: str) -> Step | None:
    """The first BUG step in search order, or None: a step of the row ``name``, rated by its type (above)."""
    t = state.t
    bug = bug_cells(state)
    if bug is None:
        return None
    found, digits, common = bug
    every = 0
    for mask in digits.values():
        every |= mask
    if len(found) == 1:
        c = found[0]
        elims = tuple((c, d) for d in digits_of(state.cands[c] & ~every))
        if every.bit_count() == 1:  # its other candidates go (as Sudoku Explainer's hint): a naked single is left
            d = digits_of(every)[0]
            return Step(name, 5.6, f"BUG+1: {t.cell_name(c)} must be {t.symbol(d)}, else no solution or several: "
                                   f"removes {describe_eliminations(t, elims)}", eliminations=elims, cells=(c,),
                        kind=PLUS_ONE)
        return Step(name, 5.6, f"BUG type 1: {t.cell_name(c)} holds one of {t.symbols(digits_of(every))}: "
                               f"removes {describe_eliminations(t, elims)}", eliminations=elims, cells=(c,),
                    kind=TYPE1)
    if every.bit_count() == 1:
        x = digits_of(every)[0]
        elims = tuple((c, x) for c in sorted(common or ()) if state.cands[c] & every)
        if elims:
            return Step(name, 5.7, f"BUG type 2: one of {cell_list(t, found)} is {t.symbol(x)}: "
                                   f"removes {describe_eliminations(t, elims)}", eliminations=elims, cells=tuple(found),
                        kind=TYPE2)
        return _type4(state, name, found, digits, every) if len(found) == 2 else None
    if common:
        step = _type4(state, name, found, digits, every) if len(found) == 2 else None
        return step or _type3(state, name, found, every)
    return None
