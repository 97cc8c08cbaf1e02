"""Naked pair, triple and quad: k cells of a house whose candidates together are just k digits.

Those k digits must fill those k cells, so no other cell of any house holding all k cells can have them (a pair
inside a row and a box clears both). Only blank cells with 2..k candidates take part. Search order: houses as
numbered (rows, columns, boxes), then cell combinations in reading order (lexicographic).
"""
from __future__ import annotations

from itertools import combinations

from ..bits import digits_of
from ..vocabulary import RATINGS
from .state import State, Step, cell_list, describe_eliminations

#: k -> (technique name, title in explanations)
SIZES = {2: ("naked-pair", "naked pair"), 3: ("naked-triple", "naked triple"), 4: ("naked-quad", "naked quad")}


def find_subset(state: State, k: int) -> Step | None:
    name, title = SIZES[k]
    rating = RATINGS[name]
    t = state.t
    cands = state.cands
    for h, house in enumerate(t.houses):
        small = [c for c in house if 2 <= cands[c].bit_count() <= k]
        if len(small) < k:
            continue
        for subset in combinations(small, k):
            union = 0
            for c in subset:
                union |= cands[c]
            if union.bit_count() != k:
                continue
            eliminations = []
            shared = t.common_houses(subset)
            for other in shared:
                for c in t.houses[other]:
                    if cands[c] & union and c not in subset:
                        eliminations.extend((c, d) for d in digits_of(cands[c] & union))
            if eliminations:
                eliminations = tuple(sorted(set(eliminations)))
                where = ", ".join(t.house_name(s) for s in shared)
                return Step(name, rating,
                            f"{title} {','.join(map(str, digits_of(union)))} in {cell_list(t, subset)} ({where}): "
                            f"removes {describe_eliminations(t, eliminations)}",
                            eliminations=eliminations, cells=subset, houses=tuple(shared))
    return None


def find_pair(state: State) -> Step | None:
    return find_subset(state, 2)


def find_triple(state: State) -> Step | None:
    return find_subset(state, 3)


def find_quad(state: State) -> Step | None:
    return find_subset(state, 4)
