"""Carving: minimal unique puzzles from complete boards.

Clues are removed from the board in a random order (from ``seed``), each removal kept only while the puzzle still
has exactly one solution, so the puzzle is unique and its solution is the board. When every cell has been tried the
puzzle is minimal: removing any remaining clue gives more than one solution (a removal that failed once fails for
good, because removing other clues later only adds solutions). The same board, seed and options always give the
same puzzle, compiled or not, on any thread.

Options:

``symmetry``      "none", "rot180" (180-degree rotation), "rot90" (quarter turn), "mirror" (left-right) or
                  "diagonal" (main-diagonal transpose): cells are removed in orbits of that symmetry, so the clue
                  pattern keeps it. The result is then minimal among symmetric removals only: removing one orbit
                  more breaks uniqueness, but a single clue of an orbit might still go.
``order``         "random": the orbits are tried in a random order (from ``seed``); "spread": the next orbit
                  tried is the one whose cells see the most clues (their peers' clues, averaged over the orbit),
                  ties in the random order, so clues go where they are densest and those left are spread evenly;
                  on 16x16 a test that needs more than :data:`POSTPONE_AFTER` nodes waits until every other clue
                  has been tried, and is then tried again without that limit.
                  The default depends on the size (:data:`DEFAULT_ORDER`): "random" up to 9x9 (the distribution
                  below, and the one tdoku's minimizer gives: the benchmarks compare the two), "spread" on 16x16
                  and 25x25, where it makes carving far cheaper and leaves fewer clues, with fewer removal tests
                  undecided on 25x25 (docs/benchmarks.md, Carving).
``clues=K``       stop at exactly K clues (unique, not necessarily minimal). Orbits that would jump below K are
                  skipped; if an order cannot get down to K (``target_reached`` False), the fewest found is kept.
``target_clues``  try up to ``attempts`` orders (default 20), keep the puzzle with the fewest clues, stop early
                  once one has at most N clues; ``target_reached`` says whether one did.
``attempts``      orders to try (default 1, or 20 with ``target_clues``); the fewest clues wins.
``node_limit``    nodes one removal test may take (0 = no limit; default :data:`DEFAULT_NODE_LIMIT`: none up to
                  16x16, 2,000 on 25x25; on the other shapes :func:`shape_node_limit`: none up to a side of 16,
                  20,000 to 21, 2,000 above). A test that hits it keeps its clue: still unique, not proven
                  minimal.

The clue counts it leaves on random 9x9 boards (mean, spread, range, with no symmetry and one attempt) are
measured in docs/benchmarks.md, Carving. Random-order carving is biased towards FEWER clues than the space of all
minimal 9x9 puzzles: estimates of that space (Berthier's controlled-bias generator and the "real distribution of
minimal puzzles" that followed) put its mode at 26-27 clues and its mean near 26.6, while the top-down deletion
generators measured there give 24.38 (sd 1.12), as this carver does. More ``attempts`` push the count further
down (the fewest of several orders is kept); a symmetry pushes it up (orbits go two or four cells at a time, so a
removal that one cell would allow can fail for its partners).

Cost: docs/benchmarks.md, Carving and "Cost against size" (bench/bench_carve.py, bench/bench_sizes.py). 25x25
carves with the default node limit of 2,000 per removal test, and many of its last tests hit it (their clues stay,
so ``minimal`` is False and ``undecided`` counts them): proving that no second solution exists with some 270 clues
left can take millions of nodes, and larger limits buy little, not even reliably fewer clues, since a kept clue
changes every later test, while the time grows about as fast as the limit (measured on a few boards, before and
after probing). ``node_limit=0`` proves minimality at any cost.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ._kernel import _carve_batch, _minimal_batch
from ..geometry import check_shape, geometry
from ..shape import Shape
from .units import carve_units, metrics_of
from ..inputs import check_any_grids, check_grids, check_limits, check_name, whole
from ..solvers import fast
from ..solvers._stats import CHECKS, GAVE_UP
from ..solvers.base import Metrics, share_seconds
from ..vocabulary import CARVE_ORDERS, SYMMETRIES

DEFAULT_TARGET_ATTEMPTS = 20
#: nodes one removal test may take before it is called undecided (0 = no limit), per box size; only 25x25 needs
#: one: its last tests can take millions of nodes (docs/benchmarks.md, Carving)
DEFAULT_NODE_LIMIT = {2: 0, 3: 0, 4: 0, 5: 2000}
#: the same for every other shape, by side: (largest side, limit). Up to 16 every test finishes (2x8 boards carve
#: in a quarter of a second, Latin 16 in a tenth); from 18 some take millions of nodes: one 3x6 board took 16 s
#: and a 4x5 board over two minutes without a limit. 20,000 carves 18x18 to 21x21 boards in 1 to 4 s a board with
#: a tenth to a half of the clues' tests undecided; from 22 it costs 3 to 9 s a board and decides little more than
#: 2,000, which takes a fifth of a second (measured on 3x6, 2x10, 3x7, 4x5, 4x6, 2x12, Latin 20 and 25 boards)
SHAPE_NODE_LIMITS = ((16, 0), (21, 20_000), (25, 2_000))
#: the order of removals per box size (see the module doc): "spread" where removal tests are dear
DEFAULT_ORDER = {2: "random", 3: "random", 4: "spread", 5: "spread"}
#: nodes a removal test gets in the first round before it waits for the second (0: no second round), per box size:
#: tried again once every other clue has been tried, on a sparser puzzle, a failing test finds its second solution
#: sooner (16x16: fewer nodes, docs/benchmarks.md, Carving; on 25x25 the tests past the
#: node limit stay undecided either way, and a second round costs more than it decides)
POSTPONE_AFTER = {2: 0, 3: 0, 4: 500, 5: 0}
#: nodes the solve that measures a carved puzzle (its metrics) may take: rare 25x25 puzzles took tens of millions
#: (docs/benchmarks.md, Carving). A solve cut there keeps the figures it had counted, lower bounds then
#: (``CarveResult.metrics_complete`` is False, and ``nodes`` at least this limit). 9x9 takes no limit (the band
#: kernel's searches are short).
METRICS_NODE_LIMIT = 2_000_000
_M64 = (1 << 64) - 1


@dataclass
class CarveResult:
    puzzle: np.ndarray  # flat int8, 0 = blank
    clues: int
    checks: int  # uniqueness tests made (one per removal tried, over all attempts)
    seconds: float
    target_reached: bool  # clues == K / clues <= target; True when neither was asked
    attempts_used: int
    metrics: Metrics = field(default_factory=Metrics)  # the fast solver solving the puzzle (limit 1)
    symmetry: str = "none"
    minimal: bool = True  # proven: no clue (no orbit, with a symmetry) can go; False at clues=K or if undecided
    undecided: int = 0  # removal tests that hit the node limit: their clues were kept (still unique)
    metrics_complete: bool = True  # False: the metrics solve hit METRICS_NODE_LIMIT, its figures are lower bounds


@lru_cache(maxsize=None)
def orbits(box: int, symmetry: str) -> tuple[np.ndarray, np.ndarray]:
    """The cells of each orbit of ``symmetry`` as (norbits, 4) int32 padded with -1, and each orbit's size."""
    check_name("symmetry", symmetry, SYMMETRIES)
    geo = geometry(check_shape(box))
    n = geo.size
    maps = {
        "none": [],
        "rot180": [lambda r, c: (n - 1 - r, n - 1 - c)],
        "rot90": [lambda r, c: (c, n - 1 - r), lambda r, c: (n - 1 - r, n - 1 - c), lambda r, c: (n - 1 - c, r)],
        "mirror": [lambda r, c: (r, n - 1 - c)],
        "diagonal": [lambda r, c: (c, r)],
    }[symmetry]
    seen: set[int] = set()
    rows = []
    for cell in range(geo.ncells):
        if cell in seen:
            continue
        r, c = divmod(cell, n)
        orbit = sorted({cell} | {rr * n + cc for rr, cc in (f(r, c) for f in maps)})
        seen.update(orbit)
        rows.append(orbit + [-1] * (4 - len(orbit)))
    table = np.array(rows, dtype=np.int32)
    sizes = (table >= 0).sum(axis=1).astype(np.int32)
    table.flags.writeable = False
    sizes.flags.writeable = False
    return table, sizes


