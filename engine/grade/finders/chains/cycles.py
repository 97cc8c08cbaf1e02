"""Bidirectional cycles and forcing chains (the row ``chains-and-cycles``), the way Sudoku Explainer rates them.

The search is the compiled one (:mod:`engine.grade.kernels.chains.cycles`): it collects every conclusion of the
row, rates each by its kind and the length of its chains, and keeps the lowest rated, exactly as the fast path
does. This module runs that search and turns its conclusion into a :class:`Step` a person can follow
(:mod:`engine.grade.finders.chains.steps`): what was assumed, each link of each chain (``Step.links``: states
``(cell, digit, on)``) with what else it rests on, and what follows. Soundness does not rest on the search: the
tests check every step of every test puzzle against its solution.
"""
from __future__ import annotations

import numpy as np

from ....geometry import geometry
from ....vocabulary import step_name
from ...state import State, Step
from .steps import chain_kind, chains, conclusion, raw_size, step


def _search(state: State, name: str):
    """The row's kept conclusion on ``state``: (tenths, kind words, placements, eliminations, (links, reasons),
    the kind of step) or None."""
    from ...kernels.chains import cycles as cy  # the kernels load on first use, not with the grader
    from ...kernels.state import grader_units

    geo = geometry(state.t.box)
    n = geo.size
    _, cands = state.to_arrays()
    cell_houses = grader_units(geo)
    raw = np.zeros(raw_size(cands.size, n), np.int32)
    hint = np.empty(cy.C_SIZE, np.int64)
    elim = np.zeros(cands.size * n, np.int8)
    cy._cycles_hint(cands, geo.houses, cell_houses, geo.peers, n, hint, elim)
    if hint[cy.C_TENTHS] == cy.NO_HINT:
        return None
    links = chains(raw, cy._cycles_links(cands, geo.houses, cell_houses, n, hint, raw), n)
    cycle = hint[cy.C_KIND] == cy.CYCLE
    kind = chain_kind(cycle, int(hint[cy.C_PASS]))
    words = step_name(name, kind)
    if cycle:
        eliminations = tuple((int(k) // n, int(k) % n + 1) for k in np.flatnonzero(elim))
        return int(hint[cy.C_TENTHS]), words, (), eliminations, links, kind
    return (int(hint[cy.C_TENTHS]), words) + conclusion(int(hint[cy.C_TARGET]), n) + (links, kind)


def find(state: State, name: str) -> Step | None:
    """The row's step on ``state`` (its lowest rated conclusion), or None: a step of the row ``name``."""
    found = _search(state, name)
    return None if found is None else step(name, state.t, *found)
