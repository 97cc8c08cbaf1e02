"""The fast solver against the plain-Python twin written from the rules alone (tests/naive).

``naive.count_solutions`` is a recursive backtracker over lists and sets (no masks, no propagation, no engine
code): it is slow but obviously correct, and every count, solution and removal test (``forbid``) of the compiled
solver must agree with it.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from naive import count_solutions, is_solution, pattern_board

from engine.solvers import fast


def _agree(puzzle, box: int, limits=(1, 2, 3)):
    for limit in limits:
        want, _ = count_solutions(puzzle, limit)
        got = fast.solve(np.array(puzzle, dtype=np.int8), box, limit)
        assert got.count == want, f"limit {limit}: puzzle {puzzle} expected {want} got {got.count}"
        if want:
            assert is_solution(puzzle, list(got.solution))
        else:
            assert got.solution is None
        if want == 1 and limit >= 2:
            assert list(got.solution) == count_solutions(puzzle, 1)[1]


# --- agreement with the twin ---------------------------------------------------------------------------------

def test_4x4_random_puzzles_agree():
    rng = random.Random(4)
    for i in range(300):
        puzzle = pattern_board(2, rng, keep=rng.random())
        if i % 3 == 0:  # random digits anywhere: conflicting and unsolvable grids too
            puzzle = [rng.randint(1, 4) if rng.random() < 0.3 else 0 for _ in range(16)]
        _agree(puzzle, 2)


def test_every_4x4_board_is_found():
    """The empty 4x4 grid has exactly 288 solutions (a known count): the search enumerates them all."""
    assert fast.solve(np.zeros(16, np.int8), 2, limit=1000).count == 288


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), keep=st.floats(0.25, 1.0))
@pytest.mark.slow
def test_9x9_random_puzzles_agree(seed, keep):
    _agree(pattern_board(3, random.Random(seed), keep=keep), 3)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_9x9_changed_clue_agrees(seed):
    """A board with clues removed and one clue changed: often no solution, sometimes several."""
    rng = random.Random(seed)
    puzzle = pattern_board(3, rng, keep=0.45)
    cell = rng.choice([c for c in range(81) if puzzle[c]])
    puzzle[cell] = rng.randint(1, 9)
    _agree(puzzle, 3, limits=(1, 2))


@pytest.mark.parametrize("box,keep", [(4, 0.55), (5, 0.7)])
def test_large_grids_agree(box, keep):
    rng = random.Random(box)
    for _ in range(2):
        _agree(pattern_board(box, rng, keep=keep), box, limits=(1, 2))


def test_known_hard_puzzle():
    line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    puzzle = [0 if ch == "." else int(ch) for ch in line]
    got = fast.solve(np.array(puzzle, np.int8), 3, limit=2)
    assert got.count == 1 and not got.gave_up
    assert list(got.solution) == count_solutions(puzzle, 1)[1]


from paths import DATA


def _data_lines():
    for path in sorted(DATA.glob("*.txt")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip() and not line.startswith("#") and line.count(":") == 2:
                yield f"{path.name}:{number}", line.strip()


@pytest.mark.parametrize("where,line", list(_data_lines()))
def test_data_files(where, line):
    """Every ``puzzle:count:solution`` line of data/*.txt (ours and the other helpers' files)."""
    text, count, solution = line.split(":")
    box = {16: 2, 81: 3, 256: 4, 625: 5}[len(text)]
    puzzle = np.array([0 if ch in ".0" else int(ch, 36) for ch in text], np.int8)
    got = fast.solve(puzzle, box, limit=2)
    assert got.count == int(count), f"{where}: {text} expected {count} got {got.count}"
    if got.count == 1:
        want = [int(ch, 36) for ch in solution]
        assert got.solution.tolist() == want, f"{where}: {text} expected {solution} got {got.solution.tolist()}"
    elif got.count:
        assert is_solution(list(puzzle), list(got.solution)), where


# --- edge cases ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("box", [2, 3, 4, 5])
def test_conflicting_givens_have_no_solution(box):
    n = box * box
    cells = np.zeros(n * n, np.int8)
    cells[0] = cells[n - 1] = 1  # the same digit twice in row 1
    r = fast.solve(cells, box, limit=2)
    assert (r.count, r.solution, r.gave_up) == (0, None, False)
    assert r.metrics.nodes == 0 and r.metrics.guesses == 0


@pytest.mark.parametrize("box,limit", [(2, 1), (2, 5), (3, 2), (3, 7), (4, 3), (5, 2)])
def test_empty_grid_counts_up_to_the_limit(box, limit):
    r = fast.solve(np.zeros(box**4, np.int8), box, limit=limit)
    assert r.count == limit and is_solution([0] * box**4, list(r.solution))


def test_complete_board_is_its_own_solution():
    board = pattern_board(3, random.Random(1))
    r = fast.solve(np.array(board, np.int8), 3, limit=2)
    assert r.count == 1 and list(r.solution) == board and r.metrics.nodes == 0


def test_node_limit_gives_up_and_says_so():
    empty = np.zeros(81, np.int8)
    r = fast.solve(empty, 3, limit=100000, node_limit=200)
    assert r.gave_up and 200 <= r.metrics.nodes < 200 + 81
    assert not fast.solve(empty, 3, limit=2, node_limit=100000).gave_up


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), keep=st.floats(0.2, 0.6), limit=st.integers(1, 4))
def test_metrics_are_sane(seed, keep, limit):
    puzzle = np.array(pattern_board(3, random.Random(seed), keep=keep), np.int8)
    m = fast.solve(puzzle, 3, limit).metrics
    blanks = int((puzzle == 0).sum())
    assert 0 <= m.guesses <= m.nodes and m.max_depth <= m.guesses
    assert m.backtracks <= m.nodes  # placements taken back (guesses and the moves they forced), base.py
    assert m.nodes >= min(blanks, 1) and m.checks > 0 and m.seconds >= 0
    assert m.nodes - m.guesses <= blanks * (m.guesses + 1)  # each branch forces each blank at most once


def test_input_is_never_modified():
    puzzle = np.array(pattern_board(3, random.Random(9), keep=0.3), np.int8)
    before = puzzle.copy()
    puzzle.flags.writeable = False
    fast.solve(puzzle, 3, limit=3)
    fast.solve_many(puzzle[None, :], 3, limit=2)
    fast.trace(puzzle, 3)
    assert np.array_equal(puzzle, before)


def test_bad_input_raises_value_error():
    with pytest.raises(ValueError):
        fast.solve(np.zeros(80, np.int8), 3)
    with pytest.raises(ValueError):
        fast.solve(np.full(81, 10, np.int8), 3)
    with pytest.raises(ValueError):
        fast.solve(np.zeros(81, np.int8), 3, limit=0)
    with pytest.raises(ValueError):
        fast.solve(np.zeros(81, np.int8), 6)
    with pytest.raises(ValueError):
        fast.solve_many(np.zeros(81, np.int8), 3)
    with pytest.raises(ValueError):
        fast.exists_without(np.ones(16, np.int8), 2, 0, 1)


# --- batch, threads, trace, removal test ------------------------------------------------------------------

def _mixed_batch(box: int, m: int, seed: int) -> np.ndarray:
    rng = random.Random(seed)
    return np.array([pattern_board(box, rng, keep=rng.uniform(0.2, 0.7)) for _ in range(m)], np.int8)


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_solve_many_agrees_with_solve(limit):
    batch = _mixed_batch(3, 60, limit)
    batch[0, :2] = 5  # conflicting givens in the middle of a batch
    counts, solutions = fast.solve_many(batch, 3, limit)
    assert counts.dtype == np.int32 and solutions.shape == batch.shape and solutions.dtype == np.int8
    for i, p in enumerate(batch):
        one = fast.solve(p, 3, limit)
        assert counts[i] == one.count
        assert np.array_equal(solutions[i], one.solution if one.count else np.zeros(81, np.int8))
    assert np.array_equal(fast.count_many(batch, 3, limit), counts)
    mcounts, stats = fast.metrics_many(batch, 3, limit)
    assert np.array_equal(mcounts, counts) and stats.shape == (60, 6)
    assert stats[5, 0] == fast.solve(batch[5], 3, limit).metrics.nodes


@pytest.mark.parametrize("box,limit", [(2, 1), (2, 2), (3, 1), (3, 2), (3, 3), (4, 2)])
def test_solve_results_are_those_of_solve(box, limit):
    # the CLI's `solve` prints these in place of one solve per puzzle: every field but the time must agree
    batch = _mixed_batch(box, 40 if box < 4 else 8, 10 * box + limit)
    batch[1, :2] = 1  # conflicting givens, and a conflicting complete board, in the middle of the batch
    batch[2] = pattern_board(box, random.Random(limit))
    batch[2, 1] = batch[2, 0]
    batch[3] = pattern_board(box, random.Random(limit))  # a board: its own solution
    t0 = time.perf_counter()
    got = fast.solve_results(batch, box, limit)
    elapsed = time.perf_counter() - t0
    assert fast.solve.many is fast.solve_results  # the capability the CLI asks for
    assert len(got) == len(batch)
    for i, p in enumerate(batch):
        one = fast.solve(p, box, limit)
        r = got[i]
        assert (r.count, r.gave_up) == (one.count, one.gave_up), i
        assert (r.solution is None) == (one.solution is None) and (r.solution is None or
                                                                   np.array_equal(r.solution, one.solution)), i
        m, w = r.metrics, one.metrics
        assert (m.nodes, m.guesses, m.backtracks, m.checks, m.max_depth) == \
            (w.nodes, w.guesses, w.backtracks, w.checks, w.max_depth), i
    assert got[1].count == 0 and got[2].count == 0 and got[3].count == 1  # conflicts never get a solution
    seconds = [r.metrics.seconds for r in got]  # the batch's time shared out by checks
    assert min(seconds) >= 0 and sum(seconds) <= elapsed + 1e-9
    heavy = max(range(len(got)), key=lambda i: got[i].metrics.checks)
    assert seconds[heavy] == max(seconds)


def test_threads_give_identical_results():
    batch = _mixed_batch(3, 200, 11)
    want = fast.solve_many(batch, 3, 2)
    out = {}

    def work(k):
        out[k] = [fast.solve_many(batch, 3, 2) for _ in range(3)]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for runs in out.values():
        for counts, solutions in runs:
            assert np.array_equal(counts, want[0]) and np.array_equal(solutions, want[1])


@pytest.mark.parametrize("box", [2, 3])
def test_trace_replays_to_the_solution(box):
    puzzle = np.array(pattern_board(box, random.Random(box), keep=0.3), np.int8)
    events = fast.trace(puzzle, box)
    grid = puzzle.copy()
    for cell, digit in events:
        assert puzzle[cell] == 0  # givens are never touched
        assert (digit == 0) == (grid[cell] != 0)  # a placement fills a blank, a take-back empties a cell
        grid[cell] = digit
    assert np.array_equal(grid, fast.solve(puzzle, box).solution)
    assert len(fast.trace(puzzle, box, max_events=3)) == min(3, len(events))


def test_trace_shows_take_backs_on_a_hard_puzzle():
    # Easter Monster: the band kernel guesses and backtracks here (top95's first puzzle it solves without a guess)
    line = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
    puzzle = np.array([0 if ch == "." else int(ch) for ch in line], np.int8)
    events = fast.trace(puzzle, 3)
    assert (events[:, 1] == 0).any()
    grid = puzzle.copy()
    for cell, digit in events:
        grid[cell] = digit
    assert np.array_equal(grid, fast.solve(puzzle, 3).solution)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), keep=st.floats(0.3, 0.9))
def test_exists_without_agrees(seed, keep):
    rng = random.Random(seed)
    puzzle = pattern_board(3, rng, keep=keep)
    cell = rng.randrange(81)
    digit = rng.randint(1, 9)
    puzzle[cell] = 0
    want = count_solutions(puzzle, 1, forbid=(cell, digit))[0] > 0
    assert fast.exists_without(np.array(puzzle, np.int8), 3, cell, digit) == want


_NO_JIT_SCRIPT = """
import json, sys, numpy as np
from engine.solvers import fast
from engine.bits import popcount, lowbit_index
p = np.array([1,0,0,0, 0,0,3,0, 0,4,0,0, 0,0,0,2], np.int8)
big = fast.solve(np.array(json.loads(sys.argv[1]), np.int8), 4, limit=2)  # 16x16: locked candidates run too
r = fast.solve(p, 2, limit=3)
c, s = fast.solve_many(np.stack([p, np.zeros(16, np.int8)]), 2, limit=2)
print(json.dumps({"count": r.count, "solution": r.solution.tolist(), "nodes": r.metrics.nodes,
                  "many": c.tolist(), "sols": s.tolist(), "trace": fast.trace(p, 2).tolist(),
                  "without": fast.exists_without(p, 2, 1, 2), "bits": [popcount(0b1011), lowbit_index(0b1000)],
                  "big": [big.count, big.solution.tolist(), big.metrics.nodes, big.metrics.checks]}))
"""


def test_kernels_run_as_plain_python():
    """NUMBA_DISABLE_JIT=1 runs the same kernel lines in Python (coverage sees them); results must not change."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    sixteen = pattern_board(4, random.Random(3), keep=0.45)
    out = subprocess.run([sys.executable, "-c", _NO_JIT_SCRIPT, json.dumps(sixteen)], env=env, capture_output=True,
                         text=True, timeout=120, check=True)
    got = json.loads(out.stdout)
    p = np.array([1, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0, 0, 2], np.int8)
    r = fast.solve(p, 2, limit=3)
    big = fast.solve(np.array(sixteen, np.int8), 4, limit=2)
    c, s = fast.solve_many(np.stack([p, np.zeros(16, np.int8)]), 2, limit=2)
    assert got == {"count": r.count, "solution": r.solution.tolist(), "nodes": r.metrics.nodes,
                   "many": c.tolist(), "sols": s.tolist(), "trace": fast.trace(p, 2).tolist(),
                   "without": fast.exists_without(p, 2, 1, 2), "bits": [3, 3],
                   "big": [big.count, big.solution.tolist(), big.metrics.nodes, big.metrics.checks]}
