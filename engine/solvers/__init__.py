"""Solvers behind one interface, and the registry that tests, benchmarks and the CLI share.

``SOLVERS`` names every solver; :func:`solve` and :func:`count_solutions` take a :class:`~engine.grid.Grid`.
See :mod:`engine.solvers.base` for the signature every solver has and what its metrics mean.
"""
from __future__ import annotations

from importlib import import_module

import numpy as np

from ..grid import Grid
from .base import METRIC_NAMES, Metrics, SolveResult, Solver

#: solver name -> module that defines ``solve(cells, box, limit=1, node_limit=0) -> SolveResult``
SOLVERS = {
    "fast": "engine.solvers.fast",
    "mrv": "engine.solvers.mrv",
    "stack": "engine.solvers.stack",
    "backtrack": "engine.solvers.backtrack",
}
DEFAULT_SOLVER = "fast"


def get_solver(name: str) -> Solver:
    try:
        module = SOLVERS[name]
    except KeyError:
        raise ValueError(f"unknown solver {name!r}; choose from {', '.join(SOLVERS)}") from None
    return import_module(module).solve


def solve(grid: Grid, solver: str = DEFAULT_SOLVER, limit: int = 1, node_limit: int = 0) -> SolveResult:
    """Solve ``grid`` with the named solver, counting up to ``limit`` solutions."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    return get_solver(solver)(np.ascontiguousarray(grid.cells), grid.box, limit, node_limit)


def count_solutions(grid: Grid, limit: int = 2, solver: str = DEFAULT_SOLVER) -> int:
    """Number of solutions up to ``limit``; ``count_solutions(g, 2) == 1`` means the puzzle is unique."""
    return solve(grid, solver, limit).count


def is_unique(grid: Grid, solver: str = DEFAULT_SOLVER) -> bool:
    return count_solutions(grid, 2, solver) == 1


__all__ = ["SOLVERS", "DEFAULT_SOLVER", "METRIC_NAMES", "Metrics", "SolveResult", "get_solver", "solve",
           "count_solutions", "is_unique"]
