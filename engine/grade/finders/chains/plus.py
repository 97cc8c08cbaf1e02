"""Words for the states a dynamic forcing chain (+) adds by a rule: which pattern removes the candidate.

A "+" run (:mod:`engine.grade.kernels.chains.plus`) adds off states by locked candidates, hidden pairs, naked pairs and
X-Wings on the grid it has left, each with the run's removals the pattern rests on as its parents. The compiled run
does not keep which rule it was (that would cost its workspaces a table): the explanation finds it again here.

Exact, not a guess: each rule's parents are *all* the removals its pattern needs (the digit's lost places in the
locked house, the pair's lost digits, the fish's lost places in its base lines), so the pattern holds on the grid
before the run less the state's parents alone, and whatever pattern is found there is a valid reason for the
removal on that grid. Tried in the run's order, so it is usually the one the run used.
"""
from __future__ import annotations

from itertools import combinations

from ...state import Link, Tables


def plus_rule(t: Tables, cands, target: Link, parents: tuple[Link, ...]) -> str:
    """Which rule removes ``target`` (an off state) from ``cands`` once the off states ``parents`` are removed: a
    few words naming the pattern, or "" when none does (the state is then not a "+" rule's)."""
    grid = [int(m) for m in cands]
    for c, d, on in parents:
        if on:
            return ""
        grid[c] &= ~(1 << (d - 1))
    cell, digit, on = target
    if on or not grid[cell] >> (digit - 1) & 1:
        return ""
    for rule in (_locking, _hidden_pair, _naked_pair, _x_wing):
        words = rule(t, grid, cell, digit)
        if words:
            return words
    return ""


def _places(t: Tables, grid, house: int, digit: int) -> list[int]:
    return [c for c in t.houses[house] if grid[c] >> (digit - 1) & 1]


def _locking(t: Tables, grid, cell: int, digit: int) -> str:
    if not t.has_regions:  # a Latin square: no locked candidates
        return ""
    for k in (2, 0, 1):  # the locked house: boxes, rows, columns, as the run tries them
        for house in range(k * t.n, (k + 1) * t.n):
            places = _places(t, grid, house, digit)
            if len(places) < 2 or cell in t.houses[house] or not all(p in t.peer_sets[cell] for p in places):
                continue
            line = [h for h in t.common_houses(places) if h != house and cell in t.houses[h]]
            where = f"lie in {t.house_name(line[0])}" if line else f"all see {t.cell_name(cell)}"
            return f"locked candidates: the {t.symbol(digit)}s of {t.house_name(house)} {where}"
    return ""


def _hidden_pair(t: Tables, grid, cell: int, digit: int) -> str:
    for house in t.cell_houses[cell][::-1]:  # box first
        for a, b in combinations(range(1, t.n + 1), 2):
            if digit in (a, b):
                continue
            pa, pb = _places(t, grid, house, a), _places(t, grid, house, b)
            if len(pa) == 2 and pa == pb and cell in pa:
                return f"hidden pair {t.symbol(a)}{t.symbol(b)} in {t.cell_name(pa[0])}, {t.cell_name(pa[1])} ({t.house_name(house)})"
    return ""


def _naked_pair(t: Tables, grid, cell: int, digit: int) -> str:
    for house in t.cell_houses[cell][::-1]:
        pairs = [c for c in t.houses[house] if c != cell and grid[c].bit_count() == 2 and grid[c] >> (digit - 1) & 1]
        for a, b in combinations(pairs, 2):
            if grid[a] == grid[b]:
                digits = "".join(str(d) for d in range(1, t.n + 1) if grid[a] >> (d - 1) & 1)
                return f"naked pair {digits} in {t.cell_name(a)}, {t.cell_name(b)} ({t.house_name(house)})"
    return ""


def _x_wing(t: Tables, grid, cell: int, digit: int) -> str:
    for base, cover, of_base, of_cover in ((t.rows, t.columns, t.row_of, t.col_of),
                                           (t.columns, t.rows, t.col_of, t.row_of)):
        lines = [i for i, line in enumerate(base) if i != of_base[cell]
                 and len({of_cover[c] for c in line if grid[c] >> (digit - 1) & 1}) == 2]
        for i, j in combinations(lines, 2):
            covers = {of_cover[c] for c in base[i] + base[j] if grid[c] >> (digit - 1) & 1}
            if len(covers) == 2 and of_cover[cell] in covers:
                kind = "rows" if base is t.rows else "columns"
                return f"X-Wing on {t.symbol(digit)} in {kind} {i + 1} and {j + 1}"
    return ""
