"""Naked single: a blank cell with one candidate left holds that digit (rated 2.3)."""
from __future__ import annotations

from .state import State, Step, lowest_digit

NAME = "naked-single"
RATING = 2.3


def find(state: State) -> Step | None:
    t = state.t
    for cell, mask in enumerate(state.cands):
        if mask and not mask & (mask - 1):
            digit = lowest_digit(mask)
            return Step(NAME, RATING, f"{t.cell_name(cell)}: naked single {digit}",
                        placements=((cell, digit),), cells=(cell,), houses=t.cell_houses[cell])
    return None
