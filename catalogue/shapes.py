"""The catalogue's shapes: the spec a row stores, and what the engine takes for it.

Every board and run stores its shape as :attr:`engine.shape.Shape.spec` (``3x3``, ``2x3``, ``latin5``, ``3x3+x``,
``jigsaw9:LAYOUT``; migration 0009). The engine's functions take a box size for square boxes (their own compiled
kernels) and a :class:`~engine.shape.Shape` for every other shape: :func:`kernel_shape` turns a stored spec into
that, once per spec. Plain words here; the engine is imported when a spec is first read.
"""
from __future__ import annotations

import re
from functools import lru_cache

#: the spec of each square-box size (what a row stored before migration 0009 has, from its size)
SQUARE_SPECS = {4: "2x2", 9: "3x3", 16: "4x4", 25: "5x5"}


def spec_for_size(size: int) -> str:
    """The spec of square boxes with ``size`` rows (``9`` -> ``3x3``); ValueError for another size."""
    try:
        return SQUARE_SPECS[size]
    except KeyError:
        raise ValueError(f"a grid of square boxes has 4, 9, 16 or 25 rows, not {size}") from None


@lru_cache(maxsize=256)
def shape_of(spec: str):
    """The :class:`~engine.shape.Shape` a stored spec names; ValueError for text that names none."""
    from engine.shape import Shape

    return Shape.parse(spec)


@lru_cache(maxsize=256)
def kernel_shape(spec: str):
    """What the engine's functions take for ``spec``: the box size of square boxes without diagonals, else the
    Shape."""
    from engine.geometry import check_shape

    return check_shape(shape_of(spec))


def is_square(spec: str) -> bool:
    """Square boxes without diagonals: today's 4x4, 9x9, 16x16 and 25x25, with their own kernels."""
    return spec in SQUARE_SPECS.values()


#: what a shape filter takes: a shape's name, or a whole spec (a jigsaw's with its layout)
_FILTER = re.compile(r"(\d+x\d+|latin\d+|jigsaw\d+)(\+x)?(:[a-y]+)?")


def shape_filter(text: str) -> str:
    """The shape a filter (``--shape``, the API's ``shape``) asks for, as rows store it: ``2X3`` -> ``2x3``; a
    jigsaw's name (``jigsaw9``) matches every layout of it. ValueError, naming what is accepted, for anything
    else, since a name that no row could have would look like an empty result."""
    word = text.strip().lower()
    match = _FILTER.fullmatch(word)
    if match is None:
        raise ValueError(f"{text!r} is not a shape; write RxC (3x3, 2x3), latinN, jigsawN, with +x for the "
                         "diagonals")
    if match.group(3):  # a whole spec: its layout letters as rows store them, upper case
        name, layout = word.split(":")
        return f"{name}:{layout.upper()}"
    return word
