"""SVG pictures of a puzzle for printing (write only).

Clues are drawn in black; a solution, when given, fills the blank cells in a second colour, either in the same
grid (``beside=False``) or in a second grid to the right of the puzzle (``beside=True``). Box lines are thick,
cell lines thin; on any other shape than square boxes the thick lines follow the regions' borders (none inside a
Latin square) and the cells of the diagonals, when they are units, are shaded. Sizes are in user units with a
viewBox, so the picture scales to any page; 4x4 to 25x25 all fit the same width because the cell size shrinks as
the grid grows.
"""
from __future__ import annotations

from html import escape  # not xml.sax.saxutils: that pulls in urllib and ssl, slow imports at every export

import numpy as np

from ..shape import Shape
from .base import SYMBOLS, as_cells
from .shapes import regions, side

CLUE_COLOUR = "#000000"
SOLUTION_COLOUR = "#1c5fb8"
THIN_LINE = "#808080"
DIAGONAL_SHADE = "#e4e4e4"
_GRID_SIDE = 360.0  # user units of a grid of any size: cells are 90, 40, 22.5 or 14.4 units wide
_MARGIN = 12.0


def to_svg(puzzle_cells, box: int | None = None, solution=None, *, beside: bool = False,
           title: str | None = None) -> str:
    """A standalone SVG document of the puzzle (and its solution, if given).

    ``solution`` may be complete or partial; its digits are drawn where the puzzle is blank and must agree with
    every clue (ValueError otherwise).
    """
    cells, b = as_cells(puzzle_cells, box)
    n = side(b)
    filled = None
    if solution is not None:
        filled, _ = as_cells(solution, b)
        clash = np.flatnonzero((cells != 0) & (filled != 0) & (cells != filled))
        if clash.size:
            c = int(clash[0])
            raise ValueError(f"the solution has {int(filled[c])} at r{c // n + 1}c{c % n + 1}, "
                             f"where the puzzle has the clue {int(cells[c])}")
    grids = 2 if (beside and filled is not None) else 1
    width = grids * _GRID_SIDE + (grids + 1) * _MARGIN
    height = _GRID_SIDE + 2 * _MARGIN
    if title is None:
        shape = f" (shape {b.name})" if isinstance(b, Shape) else ""
        title = (f"{n}x{n} puzzle{shape}, {int(np.count_nonzero(cells))} clues"
                 + (", with solution" if filled is not None else ""))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
           f'width="{width:g}" height="{height:g}">',
           f"<title>{escape(title)}</title>",
           f'<rect x="0" y="0" width="{width:g}" height="{height:g}" fill="#ffffff"/>']
    if grids == 2:
        out += _grid(cells, None, b, _MARGIN)
        out += _grid(cells, filled, b, 2 * _MARGIN + _GRID_SIDE)
    else:
        out += _grid(cells, filled, b, _MARGIN)
    out.append("</svg>")
    return "\n".join(out)


def _grid(cells: np.ndarray, filled: np.ndarray | None, b, left: float) -> list[str]:
    n = side(b)
    step = _GRID_SIDE / n
    top = _MARGIN
    thin = max(0.5, step / 40)
    thick = max(2.0, step / 12)
    out = [f'<g class="grid" transform="translate({left:g} {top:g})">']
    if isinstance(b, Shape):
        out += _shape_lines(b, step, thin, thick)
    else:
        out += _box_lines(b, step, thin, thick)
    font = step * 0.6
    return _digits(out, cells, filled, n, step, font)


