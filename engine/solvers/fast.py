"""The fast solver (the default): compiled bitmask search with constraint propagation.

Two kernels, one interface:

* 9x9 (:mod:`engine.solvers._bands`): one mask per digit and band, with triad reasoning (locked candidates both
  ways and the digits each 3-cell segment must hold), hidden and naked singles; it branches on a digit with two
  ways left across a band, else on a two-candidate cell. It guesses far less often than the cell-mask kernel on
  hard puzzles and is faster on every kind.
* every other size (:mod:`engine.solvers._bitmask`, :mod:`engine.solvers._propagate`,
  :mod:`engine.solvers._locked`): each cell keeps a mask of its candidates; placing a digit removes it from the
  cell's peers (naked singles) and a digit with one place left in a house is placed there (hidden singles, looked
  for only in the houses changed since they were last looked at); from 16x16 up, locked candidates too (only in
  the bands and stacks that changed); when nothing more is forced the search branches on the cell with the fewest
  candidates. From 16x16 up, a search that has run long also probes the bivalue cells at every node and branches
  on the one the probe picks. On 9x9 it remains the tests' twin.

Kernels are compiled with numba, ``nogil=True``, so threads run them in parallel; this module validates input
and turns results into :class:`~engine.solvers.base.SolveResult`.

Metrics (definitions in :mod:`engine.solvers.base`): ``nodes`` counts every digit written into a blank cell,
forced or guessed; ``guesses`` the placements made at a branch point (every digit tried there, the last one
included; on 9x9 also each way tried of a digit's two across a band, which places nothing itself);
``backtracks`` the placements taken back; ``max_depth`` the most guesses outstanding at once; ``checks`` the
work done between guesses, in mask reads: for the cell-mask kernel a peer elimination, a cell scanned for hidden
singles, for locked candidates or for the branch cell; for the band kernel 12 per digit examined and 27 per sweep
for naked singles (so the two kernels' checks are not comparable).

Batch helpers (:func:`solve_many`, :func:`count_many`, :func:`metrics_many`, :func:`solve_results`) solve a whole
array of puzzles in one kernel call, with the same counts, solutions and metrics as one :func:`solve` per puzzle;
:func:`trace` records placements and take-backs for a live view; :func:`exists_without` is carving's removal test.
"""
from __future__ import annotations

import threading
import time

import numpy as np

from ..geometry import check_box, geometry
from ._bands import STATS, scratch9, solve9_batch, solve9_checked, solve9_exists, trace9
from ._batch import _exists_without, _solve_batch
from ._bitmask import _solve_cells, search_scratch
from ._stats import BACKTRACKS, CHECKS, GAVE_UP, GUESSES, MAX_DEPTH, NODES, NSTATS
from ..inputs import check_cells, check_grids, check_limits
from ..shape import Shape
from . import units
from .base import Metrics, SolveResult, share_seconds

__all__ = ["solve", "solve_many", "count_many", "metrics_many", "solve_results", "trace", "exists_without", "warm",
           "Scratch"]


class Scratch:
    """Working arrays of the kernels for one box size, allocated once and reused by one thread.

    ``stack`` has a row per possible guess depth (each guess solves at least one cell), so the search never
    allocates: 26 KB on 9x9, 1.5 MB on 25x25.
    """

    def __init__(self, box: int):
        geo = geometry(check_box(box))
        self.box, self.n, self.ncells = box, geo.size, geo.ncells
        self.cell_houses, self.peers, self.houses = geo.cell_houses, geo.peers, geo.houses
        self.hmask = np.zeros(3 * geo.size, dtype=np.int64)
        self.work = np.zeros(geo.ncells, dtype=np.uint32)
        self.queue = np.zeros(geo.ncells, dtype=np.int32)
        self.stack = np.zeros((geo.ncells + 1, geo.ncells), dtype=np.uint32)
        self.branch = np.zeros((3, geo.ncells + 1), dtype=np.int64)
        self.solution = np.zeros(geo.ncells, dtype=np.int8)
        self.stats = np.zeros(NSTATS, dtype=np.int64)
        self.no_trace = np.zeros((0, 2), dtype=np.int32)
        self.ntrace = np.zeros(1, dtype=np.int64)
        self.shown = np.zeros(geo.ncells, dtype=np.int8)
        self.bands = scratch9() if box == 3 else None
        # the cell-mask search's scratch (other sizes), for callers compiled without reference counts (the carver)
        self.cellmask = None if box == 3 else search_scratch(self.work, self.houses, self.n)
        self.band_stats = self.bands[STATS, :NSTATS] if box == 3 else None  # a view, made once

    def metrics(self, seconds: float) -> Metrics:
        s = self.stats
        return Metrics(nodes=int(s[NODES]), guesses=int(s[GUESSES]), backtracks=int(s[BACKTRACKS]),
                       checks=int(s[CHECKS]), max_depth=int(s[MAX_DEPTH]), seconds=seconds)


_local = threading.local()


