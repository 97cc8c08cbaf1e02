"""The option choices and the grid-reading step that several commands share.

Every choice is built from :mod:`engine.vocabulary` (plain data: no numpy, no numba), so ``query`` and ``export``
can use them without importing the compiled engine (numba's import would take much of their start-up budget:
docs/benchmarks.md, Reading), and a name added there is
a choice here with no further edit. Grid sizes are given as ``--size N`` (N = 4, 9, 16, 25: the glossary's n)
everywhere; commands turn them into box sizes with :func:`engine.geometry.box_for_size`.
"""
from __future__ import annotations

import enum
from typing import Optional

from engine import vocabulary

from .errors import UsageError, UserError, unknown_choice
from .io import read_text


def _choices(name: str, names: tuple[str, ...], doc: str, *extra: str) -> type[enum.Enum]:
    """A ``str`` enum whose members are ``names`` (value = name), as typer wants for a choice option."""
    choice = enum.Enum(name, {n: n for n in (*extra, *names)}, type=str, module=__name__)
    choice.__doc__ = doc
    return choice


Method = _choices("Method", vocabulary.METHODS, "Board generators (engine.generators.GENERATORS).")
Equivalence = _choices("Equivalence", vocabulary.EQUIVALENCES, "When two grids count as the same (engine.keys).")
Symmetry = _choices("Symmetry", vocabulary.SYMMETRIES, "Symmetries of a carved puzzle's clue pattern (engine.carve).")
CarveOrder = _choices("CarveOrder", vocabulary.CARVE_ORDERS, "Orders in which the carver tries removals (engine.carve).")
Level = _choices("Level", vocabulary.LEVELS, "Grading levels, easiest first (engine.grade).")
SolverName = _choices("SolverName", vocabulary.SOLVERS, "Solvers (engine.solvers.SOLVERS).")
InputFormat = _choices("InputFormat", vocabulary.FORMATS,
                       "Input formats (engine.formats.FORMATS); auto recognises the format from the text.", "auto")


#: every name a ``--format`` may offer: engine.vocabulary's grid formats (WRITE_FORMATS) and record formats
_OUTPUTS = (*vocabulary.WRITE_FORMATS, *vocabulary.RECORD_FORMATS)


def output_formats(name: str, *names: str) -> type[enum.Enum]:
    """The ``--format`` choices of one command (made by :func:`catalogue.cli.options.format_option`): ``names``
    from the vocabulary's grid and record formats, in the order its help lists them; a name outside them fails at
    import, so no command invents a format of its own."""
    strangers = [n for n in names if n not in _OUTPUTS]
    if strangers:
        raise ValueError(f"{name}: not output formats of the vocabulary: {', '.join(strangers)}")
    return _choices(name, tuple(dict.fromkeys(names)), f"The --format choices of {name}.")


#: what the technique of a puzzle's hardest step can be (query --technique): a row of the technique table, or
#: guessing when none made progress
HARDEST = (*vocabulary.TECHNIQUES, vocabulary.GUESSING)


def choose(option: str, noun: str, names: tuple[str, ...], value: Optional[str]) -> Optional[str]:
    """``value`` as the name it means among ``names``, whatever its case (``X-Wing`` is ``x-wing``); None stays
    None; anything else is a one-line usage error (exit 2) listing the names. Enum options need not call this:
    :class:`catalogue.cli.group.CatalogueGroup` gives their bad values the same line."""
    if value is None:
        return None
    folded = value.casefold()
    for name in names:
        if name.casefold() == folded:
            return name
    raise UsageError(unknown_choice(option, noun, value, names))


def check_size(value: Optional[int]) -> Optional[int]:
    """Callback of every ``--size`` option: one of the grid sizes, else a one-line usage error (exit 2)."""
    if value is not None and value not in vocabulary.SIZES:
        raise UsageError(f"--size must be one of {', '.join(map(str, vocabulary.SIZES))} (rows of the grid), "
                         f"not {value}")
    return value


def grid_kind(size: Optional[int], shape: Optional[str], diagonals: bool, regions: Optional[str], seed: int):
    """The grids a command makes, from ``--size``, ``--shape``, ``--diagonals`` and ``--regions``: a box size for
    square boxes (the kernels they always took), else an ``engine.shape.Shape``; a one-line usage error (exit 2)
    for options that make no shape. ``--regions random`` draws a jigsaw layout from ``seed`` (the run's, so the
    run is made again by its seed); ``--regions FILE`` reads one (n lines of n letters)."""
    from engine.geometry import box_for_size, check_shape
    from engine.regions import random_layout, read_layout
    from engine.shape import Shape

    check_regions(shape, regions)
    try:
        if regions is not None:
            if regions == "random":
                found = random_layout(9 if size is None else size, seed, diagonals)
            else:
                text, where = read_text(regions)
                found = Shape.jigsaw(read_layout(text, where).regions, diagonals)
            if size is not None and size != found.size:
                raise UsageError(f"--size {size} does not match the {found.size}x{found.size} layout of --regions")
            return found
        if shape is None:
            check_size(size)
            box = box_for_size(9 if size is None else size)
            return check_shape(Shape.square(box, True)) if diagonals else box
        return check_shape(Shape.parse(shape, size, diagonals))
    except ValueError as e:
        raise UsageError(str(e)) from None


def check_regions(shape: Optional[str], regions: Optional[str]) -> None:
    """``--regions`` makes a jigsaw: a usage error beside a ``--shape`` of another kind."""
    if regions is not None and shape is not None and shape.strip().lower().removesuffix("+x") != "jigsaw":
        raise UsageError(f"--regions makes a jigsaw: it does not go with --shape {shape}")


def read_entries(path: str, input_format: InputFormat, size: Optional[int] = None, what: str = "grid",
                 shape: Optional[str] = None):
    """Every entry of a file (or ``-``) in file order: a ``Parsed`` grid, or a ``FormatError`` for an entry that
    could not be read (the caller reports it and goes on). No entry at all is one clear error. ``size`` (rows)
    is for inputs that cannot tell it. The entries are an ``engine.formats.registry.Entries``: a sequence that
    holds the file's grids in a few bytes a cell and makes each entry when it is asked for, so a command that
    goes through them once, keeping none, holds about the file's size (docs/reliability.md, "Memory"). ``shape``
    (``--shape``) is the grids' shape for an input that does not name it."""
    return read_input(path, input_format, size, what, shape)[0]


def read_input(path: str, input_format: InputFormat, size: Optional[int] = None, what: str = "grid",
               shape: Optional[str] = None) -> tuple:
    """:func:`read_entries`, and the format the text was read as (the one asked for, or the one recognised)."""
    from engine.formats import detect
    from engine.formats.registry import parse_entries
    from engine.geometry import box_for_size, check_shape
    from engine.shape import Shape

    if shape is not None:
        try:
            box = check_shape(Shape.parse(shape, size))
        except ValueError as e:
            raise UsageError(f"--shape: {e}") from None
    else:
        box = None if size is None else box_for_size(size)

    text, source = read_text(path)
    fmt = detect(text) if input_format is InputFormat.auto else input_format.value
    entries = parse_entries(text, source, fmt, box)
    if not len(entries):
        raise UserError(f"{source}: no {what} found")
    return entries, fmt
