"""Forcing chains, the way Sudoku Explainer rates them: Nishio, multiple and dynamic forcing chains (plain and +),
and the nested ones.

The search for these is the compiled one (:mod:`engine.grade.kernels.chains.forcing`; the nested rows' outer
search is :mod:`engine.grade.finders.chains.nested`): it collects every conclusion of a row, rates each by its kind
and the length of its chains, and keeps the lowest rated, exactly as the fast path does. This module runs that
search for one row and turns its conclusion into a :class:`Step` a person can follow
(:mod:`engine.grade.finders.chains.steps`): what was assumed, each link of each chain (``Step.links``: states
``(cell, digit, on)``) with what else it rests on, and what follows. Soundness does not rest on the search: the
tests check every step of every test puzzle against its solution.

``producer`` (the rows' argument, engine.grade.kernels.families: NISHIO, MULTIPLE, DYNAMIC, DYNAMIC_PLUS) says
which forcing chains, as it does for the kernel; ``name`` is the row's name, which the step carries.
"""
from __future__ import annotations

import numpy as np

from ....geometry import geometry
from ...state import State, Step
from .steps import LABEL, chains, conclusion, forcing_words, raw_size, step, with_rules


def _search(producer: int, state: State):
    """The row's kept conclusion on ``state``: (tenths, kind words, placements, eliminations, (links, reasons),
    the kind of step) or None."""
    from ...kernels.chains import forcing as fo  # the kernels load on first use, not with the grader
    from ...kernels.state import grader_units

    geo = geometry(state.t.box)
    n = geo.size
    _, cands = state.to_arrays()
    cell_houses = grader_units(geo)
    raw = np.zeros(raw_size(cands.size, n), np.int32)
    hint = np.empty(fo.HINT_SIZE, np.int64)
    fo._forcing_hint(producer, cands, geo.houses, cell_houses, n, hint)
    if hint[fo.H_TENTHS] == fo.NO_HINT:
        return None
    links = with_rules(state.t, cands, chains(raw, fo._forcing_links(producer, cands, geo.houses, cell_houses, n,
                                                                     hint, raw), n))
    words = forcing_words(f"{LABEL[producer]} forcing chains", hint, state.t)
    return (int(hint[fo.H_TENTHS]), words) + conclusion(int(hint[fo.H_TARGET]), n) + (links, int(hint[fo.H_KIND]))


def find(state: State, name: str, producer: int) -> Step | None:
    """The step of the forcing chains ``producer`` makes first on ``state`` (its lowest rated conclusion), or
    None: a step of the row ``name``."""
    found = _search(producer, state)
    return None if found is None else step(name, state.t, *found)


def find_nested(state: State, name: str) -> Step | None:
    """Nested forcing chains (:mod:`engine.grade.finders.chains.nested`, imported here when first asked: its
    outer search loads the chain kernels): the first of its rows with a conclusion."""
    from ...kernels.chains.forcing import H_KIND, H_TARGET, H_TENTHS
    from . import nested

    _, cands = state.to_arrays()
    found = nested.search(cands, state.t.box)
    if found is None:
        return None
    row, hint, links = found
    words = forcing_words(f"nested forcing chains (with {nested.ROWS[row][0]} inside)", hint, state.t)
    placements, eliminations = conclusion(int(hint[H_TARGET]), state.t.n)
    return step(name, state.t, int(hint[H_TENTHS]), words, placements, eliminations, links,
                int(hint[H_KIND]))
