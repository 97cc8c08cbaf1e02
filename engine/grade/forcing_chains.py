"""Chains, the way Sudoku Explainer rates them: cycles, forcing chains, Nishio, multiple and dynamic forcing chains.

The search for these is the compiled one (:mod:`engine.grade._fast_cycles`, :mod:`engine.grade._fast_forcing`):
it collects every conclusion of a row, rates each by its kind and the length of its chains, and keeps the lowest
rated, exactly as the fast path does. This module runs that search for one row and turns its conclusion into a
:class:`Step` a person can follow (:mod:`engine.grade.chain_steps`): what was assumed, each link of each chain
(``Step.links``: states ``(cell, digit, on)``) with what else it rests on, and what follows.
Soundness does not rest on the search: the tests check every step of every test puzzle against its solution.
"""
from __future__ import annotations

import numpy as np

from ..geometry import geometry
from ..vocabulary import step_name
from .chain_steps import (CHAINS_AND_CYCLES, DYNAMIC, DYNAMIC_PLUS, LABEL, MULTIPLE, NISHIO, chain_kind, chains,
                          conclusion, forcing_words, raw_size, step, with_rules)
from .state import State, Step


def _search(name: str, state: State):
    """The row's kept conclusion on ``state``: (tenths, kind words, placements, eliminations, (links, reasons),
    the kind of step) or None."""
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
        cycle = hint[cy.C_KIND] == cy.CYCLE
        kind = chain_kind(cycle, int(hint[cy.C_PASS]))
        words = step_name(CHAINS_AND_CYCLES, kind)
        if cycle:
            eliminations = tuple((int(k) // n, int(k) % n + 1) for k in np.flatnonzero(elim))
            return int(hint[cy.C_TENTHS]), words, (), eliminations, links, kind
        return (int(hint[cy.C_TENTHS]), words) + conclusion(int(hint[cy.C_TARGET]), n) + (links, kind)
    producer = {NISHIO: fo.NISHIO, MULTIPLE: fo.MULTIPLE, DYNAMIC: fo.DYNAMIC, DYNAMIC_PLUS: fo.DYNAMIC_PLUS}[name]
    hint = np.empty(fo.HINT_SIZE, np.int64)
    fo._forcing_hint(producer, cands, geo.houses, cell_houses, n, hint)
    if hint[fo.H_TENTHS] == fo.NO_HINT:
        return None
    links = with_rules(state.t, cands, chains(raw, fo._forcing_links(producer, cands, geo.houses, cell_houses, n,
                                                                     hint, raw), n))
    words = forcing_words(f"{LABEL[name]} forcing chains", hint, state.t)
    return (int(hint[fo.H_TENTHS]), words) + conclusion(int(hint[fo.H_TARGET]), n) + (links, int(hint[fo.H_KIND]))


def _find(name: str, state: State) -> Step | None:
    found = _search(name, state)
    return None if found is None else step(name, state.t, *found)


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
    return step(nested_chains.NAME, state.t, int(hint[fo.H_TENTHS]), words, placements, eliminations, links,
                int(hint[fo.H_KIND]))
