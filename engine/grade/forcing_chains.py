"""Chains, the way Sudoku Explainer rates them: cycles, forcing chains, Nishio, multiple and dynamic forcing chains.

The search for these is the compiled one (:mod:`engine.grade._fast_cycles`, :mod:`engine.grade._fast_forcing`):
it collects every conclusion of a row, rates each by its kind and the length of its chains, and keeps the lowest
rated, exactly as the fast path does. This module turns that conclusion into a :class:`Step` a person can follow:
what was assumed, each link of each chain (``Step.links``: states ``(cell, digit, on)``), and what follows.
Soundness does not rest on the search: the tests check every step of every test puzzle against its solution.
"""
from __future__ import annotations

import numpy as np

from ..geometry import geometry
from .state import Link, Reason, State, Step, Tables, describe_eliminations

CHAINS_AND_CYCLES = "chains-and-cycles"
NISHIO = "nishio"
MULTIPLE = "multiple-forcing-chains"
DYNAMIC = "dynamic-forcing-chains"
DYNAMIC_PLUS = "dynamic-forcing-chains-plus"

_CYCLE_PASS = ("bidirectional X-cycle", "bidirectional Y-cycle", "bidirectional cycle")
_FORCING_PASS = ("forcing X-chain", "", "forcing chain")
_FORCING_KIND = ("contradiction", "double forcing chains", "region forcing chains", "cell forcing chains")
_LABEL = {NISHIO: "Nishio", MULTIPLE: "multiple", DYNAMIC: "dynamic", DYNAMIC_PLUS: "dynamic (+)"}


def _state(t: int, n: int) -> Link:
    p = t >> 1
    return p // n, p % n + 1, bool(t & 1)


def _word(t: Tables, link: Link) -> str:
    cell, digit, on = link
    return f"{t.cell_name(cell)}{'=' if on else '≠'}{digit}"


def raw_size(ncells: int, n: int) -> int:
    """Entries enough for the chains of any conclusion on a grid of ``ncells`` cells (see :func:`chains`): up to
    ``n`` chains, each at most every state of a run once and every parent its workspace can hold."""
    nstates = 2 * ncells * n
    return n * (nstates + nstates * 4 + 66) + 64


def chains(raw, size: int, n: int) -> tuple[tuple[tuple[Link, ...], ...], tuple[tuple[Reason | None, ...], ...]]:
    """The chains ``raw[:size]`` holds (states, -1 after each chain, ``-2 - parent`` after a state for each of its
    other parents) as links, and beside each link its :class:`Reason` (the other parents), None where the link
    before it is the whole reason; the reasons are () when no link has one."""
    links: list = []
    reasons: list = []
    chain: list = []
    why: list = []
    for t in raw[:size].tolist():
        if t == -1:
            links.append(tuple(chain))
            reasons.append(tuple(why))
            chain, why = [], []
        elif t <= -2:  # (a parent may be recorded twice, and the first is the link before)
            also = why[-1].also if why[-1] else ()
            parent = _state(-2 - t, n)
            if parent not in also and (len(chain) < 2 or parent != chain[-2]):
                why[-1] = Reason(also=also + (parent,))
        else:
            chain.append(_state(t, n))
            why.append(None)
    if chain:
        links.append(tuple(chain))
        reasons.append(tuple(why))
    if not any(r for why in reasons for r in why):
        return tuple(links), ()
    return tuple(links), tuple(reasons)


def with_rules(t: Tables, cands, links) -> tuple:
    """``links`` (chains and reasons, as :func:`chains` gives them) with the pattern named beside every off state
    that follows from off states alone: a state a dynamic chain (+) removed by a rule, on the grid ``cands`` the
    chain started from (:func:`engine.grade.plus_rules.plus_rule`)."""
    from .plus_rules import plus_rule

    chain_links, reasons = links
    out = []
    for chain, why in zip(chain_links, reasons or [(None,) * len(c) for c in chain_links]):
        why = list(why)
        for i in range(1, len(chain)):
            reason = why[i] or Reason()
            parents = (chain[i - 1],) + reason.also
            if chain[i][2] or reason.inner is not None or any(on for _, _, on in parents):
                continue
            rule = plus_rule(t, cands, chain[i], parents)
            if rule:
                why[i] = Reason(also=reason.also, rule=rule)
        out.append(tuple(why))
    if not any(r for why in out for r in why):
        return chain_links, ()
    return chain_links, tuple(out)


