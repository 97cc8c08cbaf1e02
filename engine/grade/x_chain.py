"""X-chain: a chain of one digit whose links alternate strong (a conjugate pair) and weak (two cells of a
house), starting and ending with a strong link.

Read from its start s: if s does not hold the digit, the strong link puts it in the next cell, which then
removes it (weak link) from the one after, and so on, until the far end e holds it. So s or e holds the digit,
and every other cell that sees both loses it. X-Wings, Skyscrapers, 2-String Kites and Turbot Fish are short
X-chains; colouring traps are X-chains whose links are all strong.

The search is a breadth-first walk of implications "(cell holds the digit) = true/false" from each start cell,
so the chain reported is the shortest (3 links at least: one link is locked candidates) for the first digit
that has one, with ties going to the earlier start cell, then to the end found first.
"""
from __future__ import annotations

from ..vocabulary import RATINGS
from .conjugates import strong_links
from .state import State, Step, describe_eliminations

NAME = "x-chain"
RATING = RATINGS[NAME]


def _chain_text(t, path) -> str:
    """``r1c2=r1c7-r4c7=r4c3``: ``=`` a strong link, ``-`` a weak one."""
    text = t.cell_name(path[0])
    for i, cell in enumerate(path[1:]):
        text += ("=" if i % 2 == 0 else "-") + t.cell_name(cell)
    return text


def _walk(state: State, digit: int, start: int, strong, weak):
    """Breadth-first from "start is false": yields ``(end, path)`` for every "end is true" reached, nearest
    first. Nodes are ``(cell, holds)``; a false cell's strong partners are true, a true cell's weak peers false."""
    parent = {(start, False): None}
    queue = [(start, False)]
    for node in queue:
        cell, holds = node
        for other in (weak[cell] if holds else strong.get(cell, ())):
            nxt = (other, not holds)
            if nxt in parent:
                continue
            parent[nxt] = node
            queue.append(nxt)
            if nxt[1] and other != start:
                path = []
                back = nxt
                while back is not None:
                    path.append(back[0])
                    back = parent[back]
                yield other, path[::-1]


def find(state: State) -> Step | None:
    t = state.t
    cands = state.cands
    for digit in range(1, t.n + 1):
        bit = 1 << (digit - 1)
        strong = strong_links(state, digit)
        if len(strong) < 3:  # fewer than two conjugate pairs
            continue
        weak = {c: [p for p in t.peers[c] if cands[p] & bit] for c in range(t.ncells) if cands[c] & bit}
        best = None
        for start in strong:
            for end, path in _walk(state, digit, start, strong, weak):
                if best is not None and len(path) >= len(best[0]):
                    break  # the walk yields nearest ends first: nothing shorter is left from this start
                if len(path) < 4:
                    continue
                seen = t.peer_sets[end]
                eliminations = tuple((c, digit) for c in t.peers[start]
                                     if cands[c] & bit and c in seen and c != end)
                if eliminations:
                    best = (path, eliminations)
        if best is not None:
            path, eliminations = best
            return Step(NAME, RATING,
                        f"X-chain on {digit}: {_chain_text(t, path)}: one end holds {digit}, "
                        f"removes {describe_eliminations(t, eliminations)}",
                        eliminations=tuple(sorted(eliminations)), cells=tuple(path))
    return None