def scratch(box: int) -> Scratch:
    """This thread's :class:`Scratch` for ``box`` (kernels are re-entrant across threads, scratch is not)."""
    cache = getattr(_local, "by_box", None)
    if cache is None:
        cache = _local.by_box = {}
    s = cache.get(box)
    if s is None:
        s = cache[box] = Scratch(box)
    return s


def _grid(cells, box: int) -> np.ndarray:
    """A validated private int8 copy of a flat grid (kernels never write to it; copying keeps one signature)."""
    return check_cells(cells, check_box(box))[0]


def _grids(puzzles, box: int) -> np.ndarray:
    return check_grids(puzzles, check_box(box), "puzzles")[0]


def solve(cells, box: "int | Shape", limit: int = 1, node_limit: int = 0) -> SolveResult:
    """Count solutions of the flat grid ``cells`` up to ``limit``; give up after ``node_limit`` nodes (0 = never).
    ``box``: a box size (square boxes) or any :class:`~engine.shape.Shape`."""
    t0 = time.perf_counter()
    if box == 3 and _plain9(cells) and type(limit) is int and type(node_limit) is int and 0 < limit <= _MAX \
            and 0 <= node_limit <= _MAX:
        return _solve9(cells, limit, node_limit, t0)  # a single 9x9 call: every check is already made
    if isinstance(box, Shape):  # a shape: square boxes take the kernels below, every other shape the units kernel
        if not box.square_box:
            return units.solve(cells, box, limit, node_limit)
        box = box.square_box
    limit, node_limit = check_limits(limit, node_limit)
    grid = _grid(cells, box)
    if box == 3:
        return _solve9(grid, limit, node_limit, t0)
    s = scratch(box)
    s.stats[:] = 0
    count = _solve_cells(grid, s.n, s.cell_houses, s.peers, s.houses, limit, node_limit, -1, 0, s.hmask, s.work,
                         s.queue, s.stack, s.branch, s.solution, s.stats, s.no_trace, s.ntrace, s.shown, False)
    solution = s.solution.copy() if count > 0 else None
    return SolveResult(count=int(count), solution=solution, metrics=s.metrics(time.perf_counter() - t0),
                       gave_up=bool(s.stats[GAVE_UP]))


solve.checks_its_input = True  # engine.solve passes a Grid's cells and the limits on unchecked
_MAX = 2**63 - 1


_INT8 = np.dtype(np.int8)


def _plain9(cells) -> bool:
    """A flat contiguous, writeable int8 array of 81 cells: the band kernel reads it as is (it checks the digits
    itself; a read-only array would be a second compiled signature, so it is copied like any other input).
    Written for speed (a dtype compared by identity, strides for contiguity): it runs before every single call."""
    if type(cells) is not np.ndarray or cells.dtype is not _INT8 or cells.strides != (1,) or cells.size != 81:
        return False
    return cells.flags.writeable


def _solve9(grid: np.ndarray, limit: int, node_limit: int, t0: float) -> SolveResult:
    """One 9x9 solve with the band kernel. This path is kept lean on purpose (measured: the Python around the
    kernel cost more than the search itself on a random minimal puzzle): one compiled call with 5 arguments, the
    metrics read with one ``tolist``."""
    try:
        s = _local.nine  # this thread's 9x9 scratch, looked up without the dict of scratch()
    except AttributeError:
        s = _local.nine = scratch(3)
    count = solve9_checked(grid, limit, node_limit, s.bands, s.solution)
    if count < 0:
        raise ValueError("digits of a 9x9 grid are 0..9 (0 = blank)")
    nodes, guesses, backtracks, checks, depth, gave_up = s.band_stats.tolist()
    metrics = Metrics(nodes, guesses, backtracks, checks, depth, time.perf_counter() - t0)
    return SolveResult(count, s.solution.copy() if count > 0 else None, metrics, gave_up != 0)


def _batch(puzzles, box: "int | Shape", limit: int, with_stats: bool, node_limit: int = 0):
    if isinstance(box, Shape):  # square boxes take the kernels below, every other shape the units kernel
        if not box.square_box:
            counts, solutions, stats = units.solve_batch(puzzles, box, limit, node_limit)
            return counts, solutions, stats if with_stats else stats[:0]
        box = box.square_box
    limit, node_limit = check_limits(limit, node_limit)
    grids = _grids(puzzles, box)
    s = scratch(box)
    m = grids.shape[0]
    counts = np.zeros(m, dtype=np.int32)
    solutions = np.zeros((m, s.ncells), dtype=np.int8)
    stats = np.zeros((m if with_stats else 0, NSTATS), dtype=np.int64)
    if s.bands is not None:
        solve9_batch(grids, limit, counts, solutions, stats, s.bands)
        return counts, solutions, stats
    _solve_batch(grids, s.n, s.cell_houses, s.peers, s.houses, limit, node_limit, counts, solutions, stats, s.hmask,
                 s.work, s.queue, s.stack, s.branch, s.stats, s.no_trace, s.ntrace, s.shown)
    return counts, solutions, stats


