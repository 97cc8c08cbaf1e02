"""Basic fish: X-Wing (2), Swordfish (3), Jellyfish (4), on a grid of any size.

If a digit's places in k rows (the base) all lie in the same k columns (the cover), those k rows put the digit
in those k columns, so no other cell of the k columns can hold it; the same with rows and columns swapped.
Sudoku Explainer's order (it decides which state the next steps see): columns as base before rows; then the
k-combinations of base lines in colex order, and for each the digits ascending, each base line with 2..k places,
and only digits placed at most n - 2k times.
"""
from __future__ import annotations

from ...vocabulary import RATINGS, step_name
from ..state import State, Step, describe_eliminations
from .subsets import colex


def find_fish(state: State, name: str, k: int) -> Step | None:
    """The first fish of ``k`` lines in search order, or None: a step of the row ``name`` (its title in the
    explanation is the row's step name)."""
    title = step_name(name)
    rating = RATINGS[name]
    t = state.t
    n = t.n
    cands = state.cands
    placed = [sum(1 for v in state.cells if v == d) for d in range(n + 1)]
    for base_kind, lines, crosses in ((1, t.columns, t.rows), (0, t.rows, t.columns)):
        # places[d - 1][i]: bitmask over cross-line indices where digit d may go in base line i
        places = [[sum(1 << j for j, c in enumerate(line) if cands[c] >> (d - 1) & 1) for line in lines]
                  for d in range(1, n + 1)]
        for base in colex(n, k):
            for digit in range(1, n + 1):
                if placed[digit] + 2 * k > n or any(places[digit - 1][i].bit_count() < 2 for i in base):
                    continue
                cover = 0
                for i in base:
                    cover |= places[digit - 1][i]
                if cover.bit_count() != k:
                    continue
                bit = 1 << (digit - 1)
                covers = [j for j in range(n) if cover >> j & 1]
                eliminations = tuple(sorted((c, digit) for j in covers for i, c in enumerate(crosses[j])
                                            if cands[c] & bit and i not in base))
                if eliminations:
                    base_word, cover_word = ("rows", "columns") if base_kind == 0 else ("columns", "rows")
                    cells = tuple(sorted(c for i in base for c in lines[i] if cands[c] & bit))
                    houses = tuple(base_kind * n + i for i in base) + tuple((1 - base_kind) * n + j for j in covers)
                    return Step(name, rating,
                                f"{title} on {t.symbol(digit)} in {base_word} {','.join(str(i + 1) for i in base)} "
                                f"{cover_word} {','.join(str(j + 1) for j in covers)}: "
                                f"removes {describe_eliminations(t, eliminations)}",
                                eliminations=eliminations, cells=cells, houses=houses)
    return None
