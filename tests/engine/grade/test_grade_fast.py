"""The compiled fast path against its slow twin, the Python techniques (the slow twin rule).

Three levels: each technique kernel against its Python module on random candidate states (same first deduction,
same resulting candidates); whole grades from grade_many against the plain step path (grade(guided=False): every
technique's Python finder in turn, not guided by the kernels) on many puzzles of every
size; and the kernels once more as plain Python (NUMBA_DISABLE_JIT=1, in a subprocess) so their lines run.
The random states keep every solution digit, so each Python deduction must also agree with the board.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
import threading

import numpy as np
import pytest

from paths import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.geometry import geometry
from engine.grade import grade, grade_many
from engine.grade.kernels import driver
from engine.grade.kernels.misses import new_memo
from engine.grade.state import State
from engine.vocabulary import BIG_GRID_SKIPS, STEP_PATH_ONLY, UNIQUENESS_TECHNIQUES
from engine.grade.techniques import BY_NAME, COUNTER_NAMES, FINDERS, INDEX, NCOUNTERS, REGISTRY, TECHNIQUES
from engine.grade.kernels.state import grader_units

from engine.carve import carve
from naive.grade import minimal_puzzles, random_board


def _one_step(t: int, cells: np.ndarray, cands: np.ndarray, box: int, ratings=None) -> np.ndarray:
    """One step of row ``t`` of the table alone, through the loop the grader runs: the counters it added to (and in
    ``ratings``, if given, the slots the loop rates the step in)."""
    g = geometry(box)
    counts = np.zeros(NCOUNTERS, np.int64)
    ratings = np.zeros(driver.NRATINGS, np.float64) if ratings is None else ratings
    left = driver._solve(t, t + 1, 1, driver.enabled_rows(), counts, ratings, cells, cands, g.houses, g.peers,
                         grader_units(g), g.size, int(np.count_nonzero(cells == 0)),
                         new_memo(cells.size))
    assert left != driver.NO_KERNEL, TECHNIQUES[t]
    return counts


def _kernel_step(name: str, cells: np.ndarray, cands: np.ndarray, box: int) -> tuple[float, int] | None:
    """The rating and kind (engine.vocabulary.STEP_NAMES) of the step the technique's kernel made, or None; it
    counts at the technique's own counter."""
    ratings = np.zeros(driver.NRATINGS, np.float64)
    counts = _one_step(INDEX[name], cells, cands, box, ratings)
    assert counts.sum() <= 1
    if not counts.any():
        return None
    assert COUNTER_NAMES[int(np.flatnonzero(counts)[0])] == name
    return round(float(ratings[driver.ER]), 2), int(ratings[driver.HARDEST_KIND])



def random_state(box: int, rng: random.Random, blanks: float, thin: float) -> tuple[State, np.ndarray]:
    """A board with ``blanks`` of its cells blanked, then each candidate that is not the board's digit dropped
    with probability ``thin``: a state the board still solves, full of patterns for every technique."""
    board = random_board(box, rng)
    puzzle = board.copy()
    puzzle[rng.sample(range(board.size), int(board.size * blanks))] = 0
    state = State.from_puzzle(puzzle, box)
    for c in range(board.size):
        for d in range(1, box * box + 1):
            if d != board[c] and state.has(c, d) and rng.random() < thin:
                state.cands[c] &= ~(1 << (d - 1))
    return state, board


def count_solutions(state: State, limit: int = 2) -> int:
    """How many solutions the candidates of ``state`` admit, up to ``limit`` (fewest candidates first)."""
    t = state.t
    cands = state.cands[:]
    blanks = [c for c in range(t.ncells) if state.cells[c] == 0]
    found = 0

    def search() -> bool:
        nonlocal found
        best, best_count = -1, t.n + 1
        for c in blanks:
            if cands[c] >= 0:
                k = cands[c].bit_count()
                if k < best_count:
                    best, best_count = c, k
        if best < 0:
            found += 1
            return found >= limit
        mask = cands[best]
        cands[best] = -1  # placed
        for d in range(t.n):
            if mask >> d & 1:
                bit = 1 << d
                touched = [p for p in t.peers[best] if cands[p] > 0 and cands[p] & bit]
                for p in touched:
                    cands[p] &= ~bit
                if all(cands[p] != 0 for p in touched) and search():
                    return True
                for p in touched:
                    cands[p] |= bit
        cands[best] = mask
        return False

    search()
    return found


