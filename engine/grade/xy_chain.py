"""XY-chain: a chain of bivalue cells, each linked to the next by a shared digit, whose two ends can hold z.

Read from its start s = {z,x}: if s is not z it is x, so the next cell (a peer holding x) is not x and holds its
other digit, and so on, until the last cell holds z. So one end holds z, and every cell that sees both ends
loses z. An XY-Wing is an XY-chain of three cells. Written ``(z=x)r1c1 - (x=y)r1c5 - (y=z)r4c5``.

The search walks breadth-first from each start candidate (cells in reading order, digits ascending), so the
chain reported is the shortest (three cells at least) that removes something, ties to the earlier start, then
to the end found first.
"""
from __future__ import annotations

from ..bits import lowest_digit
from ..vocabulary import RATINGS
from .state import State, Step, describe_eliminations

NAME = "xy-chain"
RATING = RATINGS[NAME]


def _walk(state: State, start: int, z: int):
    """Breadth-first from "start is not z": yields ``(end, path)`` for every bivalue cell reached that must then
    be z, nearest first; ``path`` lists ``(cell, digit it holds if the start is not z)``."""
    t, cands = state.t, state.cands
    bit_z = 1 << (z - 1)
    first = (start, lowest_digit(cands[start] & ~bit_z))
    parent = {first: None}
    queue = [first]
    for node in queue:
        cell, digit = node
        bit = 1 << (digit - 1)
        for p in t.peers[cell]:
            if cands[p].bit_count() != 2 or not cands[p] & bit:
                continue
            nxt = (p, lowest_digit(cands[p] & ~bit))
            if nxt in parent:
                continue
            parent[nxt] = node
            queue.append(nxt)
            if nxt[1] == z and p != start:
                path = []
                back = nxt
                while back is not None:
                    path.append(back)
                    back = parent[back]
                yield p, path[::-1]


def _chain_text(t, path, z) -> str:
    parts, before = [], z
    for cell, digit in path:
        parts.append(f"({before}={digit}){t.cell_name(cell)}")
        before = digit
    return " - ".join(parts)


def find(state: State) -> Step | None:
    t = state.t
    cands = state.cands
    best = None
    for start in range(t.ncells):
        if cands[start].bit_count() != 2:
            continue
        mask = cands[start]
        while mask:
            z = lowest_digit(mask)
            mask &= mask - 1
            bit_z = 1 << (z - 1)
            for end, path in _walk(state, start, z):
                if best is not None and len(path) >= len(best[0]):
                    break
                if len(path) < 3:
                    continue
                seen = t.peer_sets[end]
                eliminations = tuple((c, z) for c in t.peers[start] if cands[c] & bit_z and c in seen and c != end)
                if eliminations:
                    best = (path, z, eliminations)
    if best is None:
        return None
    path, z, eliminations = best
    return Step(NAME, RATING,
                f"XY-chain {_chain_text(t, path, z)}: one end holds {z}, "
                f"removes {describe_eliminations(t, eliminations)}",
                eliminations=tuple(sorted(eliminations)), cells=tuple(c for c, _ in path))
