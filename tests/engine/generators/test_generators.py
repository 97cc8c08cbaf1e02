"""Generators: plain-Python twins of the three kernels (written from the seeds, with sets and lists), and tests
that the compiled generators agree with them cell for cell, follow seed 000's rules, and keep their promises
(valid boards at every size, one seed one board, batches equal to single calls, threads equal to serial).

The twins replay the kernels' random stream (SplitMix64, see engine/generators/_rng.py) with Python integers,
which is what lets a compiled board be compared with its twin's board exactly, not only for validity.
The twins live in tests/naive/generators.py, with the other slow reference twins.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import is_board
from naive.generators import peers_of, twin_backtrack, twin_pattern, twin_wfc
from paths import ROOT

from engine.generators import (
    GENERATORS,
    GenerationError,
    backtrack,
    derive_seeds,
    pattern,
    wfc,
)
from engine.generators import generate as registry_generate

METHODS = {"wfc": wfc, "backtrack": backtrack, "pattern": pattern}


# ---------------------------------------------------------------------------------------------- validity
SIZES = [(2, 40), (3, 40), (4, 4), (5, 1)]


@pytest.mark.parametrize("method", sorted(GENERATORS))
@pytest.mark.parametrize("box,count", SIZES)
@pytest.mark.slow
def test_every_method_and_size_gives_boards(method, box, count):
    if method == "backtrack" and box == 5:
        count = 1  # about a second per 25x25 board
    boards = METHODS[method].generate_many(box, count, seed=box * 1000 + 7)
    assert len(boards) == count
    for b in boards:
        assert b.cells.dtype == np.int8 and b.cells.shape == (box ** 4,)
        assert is_board(b.cells), b.cells
        assert (b.box, b.method) == (box, method)


@pytest.mark.parametrize("method", sorted(GENERATORS))
def test_same_seed_same_board_and_seeds_differ(method):
    m = METHODS[method]
    assert np.array_equal(m.generate(3, 12345).cells, m.generate(3, 12345).cells)
    boards = {m.generate(3, s).cells.tobytes() for s in range(30)}
    assert len(boards) == 30


@pytest.mark.parametrize("method", sorted(GENERATORS))
def test_batch_equals_single_calls_and_array(method):
    m = METHODS[method]
    many = m.generate_many(3, 25, seed=99)
    boards, seeds, restarts = m.generate_array(3, 25, seed=99)
    assert list(seeds) == list(derive_seeds(99, 25))
    assert boards.shape == (25, 81) and boards.dtype == np.int8 and seeds.dtype == np.int64
    assert restarts.dtype == np.int32
    for k, (b, s) in enumerate(zip(many, derive_seeds(99, 25))):
        single = m.generate(3, int(s))
        assert b.seed == single.seed == int(s) and b.restarts == single.restarts == restarts[k]
        assert np.array_equal(b.cells, single.cells) and np.array_equal(boards[k], single.cells)


@pytest.mark.parametrize("method", sorted(GENERATORS))
def test_two_threads_equal_serial(method):
    m = METHODS[method]
    serial = m.generate_array(3, 301, seed=5)
    threaded = m.generate_array(3, 301, seed=5, threads=2)
    for a, b in zip(serial, threaded):
        assert np.array_equal(a, b)


def test_concurrent_callers_do_not_disturb_each_other():
    """Kernels share no state: boards made while another thread generates equal boards made alone."""
    alone = wfc.generate_array(3, 200, seed=1)[0]
    out = {}
    workers = [threading.Thread(target=lambda k=k: out.__setitem__(k, wfc.generate_array(3, 200, seed=1)[0]))
               for k in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert all(np.array_equal(alone, out[k]) for k in range(3))


def test_registry_and_bad_arguments():
    assert np.array_equal(registry_generate(3, "backtrack", seed=4).cells, backtrack.generate(3, 4).cells)
    with pytest.raises(ValueError):
        wfc.generate(6, 1)
    with pytest.raises(ValueError):
        backtrack.generate(3, -1)
    with pytest.raises(TypeError):
        pattern.generate(3, "1")
    with pytest.raises(ValueError):
        wfc.generate_array(3, 4, 1, threads=0)
    with pytest.raises(ValueError, match="at least the 81 cells"):
        backtrack.generate(3, 1, node_limit=80)
    with pytest.raises(TypeError):
        wfc.generate(3, 1, shuffle=True)
    assert wfc.generate_array(3, 0, 1)[0].shape == (0, 81)


# ---------------------------------------------------------------------------------------------- twins agree
@pytest.mark.parametrize("box,seeds", [(2, range(40)), (3, range(25)), (4, [3])])
@pytest.mark.parametrize("propagate", [False, True])
@pytest.mark.slow
def test_wfc_kernel_equals_twin(box, seeds, propagate):
    for s in seeds:
        board, restarts = twin_wfc(box, s, propagate)
        got = wfc.generate(box, s, propagate=propagate)
        assert (list(got.cells), got.restarts) == (board, restarts), f"seed {s}"


def test_wfc_twin_picks_a_fewest_candidates_cell_every_step():
    """Seed 000's rule, checked from scratch at every step: the candidates the twin keeps are exactly the
    digits no peer holds, the picked cell is open and has the fewest, and ties are all eligible."""
    box, n, peers = 3, 9, peers_of(3)
    steps, picked_among_ties = [], set()

    def on_step(board, cands, cell):
        fresh = [set(range(1, n + 1)) - {board[p] for p in peers[c]} if board[c] == 0 else set()
                 for c in range(n * n)]
        assert fresh == cands
        fewest = min(len(fresh[c]) for c in range(n * n) if board[c] == 0)
        assert board[cell] == 0 and len(fresh[cell]) == fewest
        steps.append(fewest)
        if board.count(0) == n * n:
            picked_among_ties.add(cell)  # first pick: all 81 cells tie

    restarts = 0
    for s in range(40):
        board, r = twin_wfc(box, s, on_step=on_step)
        restarts += r
        assert is_board(board)
    assert len(steps) >= 40 * 81 and restarts > 0  # plain WFC does meet contradictions on 9x9
    assert len(picked_among_ties) > 20  # the tie-break really ranges over all tied cells


def test_wfc_contradictions_are_traced():
    board, events = wfc.generate_traced(3, 12, propagate=False)
    assert board.restarts == len(events) > 0 and is_board(board.cells)
    for e in events:
        assert e.kind == 0 and 0 <= e.where < 81 and 1 <= e.digit <= 9 and 1 <= e.filled < 81
        assert e.describe().startswith("contradiction at r") and "no candidates left" in e.describe()
    _, events = wfc.generate_traced(4, 3, propagate=True)
    assert all(e.kind in (0, 1) for e in events)
    many = [wfc.generate_traced(4, s, propagate=True)[1] for s in range(6)]
    house = [e for evs in many for e in evs if e.kind == 1]
    assert all(" (no place left for " in e.describe() for e in house)


def test_propagation_cuts_restarts_and_limits_are_enforced():
    plain = wfc.generate_array(3, 400, seed=8, propagate=False)[2].mean()
    propagated = wfc.generate_array(3, 400, seed=8, propagate=True)[2].mean()
    assert propagated < plain / 3
    assert wfc.default_propagate(5) and not wfc.default_propagate(3)
    stubborn = next(s for s in range(100) if wfc.generate(4, s, propagate=False).restarts >= 2)
    with pytest.raises(GenerationError, match="restart"):
        wfc.generate(4, stubborn, propagate=False, max_restarts=2)


@pytest.mark.parametrize("box,seeds,opts", [(2, range(30), {}), (3, range(25), {}),
                                            (3, range(10), {"lookahead": True}),
                                            (3, range(10), {"node_limit": 120}), (2, range(20), {"lookahead": True})])
def test_backtrack_kernel_equals_twin(box, seeds, opts):
    for s in seeds:
        board, restarts = twin_backtrack(box, s, **{"node_limit": backtrack.default_options(box)["node_limit"],
                                                    **opts})
        got = backtrack.generate(box, s, **opts)
        assert (list(got.cells), got.restarts) == (board, restarts), f"seed {s}"


@pytest.mark.parametrize("box", [2, 3, 4, 5])
@pytest.mark.parametrize("shuffle", [False, True])
def test_pattern_kernel_equals_twin(box, shuffle):
    for s in range(10):
        assert list(pattern.generate(box, s, shuffle=shuffle).cells) == twin_pattern(box, s, shuffle)


def _d4_key(cells, n):
    grid = np.asarray(cells).reshape(n, n)
    return min(np.rot90(g, k).tobytes() for g in (grid, grid.T) for k in range(4))


@pytest.mark.parametrize("shuffle,boards,classes", [(False, 24, 6), (True, 96, 15)])
def test_pattern_reach_on_4x4_is_what_the_docstring_says(shuffle, boards, classes):
    made = pattern.generate_array(2, 3000, seed=1, shuffle=shuffle)[0]
    distinct = {b.tobytes() for b in made}
    assert len(distinct) == boards
    assert len({_d4_key(np.frombuffer(b, np.int8), 4) for b in distinct}) == classes


def test_pattern_boards_have_the_band_structure():
    """In every band the boxes use the same sets of mini-row digits (what makes the construction so narrow)."""
    for s in range(5):
        g = pattern.generate(3, s).cells.reshape(9, 9)
        for band in range(3):
            rows = [[frozenset(g[band * 3 + i, stack * 3:stack * 3 + 3]) for i in range(3)] for stack in range(3)]
            assert set(rows[0]) == set(rows[1]) == set(rows[2])


# ---------------------------------------------------------------------------------------------- properties
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), method=st.sampled_from(sorted(GENERATORS)))
def test_any_seed_gives_a_reproducible_board(seed, method):
    m = METHODS[method]
    a, b = m.generate(3, seed), m.generate(3, seed)
    assert a.seed == seed and np.array_equal(a.cells, b.cells) and is_board(a.cells)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), propagate=st.booleans())
def test_wfc_agrees_with_twin_for_any_seed(seed, propagate):
    board, restarts = twin_wfc(3, seed, propagate)
    got = wfc.generate(3, seed, propagate=propagate)
    assert (list(got.cells), got.restarts) == (board, restarts)


def test_kernels_run_as_plain_python_too():
    """NUMBA_DISABLE_JIT=1 runs the kernels' own lines as Python (coverage, and uint64 wrap-around checks)."""
    code = ("from engine.generators import wfc, backtrack, pattern\n"
            "for m in (wfc, backtrack, pattern):\n"
            "    print(m.METHOD, ''.join(map(str, m.generate(2, 11).cells)), m.generate(2, 11).restarts)\n")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONWARNINGS": "ignore"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120,
                         cwd=str(ROOT))
    assert out.returncode == 0, out.stderr
    expected = [f"{m.METHOD} {''.join(map(str, m.generate(2, 11).cells))} {m.generate(2, 11).restarts}"
                for m in (wfc, backtrack, pattern)]
    assert out.stdout.split("\n")[:3] == expected


