"""Alternating inference chain (AIC): candidates linked alternately strong and weak, across digits and cells.

A candidate is a (cell, digit) pair. A strong link joins two candidates of which at least one is true: the two
places of a digit in a house (a conjugate pair) or the two digits of a bivalue cell. A weak link joins two
that cannot both be true: one digit in two peer cells, or two digits of one cell. Read from its start A
(starting and ending with a strong link): if A is false the next is true, the one after false, ..., so the
far end B is true: A or B holds. Then

- same digit at both ends: every other cell that sees both ends loses that digit;
- two digits in one cell: the cell keeps only those two;
- two digits in peer cells (A = d at s, B = e at t): s loses e and t loses d.

X-chains (one digit) and XY-chains (bivalue cells only) are AICs with fewer kinds of link; the grader tries
those first. The search is breadth-first from each start candidate (reading order, digits ascending), so the
chain reported is the shortest (three links at least) that removes something, ties to the earlier start, then
to the end found first. Written ``(5)r1c1=(5)r1c7-(5)r4c7=(3)r4c7``.
"""
from __future__ import annotations

from ..bits import digits_of
from ..vocabulary import RATINGS
from .state import State, Step, describe_eliminations

NAME = "aic"
RATING = RATINGS[NAME]


def _strong(state: State) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """candidate -> the candidates it is strongly linked with, ascending, for every candidate with a link."""
    t, cands = state.t, state.cands
    links: dict[tuple[int, int], set[tuple[int, int]]] = {}

    def add(a, b):
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)

    for cell in range(t.ncells):
        if cands[cell].bit_count() == 2:
            x, y = digits_of(cands[cell])
            add((cell, x), (cell, y))
    for house in t.houses:
        for digit in range(1, t.n + 1):
            bit = 1 << (digit - 1)
            where = [c for c in house if cands[c] & bit]
            if len(where) == 2:
                add((where[0], digit), (where[1], digit))
    return {k: sorted(links[k]) for k in sorted(links)}


def _weak(state: State, cand: tuple[int, int]) -> list[tuple[int, int]]:
    """The candidates that ``cand`` being true rules out, ascending (peers with its digit, its cell's others)."""
    cell, digit = cand
    bit = 1 << (digit - 1)
    out = [(p, digit) for p in state.t.peers[cell] if state.cands[p] & bit]
    out += [(cell, d) for d in digits_of(state.cands[cell]) if d != digit]
    return sorted(out)


def _eliminations(state: State, a: tuple[int, int], b: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """What "a or b is true" removes (the three cases of the module doc)."""
    t, cands = state.t, state.cands
    (s, d), (e, f) = a, b
    if d == f:
        bit = 1 << (d - 1)
        seen = t.peer_sets[e]
        return tuple((c, d) for c in t.peers[s] if cands[c] & bit and c in seen and c != e)
    if s == e:
        return tuple((s, x) for x in digits_of(cands[s]) if x not in (d, f))
    if e in t.peer_sets[s]:
        return tuple(x for x in ((s, f), (e, d)) if state.has(*x))
    return ()


def _walk(state: State, start, strong):
    """Breadth-first from "start is false": ``(end, path)`` for each candidate then true, nearest first."""
    parent = {(start, False): None}
    queue = [(start, False)]
    for node in queue:
        cand, holds = node
        for other in (_weak(state, cand) if holds else strong.get(cand, ())):
            nxt = (other, not holds)
            if nxt in parent:
                continue
            parent[nxt] = node
            queue.append(nxt)
            if holds or other == start:
                continue
            path = []
            back = nxt
            while back is not None:
                path.append(back[0])
                back = parent[back]
            yield other, path[::-1]


def _chain_text(t, path) -> str:
    text = ""
    for i, (cell, digit) in enumerate(path):
        text += ("" if i == 0 else "=" if i % 2 else "-") + f"({digit}){t.cell_name(cell)}"
    return text


def find(state: State) -> Step | None:
    t = state.t
    strong = _strong(state)
    best = None
    for start in strong:
        for end, path in _walk(state, start, strong):
            if best is not None and len(path) >= len(best[0]):
                break  # nearest ends come first: nothing shorter is left from this start
            if len(path) < 4:
                continue
            eliminations = _eliminations(state, start, end)
            if eliminations:
                best = (path, eliminations)
    if best is None:
        return None
    path, eliminations = best
    return Step(NAME, RATING,
                f"AIC {_chain_text(t, path)}: one end is true, removes {describe_eliminations(t, eliminations)}",
                eliminations=tuple(sorted(eliminations)), cells=tuple(dict.fromkeys(c for c, _ in path)))