def _search(name: str, state: State):
    """The row's kept conclusion on ``state``: (tenths, kind words, placements, eliminations, (links, reasons))
    or None."""
    from ._fast_state import cell_houses_of
    from . import _fast_cycles as cy, _fast_forcing as fo

    geo = geometry(state.t.box)
    n = geo.size
    _, cands = state.to_arrays()
    cell_houses = cell_houses_of(geo.row_of, geo.col_of, geo.box_of, n)
    raw = np.zeros(raw_size(cands.size, n), np.int32)
    if name == CHAINS_AND_CYCLES:
        hint = np.empty(cy.C_SIZE, np.int64)
        elim = np.zeros(cands.size * n, np.int8)
        cy._cycles_hint(cands, geo.houses, cell_houses, geo.peers, n, hint, elim)
        if hint[cy.C_TENTHS] == cy.NO_HINT:
            return None
        links = chains(raw, cy._cycles_links(cands, geo.houses, cell_houses, n, hint, raw), n)
        if hint[cy.C_KIND] == cy.CYCLE:
            words = _CYCLE_PASS[int(hint[cy.C_PASS])]
            eliminations = tuple((int(k) // n, int(k) % n + 1) for k in np.flatnonzero(elim))
            return int(hint[cy.C_TENTHS]), words, (), eliminations, links
        words = _FORCING_PASS[int(hint[cy.C_PASS])]
        return (int(hint[cy.C_TENTHS]), words) + conclusion(int(hint[cy.C_TARGET]), n) + (links,)
    producer = {NISHIO: fo.NISHIO, MULTIPLE: fo.MULTIPLE, DYNAMIC: fo.DYNAMIC, DYNAMIC_PLUS: fo.DYNAMIC_PLUS}[name]
    hint = np.empty(fo.HINT_SIZE, np.int64)
    fo._forcing_hint(producer, cands, geo.houses, cell_houses, n, hint)
    if hint[fo.H_TENTHS] == fo.NO_HINT:
        return None
    links = with_rules(state.t, cands, chains(raw, fo._forcing_links(producer, cands, geo.houses, cell_houses, n,
                                                                     hint, raw), n))
    words = forcing_words(f"{_LABEL[name]} forcing chains", hint, state.t)
    return (int(hint[fo.H_TENTHS]), words) + conclusion(int(hint[fo.H_TARGET]), n) + (links,)


def forcing_words(label: str, hint, t: Tables) -> str:
    """What a forcing-chain conclusion is: the row's label, its kind, and the cell or the digit and house."""
    from . import _fast_forcing as fo

    kind = int(hint[fo.H_KIND])
    words = f"{label}, {_FORCING_KIND[kind]}"
    where = int(hint[fo.H_WHERE])
    if kind == fo.REGION:
        words += f" on {int(hint[fo.H_SOURCE])} in {t.house_name(where)}"
    elif kind == fo.CELL:
        words += f" on {t.cell_name(where)}"
    return words


def conclusion(target: int, n: int):
    cell, digit, on = _state(target, n)
    return (((cell, digit),), ()) if on else ((), ((cell, digit),))


def _find(name: str, state: State) -> Step | None:
    found = _search(name, state)
    return None if found is None else step(name, state.t, *found)


def step(name: str, t: Tables, tenths: int, words: str, placements, eliminations, links) -> Step:
    """The step of a chain conclusion: ``links`` is (its chains, the reasons beside their links)."""
    chain_links, reasons = links
    rating = tenths / 10
    what = (f"{t.cell_name(placements[0][0])} is {placements[0][1]}" if placements
            else f"removes {describe_eliminations(t, eliminations)}")
    written = "; ".join(chain_words(t, chain, why) for chain, why in
                        zip(chain_links, reasons or [(None,) * len(c) for c in chain_links]))
    cells = tuple(sorted({c for c, _ in placements} | {c for c, _ in eliminations}))
    return Step(name, rating, f"{words} (rated {rating:.1f}): {written}: {what}", placements=placements,
                eliminations=eliminations, cells=cells, links=chain_links, reasons=reasons)


def chain_words(t: Tables, chain, why) -> str:
    """One chain as a person reads it: ``r1c2=5 -> r1c4≠5 -> ...``; a state that needs more than the one before it
    says what else (``r6c8=5 (and r6c2≠5)``), and one a chain found inside the run concluded says that chain in
    brackets."""
    parts = []
    for link, reason in zip(chain, why):
        word = _word(t, link)
        if reason is not None and reason.also:
            word += f" (and {', '.join(_word(t, other) for other in reason.also)})"
        if reason is not None and reason.rule:
            word += f" [{reason.rule}]"
        if reason is not None and reason.inner is not None:
            word += f" [{reason.inner.explanation}]"
        parts.append(word)
    return " -> ".join(parts)


def find_chains_and_cycles(state: State) -> Step | None:
    return _find(CHAINS_AND_CYCLES, state)


def find_nishio(state: State) -> Step | None:
    return _find(NISHIO, state)


def find_multiple(state: State) -> Step | None:
    return _find(MULTIPLE, state)


def find_dynamic(state: State) -> Step | None:
    return _find(DYNAMIC, state)


def find_dynamic_plus(state: State) -> Step | None:
    return _find(DYNAMIC_PLUS, state)


def find_nested(state: State) -> Step | None:
    """Nested forcing chains (:mod:`engine.grade.nested_chains`): the first of its rows with a conclusion."""
    from . import _fast_forcing as fo, nested_chains

    _, cands = state.to_arrays()
    found = nested_chains.search(cands, state.t.box)
    if found is None:
        return None
    row, hint, links = found
    words = forcing_words(f"nested forcing chains (with {nested_chains.ROWS[row][0]} inside)", hint, state.t)
    placements, eliminations = conclusion(int(hint[fo.H_TARGET]), state.t.n)
    return step(nested_chains.NAME, state.t, int(hint[fo.H_TENTHS]), words, placements, eliminations, links)
