"""Locked candidates: a digit whose places in one house all lie in one other house (pointing and claiming).

Then that digit's copy in the first house (the base) stands where the two meet, so no cell of the second house (the
cover) outside the base can hold it. One search, two techniques that rate and count apart:

- pointing: the base is a box and the cover a row or column (a digit confined to one line inside a box);
- claiming (box-line reduction): the base is a row or column and the cover a box.

The search order is Sudoku Explainer's (its ``Locking``), since the order decides which state the next steps see:
pointing along columns, then along rows; claiming from columns, then from rows; in each, digits ascending, then
the bases by index.
"""
from __future__ import annotations

from ..vocabulary import RATINGS
from .state import State, Step, cell_list, describe_eliminations

POINTING, CLAIMING = "pointing", "claiming"
ROW, COLUMN, BOX = 0, 1, 2  # house kinds: a house's kind is ``house // n``, and ``cell_houses[cell][kind]``
#: claiming? -> the (base kind, cover kind) pairs in Sudoku Explainer's order
ORDER = {False: ((BOX, COLUMN), (BOX, ROW)), True: ((COLUMN, BOX), (ROW, BOX))}


def find(state: State, claiming: bool) -> Step | None:
    """The first pointing step (``claiming`` False) or claiming step (True) in search order, or None."""
    t = state.t
    cands = state.cands
    n = t.n
    name = CLAIMING if claiming else POINTING
    for kind1, kind2 in ORDER[claiming]:
        for digit in range(1, n + 1):
            bit = 1 << (digit - 1)
            for base in range(kind1 * n, (kind1 + 1) * n):
                where = [c for c in t.houses[base] if cands[c] & bit]
                if len(where) < 2:
                    continue
                cover = t.cell_houses[where[0]][kind2]
                if any(t.cell_houses[c][kind2] != cover for c in where):
                    continue
                inside = set(t.houses[base])
                eliminations = tuple((c, digit) for c in t.houses[cover] if cands[c] & bit and c not in inside)
                if eliminations:
                    return Step(name, RATINGS[name],
                                f"{name} {t.symbol(digit)} in {t.house_name(base)} ({cell_list(t, where)}) "
                                f"{'inside' if claiming else 'along'} {t.house_name(cover)}: "
                                f"removes {describe_eliminations(t, eliminations)}",
                                eliminations=eliminations, cells=tuple(where), houses=(base, cover))
    return None


def find_pointing(state: State) -> Step | None:
    return find(state, claiming=False)


def find_claiming(state: State) -> Step | None:
    return find(state, claiming=True)
