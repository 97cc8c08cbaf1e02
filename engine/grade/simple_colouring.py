"""Simple colouring (single-digit colouring): two colours along a cluster of conjugate pairs.

For one digit, the cells joined by conjugate pairs form clusters; along each link the digit is in exactly one
of the two cells, so colouring a cluster's cells alternately A and B splits it into two sets, one of which
holds the digit everywhere and the other nowhere.

- wrap: two cells of one colour share a house, so that colour cannot be the true one: every cell of it loses
  the digit;
- trap: a cell outside the cluster that sees a cell of each colour loses the digit (one of them holds it).

Search order: digits ascending, clusters by their first cell in reading order (that cell is colour A), a wrap
(A before B) before a trap.
"""
from __future__ import annotations

from ..vocabulary import RATINGS
from .conjugates import strong_links
from .state import State, Step, cell_list, describe_eliminations

NAME = "simple-colouring"
RATING = RATINGS[NAME]


def _clusters(links: dict[int, list[int]]):
    """Each cluster as ``{cell: colour}`` (0 = A, 1 = B), coloured breadth-first from its first cell; None for
    a cluster whose links do not 2-colour (only a puzzle without solution has one)."""
    done: set[int] = set()
    for start in links:
        if start in done:
            continue
        colour = {start: 0}
        queue = [start]
        ok = True
        for cell in queue:
            for other in links[cell]:
                if other not in colour:
                    colour[other] = 1 - colour[cell]
                    queue.append(other)
                elif colour[other] == colour[cell]:
                    ok = False
        done.update(colour)
        yield colour if ok else None


def find(state: State) -> Step | None:
    t = state.t
    cands = state.cands
    for digit in range(1, t.n + 1):
        bit = 1 << (digit - 1)
        for colour in _clusters(strong_links(state, digit)):
            if colour is None:
                continue
            sides = [sorted(c for c, k in colour.items() if k == side) for side in (0, 1)]
            shown = f"simple colouring on {digit} (A: {cell_list(t, sides[0])}; B: {cell_list(t, sides[1])})"
            for side, name in ((0, "A"), (1, "B")):
                clash = next(((a, b) for i, a in enumerate(sides[side]) for b in sides[side][i + 1:]
                              if state.sees(a, b)), None)
                if clash:
                    eliminations = tuple((c, digit) for c in sides[side])
                    return Step(NAME, RATING,
                                f"{shown}: {t.cell_name(clash[0])} and {t.cell_name(clash[1])} are both {name} "
                                f"and share a house, so {name} is false: "
                                f"removes {describe_eliminations(t, eliminations)}",
                                eliminations=eliminations, cells=tuple(sorted(colour)))
            eliminations = tuple((c, digit) for c in range(t.ncells)
                                 if cands[c] & bit and c not in colour
                                 and any(state.sees(c, a) for a in sides[0])
                                 and any(state.sees(c, b) for b in sides[1]))
            if eliminations:
                return Step(NAME, RATING,
                            f"{shown}: cells that see both colours: "
                            f"removes {describe_eliminations(t, eliminations)}",
                            eliminations=eliminations, cells=tuple(sorted(colour)))
    return None
