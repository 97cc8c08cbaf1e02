"""Claiming (locked candidates, type 2, box-line reduction): a digit confined to one box inside a row or column.

If every place left for a digit in a row lies in one box, the row's copy of the digit is in that box, so the
box's other cells cannot hold it. Search order: rows, then columns, digits ascending. Rated 2.8.
"""
from __future__ import annotations

from .state import State, Step, cell_list, describe_eliminations

NAME = "claiming"
RATING = 2.8


def find(state: State) -> Step | None:
    t = state.t
    cands = state.cands
    n = t.n
    for line in range(2 * n):
        house = t.houses[line]
        present = 0
        for c in house:
            present |= cands[c]
        for digit in range(1, n + 1):
            bit = 1 << (digit - 1)
            if not present & bit:
                continue
            where = [c for c in house if cands[c] & bit]
            if len(where) < 2:
                continue
            b = t.box_of[where[0]]
            if any(t.box_of[c] != b for c in where[1:]):
                continue
            inside = set(house)
            eliminations = tuple((c, digit) for c in t.boxes[b] if cands[c] & bit and c not in inside)
            if eliminations:
                return Step(NAME, RATING,
                            f"claiming {digit} in {t.house_name(line)} ({cell_list(t, where)}) inside box {b + 1}:"
                            f" removes {describe_eliminations(t, eliminations)}",
                            eliminations=eliminations, cells=tuple(where), houses=(line, 2 * n + b))
    return None
