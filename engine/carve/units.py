"""Carving on every shape that is not square boxes: the carver's rules, driven from Python over the units kernel.

The rules are the square carver's (engine/carve/carver.py): orbits of the clue pattern's symmetry are removed in a
random order drawn from ``seed``, each removal kept only while the puzzle still has exactly one solution, so a
puzzle is unique with the board as its solution, and minimal once every orbit has been tried (a removal that failed
once fails for good: removing more clues only adds solutions). ``clues=K`` stops at K clues; ``target_clues`` and
``attempts`` try several orders and keep the fewest clues. Each removal test answers what counting the puzzle to two
would, for less: the board's unavoidable sets, then one search (engine/solvers/units.py's kernel for the shape)
for a solution without the board's digit in each removed cell; engine/carve/_units_kernel.py says why that is the
same answer. The square carver's compiled batch driver and its "spread" order are for square boxes only. The
removals of an attempt run in one compiled loop (engine/carve/_units_kernel.py); the order is drawn here, so the
plain twin in tests/naive/shapes.py makes the same puzzles call for call.

The clue pattern's symmetries (rot180, rot90, mirror, diagonal) are symmetries of the square of cells, so every
shape allows each of them: a pattern need not be a symmetry of the regions.
"""
from __future__ import annotations

import time

import numpy as np

from ..shape import Shape
from ..solvers import units
from ..solvers.base import Metrics
from ._unit_sets import MAX_CELLS, MAX_SETS, unit_sets
from ._units_kernel import carve_attempt


def carve_units(board: np.ndarray, shape: Shape, seed: int, table: np.ndarray, sizes: np.ndarray, wanted: int,
                target: int, attempts: int, node_limit: int) -> tuple[np.ndarray, int, int, int, int, float]:
    """One board: ``(puzzle, tests, attempts used, undecided tests, clues, seconds)``. ``table``/``sizes`` are the
    symmetry's orbits (engine.carve.carver.orbits); ``wanted``/``target`` -1 when not asked. Each attempt's order
    is drawn here, its removals made by the compiled loop (engine/carve/_units_kernel.py)."""
    t0 = time.perf_counter()
    rng = np.random.default_rng(seed)
    s = units.scratch(shape)
    geo = s.geo
    out = np.zeros(3, dtype=np.int64)
    sets = np.zeros((MAX_SETS, MAX_CELLS), dtype=np.int32)
    set_sizes = np.zeros(MAX_SETS, dtype=np.int32)
    cell_sets = np.zeros(geo.ncells, dtype=np.int64)
    unit_sets(board, geo.size, geo.houses, geo.cell_houses, geo.nunits, sets, set_sizes, cell_sets)
    umask = np.zeros(geo.nhouses, dtype=np.int64)
    best, best_undecided = None, 0
    tests = used = 0
    for _ in range(attempts):
        used += 1
        puzzle = board.copy()
        order = rng.permutation(table.shape[0])
        carve_attempt(board, puzzle, order, table, sizes, wanted, node_limit, geo.size, geo.peers, geo.npeers_of,
                      geo.houses, geo.cell_houses, geo.nunits, s.member, sets, set_sizes, cell_sets, umask, s.work,
                      s.queue, s.stack, s.branch, s.solution, s.stats, s.carving_boards, out)
        left, made, undecided = (int(v) for v in out)
        tests += made
        if best is None or left < int(np.count_nonzero(best)):
            best, best_undecided = puzzle, undecided
        if (wanted >= 0 and left == wanted) or (target >= 0 and left <= target):
            break
    return best, tests, used, best_undecided, int(np.count_nonzero(best)), time.perf_counter() - t0


def metrics_of(puzzle: np.ndarray, shape: Shape, node_limit: int) -> tuple[Metrics, bool]:
    """The units kernel solving the carved puzzle (limit 1): its metrics, and whether they are complete."""
    result = units.solve(puzzle, shape, 1, node_limit)
    return result.metrics, not result.gave_up


def minimal_units(puzzles: np.ndarray, solutions: np.ndarray, shape: Shape, node_limit: int = 0
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`engine.carve.carver.minimal_many` on a shape that is not square boxes: each clue taken out alone and
    the puzzle counted to two by the units kernel; the first clue that can go (one solution still) ends a puzzle's
    tests. Returns (minimal, checks, undecided) as that function does. ``solutions`` are checked by the caller."""
    m = puzzles.shape[0]
    minimal = np.zeros(m, dtype=bool)
    checks = np.zeros(m, dtype=np.int64)
    undecided = np.zeros(m, dtype=np.int64)
    for i in range(m):
        puzzle = puzzles[i].copy()
        can_go = False
        for cell in np.flatnonzero(puzzle):
            digit = puzzle[cell]
            puzzle[cell] = 0
            result = units.solve(puzzle, shape, 2, node_limit)
            puzzle[cell] = digit
            checks[i] += 1
            if result.gave_up:
                undecided[i] += 1
            elif result.count == 1:
                can_go = True
                break
        minimal[i] = not can_go and undecided[i] == 0
    return minimal, checks, undecided
