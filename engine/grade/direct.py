"""Direct techniques (Sudoku Explainer's): an easy elimination that at once leaves a hidden single, placed in the
same step. They rate below the plain technique because only the single has to be seen, not the elimination kept:
the step places the single and makes none of the pattern's eliminations (Sudoku Explainer's direct hints carry no
removable candidates), so the same pattern may give another single later, and a plain pointing or hidden pair is
still needed, at its own rating, to remove those candidates.

- direct pointing / direct claiming (SE's ``Locking(true)``): a digit's places in a house (the base) all lie in a
  second house (the cover); removing the digit from the rest of the cover leaves it one place in another house
  of the base's kind that crosses the cover. Search order as SE: box -> column, box -> row (pointing); column ->
  box, row -> box (claiming); in each, digits ascending, then the base, then the other house, by index.
- direct hidden pair / triple (SE's ``HiddenSet(k, true)``): k digits of a house confined to k cells; removing
  the other digits from those cells leaves some other digit (the first, ascending) one place in the same house.
  Only houses with more than k blank cells; search order as SE: boxes, columns, rows, then digit combinations in
  colex order (by the largest digit first: 12, 13, 23, 14, ...), each digit with 2..k places in the house.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from ..vocabulary import RATINGS
from .hidden_single import house_order
from .state import State, Step, cell_list

ROW, COLUMN, BOX = 0, 1, 2  # house kinds: a house's kind is ``house // n``, and ``cell_houses[cell][kind]``
#: claiming? -> the (base kind, cover kind) pairs in SE's order
LOCKING_ORDER = {False: ((BOX, COLUMN), (BOX, ROW)), True: ((COLUMN, BOX), (ROW, BOX))}
LOCKING_NAMES = {False: "direct-pointing", True: "direct-claiming"}
#: k -> (technique name, title in explanations)
HIDDEN_SIZES = {2: ("direct-hidden-pair", "direct hidden pair"), 3: ("direct-hidden-triple", "direct hidden triple")}


def find_locking(state: State, claiming: bool) -> Step | None:
    """The first direct pointing (``claiming`` False) or direct claiming step in SE's search order, or None."""
    t = state.t
    cands = state.cands
    n = t.n
    name = LOCKING_NAMES[claiming]
    for kind1, kind2 in LOCKING_ORDER[claiming]:
        for digit in range(1, n + 1):
            bit = 1 << (digit - 1)
            for i1 in range(n):
                base = kind1 * n + i1
                where = [c for c in t.houses[base] if cands[c] & bit]
                if len(where) < 2:
                    continue
                cover = t.cell_houses[where[0]][kind2]
                if any(t.cell_houses[c][kind2] != cover for c in where):
                    continue
                for i3 in range(n):
                    other = kind1 * n + i3
                    if other == base:
                        continue
                    places = [c for c in t.houses[other] if cands[c] & bit]
                    rest = [c for c in places if t.cell_houses[c][kind2] != cover]
                    if len(places) < 2 or len(rest) != 1:  # (a house not crossing the cover keeps all its places)
                        continue
                    single = rest[0]
                    return Step(name, RATINGS[name],
                                f"{name.replace('-', ' ')} {t.symbol(digit)} in {t.house_name(base)} ({cell_list(t, where)}) "
                                f"{'inside' if claiming else 'along'} {t.house_name(cover)} leaves "
                                f"{t.cell_name(single)} as the only place for {t.symbol(digit)} in {t.house_name(other)}: "
                                f"places {t.symbol(digit)} in {t.cell_name(single)}",
                                placements=((single, digit),), cells=tuple(where),
                                houses=(base, cover, other))
    return None


@lru_cache(maxsize=None)
def colex(m: int, k: int) -> list[tuple[int, ...]]:
    """The k-combinations of ``range(m)`` in colex order (SE's Permutations: as bitmasks, ascending)."""
    return sorted(combinations(range(m), k), key=lambda c: c[::-1])


def find_hidden(state: State, k: int) -> Step | None:
    """The first direct hidden pair (k = 2) or triple (k = 3) in SE's search order, or None."""
    name, title = HIDDEN_SIZES[k]
    t = state.t
    cands = state.cands
    n = t.n
    for h in house_order(n):
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


def find_pointing(state: State) -> Step | None:
    return find_locking(state, claiming=False)


def find_claiming(state: State) -> Step | None:
    return find_locking(state, claiming=True)


def find_hidden_pair(state: State) -> Step | None:
    return find_hidden(state, 2)


def find_hidden_triple(state: State) -> Step | None:
    return find_hidden(state, 3)
