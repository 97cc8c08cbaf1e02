"""Unique loops (unique rectangles are the 4-cell ones), Sudoku Explainer's types 1-4.

A loop is a closed chain of cells that all hold two digits {a,b}, each link between two cells in one house, that
meets every house it enters in exactly two cells, one at an odd and one at an even place of the chain. If every
cell of the loop were left with just {a,b}, swapping a and b along it would give a second solution: a puzzle
with one solution must put some other digit (an *extra*) in one of the loop's cells. So, with the loop's other
cells holding just {a,b}:

- type 1: one cell has extras: it loses a and b;
- type 2: every cell with extras has the same single extra x: x leaves every cell that sees them all;
- type 3: two cells with extras, in one house, act as one cell holding their extras: with other cells of the
  house they form a naked set (removed from the rest of the house), or a hidden set holding a and b (the set's
  other cells lose every other digit);
- type 4: two cells with extras, in one house where a can go nowhere else: one of them is a, so neither is b.

Ratings (Sudoku Explainer's): 4.5 for a rectangle, 4.6 for a 6-cell loop, 4.7 for 8 cells, 5.0 from 10; type 3
adds 0.1 per cell of a naked set beyond the first (pair 0.1) and 0.1 per cell of a hidden set beyond the
second. Search (Sudoku Explainer's): every bivalue cell in reading order starts a depth-first walk along
boxes, rows, then columns (never the same kind of house twice running), cells of a house in order; of all the
steps of all the loops it finds, the lowest rating wins, then the lowest type, then the first found. Naked and
hidden sets have at most 4 cells (all a 9x9 house can hold, by Sudoku Explainer's size limits); their cells
and digits are tried in lexicographic order.

The walk (below the steps: :func:`loops`, and type 3's sets, :func:`type3`) keeps one of Sudoku Explainer's habits
on purpose: the extra digits it has met are gathered per cell of the walk across all the cells it tries next (not
only along the path), and once two cells with extras are in the loop a third is taken only while those gathered
extras are one digit. Branches that would put two cells of one house at places of the same parity are cut (no
loop through them is valid); that changes no loop found.
"""
from __future__ import annotations

from itertools import combinations

from ...bits import digits_of
from ..state import State, Step, cell_list, describe_eliminations

#: the best step possible: a rectangle of type 1 (nothing beats it, so the search stops there)
BEST = (45, 1)


def base_tenths(length: int) -> int:
    """Sudoku Explainer's rating of a loop of ``length`` cells, in tenths (4.5, 4.6, 4.7, 5.0)."""
    return 45 + (3 if length >= 10 else 0) + (2 if length >= 8 else 1 if length >= 6 else 0)


def loop_kind(loop_type: int, length: int) -> int:
    """The kind of step (engine.vocabulary.STEP_NAMES) of a unique loop of ``length`` cells and type 1-4: a unique
    rectangle has four cells."""
    return loop_type - 1 + (4 if length > 4 else 0)


def _sees_all(state: State, cell: int, others) -> bool:
    return all(o != cell and state.sees(cell, o) for o in others)


def _type2(state: State, extras, x: int) -> tuple:
    bit = 1 << (x - 1)
    return tuple((c, x) for c in range(state.t.ncells) if state.cands[c] & bit and _sees_all(state, c, extras))


def _type4(state: State, c1: int, c2: int, a: int, b: int):
    """(locked digit, removed digit, house) or None: the last house shared by c1, c2 (box, row, column) where
    a (or else b) has no other place."""
    t = state.t
    locked = {a: None, b: None}
    for h in kinds(t, c1):
        if h not in t.cell_houses[c2]:
            continue
        for d in (a, b):
            if not any(state.cands[c] >> (d - 1) & 1 for c in t.houses[h] if c != c1 and c != c2):
                locked[d] = h
    for d, other in ((a, b), (b, a)):
        if locked[d] is not None:
            return d, other, locked[d]
    return None


def _hints(state: State, loop: list[int], a: int, b: int, best: tuple):
    """The steps of one loop better than ``best`` (rating tenths, type), best first found: (key, eliminations,
    what the sentence says after the loop)."""
    t = state.t
    cands = state.cands
    both = (1 << (a - 1)) | (1 << (b - 1))
    base = base_tenths(len(loop))
    extras = [c for c in loop if cands[c].bit_count() > 2]
    if len(extras) == 1:
        c = extras[0]
        yield (base, 1), ((c, a), (c, b)), f"{t.cell_name(c)} must hold another digit"
        return
    if len(extras) < 2:
        return
    rest = 0
    for c in extras:
        rest |= cands[c] & ~both
    if len(extras) > 2 or rest.bit_count() == 1:
        x = digits_of(cands[extras[0]] & ~both)[0]
        if (base, 2) < best:
            elims = _type2(state, extras, x)
            if elims:
                yield (base, 2), elims, f"one of {cell_list(t, extras)} is {t.symbol(x)}"
    elif rest.bit_count() >= 2:
        for key, elims, why in type3(state, extras[0], extras[1], a, b, base, best):
            yield key, elims, why
            best = min(best, key)
    if len(extras) == 2 and (base, 4) < best:
        found = _type4(state, extras[0], extras[1], a, b)
        if found:
            d, other, h = found
            yield (base, 4), ((extras[0], other), (extras[1], other)), \
                f"{t.symbol(d)} is locked in {cell_list(t, extras)} in {t.house_name(h)}"


def find(state: State, name: str) -> Step | None:
    """The best step of every unique loop (the lowest rated, then type, then the first found), or None: a step of
    the row ``name``, rated by the loop (Sudoku Explainer's ratings above)."""
    t = state.t
    best, found = (99, 9), None
    seen = set()
    for start in range(t.ncells):
        if state.cands[start].bit_count() != 2:
            continue
        a, b = digits_of(state.cands[start])
        for loop in loops(state, start, a, b):
            key = frozenset(loop)
            if key in seen:  # the same loop from another cell or the other way round: its steps are known
                continue
            seen.add(key)
            for rank, elims, why in _hints(state, loop, a, b, best):
                if rank < best:
                    best, found = rank, (loop, a, b, elims, why)
            if best == BEST:
                break
        if best == BEST:
            break
    if found is None:
        return None
    loop, a, b, elims, why = found
    tenths, kind = best
    title = "unique rectangle" if len(loop) == 4 else f"unique loop ({len(loop)} cells)"
    elims = tuple(sorted(set(elims)))
    where = {c for c, _ in elims}
    removes = (f"{','.join(str(d) for _, d in elims)} from {t.cell_name(elims[0][0])}" if len(where) == 1
               else describe_eliminations(t, elims))
    return Step(name, tenths / 10, f"{title} type {kind} on {t.symbol(a)},{t.symbol(b)} in {cell_list(t, loop)}: {why}, else two "
                                   f"solutions: removes {removes}", eliminations=elims, cells=tuple(loop),
                kind=loop_kind(kind, len(loop)))


# -- the loop walk and type 3's sets -----------------------------------------------------------------------------------

#: the largest naked or hidden set of type 3
MAX_DEGREE = 4


def kinds(t, cell: int) -> tuple[int, ...]:
    """The houses of ``cell`` in Sudoku Explainer's order: box, row, column (row, column on a Latin square), then
    its two diagonal slots on a shape with diagonals (a diagonal the cell is not on repeats its row, as the
    compiled twin reads them: kernels.state.grader_units)."""
    row, col, box, *diagonals = t.cell_houses[cell]
    return ((box, row, col) if t.has_regions else (row, col)) + tuple(diagonals)


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
