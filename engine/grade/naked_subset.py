"""Naked pair, triple and quad: k cells of a house whose candidates together are just k digits.

Those k digits must fill those k cells, so no other cell of the house can have them. Sudoku Explainer's rule, whose
order and reach the grader follows (they decide which state the next steps see): only houses with at least 2k
blank cells; houses in the order boxes, columns, rows; cell combinations in colex order; the digits go from the
house where the subset was found only (a pair that also shares a box with it is found again there, or a pointing
finishes the job).
"""
from __future__ import annotations

from ..bits import digits_of
from ..vocabulary import RATINGS
from .direct import colex
from .hidden_single import house_order
from .state import State, Step, cell_list, describe_eliminations

#: k -> (technique name, title in explanations)
SIZES = {2: ("naked-pair", "naked pair"), 3: ("naked-triple", "naked triple"), 4: ("naked-quad", "naked quad")}


def find_subset(state: State, k: int) -> Step | None:
    name, title = SIZES[k]
    rating = RATINGS[name]
    t = state.t
    cands = state.cands
    for h in house_order(t.n):
        house = t.houses[h]
        if sum(1 for c in house if cands[c]) < 2 * k:
            continue
        small = [c for c in house if 2 <= cands[c].bit_count() <= k]
        for combo in colex(len(small), k):
            subset = tuple(small[j] for j in combo)
            union = 0
            for c in subset:
                union |= cands[c]
            if union.bit_count() != k:
                continue
            eliminations = tuple((c, d) for c in house if c not in subset for d in digits_of(cands[c] & union))
            if eliminations:
                eliminations = tuple(sorted(eliminations))
                return Step(name, rating,
                            f"{title} {t.symbols(digits_of(union))} in {cell_list(t, subset)} "
                            f"({t.house_name(h)}): removes {describe_eliminations(t, eliminations)}",
                            eliminations=eliminations, cells=subset, houses=(h,))
    return None


def find_pair(state: State) -> Step | None:
    return find_subset(state, 2)


def find_triple(state: State) -> Step | None:
    return find_subset(state, 3)


def find_quad(state: State) -> Step | None:
    return find_subset(state, 4)
