"""Grids of every shape in text: the ``# shape SPEC`` line, and what a reader or writer asks of a shape.

A grid of square boxes (4x4, 9x9, 16x16, 25x25) needs nothing beyond its symbols: its size says its shape. Any
other shape (:mod:`engine.shape`: boxes of r x c, a Latin square, diagonals, jigsaw regions) is named by a comment
line before the first grid of the text, ``# shape 2x3``, ``# shape latin5``, ``# shape 3x3+x`` or, for a jigsaw,
``# shape jigsaw6:AAABBB...`` (its n*n region letters after a colon: :attr:`engine.shape.Shape.spec`). Being a
comment, the line is passed over by any reader that does not know it; the line format stays n*n symbols a line.
One text holds one shape: the line names it for every grid of the text.

Readers and writers take a ``box`` that is a box size (square boxes) or a :class:`~engine.shape.Shape`
(:func:`engine.geometry.check_shape` makes a Shape of square boxes its box size): :func:`side` and
:func:`box_rules` are what they ask of it.
"""
from __future__ import annotations

import re

import numpy as np

from ..geometry import check_shape, geometry
from ..shape import Shape
from .base import FormatError, numbered_lines

#: the directive: ``# shape SPEC`` (spaces around the word allowed, case ignored)
_DIRECTIVE = re.compile(r"#\s*shape\s*(?::\s*)?(\S+)\s*$", re.IGNORECASE)


def side(box: "int | Shape") -> int:
    """The rows of a grid: n."""
    return box.size if isinstance(box, Shape) else box * box


def box_rules(box: "int | Shape") -> tuple[int, int]:
    """``(rows, columns)`` of a box, where the writers draw rules (every ``rows`` rows, every ``columns`` columns);
    ``(0, 0)`` for a shape without rectangular boxes (Latin squares, jigsaw regions: their pictures draw regions
    instead, or nothing)."""
    if not isinstance(box, Shape):
        return box, box
    return (box.box_rows, box.box_cols) if box.kind == "boxes" else (0, 0)


def regions(box: "int | Shape") -> np.ndarray:
    """Each cell's region (-1 on a Latin square): where a picture draws heavy lines."""
    return geometry(box).box_of


def directive(box: "int | Shape") -> list[str]:
    """The lines a text of grids of ``box`` starts with: ``["# shape SPEC"]``, or none for square boxes."""
    return [f"# shape {box.spec}"] if isinstance(box, Shape) else []


def with_directive(box: "int | Shape", text: str) -> str:
    """``text`` (one grid written out) after the :func:`directive` of its shape."""
    return "\n".join(directive(box) + [text])


def read_directive(text: str, source: str) -> "int | Shape | None":
    """The shape named by a ``# shape`` line among the comment and blank lines before the first grid (a box size
    for square boxes, as :func:`engine.geometry.check_shape`), or None; FormatError naming the line when it names
    no shape."""
    for number, _, line in numbered_lines(text):
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#"):
            return None
        found = _DIRECTIVE.match(stripped)
        if found:
            try:
                return check_shape(Shape.parse(found.group(1)))
            except ValueError as e:
                raise FormatError(source, number, line.find(found.group(1)) + 1, f"# shape: {e}") from None
    return None


def agreed(said: "int | Shape | None", asked: "int | Shape | None", source: str) -> "int | Shape | None":
    """The shape a text is read as: the one its directive says, or the one asked for; FormatError when both are
    given and differ."""
    if said is None or asked is None or said == asked:
        return asked if said is None else said
    raise FormatError(source, 1, None, f"the text says shape {shape_name(said)} but {shape_name(asked)} was asked "
                                       "for")


def shape_name(box: "int | Shape") -> str:
    """A shape's name (``2x3``), square boxes' too (box 3: ``3x3``)."""
    return box.name if isinstance(box, Shape) else f"{box}x{box}"
