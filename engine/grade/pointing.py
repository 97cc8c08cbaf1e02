"""Pointing (locked candidates, type 1): a digit confined to one row (or column) inside a box.

If every place left for a digit in a box lies in one row, the box's copy of the digit is in that row, so no
other cell of the row outside the box can hold it. Search order: boxes, digits ascending, the row before the
column. Rated 2.6.
"""
from __future__ import annotations

from .state import State, Step, cell_list, describe_eliminations

NAME = "pointing"
RATING = 2.6


def find(state: State) -> Step | None:
    t = state.t
    cands = state.cands
    n = t.n
    for b in range(n):
        box = t.boxes[b]
        present = 0
        for c in box:
            present |= cands[c]
        for digit in range(1, n + 1):
            bit = 1 << (digit - 1)
            if not present & bit:
                continue
            where = [c for c in box if cands[c] & bit]
            if len(where) < 2:
                continue
            for line in t.common_houses(where):
                if line >= 2 * n:  # the box itself
                    continue
                eliminations = tuple((c, digit) for c in t.houses[line]
                                     if cands[c] & bit and t.box_of[c] != b)
                if eliminations:
                    return Step(NAME, RATING,
                                f"pointing {digit} in box {b + 1} ({cell_list(t, where)}) along "
                                f"{t.house_name(line)}: removes {describe_eliminations(t, eliminations)}",
                                eliminations=eliminations, cells=tuple(where), houses=(2 * n + b, line))
    return None
