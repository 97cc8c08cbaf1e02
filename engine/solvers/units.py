"""Solving and counting on any shape (:mod:`engine.shape`): the checked entry points of the units kernels.

``solve(cells, shape, limit, node_limit)`` has the solvers' one signature (engine/solvers/base.py) with a
:class:`~engine.shape.Shape` where the others take a box size; :func:`engine.solvers.fast.solve` hands it every
shape that is not square boxes. Two kernels serve it (:data:`KERNELS`), both held to the plain twin:

* the bitboard search (:mod:`engine.solvers._bitboard`: a digit's places as bits, locked candidates at every node)
  for jigsaw layouts of up to 126 cells (n <= 11): their minimal puzzles are sparse (16 clues on 9x9) and locked
  candidates between irregular regions and lines cut their searches to a quarter; solving and carving them took a
  third of the time (bench/bench_shapes.py; docs/benchmarks.md, "Shapes");
* the cell-mask search (:mod:`engine.solvers._units`) for every other shape: on boxes, Latin squares and the
  diagonals the bitboard search was no faster (up to a fifth slower on 2x4 and 2x5 boxes: the locked candidates'
  pass at every node costs more there than it saves).
"""
from __future__ import annotations

import threading
import time

import numpy as np

from ..geometry import geometry
from ..inputs import check_limits, check_shape_cells
from ..shape import Shape
from . import _bitboard as bb
from ._stats import BACKTRACKS, CHECKS, GAVE_UP, GUESSES, MAX_DEPTH, NODES, NSTATS
from ._units import LOCKED_AFTER, count_units

#: the two kernels, by name: "bitboard" for shapes of up to :data:`engine.solvers._bitboard.MAX_CELLS` cells,
#: "cellmask" for any shape (the default above that size)
KERNELS = ("bitboard", "cellmask")
from .base import Metrics, SolveResult

_local = threading.local()


class _Scratch:
    """The kernel's working arrays for one shape, made once per thread (the kernel allocates nothing)."""

    def __init__(self, shape: Shape):
        geo = geometry(shape)
        self.geo = geo
        self.work = np.zeros(geo.ncells, dtype=np.uint32)
        self.queue = np.zeros(geo.ncells, dtype=np.int32)
        self.stack = np.zeros((geo.ncells + 1, geo.ncells), dtype=np.uint32)
        self.branch = np.zeros((2, geo.ncells + 1), dtype=np.int64)
        self.solution = np.zeros(geo.ncells, dtype=np.int8)
        self.stats = np.zeros(NSTATS, dtype=np.int64)
        self.member = np.zeros((geo.nhouses, geo.ncells), dtype=np.uint8)  # member[h, c]: cell c is in unit h
        for h, cells in enumerate(geo.houses):
            self.member[h, cells] = 1
        # the bitboard search's tables and scratch (its tables empty on shapes too large for it)
        n = geo.size
        if geo.ncells <= bb.MAX_CELLS:
            tables = bb.tables(geo)
        else:
            tables = (np.zeros((0, 2), np.int64), np.zeros((0, 2), np.int64), np.zeros(2, np.int64))
        self.boards = (*tables, np.zeros((n, 2), np.int64), np.zeros(2, np.int64), np.zeros(3, np.int64),
                       np.zeros((geo.ncells + 1, n + 1, 2), np.int64), np.zeros((2, geo.ncells + 1), np.int64))

    @property
    def kernel(self) -> str:
        """The kernel this shape takes by default (:data:`KERNELS`; see the module docstring)."""
        return "bitboard" if self.boards[0].shape[0] and self.geo.shape.kind == "jigsaw" else "cellmask"

    @property
    def carving_boards(self) -> tuple:
        """What the carver's removal tests take (engine/carve/_units_kernel.py): :attr:`boards` when this shape's
        kernel is the bitboard search, else the same with empty tables (the cell-mask search is used)."""
        if self.kernel == "bitboard":
            return self.boards
        return (self.boards[0][:0],) + self.boards[1:]

    def count(self, grid: np.ndarray, limit: int, node_limit: int, kernel: str, locked_after: int) -> int:
        """Count ``grid``'s solutions up to ``limit`` with ``kernel`` (stats and the first solution land here)."""
        self.stats[:] = 0
        geo = self.geo
        if kernel == "bitboard":
            units, peers, full, cand, solved, dirty, stack, branch = self.boards
            return bb.count_cells(grid, geo.size, units, peers, full, geo.cell_houses, geo.nunits, limit, node_limit,
                                  cand, solved, dirty, stack, branch, self.solution, self.stats)
        return count_units(grid, geo.size, geo.peers, geo.npeers_of, geo.houses, geo.cell_houses, geo.nunits,
                           self.member, limit, node_limit, int(locked_after), self.work, self.queue, self.stack,
                           self.branch, self.solution, self.stats)


