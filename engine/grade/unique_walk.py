"""The loop walk of :mod:`engine.grade.unique_loop` and its type 3 (naked and hidden sets), as Sudoku Explainer
searches them.

The walk keeps one of Sudoku Explainer's habits on purpose: the extra digits it has met are gathered per cell of
the walk across all the cells it tries next (not only along the path), and once two cells with extras are in
the loop a third is taken only while those gathered extras are one digit. Branches that would put two cells of
one house at places of the same parity are cut (no loop through them is valid); that changes no loop found.
"""
from __future__ import annotations

from itertools import combinations

from ..bits import digits_of
from .state import State, cell_list

#: the largest naked or hidden set of type 3
MAX_DEGREE = 4


def kinds(t, cell: int) -> tuple[int, int, int]:
    """The houses of ``cell`` in Sudoku Explainer's order: box, row, column."""
    row, col, box = t.cell_houses[cell]
    return box, row, col


def loops(state: State, start: int, a: int, b: int):
    """Every loop on {a,b} through ``start`` (valid: each house it enters holds two of its cells, one at an odd
    and one at an even place), in the order of the walk."""
    t = state.t
    cands = state.cands
    both = (1 << (a - 1)) | (1 << (b - 1))
    path = [start]
    on_path = {start}
    parity = {}  # (house, place parity) -> how many cells of the path
    for h in t.cell_houses[start]:
        parity[h, 0] = 1

    def valid() -> bool:
        return all(parity.get((h, 0), 0) == parity.get((h, 1), 0) == 1 for c in path for h in t.cell_houses[c])

    def walk(cell: int, allowed: int, extra: int, last: int):
        for kind, h in enumerate(kinds(t, cell)):
            if kind == last:
                continue
            for nxt in t.houses[h]:
                if nxt == start and len(path) >= 4:
                    if valid():
                        yield list(path)
                elif nxt not in on_path and cands[nxt] & both == both:
                    extra |= cands[nxt] & ~both
                    size = cands[nxt].bit_count()
                    if not (size == 2 or extra.bit_count() == 1 or allowed > 0):
                        continue
                    p = len(path) & 1
                    houses = t.cell_houses[nxt]
                    if any(parity.get((g, p), 0) for g in houses):
                        continue  # two cells of a house at places of one parity: no valid loop this way
                    for g in houses:
                        parity[g, p] = 1
                    path.append(nxt)
                    on_path.add(nxt)
                    yield from walk(nxt, allowed - (size > 2), extra, kind)
                    path.pop()
                    on_path.discard(nxt)
                    for g in houses:
                        parity[g, p] = 0

    yield from walk(start, 2, 0, -1)


def type3(state: State, c1: int, c2: int, a: int, b: int, base: int, best: tuple):
    """Type 3 steps of a loop whose only cells with extras are c1 and c2, better than ``best``, in Sudoku
    Explainer's order (size, then house kind, naked before hidden): (key, eliminations, why)."""
    t = state.t
    cands = state.cands
    both = (1 << (a - 1)) | (1 << (b - 1))
    extra = (cands[c1] | cands[c2]) & ~both
    shared_extra = extra & cands[c1] & cands[c2]
    for degree in range(extra.bit_count(), MAX_DEGREE + 1):
        if (base + degree - 2, 3) >= best:
            return
        for kind, h in enumerate(kinds(t, c1)):
            if h not in t.cell_houses[c2]:
                continue
            house = t.houses[h]
            empty = sum(1 for c in house if state.cells[c] == 0)
            if degree * 2 <= empty and (base + degree - 1, 3) < best:
                others = [c for c in house if c != c1 and c != c2 and cands[c].bit_count() >= 2]
                for chosen in combinations(others, degree - 1):
                    union = 0
                    for c in chosen:
                        union |= cands[c]
                    if (union | shared_extra).bit_count() != degree or (union | extra).bit_count() != degree:
                        continue
                    union |= extra
                    elims = tuple((c, d) for c in house if c not in chosen and c != c1 and c != c2
                                  for d in digits_of(cands[c] & union))
                    if elims:
                        yield (base + degree - 1, 3), elims, \
                            (f"{cell_list(t, (c1, c2))} hold one of {t.symbols(digits_of(extra))}: with "
                             f"{cell_list(t, chosen)} a naked set {t.symbols(digits_of(union))} in "
                             f"{t.house_name(h)}")
                        best = (base + degree - 1, 3)
                        break
            if degree * 2 < empty and (base + degree - 2, 3) < best:
                rest = [d for d in range(1, t.n + 1) if not (both | extra) >> (d - 1) & 1]
                for chosen in combinations(rest, degree - 2):
                    hidden = both
                    for d in chosen:
                        hidden |= 1 << (d - 1)
                    places = set()
                    ok = True
                    for d in digits_of(hidden):
                        at = [c for c in house if c != c2 and cands[c] >> (d - 1) & 1]
                        ok &= bool(at)
                        places.update(at)
                    if not ok or len(places) != degree:
                        continue
                    cells = sorted(places - {c1})
                    elims = tuple((c, d) for c in cells for d in digits_of(cands[c] & ~hidden))
                    if elims:
                        yield (base + degree - 2, 3), elims, \
                            (f"{cell_list(t, (c1, c2))} hold one of {t.symbols(digits_of(extra))}: "
                             f"{t.symbols(digits_of(hidden))} are a hidden set in "
                             f"{cell_list(t, [c1] + cells)} of {t.house_name(h)}")
                        best = (base + degree - 2, 3)
                        break
