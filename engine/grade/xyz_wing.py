"""XYZ-Wing: a pivot cell {x,y,z} that sees two pincers {x,z} and {y,z}.

One of the three cells holds z, so z leaves every cell that sees all three. Search order: pivots in reading
order, then pincer pairs among the pivot's peers in reading order.
"""
from __future__ import annotations

from ..bits import lowest_digit
from ..vocabulary import RATINGS
from .state import State, Step, describe_eliminations
from .xy_wing import _show

NAME = "xyz-wing"
RATING = RATINGS[NAME]


def find(state: State) -> Step | None:
    t = state.t
    cands = state.cands
    for pivot in range(t.ncells):
        xyz = cands[pivot]
        if xyz.bit_count() != 3:
            continue
        wings = [p for p in t.peers[pivot] if cands[p].bit_count() == 2 and cands[p] & ~xyz == 0]
        for i, p1 in enumerate(wings):
            for p2 in wings[i + 1:]:
                if cands[p1] == cands[p2]:
                    continue
                z = cands[p1] & cands[p2]
                seen2, seen_pivot = t.peer_sets[p2], t.peer_sets[pivot]
                eliminations = tuple((c, lowest_digit(z)) for c in t.peers[p1]
                                     if cands[c] & z and c in seen2 and c in seen_pivot)
                if eliminations:
                    return Step(NAME, RATING,
                                f"XYZ-Wing pivot {_show(state, pivot)}, pincers {_show(state, p1)}, "
                                f"{_show(state, p2)}: removes {describe_eliminations(t, eliminations)}",
                                eliminations=eliminations, cells=(pivot, p1, p2))
    return None
