"""The option choices and the grid-reading step that several commands share.

The enums spell their values out instead of building them from the engine's registries, so that ``query`` and
``export`` can use them without importing the engine (numba costs ~0.3 s at start-up); ``tests/test_choices.py``
checks that every enum matches the registry it mirrors.
"""
from __future__ import annotations

import enum
from typing import Annotated, Optional

import typer

from .errors import UserError
from .io import read_text


class Method(str, enum.Enum):
    """Board generators (engine.generators.GENERATORS)."""
    wfc = "wfc"
    backtrack = "backtrack"
    pattern = "pattern"


class Equivalence(str, enum.Enum):
    """When two grids count as the same (engine.canonical.EQUIVALENCES)."""
    d4 = "d4"
    full = "full"
    none = "none"


class Symmetry(str, enum.Enum):
    """Symmetries of a carved puzzle's clue pattern (engine.carve.SYMMETRIES)."""
    none = "none"
    rot180 = "rot180"
    rot90 = "rot90"
    mirror = "mirror"
    diagonal = "diagonal"


class Level(str, enum.Enum):
    """Grading levels (engine.grade.LEVELS)."""
    easy = "easy"
    medium = "medium"
    hard = "hard"
    expert = "expert"
    extreme = "extreme"


class SolverName(str, enum.Enum):
    """Solvers (engine.solvers.SOLVERS)."""
    fast = "fast"
    mrv = "mrv"
    stack = "stack"
    backtrack = "backtrack"


class InputFormat(str, enum.Enum):
    """Input formats (engine.formats.FORMATS); auto recognises the format from the text."""
    auto = "auto"
    line = "line"
    block = "block"
    rcv = "rcv"
    pretty = "pretty"
    json = "json"
    txt = "txt"


InputFormatOption = Annotated[InputFormat, typer.Option(
    "--input-format", "-f", case_sensitive=False, help="Format of the input; auto recognises it from the text.")]
BoxOption = Annotated[Optional[int], typer.Option(
    min=2, max=5, show_default=False,
    help="Box size (2-5: grids 4x4..25x25) when the input cannot tell, e.g. sparse row-column-value files.")]


def read_entries(path: str, input_format: InputFormat, box: Optional[int] = None, what: str = "grid") -> list:
    """Every entry of a file (or ``-``) in file order: a ``Parsed`` grid, or a ``FormatError`` for an entry that
    could not be read (the caller reports it and goes on). No entry at all is one clear error."""
    from engine.formats import FormatError, read_grids

    text, source = read_text(path)
    fmt = None if input_format is InputFormat.auto else input_format.value
    grids, errors = read_grids(text, source, fmt, box)
    if not grids and not errors:
        raise UserError(f"{source}: no {what} found")
    return sorted([*grids, *errors], key=lambda e: (e.line, isinstance(e, FormatError)))
