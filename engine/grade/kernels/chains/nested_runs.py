"""A nested run's own loop (:mod:`engine.grade.finders.chains.nested`): following it until it stalls, and, for the
rows whose first search inside is the plain one, that search where it stalls and a whole search's runs in one call,
with the set of grids where it finds nothing (:mod:`.grid_set`).
"""
from __future__ import annotations

import numpy as np

from ...._jit import wide_kernel
from .grid_set import FOUND_HERE, NOTHING_HERE, _mark_of, _note
from .implications import NONE, _follow, _push_off, _start
from .nested import _plain_inside
from .outer import _resume
from .plus import _advanced
from .slots import _reset


@wide_kernel
def _run_on(ws, w, seed, cands, houses, cell_houses, n):
    """Follow the dynamic run in slot ``w`` (first emptied and begun from ``seed``, unless it is negative: a run
    going on after chains inside added states), with the rules of a "+" run when nothing is left to follow, until
    a candidate is forced both ways, or the run ends, or it needs chains inside: ``(on, off, stalled)``, ``on`` and
    ``off`` NONE unless the first, ``stalled`` the last (the caller then looks inside and, if that adds states,
    calls this again). One call where a nested run's Python loop made five a stall: each call from Python unboxes
    the workspace's arrays (a few microseconds, a run's first call more than half of what it costs)."""
    if seed >= 0:
        _reset(ws, w)
        _start(ws, w, seed, cands, houses, cell_houses)
    while True:
        on, off = _follow(ws, w, cands, houses, cell_houses, n, True, True)
        if on != NONE:
            return on, off, False
        added = _advanced(ws, w, cands, ws[7], houses, cell_houses, n, ws[12], ws[13])
        if added > 0:
            _push_off(ws, ws[12], added)
            continue
        return np.int64(NONE), np.int64(NONE), added < 0  # -1: no rule productive; 0: productive, nothing new


#: what :func:`_run_plain` says of the plain search inside on the grid its run stalled on: Python is to look (the
#: run did not stall, or the grid is one where the search finds something: Python's memo has it), or the search
#: finds nothing there; more than 0: it found that many rows, in ``found``
LOOK, NOTHING_FOUND = -2, -1


@wide_kernel
def _run_plain(ws, w, seed, cands, houses, cell_houses, n, spare, found, walk, sees, before, marks, grids, count):
    """:func:`_run_on`, and where the run stalls, the plain search inside on its grid (:func:`_plain_inside`, with
    ``spare``, ``found``, ``walk``, ``sees`` and ``before``) unless the grid set ``marks``, ``grids``, ``count``
    (:mod:`.grid_set`) knows the grid: ``(on, off, stalled, seen, cycles)``, ``seen`` as :data:`LOOK` says
    (``cycles``: whether a row found is a cycle's). A grid where the search finds nothing joins the set.

    Rows 9.5 and 10.0 look inside with the plain search first at every stall, about a hundred thousand times on
    the hardest puzzles, nine times in ten finding nothing: going back to Python for each (its memo, then a call
    for the search) cost more than the search's answer."""
    on, off, stalled = _run_on(ws, w, seed, cands, houses, cell_houses, n)
    if on != NONE or not stalled:
        return on, off, stalled, np.int64(LOOK), False
    work = ws[7]
    mark = _mark_of(marks, grids, work)
    if mark == NOTHING_HERE:
        return on, off, stalled, np.int64(NOTHING_FOUND), False
    if mark == FOUND_HERE:
        return on, off, stalled, np.int64(LOOK), False
    k, cycles = _plain_inside(spare, cands, work, houses, cell_houses, n, found, walk, sees, before)
    if k <= 0:
        _note(marks, grids, count, work, np.int64(NOTHING_HERE))
        return on, off, stalled, np.int64(NOTHING_FOUND), False
    return on, off, stalled, k, cycles


@wide_kernel
def _resume_plain(ws, w, cands, houses, cell_houses, n, marks, grids):
    """:func:`~.outer._resume`, and what the grid set knows of the plain search inside on the run's grid
    (:data:`NOTHING_FOUND` or :data:`LOOK`, as :func:`_run_plain` says it)."""
    _resume(ws, w, cands, houses, cell_houses, n)
    if _mark_of(marks, grids, ws[7]) == NOTHING_HERE:
        return np.int64(NOTHING_FOUND)
    return np.int64(LOOK)


@wide_kernel
def _run_many(ws, seeds, first, start, out, cands, houses, cell_houses, n, spare, found, walk, sees, before, marks,
              grids, count, single):
    """The runs from ``seeds[start:]``, seed ``i`` in slot ``first + i``, each by :func:`_run_plain`, until one
    stalls where Python must go on (the plain search inside found something or Python is to look, or found nothing
    but the row has another search inside: not ``single``): returns its index, ``out[i]`` holding ``(seen,
    cycles)``, or ``seeds.size`` when all are made. ``out[i]`` of each run made: ``(on, off, open)``, as
    engine.grade.finders.chains.nested._Search.run returns them.

    Why: a row 9.5 search makes hundreds of runs, and nine in ten end where the plain search inside finds nothing:
    one call for them all, where a call for each (its 35 arrays unboxed, and Python's bookkeeping around it) was
    as much again as the run itself."""
    for i in range(start, seeds.size):
        on, off, stalled, seen, cycles = _run_plain(ws, first + i, seeds[i], cands, houses, cell_houses, n, spare,
                                                    found, walk, sees, before, marks, grids, count)
        if on == NONE and stalled:
            if seen != NOTHING_FOUND or not single:
                out[i, 0] = seen
                out[i, 1] = cycles
                return i
            out[i, 0], out[i, 1], out[i, 2] = NONE, NONE, 1  # open: a later row's searches inside may add more
        else:
            out[i, 0], out[i, 1], out[i, 2] = on, off, 0
    return seeds.size