def check_state(state: State, board: np.ndarray, box: int, one_solution: bool | None = None) -> int:
    """Every technique: Python and kernel make the same first deduction; it agrees with the board. The
    uniqueness techniques are sound only when the candidates admit one solution: they are left out when
    ``one_solution`` is False (None: counted here)."""
    fired = 0
    for name in TECHNIQUES:
        if box >= 4 and name in BIG_GRID_SKIPS:  # the grader never runs them there (seconds to minutes a step)
            continue
        if name in STEP_PATH_ONLY:  # no kernel: held to the solution in test_grade_chains.py, its parts apart
            continue
        if name in UNIQUENESS_TECHNIQUES:
            if one_solution is None:
                one_solution = count_solutions(state) == 1
            if not one_solution:
                continue
        slow = state.copy()
        step = BY_NAME[name].find(slow)
        cells, cands = state.to_arrays()
        made = _kernel_step(name, cells, cands, box)
        assert (made is not None) == (step is not None), name
        if step is None:
            continue
        fired += 1
        assert step.technique == name
        assert made == (round(step.rating, 2), step.kind), step.explanation  # the same rating and the same name
        for c, d in step.placements:
            assert board[c] == d, step.explanation
        for c, d in step.eliminations:
            assert board[c] != d, step.explanation
        slow.apply(step)
        assert cells.tolist() == slow.cells, step.explanation
        assert cands.tolist() == slow.cands, step.explanation
    return fired


def test_every_row_of_the_table_has_a_step_finder_and_a_kernel():
    """The table (engine.vocabulary) is the only list of techniques: each row has a finder and a kernel, but the
    rows only the step path runs (STEP_PATH_ONLY), which the compiled path never enables."""
    assert [t.name for t in REGISTRY] == list(TECHNIQUES) == list(FINDERS)
    assert driver.NTECHNIQUES == len(TECHNIQUES)
    g = geometry(2)
    for t in range(len(TECHNIQUES)):  # _one_step fails on a row without a kernel
        if TECHNIQUES[t] in STEP_PATH_ONLY:
            cells, cands = State.from_puzzle(np.zeros(16, np.int64), 2).to_arrays()
            assert driver._solve(t, t + 1, 1, driver.enabled_rows(), np.zeros(NCOUNTERS, np.int64),
                                 np.zeros(driver.NRATINGS), cells, cands, g.houses, g.peers, grader_units(g),
                                 g.size, 16, new_memo(16)) == driver.NO_KERNEL
            assert not driver.enabled_rows(STEP_PATH_ONLY)[t]
            continue
        _one_step(t, *State.from_puzzle(np.zeros(16, np.int64), 2).to_arrays(), 2)
    cells, cands = State.from_puzzle(np.zeros(16, np.int64), 2).to_arrays()
    counts = np.zeros(NCOUNTERS, np.int64)
    beyond = len(TECHNIQUES)  # a row the dispatch does not know: the grader would refuse to run
    enabled = np.ones(beyond + 1, np.int8)
    assert driver._solve(beyond, beyond + 1, 1, enabled, counts, np.zeros(driver.NRATINGS), cells, cands, g.houses,
                         g.peers, grader_units(g), g.size, 16, new_memo(16)) == driver.NO_KERNEL


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), blanks=st.floats(0.45, 0.7), thin=st.floats(0.0, 0.6))
@pytest.mark.slow
def test_each_kernel_matches_its_python_technique_9x9(seed, blanks, thin):
    state, board = random_state(3, random.Random(seed), blanks, thin)
    check_state(state, board, 3)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), blanks=st.floats(0.3, 0.9), thin=st.floats(0.0, 0.5))
def test_each_kernel_matches_its_python_technique_4x4(seed, blanks, thin):
    state, board = random_state(2, random.Random(seed), blanks, thin)
    check_state(state, board, 2)


def test_each_kernel_matches_its_python_technique_16x16():
    rng = random.Random(16)
    fired = 0
    for _ in range(3):
        state, board = random_state(4, rng, 0.5, 0.75)
        fired += check_state(state, board, 4)
    assert fired >= 10


