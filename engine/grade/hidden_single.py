"""Hidden single: a digit that has only one place left in a house goes there.

Boxes are searched before rows and columns because a hidden single in a box is the easier one to spot (it rates
lower: ``HIDDEN_SINGLE_IN_BOX_RATING`` in :mod:`engine.vocabulary`); so the search order is boxes, rows, columns,
and within a house the digits ascending.
"""
from __future__ import annotations

from ..bits import lowest_digit
from ..vocabulary import HIDDEN_SINGLE_IN_BOX_RATING, RATINGS
from .state import State, Step

NAME = "hidden-single"
RATING_BOX = HIDDEN_SINGLE_IN_BOX_RATING
RATING_LINE = RATINGS[NAME]


def find(state: State) -> Step | None:
    t = state.t
    cands = state.cands
    n = t.n
    for h in list(range(2 * n, 3 * n)) + list(range(2 * n)):
        house = t.houses[h]
        once = more = 0
        for c in house:
            more |= once & cands[c]
            once |= cands[c]
        once &= ~more
        if once:
            digit = lowest_digit(once)
            bit = 1 << (digit - 1)
            cell = next(c for c in house if cands[c] & bit)
            rating = RATING_BOX if h >= 2 * n else RATING_LINE
            return Step(NAME, rating, f"{t.cell_name(cell)}: hidden single {digit} in {t.house_name(h)}",
                        placements=((cell, digit),), cells=(cell,), houses=(h,))
    return None