def _box_lines(b: int, step: float, thin: float, thick: float) -> list[str]:
    """Square boxes: thin cell lines, then the thick box lines over them, then the frame."""
    n = b * b
    out = []
    for k in range(1, n):
        if k % b:
            p = k * step
            out.append(f'<line x1="{p:g}" y1="0" x2="{p:g}" y2="{_GRID_SIDE:g}" stroke="{THIN_LINE}" '
                       f'stroke-width="{thin:g}"/>')
            out.append(f'<line x1="0" y1="{p:g}" x2="{_GRID_SIDE:g}" y2="{p:g}" stroke="{THIN_LINE}" '
                       f'stroke-width="{thin:g}"/>')
    for k in range(b, n, b):
        p = k * step
        out.append(f'<line class="box" x1="{p:g}" y1="0" x2="{p:g}" y2="{_GRID_SIDE:g}" stroke="#000000" '
                   f'stroke-width="{thick:g}"/>')
        out.append(f'<line class="box" x1="0" y1="{p:g}" x2="{_GRID_SIDE:g}" y2="{p:g}" stroke="#000000" '
                   f'stroke-width="{thick:g}"/>')
    out.append(_frame(thick))
    return out


def _frame(thick: float) -> str:
    return (f'<rect x="0" y="0" width="{_GRID_SIDE:g}" height="{_GRID_SIDE:g}" fill="none" stroke="#000000" '
            f'stroke-width="{thick:g}"/>')


def _shape_lines(shape: Shape, step: float, thin: float, thick: float) -> list[str]:
    """Any other shape: the diagonals' cells shaded, thin cell lines, a thick line along every border between two
    cells of different regions, the frame."""
    n = shape.size
    region = regions(shape).reshape(n, n)
    out = []
    if shape.diagonals:
        for r in range(n):
            for c in {r, n - 1 - r}:
                out.append(f'<rect class="diagonal" x="{c * step:g}" y="{r * step:g}" width="{step:g}" '
                           f'height="{step:g}" fill="{DIAGONAL_SHADE}"/>')
    for k in range(1, n):
        p = k * step
        out.append(f'<line x1="{p:g}" y1="0" x2="{p:g}" y2="{_GRID_SIDE:g}" stroke="{THIN_LINE}" '
                   f'stroke-width="{thin:g}"/>')
        out.append(f'<line x1="0" y1="{p:g}" x2="{_GRID_SIDE:g}" y2="{p:g}" stroke="{THIN_LINE}" '
                   f'stroke-width="{thin:g}"/>')
    for r in range(n):
        for c in range(n):
            x, y = c * step, r * step
            if c and region[r, c] != region[r, c - 1]:  # the border left of the cell
                out.append(f'<line class="box" x1="{x:g}" y1="{y:g}" x2="{x:g}" y2="{y + step:g}" stroke="#000000" '
                           f'stroke-width="{thick:g}" stroke-linecap="square"/>')
            if r and region[r, c] != region[r - 1, c]:  # the border above it
                out.append(f'<line class="box" x1="{x:g}" y1="{y:g}" x2="{x + step:g}" y2="{y:g}" stroke="#000000" '
                           f'stroke-width="{thick:g}" stroke-linecap="square"/>')
    out.append(_frame(thick))
    return out


def _digits(out: list[str], cells: np.ndarray, filled: np.ndarray | None, n: int, step: float,
            font: float) -> list[str]:
    """The clues, and the solution's digits where the puzzle is blank, over the lines."""
    out.append(f'<g font-family="Helvetica, Arial, sans-serif" font-size="{font:g}" text-anchor="middle">')
    for c in range(n * n):
        clue = int(cells[c])
        digit = clue or (int(filled[c]) if filled is not None else 0)
        if not digit:
            continue
        x = (c % n + 0.5) * step
        y = (c // n + 0.5) * step + font * 0.35  # baseline a third of the font below centre centres the glyph
        style = (f'class="clue" fill="{CLUE_COLOUR}" font-weight="bold"' if clue
                 else f'class="solution" fill="{SOLUTION_COLOUR}"')
        out.append(f'<text x="{x:g}" y="{y:g}" {style}>{SYMBOLS[digit]}</text>')
    out.append("</g>")
    out.append("</g>")
    return out
