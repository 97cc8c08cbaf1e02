"""Solvers behind one interface, and the registry that tests, benchmarks and the CLI share.

``SOLVERS`` names every solver; :func:`solve` and :func:`count_solutions` take a :class:`~engine.grid.Grid`.
See :mod:`engine.solvers.base` for the signature every solver has and what its metrics mean.
"""
from __future__ import annotations

from importlib import import_module

import numpy as np

from .. import vocabulary
from ..grid import Grid
from ..inputs import check_limits, check_name
from .base import METRIC_NAMES, Metrics, SolveResult, Solver

#: solver name -> module that defines ``solve(cells, box, limit=1, node_limit=0) -> SolveResult``; the names (and
#: so the module names) are the vocabulary's, the first being the default
SOLVERS = {name: f"engine.solvers.{name}" for name in vocabulary.SOLVERS}
DEFAULT_SOLVER = vocabulary.SOLVERS[0]


_loaded: dict[str, Solver] = {}  # name -> solve function, once imported (a single solve costs a few us)


def get_solver(name: str) -> Solver:
    fn = _loaded.get(name) if isinstance(name, str) else None
    if fn is None:
        fn = import_module(SOLVERS[check_name("solver", name, SOLVERS)]).solve
        _loaded[name] = fn
    return fn


def solve(grid: Grid, solver: str = DEFAULT_SOLVER, limit: int = 1, node_limit: int = 0) -> SolveResult:
    """Solve ``grid`` with the named solver, counting up to ``limit`` solutions.

    ``grid`` is a :class:`Grid` or anything :class:`Grid` accepts (a flat sequence of cells, or n x n rows), so
    ``solve(cut.puzzle)`` works as well as ``solve(Grid.puzzle(cut.puzzle))``; the box size then follows from the
    number of cells.
    """
    if type(grid) is not Grid:
        grid = as_grid(grid)
    fn = get_solver(solver)
    if getattr(fn, "checks_its_input", False):  # the fast solver checks cells and limits itself, cheaply
        return fn(grid.cells, grid.box, limit, node_limit)
    limit, node_limit = check_limits(limit, node_limit)
    return fn(np.ascontiguousarray(grid.cells), grid.box, limit, node_limit)


def as_grid(grid) -> Grid:
    """``grid`` itself when it is a :class:`Grid`, else a Grid of its cells (ValueError/TypeError when it is none)."""
    if isinstance(grid, Grid):
        return grid
    if isinstance(grid, (str, bytes)):
        raise TypeError("solve takes a Grid or an array of cells; parse text first with engine.from_line or parse")
    return Grid(grid)


def count_solutions(grid: Grid, limit: int = 2, solver: str = DEFAULT_SOLVER) -> int:
    """Number of solutions up to ``limit``; ``count_solutions(g, 2) == 1`` means the puzzle is unique."""
    return solve(grid, solver, limit).count


def is_unique(grid: Grid, solver: str = DEFAULT_SOLVER) -> bool:
    return count_solutions(grid, 2, solver) == 1


__all__ = ["SOLVERS", "DEFAULT_SOLVER", "METRIC_NAMES", "Metrics", "SolveResult", "get_solver", "solve",
           "count_solutions", "is_unique"]