def test_the_kernels_fire_on_random_states():
    """The random states above do exercise the techniques (not just agree on 'nothing found')."""
    rng = random.Random(3)
    seen = set()
    for _ in range(60):
        state, _ = random_state(3, rng, rng.uniform(0.5, 0.95), rng.uniform(0.2, 0.6))
        for name in TECHNIQUES:
            if name not in STEP_PATH_ONLY and BY_NAME[name].find(state.copy()) is not None:
                seen.add(name)
    # the uniqueness rows fire on states with one solution (test_grade_unique.py); a hidden quad needs a house with
    # nine blank cells (Sudoku Explainer's rule: more than 2k), which random states hardly make: both paths are
    # held to the hand-made one of test_grade_techniques.py
    # (the nested forcing chains, seconds to minutes a step, fire in test_grade_chains.py)
    assert seen | set(UNIQUENESS_TECHNIQUES) | {"hidden-quad"} | set(STEP_PATH_ONLY) == set(TECHNIQUES), \
        sorted(set(TECHNIQUES) - seen)


def _same(slow, fast) -> None:
    assert (fast.level, fast.score, fast.ep, fast.ed, fast.hardest, fast.steps_by_technique, fast.needs_guessing,
            fast.solved) == (slow.level, slow.score, slow.ep, slow.ed, slow.hardest, slow.steps_by_technique,
                             slow.needs_guessing, slow.solved)
    assert fast.steps == [] and len(slow.steps) == slow.step_count


@pytest.fixture(scope="module")
def minimal_9x9():
    return minimal_puzzles(200, 3, seed=11, carve=carve)


@pytest.mark.slow
def test_grade_many_matches_the_step_path_on_minimal_puzzles(minimal_9x9):
    puzzles = np.array([p for p, _ in minimal_9x9])
    fast = grade_many(puzzles, 3)
    for puzzle, f in zip(puzzles, fast):
        _same(grade(puzzle, 3, guided=False), f)
        assert grade(puzzle, 3, explain=False) == f


@pytest.mark.parametrize("box,blanks,count", [(2, 0.7, 40), (3, 0.6, 30), (4, 0.55, 4)])
@pytest.mark.slow
def test_grade_many_matches_on_puzzles_with_many_blanks(box, blanks, count):
    """Not necessarily unique: the techniques run deep (and often get stuck), which is what the twin needs; without
    the uniqueness techniques, which may find a puzzle with several solutions to have none."""
    rng = random.Random(box)
    puzzles = []
    for _ in range(count):
        board = random_board(box, rng)
        board[rng.sample(range(board.size), int(board.size * blanks))] = 0
        puzzles.append(board)
    for puzzle, f in zip(puzzles, grade_many(np.array(puzzles), box, uniqueness=False)):
        _same(grade(puzzle, box, uniqueness=False, guided=False), f)


def test_the_batch_kernel_releases_the_gil():
    assert driver._grade_many.targetoptions.get("nogil") is True
    assert not driver._grade_many.targetoptions.get("parallel")


def test_grade_many_from_threads(minimal_9x9):
    puzzles = np.array([p for p, _ in minimal_9x9])
    expected = grade_many(puzzles, 3)
    results = {}

    def work(k):
        results[k] = grade_many(puzzles[k::2], 3)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[0] == expected[0::2] and results[1] == expected[1::2]


@pytest.mark.slow
def test_kernels_as_plain_python():
    """NUMBA_DISABLE_JIT=1 runs the kernels' source as Python: the same grades (and coverage sees the lines)."""
    script = (
        "import random, numpy as np\n"
        "from engine.grade import grade, grade_many\n"
        "from naive.grade import random_board\n"
        "rng = random.Random(4)\n"
        "for box, blanks in ((2, 0.75), (3, 0.62), (3, 0.66)):\n"
        "    b = random_board(box, rng); b[rng.sample(range(b.size), int(b.size * blanks))] = 0\n"
        "    f, s = grade_many(b[None], box)[0], grade(b, box, guided=False)\n"
        "    assert (f.score, f.steps_by_technique, f.solved) == (s.score, s.steps_by_technique, s.solved), (f, s)\n"
        "print('ok')\n")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    here = os.path.dirname(os.path.abspath(__file__))
    env["PYTHONPATH"] = os.pathsep.join([here, str(ROOT / "tests"), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "ok"
