"""Singles: a digit that has only one place left in a house goes there (hidden single); a blank cell with one
candidate left holds that digit (naked single).

The hidden single's search order is Sudoku Explainer's, since the order decides which state the next steps see:
first a house with one blank cell left (a *full house*, the easiest to spot: ``FULL_HOUSE_RATING``), then any
hidden single, each pass over boxes, then columns, then rows, and within a house the digits ascending. A hidden
single in a box rates lower than one in a row or column (``HIDDEN_SINGLE_IN_BOX_RATING`` in
:mod:`engine.vocabulary`). The naked single's: cells in reading order.
"""
from __future__ import annotations

from ...bits import lowest_digit
from ...vocabulary import FULL_HOUSE_RATING, HIDDEN_SINGLE_IN_BOX_RATING, RATINGS, step_name
from ..state import State, Step

RATING_FULL = FULL_HOUSE_RATING
RATING_BOX = HIDDEN_SINGLE_IN_BOX_RATING
#: the kind of step a full house is (engine.vocabulary.STEP_NAMES)
FULL_HOUSE = 1


def house_order(t) -> list[int]:
    """Boxes (none on a Latin square), columns, rows, then the diagonals (house indexes: rows 0..n-1, columns
    n..2n-1, regions 2n..3n-1, then the diagonals)."""
    n = t.n
    regions = list(range(2 * n, 3 * n)) if t.has_regions else []
    return regions + list(range(n, 2 * n)) + list(range(n)) + list(range(2 * n + len(regions), len(t.houses)))


def find_hidden_single(state: State, name: str) -> Step | None:
    """The first full house, else the first hidden single, in search order (``name``: the row's), or None."""
    t = state.t
    cands = state.cands
    for full in (True, False):
        for h in house_order(t):
            house = t.houses[h]
            if full and sum(1 for c in house if not state.cells[c]) != 1:
                continue
            once = more = 0
            for c in house:
                more |= once & cands[c]
                once |= cands[c]
            once &= ~more
            if once:
                digit = lowest_digit(once)
                bit = 1 << (digit - 1)
                cell = next(c for c in house if cands[c] & bit)
                if full:
                    return Step(name, RATING_FULL,
                                f"{t.cell_name(cell)}: full house {t.symbol(digit)} in {t.house_name(h)}",
                                placements=((cell, digit),), cells=(cell,), houses=(h,), kind=FULL_HOUSE)
                rating = RATING_BOX if h in t.regions else RATINGS[name]
                return Step(name, rating,
                            f"{t.cell_name(cell)}: hidden single {t.symbol(digit)} in {t.house_name(h)}",
                            placements=((cell, digit),), cells=(cell,), houses=(h,))
    return None


def find_naked_single(state: State, name: str) -> Step | None:
    t = state.t
    for cell, mask in enumerate(state.cands):
        if mask and not mask & (mask - 1):
            digit = lowest_digit(mask)
            return Step(name, RATINGS[name], f"{t.cell_name(cell)}: {step_name(name)} {t.symbol(digit)}",
                        placements=((cell, digit),), cells=(cell,), houses=t.cell_houses[cell])
    return None
