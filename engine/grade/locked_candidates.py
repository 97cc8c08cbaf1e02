"""Locked candidates: a digit whose places in one house all lie in one other house (pointing and claiming).

Then that digit's copy in the first house (the base) stands where the two meet, so no cell of the second house (the
cover) outside the base can hold it. One search, two techniques that rate and count apart:

- pointing: the base is a box and the cover a row or column (a digit confined to one line inside a box);
  search order: boxes, digits ascending, the row before the column;
- claiming (box-line reduction): the base is a row or column and the cover a box; search order: rows, then
  columns, digits ascending.
"""
from __future__ import annotations

from ..vocabulary import RATINGS
from .state import State, Step, cell_list, describe_eliminations

POINTING, CLAIMING = "pointing", "claiming"


def find(state: State, claiming: bool) -> Step | None:
    """The first pointing step (``claiming`` False) or claiming step (True) in search order, or None."""
    t = state.t
    cands = state.cands
    n = t.n
    bases = range(2 * n) if claiming else range(2 * n, 3 * n)
    for base in bases:
        house = t.houses[base]
        inside = set(house)
        present = 0
        for c in house:
            present |= cands[c]
        for digit in range(1, n + 1):
            bit = 1 << (digit - 1)
            if not present & bit:
                continue
            where = [c for c in house if cands[c] & bit]
            if len(where) < 2:
                continue
            for cover in t.common_houses(where):
                if (cover >= 2 * n) != claiming:  # the base itself (or, for pointing, nothing else)
                    continue
                eliminations = tuple((c, digit) for c in t.houses[cover] if cands[c] & bit and c not in inside)
                if eliminations:
                    name = CLAIMING if claiming else POINTING
                    return Step(name, RATINGS[name],
                                f"{name} {digit} in {t.house_name(base)} ({cell_list(t, where)}) "
                                f"{'inside' if claiming else 'along'} {t.house_name(cover)}: "
                                f"removes {describe_eliminations(t, eliminations)}",
                                eliminations=eliminations, cells=tuple(where), houses=(base, cover))
    return None


def find_pointing(state: State) -> Step | None:
    return find(state, claiming=False)


def find_claiming(state: State) -> Step | None:
    return find(state, claiming=True)
