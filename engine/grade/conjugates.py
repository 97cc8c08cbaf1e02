"""Conjugate pairs (strong links) of one digit: two cells that are the digit's only places in some house.

Simple colouring and X-chains both walk these links; exactly one cell of a conjugate pair holds the digit.
"""
from __future__ import annotations

from .state import State


def strong_links(state: State, digit: int) -> dict[int, list[int]]:
    """cell -> the cells it is conjugate with for ``digit`` (ascending), for every cell in some pair."""
    bit = 1 << (digit - 1)
    cands = state.cands
    links: dict[int, set[int]] = {}
    for house in state.t.houses:
        where = [c for c in house if cands[c] & bit]
        if len(where) == 2:
            a, b = where
            links.setdefault(a, set()).add(b)
            links.setdefault(b, set()).add(a)
    return {c: sorted(links[c]) for c in sorted(links)}
