"""Subsets: naked and hidden pairs, triples and quads; direct hidden pairs and triples.

- naked pair, triple, quad: k cells of a house whose candidates together are just k digits. Those k digits must
  fill those k cells, so no other cell of the house can have them. Sudoku Explainer's rule, whose order and reach
  the grader follows (they decide which state the next steps see): only houses with at least 2k blank cells;
  houses in the order boxes, columns, rows; cell combinations in colex order; the digits go from the house where
  the subset was found only (a pair that also shares a box with it is found again there, or a pointing finishes
  the job).
- hidden pair, triple, quad: k digits of a house whose places together are just k cells. Those k cells must hold
  those k digits, so every other candidate leaves them. Only digits with 2..k places in the house take part.
  Sudoku Explainer's order: only houses with more than 2k blank cells; houses in the order boxes, columns, rows;
  digit combinations in colex order.
- direct hidden pair, triple (SE's ``HiddenSet(k, true)``, one of its direct techniques: an easy elimination that
  at once leaves a hidden single, placed in the same step, and none of the pattern's eliminations made, as for
  direct pointing, :mod:`engine.grade.finders.locked`): k digits of a house confined to k cells; removing the
  other digits from those cells leaves some other digit (the first, ascending) one place in the same house. Only
  houses with more than k blank cells; search order as SE: boxes, columns, rows, then digit combinations in colex
  order (by the largest digit first: 12, 13, 23, 14, ...), each digit with 2..k places in the house.

``k`` is the rows' argument (engine.grade.techniques), the same the kernels take; ``name`` the row's name, which
the step carries (its title in the explanation is the row's step name, engine.vocabulary.STEP_NAMES).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from ...bits import digits_of
from ...vocabulary import RATINGS, step_name
from ..state import State, Step, cell_list, describe_eliminations
from .singles import house_order


@lru_cache(maxsize=None)
def colex(m: int, k: int) -> list[tuple[int, ...]]:
    """The k-combinations of ``range(m)`` in colex order (SE's Permutations: as bitmasks, ascending)."""
    return sorted(combinations(range(m), k), key=lambda c: c[::-1])


def find_naked_subset(state: State, name: str, k: int) -> Step | None:
    title = step_name(name)
    rating = RATINGS[name]
    t = state.t
    cands = state.cands
    for h in house_order(t):
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


def find_hidden_subset(state: State, name: str, k: int) -> Step | None:
    title = step_name(name)
    rating = RATINGS[name]
    t = state.t
    cands = state.cands
    for h in house_order(t):
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


def find_direct_hidden(state: State, name: str, k: int) -> Step | None:
    """The first direct hidden pair (k = 2) or triple (k = 3) in SE's search order, or None."""
    title = step_name(name)
    t = state.t
    cands = state.cands
    n = t.n
    for h in house_order(t):
        house = t.houses[h]
        if sum(1 for c in house if not state.cells[c]) <= k:
            continue
        places = []  # places[d - 1]: bitmask over the house's positions where d may go
        for digit in range(1, n + 1):
            bit = 1 << (digit - 1)
            places.append(sum(1 << i for i, c in enumerate(house) if cands[c] & bit))
        digits = [d for d in range(1, n + 1) if 2 <= places[d - 1].bit_count() <= k]
        for combo in colex(len(digits), k):
            subset = [digits[j] for j in combo]
            union = 0
            for d in subset:
                union |= places[d - 1]
            if union.bit_count() != k:
                continue
            keep = sum(1 << (d - 1) for d in subset)
            for digit in range(1, n + 1):
                if keep >> (digit - 1) & 1 or places[digit - 1].bit_count() < 2:
                    continue
                rest = places[digit - 1] & ~union
                if rest.bit_count() != 1:
                    continue
                single = house[rest.bit_length() - 1]
                cells = tuple(house[i] for i in range(n) if union >> i & 1)
                return Step(name, RATINGS[name],
                            f"{title} {t.symbols(subset)} in {cell_list(t, cells)} ({t.house_name(h)}) "
                            f"leaves {t.cell_name(single)} as the only place for {t.symbol(digit)} in {t.house_name(h)}: "
                            f"places {t.symbol(digit)} in {t.cell_name(single)}",
                            placements=((single, digit),), cells=cells, houses=(h,))
    return None
