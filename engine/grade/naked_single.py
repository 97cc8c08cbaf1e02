"""Naked single: a blank cell with one candidate left holds that digit."""
from __future__ import annotations

from ..bits import lowest_digit
from ..vocabulary import RATINGS
from .state import State, Step

NAME = "naked-single"
RATING = RATINGS[NAME]


def find(state: State) -> Step | None:
    t = state.t
    for cell, mask in enumerate(state.cands):
        if mask and not mask & (mask - 1):
            digit = lowest_digit(mask)
            return Step(NAME, RATING, f"{t.cell_name(cell)}: naked single {t.symbol(digit)}",
                        placements=((cell, digit),), cells=(cell,), houses=t.cell_houses[cell])
    return None
