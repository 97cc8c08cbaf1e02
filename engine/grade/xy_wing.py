"""XY-Wing: a pivot cell {x,y} that sees two pincers {x,z} and {y,z}.

Whichever digit the pivot takes, one pincer becomes z, so z leaves every cell that sees both pincers. Search
order: pivots in reading order, then pincer pairs among the pivot's peers in reading order.
"""
from __future__ import annotations

from ..bits import digits_of, lowest_digit
from ..vocabulary import RATINGS
from .state import State, Step, describe_eliminations

NAME = "xy-wing"
RATING = RATINGS[NAME]


def _show(state: State, cell: int) -> str:
    return f"{state.t.cell_name(cell)} ({state.t.symbols(digits_of(state.cands[cell]))})"


def find(state: State) -> Step | None:
    t = state.t
    cands = state.cands
    for pivot in range(t.ncells):
        xy = cands[pivot]
        if xy.bit_count() != 2:
            continue
        # bivalue peers sharing exactly one digit with the pivot
        wings = [p for p in t.peers[pivot] if cands[p].bit_count() == 2 and (cands[p] & xy).bit_count() == 1]
        for i, p1 in enumerate(wings):
            for p2 in wings[i + 1:]:
                if cands[p1] & xy == cands[p2] & xy:
                    continue
                z = cands[p1] & ~xy
                if z != cands[p2] & ~xy:
                    continue
                seen = t.peer_sets[p2]
                eliminations = tuple((c, lowest_digit(z)) for c in t.peers[p1] if cands[c] & z and c in seen)
                if eliminations:
                    return Step(NAME, RATING,
                                f"XY-Wing pivot {_show(state, pivot)}, pincers {_show(state, p1)}, "
                                f"{_show(state, p2)}: removes {describe_eliminations(t, eliminations)}",
                                eliminations=eliminations, cells=(pivot, p1, p2))
    return None
