"""``/api/hint``: the grader's next step on a partly solved grid, as data and as the sentence ``grade --steps``
prints.

Cells are named twice in the answer: ``cell`` (row-major from 0, as in Python) and ``row``/``column`` (from 1, as
the CLI and the sentences count). The engine is imported on the first hint, not when the server starts: the
JSON API without hints needs no compiled code. A hint is the compiled grader's choice of technique, found again by
that technique's Python search (engine.grade.guided), when the compiled grader is ready
(engine.warmup.compiled_ready: loaded, or in the kernel cache, as after any fill or import on this machine); where
it is not, the Python searches answer alone (the same step, many times slower, most on big grids:
docs/benchmarks.md, Grading, the step path)
rather than compile it for a minute inside a request.

The grid's shape is the record's (``shape``: its spec, as every puzzle record carries it): a 6x6 grid could be boxes
of 2x3, of 3x2 or a jigsaw, so the cell count alone cannot tell. Without it, the grid is square boxes (what the
endpoint took before shapes). A spec that names no shape is one 400 naming ``shape``, said before any work.
"""
from __future__ import annotations

from typing import Any

from ..errors import UsageError
from .errors import BadParameter


def parse_candidates(text: str, n: int) -> list[int]:
    """The player's pencil marks: one field per cell, comma-separated, each the symbols of its candidates (as the
    grid writes them: ``1``-``9``, ``A``-``P``; empty for a filled cell or one without marks); a bitmask each."""
    from engine.vocabulary import SYMBOLS

    fields = text.split(",")
    if len(fields) != n * n:
        raise UsageError(f"candidates: {len(fields):,} fields for the {n * n} cells of a {n}x{n} grid "
                         f"(one per cell, comma-separated)")
    masks = []
    for cell, field in enumerate(fields):
        mask = 0
        for ch in field.upper():
            digit = SYMBOLS.find(ch)
            if digit < 1 or digit > n:
                raise UsageError(f"candidates: {ch!r} in cell {cell} is not a digit of a {n}x{n} grid")
            mask |= 1 << (digit - 1)
        masks.append(mask if field else (1 << n) - 1)  # no marks: every candidate the digits leave
    return masks


def hint_shape(spec: str | None, grid: str):
    """What the grader takes for a hint on ``grid``: the box size, or the Shape, of ``spec`` (a record's ``shape``);
    without one, square boxes from the cell count. BadParameter naming ``shape`` for a spec that names no
    shape."""
    from engine.geometry import box_for_ncells
    from engine.vocabulary import MAX_SHAPE_SIZE, MIN_SHAPE_SIZE

    from ..shapes import kernel_shape

    if spec is None:
        ncells = len(grid.strip())
        try:
            return box_for_ncells(ncells)
        except ValueError:
            side = round(ncells ** 0.5)
            if side * side != ncells or not MIN_SHAPE_SIZE["latin"] <= side <= MAX_SHAPE_SIZE:
                return None  # no grid of any shape: the line format's own error says why (hint, below)
            raise BadParameter("shape", f"a grid of {ncells} cells has no square boxes: give the puzzle's shape, "
                                        "as its record's `shape` holds it (2x3, jigsaw9:LAYOUT, ...)") from None
    try:
        return kernel_shape(spec.strip())
    except ValueError as e:
        raise BadParameter("shape", str(e)) from None


def hint(grid: str, candidates: str | None = None, shape: str | None = None) -> dict[str, Any]:
    """The next step on ``grid`` (the line format) of the shape ``shape`` (a spec: :func:`hint_shape`), from the
    player's ``candidates`` when given (pencil marks: :func:`parse_candidates`), or ``technique: None`` with the
    reason there is none."""
    from engine.formats import FormatError, from_line
    from engine.grade import Contradiction, next_step
    from engine.warmup import compiled_ready

    box = hint_shape(shape, grid)
    try:
        cells = from_line(grid.strip(), box, source="grid")
    except (FormatError, ValueError) as e:
        raise UsageError(f"grid: {e}") from None
    n = round(cells.size ** 0.5)
    marks = parse_candidates(candidates, n) if candidates is not None else None
    try:
        step = next_step(cells, box, guided=compiled_ready(), candidates=marks)
    except Contradiction as e:
        raise UsageError(f"{'candidates' if marks is not None else 'grid'}: {e}") from None

    def where(cell: int) -> dict[str, int]:
        return {"cell": int(cell), "row": int(cell) // n + 1, "column": int(cell) % n + 1}

    if step is None:
        full = bool((cells != 0).all())
        # on big grids the hint, like a fill's grade, leaves the dynamic chains out (seconds a request): say so,
        # since a catalogue regraded at the full scale may rate this puzzle by them
        stuck = ("no technique helps from here: the position needs guessing, or a digit entered is wrong"
                 if n < 16 else "no technique the hints try helps from here (on this size they leave out the "
                 "dynamic forcing chains): the position needs those or guessing, or a digit entered is wrong")
        return {"technique": None, "name": None, "explanation": "the grid is full" if full else stuck,
                "placements": [], "eliminations": [], "cells": [], "houses": []}
    return {"technique": step.technique, "name": step.name, "rating": step.rating, "explanation": step.explanation,
            "placements": [{**where(c), "digit": int(d)} for c, d in step.placements],
            "eliminations": [{**where(c), "digit": int(d)} for c, d in step.eliminations],
            "cells": [where(c) for c in step.cells], "houses": [int(h) for h in step.houses]}
