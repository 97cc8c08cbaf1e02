"""Probing bivalue cells (``engine.solvers._propagate._probe``), and the searches that probe, against twins.

- The probe alone, on 16x16 states whose solutions we know without a solver: a board with blanks, every cell of
  two digits among them, has the board and the board with those two digits swapped as solutions; a carved
  puzzle, with some of its board's digits given back, has its board. No known solution may lose its digit
  anywhere, and an outcome the probe returns as solved must be a solution.
- The search probes only when it looks for one solution or two (``limit <= 2``), so counting to 3 runs the same
  kernel without probing: that is the twin. A carving's removal tests, decided by ``exists_without`` (probing)
  and by counting to 3, must agree on every test, and the costliest tests must run past ``PROBE_AFTER`` nodes, so
  that the probing path is what was checked.
"""
from __future__ import annotations

import functools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.carve import carve
from engine.generators import generate
from engine.solvers import fast
from engine.solvers._bitmask import PROBE_AFTER, _house_masks, _init_work
from engine.solvers._propagate import _probe, _propagate
from engine.solvers._stats import NODES

BOX, N, NCELLS = 4, 16, 256


def _board(seed: int) -> np.ndarray:
    return np.asarray(generate(BOX, "backtrack", seed).cells, dtype=np.int8)


def _state(puzzle: np.ndarray):
    """The fast solver's state of ``puzzle`` after singles and locked candidates: (ok, work, nsolved, scratch)."""
    s = fast.scratch(BOX)
    s.stats[:] = 0
    assert _house_masks(puzzle, s.cell_houses, s.hmask)
    work = np.zeros(NCELLS, np.uint32)
    queue = np.zeros(NCELLS + 1, np.int64)
    qtail, nsolved = _init_work(puzzle, N, s.cell_houses, s.hmask, work, queue, -1, 0, s.stats)
    seg = np.empty((2, N, BOX + 2), np.int64)
    dirty = np.empty(3 * N, np.uint8)
    ok, _, nsolved = _propagate(work, queue, qtail, nsolved, s.peers, s.houses, s.cell_houses, N, BOX, seg, dirty,
                                False, s.stats)
    return ok, work, nsolved, queue, seg, dirty, s


def _probed(puzzle: np.ndarray, stop: bool):
    ok, work, nsolved, queue, seg, dirty, s = _state(puzzle)
    assert ok
    before = work.copy()
    tmp = np.empty_like(work)
    ok, nsolved, _ = _probe(work, tmp, queue, nsolved, s.peers, s.houses, s.cell_houses, N, BOX, seg, dirty, s.stats,
                            stop)
    return ok, work, nsolved, before


def _is_solution_of(grid: np.ndarray, puzzle: np.ndarray) -> bool:
    g = grid.reshape(N, N)
    boxes = g.reshape(BOX, BOX, BOX, BOX).swapaxes(1, 2).reshape(N, N)
    full = set(range(1, N + 1))
    return (all(set(r) == full for r in g) and all(set(c) == full for c in g.T) and all(set(b) == full for b in boxes)
            and bool(((puzzle == 0) | (puzzle == grid)).all()))


def _two_solution_puzzle(seed: int, extra: float):
    """A puzzle with the board and its two-digit swap as known solutions, and ``extra`` of the rest blank."""
    rng = random.Random(seed)
    board = _board(seed)
    d1, d2 = rng.sample(range(1, N + 1), 2)
    swapped = board.copy()
    swapped[board == d1], swapped[board == d2] = d2, d1
    puzzle = board.copy()
    puzzle[(board == d1) | (board == d2)] = 0
    for c in range(NCELLS):
        if rng.random() < extra:
            puzzle[c] = 0
    return puzzle, board, swapped


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), extra=st.floats(0.2, 0.6))
def test_the_probe_keeps_every_known_solution(seed, extra):
    puzzle, board, swapped = _two_solution_puzzle(seed, extra)
    ok, work, nsolved, before = _probed(puzzle, stop=False)
    assert ok
    for known in (board, swapped):
        bits = (np.uint32(1) << (known.astype(np.uint32) - 1))
        assert ((work & bits) != 0).all(), "a solution lost its digit"
    # the probe only removes candidates, and counts its solved cells right
    assert ((work & ~before) == 0).all()
    assert nsolved == sum(1 for m in work if m & (m - 1) == 0)
    # looking for one solution, an outcome it returns as solved must be one
    ok, work, nsolved, _ = _probed(puzzle, stop=True)
    assert ok
    if nsolved == NCELLS:
        grid = np.array([int(m).bit_length() for m in work], np.int8)
        assert _is_solution_of(grid, puzzle)


@functools.lru_cache(maxsize=None)
def _carved(k: int):
    board = _board(k)
    return board, carve(board, BOX, k).puzzle


@settings(max_examples=40, deadline=None)
@given(k=st.integers(0, 3), seed=st.integers(0, 2**31 - 1), fill=st.floats(0.0, 0.3))
def test_the_probe_keeps_the_solution_of_a_unique_puzzle(k, seed, fill):
    """Carved puzzles (unique, minimal) with some of the board's digits given back: tight states, where digits
    die when probed (the two-solution states above are loose, and rarely have one)."""
    board, puzzle = _carved(k)
    puzzle = puzzle.copy()
    rng = random.Random(seed)
    for c in np.flatnonzero(puzzle == 0):
        if rng.random() < fill:
            puzzle[c] = board[c]
    ok, work, nsolved, before = _probed(puzzle, stop=False)
    assert ok
    bits = np.uint32(1) << (board.astype(np.uint32) - 1)
    assert ((work & bits) != 0).all(), "the solution lost its digit"
    assert ((work & ~before) == 0).all()
    assert nsolved == sum(1 for m in work if m & (m - 1) == 0)


def test_the_probe_finds_what_singles_do_not():
    """Not vacuous: on carved puzzles the probe removes candidates that singles and locked candidates left."""
    removed = 0
    for k in range(4):
        board, puzzle = _carved(k)
        _, work, _, before = _probed(puzzle, stop=False)
        removed += int(sum(bin(int(a)).count("1") - bin(int(b)).count("1") for a, b in zip(before, work)))
    assert removed > 0


@pytest.mark.parametrize("seed", [5, pytest.param(11, marks=pytest.mark.slow)])
def test_removal_tests_agree_with_counting_to_three(seed):
    """A whole carving of a 16x16 board in a random order: every removal test decided twice."""
    board = _board(seed)
    rng = random.Random(seed)
    order = list(range(NCELLS))
    rng.shuffle(order)
    puzzle = board.copy()
    s = fast.scratch(BOX)
    most = 0
    kept = 0
    for c in order:
        d = int(board[c])
        puzzle[c] = 0
        probing = fast.exists_without(puzzle, BOX, c, d)
        most = max(most, int(s.stats[NODES]))
        plain = int(fast.count_many(puzzle[None, :], BOX, 3)[0]) >= 2
        assert probing == plain, f"cell {c}: exists_without says {probing}, counting to 3 says {plain}"
        if probing:
            puzzle[c] = d
            kept += 1
    assert most > PROBE_AFTER, "no removal test ran long enough to probe"
    assert int(fast.count_many(puzzle[None, :], BOX, 2)[0]) == 1 and kept == int(np.count_nonzero(puzzle))
