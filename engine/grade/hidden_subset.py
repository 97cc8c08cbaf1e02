"""Hidden pair, triple and quad: k digits of a house whose places together are just k cells.

Those k cells must hold those k digits, so every other candidate leaves them. Only digits with 2..k places in
the house take part. Sudoku Explainer's order (it decides which state the next steps see): only houses with more
than 2k blank cells; houses in the order boxes, columns, rows; digit combinations in colex order.
"""
from __future__ import annotations

from ..bits import digits_of
from ..vocabulary import RATINGS
from .direct import colex
from .hidden_single import house_order
from .state import State, Step, cell_list, describe_eliminations

#: k -> (technique name, title in explanations)
SIZES = {2: ("hidden-pair", "hidden pair"), 3: ("hidden-triple", "hidden triple"),
         4: ("hidden-quad", "hidden quad")}


def find_subset(state: State, k: int) -> Step | None:
    name, title = SIZES[k]
    rating = RATINGS[name]
    t = state.t
    cands = state.cands
    for h in house_order(t.n):
        house = t.houses[h]
        if sum(1 for c in house if cands[c]) <= 2 * k:
            continue
        # places[d]: bitmask over the house's positions 0..n-1 where digit d may go
        places = {}
        for digit in range(1, t.n + 1):
            bit = 1 << (digit - 1)
            mask = 0
            for i, c in enumerate(house):
                if cands[c] & bit:
                    mask |= 1 << i
            if 2 <= mask.bit_count() <= k:
                places[digit] = mask
        if len(places) < k:
            continue
        digits = list(places)
        for subset in (tuple(digits[j] for j in combo) for combo in colex(len(digits), k)):
            union = 0
            for d in subset:
                union |= places[d]
            if union.bit_count() != k:
                continue
            keep = 0
            for d in subset:
                keep |= 1 << (d - 1)
            cells = tuple(house[i] for i in range(t.n) if union >> i & 1)
            eliminations = tuple((c, d) for c in cells for d in digits_of(cands[c] & ~keep))
            if eliminations:
                return Step(name, rating,
                            f"{title} {t.symbols(subset)} in {cell_list(t, cells)} ({t.house_name(h)}): "
                            f"removes {describe_eliminations(t, eliminations)}",
                            eliminations=eliminations, cells=cells, houses=(h,))
    return None


def find_pair(state: State) -> Step | None:
    return find_subset(state, 2)


def find_triple(state: State) -> Step | None:
    return find_subset(state, 3)


def find_quad(state: State) -> Step | None:
    return find_subset(state, 4)