def test_every_board_of_4x4_is_reachable_by_wfc_and_backtrack():
    """Both searches reach all 288 4x4 boards (the docstrings' claim that they reach every board)."""
    for m in (wfc, backtrack):
        made = {b.tobytes() for b in m.generate_array(2, 6000, seed=2)[0]}
        assert len(made) == 288


@pytest.mark.parametrize("method", sorted(GENERATORS))
@pytest.mark.slow
def test_kernels_release_the_gil(method):
    """Two threads' kernel calls overlap in time. A kernel holding the GIL would make the second call wait for
    the first to end (no overlap), however idle or busy the machine is; so this checks nogil even under load."""
    each = {"wfc": 10_000, "backtrack": 40_000, "pattern": 400_000}[method]  # ~0.2 s of work per thread
    m, seeds, spans = METHODS[method], derive_seeds(3, 2 * each), {}
    m.generate_seeds(3, seeds[:2])  # compiled before the clock starts

    def work(k):
        t0 = time.perf_counter()
        m.generate_seeds(3, seeds[k * each:(k + 1) * each])
        spans[k] = (t0, time.perf_counter())

    workers = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    (a0, a1), (b0, b1) = spans[0], spans[1]
    assert min(a1, b1) - max(a0, b0) > 0.5 * min(a1 - a0, b1 - b0)
