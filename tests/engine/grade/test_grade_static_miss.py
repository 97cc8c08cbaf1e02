"""The proof of where the multiple forcing chains can conclude (engine/grade/kernels/chains/static_miss.py) is sound,
and its closures are those of a plain walk.

- On every grid the grader tries the multiple forcing chains on while grading hard puzzles, a grid the closures
  call a miss is one where the search finds nothing; and they prove most of the search's misses there.
- There, the search over only the cells and houses the closures flag keeps the conclusion of the search over
  all, in a workspace another grid's search used last (the region chains read the places of its grid).
- Both on those grids with candidates taken away at random (the solution's kept), where the links differ.
- Each node's closure (its strongly connected part's bits) is the set a breadth-first walk from it reaches, on
  random graphs.
"""
from __future__ import annotations

import dataclasses
import functools
from collections import deque

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.geometry import geometry
from engine.grade.grader import solve_logically
from engine.grade.kernels.chains import forcing as F
from engine.grade.kernels.chains.space import forcing_space
from engine.grade.kernels.chains.static_miss import _closures, _static_miss, _static_units
from engine.grade.kernels.state import grader_units
from engine.grade.state import State
from engine.grade.techniques import REGISTRY
from engine.vocabulary import STEP_PATH_ONLY

# top1465 puzzles whose grading tries the multiple forcing chains and sees them miss, and a random minimal puzzle
# (bench_grade's) whose grading takes five steps from them
PUZZLES = [
    "3.7..4.2....1..8..9............3..9..5.8......4.6...........5.12...7..........6..",
    "5.8.....7...9.1...4............5...4.6.....3..9....6...2.3...1.7...8..........2..",
    ".43...5...8.64.......32..9.......96.......7.8.7..19.45.5.....3...42.....7..1..8..",
]

_GEO = geometry(3)
_CELL_HOUSES = grader_units(_GEO)


@functools.cache
def _grids():
    """(cands, solution) each time the step path tries the multiple forcing chains on PUZZLES. Made on first use,
    not at import: grading the puzzles takes seconds, and every test worker imports the module to collect it."""
    seen = []

    def recorded(technique):
        def find(state):
            seen.append(np.array(state.to_arrays()[1], np.int64))
            return technique.find(state)
        return dataclasses.replace(technique, find=find)

    rows = tuple(recorded(t) if t.name == "multiple-forcing-chains" else t
                 for t in REGISTRY if t.name not in STEP_PATH_ONLY)
    out = []
    for puzzle in PUZZLES:
        digits = np.array([0 if ch == "." else int(ch) for ch in puzzle], np.int64)
        start = len(seen)
        state = State.from_puzzle(digits, 3)
        solve_logically(state, rows)
        solution = np.array(state.to_arrays()[0], np.int64)
        out += [(cands, solution) for cands in seen[start:]]
    return out


def _search_misses(cands):
    hint = np.empty(F.HINT_SIZE, np.int64)
    F._forcing_hint(F.MULTIPLE, cands, _GEO.houses, _CELL_HOUSES, _GEO.size, hint)
    return hint[F.H_TENTHS] == F.NO_HINT


def test_a_proved_miss_is_a_miss_and_most_misses_are_proved():
    assert len(_grids()) >= 10
    misses = proved = 0
    for cands, _ in _grids():
        miss = _search_misses(cands)
        sure = _static_miss(cands, _GEO.houses, _CELL_HOUSES, _GEO.size)
        assert not sure or miss
        misses += miss
        proved += sure
    assert misses >= 8
    assert proved >= misses * 9 // 10


_SPACE = forcing_space(81, 9, 9)  # shared by the searches below, as a grading thread shares one


def _flagged_hint(cands):
    """The search over the cells and houses the closures flag, as the grader makes it (None: a proved miss)."""
    units = np.empty(81 + _GEO.houses.shape[0] * 9, np.int8)
    if not _static_units(cands, _GEO.houses, _CELL_HOUSES, _GEO.size, units):
        return None
    hint = np.empty(F.HINT_SIZE, np.int64)
    F._forcing_hint_in(F.MULTIPLE, cands, _GEO.houses, _CELL_HOUSES, _GEO.size, hint, np.int64(-1), _SPACE, units)
    return hint


def _full_hint(cands):
    hint = np.empty(F.HINT_SIZE, np.int64)
    F._forcing_hint_in(F.MULTIPLE, cands, _GEO.houses, _CELL_HOUSES, _GEO.size, hint, np.int64(-1), _SPACE,
                       np.zeros(0, np.int8))
    return hint


def _same_conclusion_after(other, cands):
    """Whether the flagged search on ``cands`` concludes what the full search does, each right after a full
    search on ``other`` in the shared workspace (the flagged search must not read that grid's places)."""
    _full_hint(other)
    flagged = _flagged_hint(cands)
    full = _full_hint(cands)
    if flagged is None:
        assert full[F.H_TENTHS] == F.NO_HINT
    else:
        assert list(flagged) == list(full)
    return full[F.H_TENTHS] != F.NO_HINT


def test_the_flagged_cells_and_houses_keep_the_conclusion():
    grids = _grids()
    hits = sum(_same_conclusion_after(grids[k - 1][0], cands) for k, (cands, _) in enumerate(grids))
    assert hits >= 5


def _taken_away(data):
    grids = _grids()
    cands, solution = grids[data.draw(st.integers(0, len(grids) - 1))]
    cands = cands.copy()
    for c in data.draw(st.lists(st.integers(0, 80), max_size=12)):
        keep = np.int64(1) << (solution[c] - 1)  # the solution's candidate stays: the grid still has a solution
        drop = data.draw(st.integers(0, 511))
        cands[c] = (cands[c] & ~drop) | keep
    return cands


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_proved_miss_is_a_miss_with_candidates_taken_away(data):
    cands = _taken_away(data)
    if _static_miss(cands, _GEO.houses, _CELL_HOUSES, _GEO.size):
        assert _search_misses(cands)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_flagged_cells_and_houses_keep_the_conclusion_with_candidates_taken_away(data):
    _same_conclusion_after(_taken_away(data), _taken_away(data))


def _walk(start, links):
    seen = {start}
    todo = deque([start])
    while todo:
        for w in links[todo.popleft()]:
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return seen


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 150).flatmap(
    lambda k: st.tuples(st.just(k), st.lists(st.lists(st.integers(0, k - 1), max_size=4), min_size=k, max_size=k))))
def test_closures_are_what_a_walk_reaches(graph):
    nodes, links = graph
    first = np.zeros(nodes + 1, np.int64)
    for v in range(nodes):
        first[v + 1] = first[v] + len(links[v])
    flat = np.array([w for row in links for w in row], np.int64)
    words = (nodes + 63) // 64
    part, sets = _closures(nodes, first, flat, words)
    for v in range(nodes):
        row = sets[part[v]]
        got = {x for x in range(nodes) if int(row[x // 64]) >> (x % 64) & 1}
        assert got == _walk(v, links)