def stream_state(seed: int) -> int:
    """The nonzero 32-bit xorshift state for ``seed`` (splitmix64 mixing, so nearby seeds give unrelated orders)."""
    z = (int(seed) + 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    z ^= z >> 31
    return ((z >> 32) ^ (z & 0xFFFFFFFF)) or 0x6D2B79F5


def _boards(boards, box) -> np.ndarray:
    geo = geometry(check_shape(box))
    arr, _ = check_any_grids(boards, box, "boards")
    # every house of a board holds each digit 1..n once
    houses = np.sort(arr[:, geo.houses], axis=2)
    bad = ~(houses == np.arange(1, geo.size + 1, dtype=np.int8)).all(axis=(1, 2))
    if bad.any():
        raise ValueError(f"board {int(np.flatnonzero(bad)[0])} is not a complete valid {geo.size}x{geo.size} board")
    return arr


def _options(ncells: int, symmetry: str, clues, target_clues, attempts) -> tuple[int, int, int]:
    check_name("symmetry", symmetry, SYMMETRIES)
    if clues is not None and target_clues is not None:
        raise ValueError("give clues (stop at exactly K) or target_clues (fewest over attempts), not both")
    clues, target_clues, attempts = (None if v is None else whole(n, v)
                                     for n, v in (("clues", clues), ("target_clues", target_clues),
                                                  ("attempts", attempts)))
    for name, value in (("clues", clues), ("target_clues", target_clues)):
        if value is not None and not 0 <= value <= ncells:
            raise ValueError(f"{name} must be 0..{ncells}, got {value}")
    if attempts is None:
        attempts = DEFAULT_TARGET_ATTEMPTS if target_clues is not None else 1
    if attempts < 1:
        raise ValueError(f"attempts must be at least 1, got {attempts}")
    return (-1 if clues is None else clues), (-1 if target_clues is None else target_clues), attempts



def _test_scratch(s) -> object:
    """The removal test's scratch in a thread's solver scratch ``s``: the band kernel's array on 9x9, the cell-mask
    search's tuple on other sizes (the removal tests allocate nothing: engine/carve/_kernel.py, _carve_order)."""
    return s.bands if s.bands is not None else s.cellmask


def carve_many(boards, box: int, seeds, symmetry: str = "none", clues: int | None = None,
               target_clues: int | None = None, attempts: int | None = None,
               node_limit: int | None = None, order: str | None = None) -> list[CarveResult]:
    """Carve every row of ``boards`` (m, ncells) with its own seed, in one kernel call (the GIL is released).

    ``seconds`` (and the metrics' ``seconds``) of each result is its share of the batch's wall time, apportioned
    by the work (mask checks) each board took; for one board it is the measured time.
    """
    box = check_shape(box)
    arr = _boards(boards, box)
    seeds = [int(s) for s in np.asarray(seeds, dtype=object).reshape(-1)]
    if len(seeds) != arr.shape[0]:
        raise ValueError(f"need one seed per board: {arr.shape[0]} boards, {len(seeds)} seeds")
    wanted, target, attempts = _options(arr.shape[1], symmetry, clues, target_clues, attempts)
    if isinstance(box, Shape):  # every shape but square boxes: the same rules over the units kernel
        return _carve_shape(arr, box, seeds, symmetry, wanted, target, attempts, node_limit, order)
    # the solvers' check: an int, at least 0, clamped to the kernel's int64 (2**70 used to fail inside numba)
    budget = DEFAULT_NODE_LIMIT[box] if node_limit is None else check_limits(1, node_limit)[1]
    order = DEFAULT_ORDER[box] if order is None else check_name("order", order, CARVE_ORDERS)
    table, sizes = orbits(box, symmetry)
    s = fast.scratch(box)
    m = arr.shape[0]
    puzzles = np.zeros_like(arr)
    out = np.zeros((m, 5), dtype=np.int64)  # clues, tests, attempts used, work (mask checks), undecided tests
    states = np.array([stream_state(x) for x in seeds], dtype=np.int64)
    t0 = time.perf_counter()
    spread = order == "spread"
    postpone = POSTPONE_AFTER[box] if spread else 0  # the random order stays one pass: the twin's, tdoku's
    _carve_batch(arr, states, attempts, wanted, target, budget, spread, postpone, table, sizes, s.n, s.cell_houses,
                 s.peers, s.houses, puzzles, out, np.zeros(table.shape[0], dtype=np.int64),
                 np.zeros(s.ncells, dtype=np.int8), s.hmask, s.work, s.queue, s.stack, s.branch, s.solution, s.stats,
                 s.no_trace, s.ntrace, s.shown, _test_scratch(s))
    t1 = time.perf_counter()
    _, stats = fast.metrics_many(puzzles, box, limit=1, node_limit=METRICS_NODE_LIMIT)
    t2 = time.perf_counter()
    carve_seconds = share_seconds(t1 - t0, out[:, 3])
    solve_seconds = share_seconds(t2 - t1, stats[:, CHECKS])
    results = []
    for i in range(m):
        k, tests, used, _, undecided = (int(v) for v in out[i])
        reached = k == wanted if wanted >= 0 else (k <= target if target >= 0 else True)
        st = stats[i]
        metrics = Metrics(nodes=int(st[0]), guesses=int(st[1]), backtracks=int(st[2]), checks=int(st[3]),
                          max_depth=int(st[4]), seconds=float(solve_seconds[i]))
        results.append(CarveResult(puzzle=puzzles[i].copy(), clues=k, checks=tests, seconds=float(carve_seconds[i]),
                                   target_reached=bool(reached), attempts_used=used, metrics=metrics,
                                   symmetry=symmetry, minimal=wanted < 0 and undecided == 0, undecided=undecided,
                                   metrics_complete=not st[GAVE_UP]))
    return results


def shape_node_limit(shape: Shape) -> int:
    """The default node limit of a removal test on ``shape`` (not square boxes): :data:`SHAPE_NODE_LIMITS`."""
    return next(limit for side, limit in SHAPE_NODE_LIMITS if shape.size <= side)


def _carve_shape(arr, shape: Shape, seeds, symmetry, wanted, target, attempts, node_limit, order):
    if order not in (None, "random"):
        raise ValueError(f"order {order!r} is for square boxes; shape {shape.name} carves in the random order")
    budget = shape_node_limit(shape) if node_limit is None else check_limits(1, node_limit)[1]
    table, sizes = orbits(shape, symmetry)
    results = []
    for board, seed in zip(arr, seeds):
        puzzle, tests, used, undecided, k, seconds = carve_units(board, shape, seed, table, sizes, wanted, target,
                                                                 attempts, budget)
        metrics, complete = metrics_of(puzzle, shape, METRICS_NODE_LIMIT)
        reached = k == wanted if wanted >= 0 else (k <= target if target >= 0 else True)
        results.append(CarveResult(puzzle=puzzle, clues=k, checks=tests, seconds=seconds, target_reached=reached,
                                   attempts_used=used, metrics=metrics, symmetry=symmetry,
                                   minimal=wanted < 0 and undecided == 0, undecided=undecided,
                                   metrics_complete=complete))
    return results


def carve(board_cells, box: int, seed: int, symmetry: str = "none", clues: int | None = None,
          target_clues: int | None = None, attempts: int | None = None, node_limit: int | None = None,
          order: str | None = None) -> CarveResult:
    """Carve one complete board into a unique puzzle (minimal unless ``clues`` is given); see the module doc."""
    return carve_many(np.asarray(board_cells).reshape(1, -1), box, [seed], symmetry, clues, target_clues,
                      attempts, node_limit, order)[0]


def minimal_many(puzzles, solutions, box: int, node_limit: int | None = None) -> tuple[np.ndarray, np.ndarray,
                                                                                       np.ndarray]:
    """Whether each unique puzzle (row of ``puzzles``, (m, ncells)) is minimal, given its solution (the same row of
    ``solutions``): every clue is taken out alone and the puzzle tested for a second solution (the carver's
    removal test), in one kernel call for the batch (the GIL is released).

    Returns ``minimal`` (m,) bool (True: no clue can go, every test decided), ``checks`` (m,) int64 (removal
    tests made; the first clue that can go ends a puzzle's tests) and ``undecided`` (m,) int64 (tests that hit
    ``node_limit``, default :data:`DEFAULT_NODE_LIMIT`; such a puzzle is not proven minimal: False). The puzzles
    must be unique with these solutions (``solve_many`` with limit 2 says so); the results mean nothing otherwise.
    """
    arr, box = check_any_grids(puzzles, box, "puzzles")
    boards = _boards(solutions, box)
    if boards.shape != arr.shape:
        raise ValueError(f"need one solution per puzzle: {arr.shape[0]} puzzles, {boards.shape[0]} solutions")
    if ((arr != 0) & (arr != boards)).any():
        raise ValueError("a puzzle's clue disagrees with its solution")
    if isinstance(box, Shape):  # every shape but square boxes: the units kernel, a removal test at a time
        from .units import minimal_units

        return minimal_units(arr, boards, box,
                             shape_node_limit(box) if node_limit is None else check_limits(1, node_limit)[1])
    budget = DEFAULT_NODE_LIMIT[box] if node_limit is None else check_limits(1, node_limit)[1]
    s = fast.scratch(box)
    out = np.zeros((arr.shape[0], 3), dtype=np.int64)
    _minimal_batch(arr, boards, budget, s.n, s.cell_houses, s.peers, s.houses, out, np.zeros(s.ncells, np.int8),
                   np.zeros(4, dtype=np.int32), s.hmask, s.work, s.queue, s.stack, s.branch, s.solution, s.stats,
                   s.no_trace, s.ntrace, s.shown, _test_scratch(s))
    return out[:, 0].astype(bool), out[:, 1].copy(), out[:, 2].copy()


def warm() -> None:
    """Compile (or load from the cache) the carving and solver kernels once, before timing or starting threads."""
    fast.warm()
    board = np.array([1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1], dtype=np.int8)
    result = carve(board, 2, 0)
    minimal_many(result.puzzle[None, :], board[None, :], 2)


