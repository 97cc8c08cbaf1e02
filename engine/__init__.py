"""engine: Sudoku grids of every box size 2..5, formats, solvers, generators, canonical keys, carving, grading.

Usable as a library on its own; no I/O beyond what you pass in. The public API::

    from engine import Grid, solve, count_solutions, generate, canonical_key, key_text, carve, grade
    board = generate(box=3, method="wfc", seed=7)            # GeneratedBoard: .cells, .seed, .restarts
    puzzle = carve(board.cells, box=3, seed=7)                # CarveResult: .puzzle, .clues, ...
    result = solve(Grid.puzzle(puzzle.puzzle), limit=2)       # SolveResult: .count, .solution, .metrics
    key = key_text(board.cells, box=3, equivalence="d4")      # the catalogue's UNIQUE key
    print(grade(puzzle.puzzle, box=3).level)

Every name is loaded on first use (PEP 562): ``import engine`` imports nothing else (no numpy, no numba, no I/O),
so ``engine.vocabulary`` and the CLI's help read names without paying for the grid model; numba is imported only
when a compiled part is asked for. Compiled kernels are cached on disk in one folder that every program using the
engine shares (:mod:`engine.cache`): what the ``catalogue`` command compiled, a script or a notebook loads, and the
reverse. The first use of a part compiles its kernels (seconds to a minute on a new machine, once); to compile
them ahead, on every core and with progress, see :func:`engine.warmup.prepare` or ``catalogue compile``.
"""
from __future__ import annotations

from importlib import import_module

_LAZY = {
    # the grid model
    "BOX_SIZES": "engine.vocabulary", "SIZES": "engine.vocabulary",
    "Grid": "engine.grid", "Conflict": "engine.grid", "LockedCellError": "engine.grid",
    # formats
    "FORMATS": "engine.vocabulary", "FormatError": "engine.formats", "parse": "engine.formats",
    "read_grids": "engine.formats", "write": "engine.formats", "to_line": "engine.formats",
    "from_line": "engine.formats",
    # solvers
    "SOLVERS": "engine.solvers", "solve": "engine.solvers", "count_solutions": "engine.solvers",
    "is_unique": "engine.solvers", "SolveResult": "engine.solvers", "Metrics": "engine.solvers",
    # generators
    "GENERATORS": "engine.generators", "generate": "engine.generators", "generate_many": "engine.generators",
    "GeneratedBoard": "engine.generators",
    # canonical keys
    "EQUIVALENCES": "engine.vocabulary", "canonical_key": "engine.keys", "canonical_keys": "engine.keys",
    "key_text": "engine.keys", "same_class": "engine.keys",
    # carving
    "SYMMETRIES": "engine.vocabulary", "carve": "engine.carve", "carve_many": "engine.carve",
    "CarveResult": "engine.carve",
    # grading
    "grade": "engine.grade", "grade_many": "engine.grade", "Grade": "engine.grade",
    "LEVELS": "engine.vocabulary", "TECHNIQUES": "engine.vocabulary",
}

__all__ = list(_LAZY)


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(__all__)