def solve_many(puzzles, box: int, limit: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Solve every row of ``puzzles`` (m, ncells) in one kernel call.

    Returns ``counts`` (m,) int32, solutions found up to ``limit``, and ``solutions`` (m, ncells) int8: the first
    solution of each puzzle, all zeros where there is none. The GIL is released for the whole batch.
    """
    counts, solutions, _ = _batch(puzzles, box, limit, False)
    return counts, solutions


def count_many(puzzles, box: int, limit: int = 2) -> np.ndarray:
    """Solution counts (m,) int32 of every row of ``puzzles``, each up to ``limit`` (2: 1 means unique)."""
    return _batch(puzzles, box, limit, False)[0]


def metrics_many(puzzles, box: int, limit: int = 1, node_limit: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Counts and per-puzzle metrics (m, 6) int64 (nodes, guesses, backtracks, checks, max_depth, gave_up).

    ``node_limit`` (0: none) cuts each search after that many nodes; its metrics are then what it had counted,
    and gave_up is 1. The 9x9 band kernel takes no node limit (its searches take microseconds): there it is
    ignored."""
    counts, _, stats = _batch(puzzles, box, limit, True, node_limit)
    return counts, stats


def solve_results(puzzles, box: int, limit: int = 1, node_limit: int = 0) -> list[SolveResult]:
    """:func:`solve` of every row of ``puzzles`` (m, ncells), from one kernel call; ``node_limit`` (0: none) gives
    up on a puzzle after that many nodes (``gave_up``; the 9x9 band kernel, whose searches take microseconds,
    takes none).

    Counts, solutions and metrics are those of one :func:`solve` per puzzle; ``seconds`` is the batch's wall time
    shared out by each puzzle's ``checks`` (:func:`~engine.solvers.base.share_seconds`). The CLI's ``solve`` finds
    this function as ``solve.many`` (a solver without that attribute is called once per puzzle).
    """
    t0 = time.perf_counter()
    counts, solutions, stats = _batch(puzzles, box, limit, True, node_limit)
    seconds = share_seconds(time.perf_counter() - t0, stats[:, CHECKS]).tolist()
    out = []
    for count, solution, row, secs in zip(counts.tolist(), solutions, stats.tolist(), seconds):
        nodes, guesses, backtracks, checks, depth, gave_up = row
        out.append(SolveResult(count, solution if count > 0 else None,
                               Metrics(nodes, guesses, backtracks, checks, depth, secs), gave_up != 0))
    return out


solve.many = solve_results  # the batch form of this solver, for callers with many puzzles


def trace(cells, box: int, max_events: int = 100000) -> np.ndarray:
    """The solver's moves on ``cells`` as (k, 2) int32 rows ``(cell, digit)``; digit 0 means "taken back".

    Events come in the order the solver made them (forced placements in the order propagation found them) and
    stop at the first solution, or after ``max_events``. Givens are not events.
    """
    if max_events < 0:
        raise ValueError("max_events must be >= 0")
    grid = _grid(cells, box)
    s = scratch(box)
    s.stats[:] = 0
    s.ntrace[0] = 0
    s.shown[:] = 0
    if s.bands is not None:
        events64 = np.zeros((max_events, 2), dtype=np.int64)  # the kernel's one signature: int64 like its stack
        trace9(grid, s.bands, s.solution, events64, s.ntrace, s.shown)
        return events64[: int(s.ntrace[0])].astype(np.int32)
    events = np.zeros((max_events, 2), dtype=np.int32)
    _solve_cells(grid, s.n, s.cell_houses, s.peers, s.houses, 1, 0, -1, 0, s.hmask, s.work, s.queue, s.stack,
                 s.branch, s.solution, s.stats, events, s.ntrace, s.shown, True)
    return events[: int(s.ntrace[0])].copy()


def exists_without(cells, box: int, cell: int, digit: int) -> bool:
    """Whether some solution of ``cells`` has anything but ``digit`` in the blank ``cell``.

    For a unique puzzle with clue ``digit`` at ``cell`` removed this is the uniqueness test: the removal keeps
    the puzzle unique exactly when this is False.
    """
    grid = _grid(cells, box)
    n = geometry(box).size
    if not 0 <= cell < grid.size or grid[cell] != 0:
        raise ValueError("cell must be a blank cell of the grid")
    if not 1 <= digit <= n:
        raise ValueError(f"digit must be 1..{n}")
    s = scratch(box)
    if s.bands is not None:
        return bool(solve9_exists(grid, cell, digit, 0, grid[:0], s.bands, s.solution))
    return bool(_exists_without(grid, s.n, s.cell_houses, s.peers, s.houses, cell, digit, s.hmask, s.work,
                                s.queue, s.stack, s.branch, s.solution, s.stats, s.no_trace, s.ntrace, s.shown))


def warm() -> None:
    """Compile (or load from the cache) every kernel, once, in the calling thread: call before starting workers.

    Kernels are compiled per argument type, not per box size, so one tiny 4x4 grid compiles them for all sizes.
    """
    for box in (2,):
        geo = geometry(box)
        empty = np.zeros(geo.ncells, dtype=np.int8)
        solve(empty, box)
        solve_many(empty[None, :], box)
        metrics_many(empty[None, :], box)
        trace(empty, box, 1)
        exists_without(empty, box, 0, 1)
