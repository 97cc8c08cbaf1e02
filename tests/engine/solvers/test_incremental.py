"""Propagation that looks only where cells changed (``engine.solvers._propagate``), against looking everywhere.

After a branch (or in a probe) the state was a fixpoint, so ``_propagate(..., settled=True)`` scans for hidden
singles only the houses changed since their last scan, and runs locked candidates only in the bands and stacks
with a changed box. The twin is the same call with ``settled=False``: every house scanned, every band and stack
looked at, as a fresh state is. From the same fixpoint with the same digit placed, both must reach the same
verdict, the same candidates, and the same placements in the same order (the search's metrics and the first
solution it finds depend on that order). 4x4 runs singles only; 16x16 and 25x25 add locked candidates.
"""
from __future__ import annotations

import functools
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.carve import carve
from engine.generators import generate
from engine.geometry import geometry
from engine.solvers._bitmask import _house_masks, _init_work
from engine.solvers._propagate import _propagate
from engine.solvers._stats import NSTATS


def _scratch(box: int):
    geo = geometry(box)
    n = geo.size
    seg = np.empty((2, n if n >= 16 else 0, box + 2), np.int64)
    dirty = np.empty(3 * n, np.uint8)
    return geo, seg, dirty


@functools.lru_cache(maxsize=None)
def _carved(box: int, k: int):
    board = np.asarray(generate(box, "backtrack", k).cells, dtype=np.int8)
    return board, carve(board, box, k).puzzle


def _fixpoint(box: int, puzzle: np.ndarray):
    """The state of ``puzzle`` after propagation from scratch: (ok, work, nsolved)."""
    geo, seg, dirty = _scratch(box)
    hmask = np.zeros(3 * geo.size, np.int64)
    stats = np.zeros(NSTATS, np.int64)
    assert _house_masks(puzzle, geo.cell_houses, hmask)
    work = np.zeros(geo.ncells, np.uint32)
    queue = np.zeros(geo.ncells + 1, np.int64)
    qtail, nsolved = _init_work(puzzle, geo.size, geo.cell_houses, hmask, work, queue, -1, 0, stats)
    ok, _, nsolved = _propagate(work, queue, qtail, nsolved, geo.peers, geo.houses, geo.cell_houses, geo.size, box,
                                seg, dirty, False, stats)
    return ok, work, nsolved


def _place_and_propagate(box: int, work: np.ndarray, nsolved: int, cell: int, bit: int, settled: bool):
    geo, seg, dirty = _scratch(box)
    dirty[:] = 0xFF  # stale flags from an earlier search must not matter
    stats = np.zeros(NSTATS, np.int64)
    state = work.copy()
    state[cell] = bit
    queue = np.zeros(geo.ncells + 1, np.int64)
    queue[0] = cell
    ok, qtail, solved = _propagate(state, queue, 1, nsolved + 1, geo.peers, geo.houses, geo.cell_houses, geo.size,
                                   box, seg, dirty, settled, stats)
    return ok, state, queue[:qtail].tolist(), solved


def _state_puzzle(box: int, k: int, seed: int, fill: float, drop: float):
    """A carved puzzle with some of its board's digits given back (tighter fixpoints) or some clues taken away
    (looser ones, with many solutions: longer cascades)."""
    board, puzzle = _carved(box, k)
    puzzle = puzzle.copy()
    rng = random.Random(seed)
    for c in range(puzzle.size):
        if puzzle[c] == 0 and rng.random() < fill:
            puzzle[c] = board[c]
        elif puzzle[c] != 0 and rng.random() < drop:
            puzzle[c] = 0
    return puzzle, rng


@settings(max_examples=80, deadline=None)
@given(box=st.sampled_from([2, 3, 3, 4, 4, 5]), k=st.integers(0, 4), seed=st.integers(0, 2**31 - 1),
       fill=st.floats(0.0, 0.15), drop=st.sampled_from([0.0, 0.0, 0.1, 0.3]))
def test_looking_where_cells_changed_equals_looking_everywhere(box, k, seed, fill, drop):
    """9x9 too: the cell-mask kernel runs there in the tests, and without locked candidates (which can find what
    a missed hidden single would have) a house left unscanned shows at once."""
    puzzle, rng = _state_puzzle(box, k, seed, fill, drop)
    ok, work, nsolved = _fixpoint(box, puzzle)
    assert ok
    open_cells = [c for c in range(work.size) if work[c] & (work[c] - 1)]
    if not open_cells:
        return
    cell = rng.choice(open_cells)
    digits = [1 << d for d in range(geometry(box).size) if work[cell] >> d & 1]
    for bit in (digits[0], digits[-1], rng.choice(digits)):  # the board's digit or not: both verdicts happen
        fast_path = _place_and_propagate(box, work, nsolved, cell, bit, settled=True)
        twin = _place_and_propagate(box, work, nsolved, cell, bit, settled=False)
        assert fast_path[0] == twin[0]
        if twin[0]:  # on a contradiction the state is thrown away; only the verdict matters
            assert np.array_equal(fast_path[1], twin[1])
            assert fast_path[2] == twin[2]
            assert fast_path[3] == twin[3]


def test_the_twin_is_not_vacuous():
    """Placing digits on carved 16x16 puzzles reaches both verdicts and forces more than the placed cell."""
    verdicts = set()
    forced = 0
    for k in range(3):
        _, puzzle = _carved(4, k)
        ok, work, nsolved = _fixpoint(4, puzzle)
        for cell in [c for c in range(work.size) if work[c] & (work[c] - 1)][:20]:
            for d in range(16):
                if work[cell] >> d & 1:
                    ok, _, placed, _ = _place_and_propagate(4, work, nsolved, cell, 1 << d, settled=True)
                    verdicts.add(ok)
                    forced += len(placed) - 1 if ok else 0
    assert verdicts == {True, False} and forced > 0