def scratch(shape: Shape) -> _Scratch:
    """This thread's working arrays for ``shape`` (the kernel is re-entrant across threads, its scratch is not)."""
    cache = getattr(_local, "by_shape", None)
    if cache is None:
        cache = _local.by_shape = {}
    s = cache.get(shape)
    if s is None:
        s = cache[shape] = _Scratch(shape)
    return s


def _kernel(s: _Scratch, kernel: str | None) -> str:
    if kernel is None:
        return s.kernel
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {', '.join(KERNELS)}, got {kernel!r}")
    if kernel == "bitboard" and not s.boards[0].shape[0]:
        raise ValueError(f"the bitboard kernel takes shapes of up to {bb.MAX_CELLS} cells, not {s.geo.ncells}")
    return kernel


def solve(cells, shape: Shape, limit: int = 1, node_limit: int = 0, *, kernel: str | None = None,
          locked_after: int = LOCKED_AFTER) -> SolveResult:
    """Count solutions of ``cells`` on ``shape`` up to ``limit``; give up after ``node_limit`` nodes (0 = never).
    ``kernel``: one of :data:`KERNELS` (default: the bitboard search up to 126 cells). ``locked_after`` (the
    cell-mask kernel): nodes of search before locked candidates join the propagation (0: from the start)."""
    t0 = time.perf_counter()
    limit, node_limit = check_limits(limit, node_limit)
    grid = check_shape_cells(cells, shape)
    s = scratch(shape)
    count = s.count(grid, limit, node_limit, _kernel(s, kernel), locked_after)
    st = s.stats
    metrics = Metrics(nodes=int(st[NODES]), guesses=int(st[GUESSES]), backtracks=int(st[BACKTRACKS]),
                      checks=int(st[CHECKS]), max_depth=int(st[MAX_DEPTH]), seconds=time.perf_counter() - t0)
    return SolveResult(count=int(count), solution=s.solution.copy() if count else None, metrics=metrics,
                       gave_up=bool(st[GAVE_UP]))


def solve_batch(puzzles, shape: Shape, limit: int = 1, node_limit: int = 0
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`solve` of every row of ``puzzles`` (m, ncells): counts (m,) int32, first solutions (m, ncells) int8
    (zeros where none) and stats (m, NSTATS) int64, laid out as :mod:`engine.solvers.fast`'s batch kernels lay
    theirs, so the batch entry points (``solve_results``, ``metrics_many``, ``count_many``) take every shape.
    One kernel call a puzzle (the kernel releases the GIL; the loop around it is a few microseconds a puzzle)."""
    limit, node_limit = check_limits(limit, node_limit)
    arr = np.asarray(puzzles)
    if arr.ndim != 2 or arr.shape[1] != shape.ncells:
        raise ValueError(f"puzzles must be a 2-d array of {shape.ncells} cells a row for shape {shape.name}, "
                         f"got shape {arr.shape}")
    m = arr.shape[0]
    counts = np.zeros(m, dtype=np.int32)
    solutions = np.zeros((m, shape.ncells), dtype=np.int8)
    stats = np.zeros((m, NSTATS), dtype=np.int64)
    s = scratch(shape)
    for i in range(m):
        grid = check_shape_cells(arr[i], shape)
        counts[i] = s.count(grid, limit, node_limit, s.kernel, LOCKED_AFTER)
        if counts[i]:
            solutions[i] = s.solution
        stats[i] = s.stats
    return counts, solutions, stats


def count(shape: Shape, cells=None, limit: int = 2**62, kernel: str | None = None) -> int:
    """How many solutions ``cells`` has on ``shape`` (the empty grid when None), up to ``limit``."""
    if cells is None:
        cells = np.zeros(shape.ncells, dtype=np.int8)
    return solve(cells, shape, limit, kernel=kernel).count


#: nodes :func:`has_board` searches before it calls a layout hopeless: a layout with boards has one in a few dozen
#: nodes on 6x6 to 12x12, and one without may take an exhaustive search to prove it
BOARD_NODE_LIMIT = 200_000


def has_board(shape: Shape) -> bool:
    """Whether a grid of ``shape`` can be filled (every Latin and box shape can; some jigsaw layouts cannot): True
    when a board is found within :data:`BOARD_NODE_LIMIT` nodes."""
    return solve(np.zeros(shape.ncells, dtype=np.int8), shape, 1, BOARD_NODE_LIMIT).count == 1


__all__ = ["KERNELS", "solve", "count", "has_board", "scratch"]
