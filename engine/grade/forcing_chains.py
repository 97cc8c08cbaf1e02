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
from .state import State, Step, describe_eliminations

CHAINS_AND_CYCLES = "chains-and-cycles"
NISHIO = "nishio"
MULTIPLE = "multiple-forcing-chains"
DYNAMIC = "dynamic-forcing-chains"
DYNAMIC_PLUS = "dynamic-forcing-chains-plus"

_CYCLE_PASS = ("bidirectional X-cycle", "bidirectional Y-cycle", "bidirectional cycle")
_FORCING_PASS = ("forcing X-chain", "", "forcing chain")
_FORCING_KIND = ("contradiction", "double forcing chains", "region forcing chains", "cell forcing chains")
_LABEL = {NISHIO: "Nishio", MULTIPLE: "multiple", DYNAMIC: "dynamic", DYNAMIC_PLUS: "dynamic (+)"}


def _state(t: int, n: int) -> tuple[int, int, bool]:
    p = t >> 1
    return p // n, p % n + 1, bool(t & 1)


def _word(state: State, link: tuple[int, int, bool]) -> str:
    cell, digit, on = link
    return f"{state.t.cell_name(cell)}{'=' if on else '≠'}{digit}"


def _chains(raw, size: int, n: int) -> tuple[tuple[tuple[int, int, bool], ...], ...]:
    chains, current = [], []
    for t in raw[:size].tolist():
        if t < 0:
            chains.append(tuple(current))
            current = []
        else:
            current.append(_state(t, n))
    if current:
        chains.append(tuple(current))
    return tuple(chains)


def _search(name: str, state: State):
    """The row's kept conclusion on ``state``: (tenths, kind words, placements, eliminations, links) or None."""
    from ._fast_state import cell_houses_of
    from . import _fast_cycles as cy, _fast_forcing as fo

    geo = geometry(state.t.box)
    n = geo.size
    _, cands = state.to_arrays()
    cell_houses = cell_houses_of(geo.row_of, geo.col_of, geo.box_of, n)
    raw = np.zeros(2 * cands.size * n * 4 + 64, np.int32)
    if name == CHAINS_AND_CYCLES:
        hint = np.empty(cy.C_SIZE, np.int64)
        elim = np.zeros(cands.size * n, np.int8)
        cy._cycles_hint(cands, geo.houses, cell_houses, geo.peers, n, hint, elim)
        if hint[cy.C_TENTHS] == cy.NO_HINT:
            return None
        links = _chains(raw, cy._cycles_links(cands, geo.houses, cell_houses, n, hint, raw), n)
        if hint[cy.C_KIND] == cy.CYCLE:
            words = _CYCLE_PASS[int(hint[cy.C_PASS])]
            eliminations = tuple((int(k) // n, int(k) % n + 1) for k in np.flatnonzero(elim))
            return int(hint[cy.C_TENTHS]), words, (), eliminations, links
        words = _FORCING_PASS[int(hint[cy.C_PASS])]
        return (int(hint[cy.C_TENTHS]), words) + _conclusion(int(hint[cy.C_TARGET]), n) + (links,)
    producer = {NISHIO: fo.NISHIO, MULTIPLE: fo.MULTIPLE, DYNAMIC: fo.DYNAMIC, DYNAMIC_PLUS: fo.DYNAMIC_PLUS}[name]
    hint = np.empty(fo.HINT_SIZE, np.int64)
    fo._forcing_hint(producer, cands, geo.houses, cell_houses, n, hint)
    if hint[fo.H_TENTHS] == fo.NO_HINT:
        return None
    links = _chains(raw, fo._forcing_links(producer, cands, geo.houses, cell_houses, n, hint, raw), n)
    words = _forcing_words(f"{_LABEL[name]} forcing chains", hint, state)
    return (int(hint[fo.H_TENTHS]), words) + _conclusion(int(hint[fo.H_TARGET]), n) + (links,)


def _forcing_words(label: str, hint, state: State) -> str:
    """What a forcing-chain conclusion is: the row's label, its kind, and the cell or the digit and house."""
    from . import _fast_forcing as fo

    kind = int(hint[fo.H_KIND])
    words = f"{label}, {_FORCING_KIND[kind]}"
    where = int(hint[fo.H_WHERE])
    if kind == fo.REGION:
        words += f" on {int(hint[fo.H_SOURCE])} in {state.t.house_name(where)}"
    elif kind == fo.CELL:
        words += f" on {state.t.cell_name(where)}"
    return words


def _conclusion(target: int, n: int):
    cell, digit, on = _state(target, n)
    return (((cell, digit),), ()) if on else ((), ((cell, digit),))


def _find(name: str, state: State) -> Step | None:
    found = _search(name, state)
    return None if found is None else _step(name, state, *found)


def _step(name: str, state: State, tenths: int, words: str, placements, eliminations, links) -> Step:
    t = state.t
    rating = tenths / 10
    what = (f"{t.cell_name(placements[0][0])} is {placements[0][1]}" if placements
            else f"removes {describe_eliminations(t, eliminations)}")
    chains = "; ".join(" -> ".join(_word(state, link) for link in chain) for chain in links)
    cells = tuple(sorted({c for c, _ in placements} | {c for c, _ in eliminations}))
    return Step(name, rating, f"{words} (rated {rating:.1f}): {chains}: {what}", placements=placements,
                eliminations=eliminations, cells=cells, links=links)


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
    words = _forcing_words(f"nested forcing chains (with {nested_chains.ROWS[row][0]} inside)", hint, state)
    placements, eliminations = _conclusion(int(hint[fo.H_TARGET]), state.t.n)
    return _step(nested_chains.NAME, state, int(hint[fo.H_TENTHS]), words, placements, eliminations, links)
