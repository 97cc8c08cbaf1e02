"""Page geometry for printed puzzles: where each grid and its caption go on a page, and what to draw for a grid.

Pure functions over plain values (no file, no PDF or SVG object): they return :class:`Page`\\ s made of three kinds
of shape, :class:`Line`, :class:`Rect` and :class:`Text`, in points (1/72 inch) with the origin at the page's top
left and y growing downwards, as in SVG. The writers (:mod:`.pdf`, :mod:`.svg`) only translate shapes, so a PDF
page and an SVG sheet of the same puzzles are the same drawing, and the geometry is tested here
(tests/catalogue/publish/test_layout.py) without parsing any file.

A grid is square: thin cell lines, thick box lines and a thick border (drawn as one closed rectangle, so its
corners are mitred), each given centred in its cell. Digits above 9 are the line format's letters
(``engine.vocabulary.SYMBOLS``: 1-9 then A-P), so a 16x16 or 25x25 grid prints one character per cell.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence

from engine.vocabulary import SYMBOLS

#: A4 portrait, 210 x 297 mm, in points
A4 = (595.2756, 841.8898)
MARGIN = 42.52  # 15 mm on every side: inside what any office printer can print
HEADER = 24.0  # the band at the top of the area: the title left, the page number right, a rule under them
GUTTER = 20.0  # between two slots, across and down
CAPTION_FONT = 9.0  # points; the caption band is 1.9 times as high
MAX_THICK = 3.0  # the thickest box line and border

#: puzzles per page -> (columns, rows) of the page's slots. 1, 2, 4 and 6 are for puzzles (``--per-page``);
#: 9 and 12 are for the solutions, which are smaller and more per page.
ARRANGEMENTS = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3), 9: (3, 3), 12: (3, 4)}
PER_PAGE = (1, 2, 4, 6)
#: solutions per page for each --per-page, for grids up to 16x16 (25x25 solutions keep the puzzles' count:
#: smaller cells could not be read)
SOLUTIONS_PER_PAGE = {1: 4, 2: 6, 4: 9, 6: 12}

FONT = "Helvetica"  # a PDF base-14 font: every reader has it, nothing is embedded, its metrics are exact
BOLD = "Helvetica-Bold"
BLACK = "#000000"
THIN_COLOUR = "#555555"
SOLVED_COLOUR = "#4a4a4a"
#: Helvetica's cap height (718/1000 em; figures are 703 to 719): a baseline this far below a cell's centre
#: centres a digit or a capital letter vertically
_HALF_CAP = 0.359


@dataclass(frozen=True)
class Box:
    """A rectangle: top-left corner (x, y), width w and height h, in points."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def grown(self, d: float) -> "Box":
        return Box(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def contains(self, other: "Box", eps: float = 1e-6) -> bool:
        return (other.x >= self.x - eps and other.y >= self.y - eps and other.right <= self.right + eps
                and other.bottom <= self.bottom + eps)

    def overlaps(self, other: "Box", eps: float = 1e-6) -> bool:
        return (self.x < other.right - eps and other.x < self.right - eps and self.y < other.bottom - eps
                and other.y < self.bottom - eps)


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    width: float
    colour: str = BLACK


@dataclass(frozen=True)
class Rect:
    """A rectangle's outline (not filled)."""

    box: Box
    width: float
    colour: str = BLACK


@dataclass(frozen=True)
class Text:
    """``text`` on the baseline y; ``anchor`` says whether x is its start, middle or end."""

    x: float
    y: float
    text: str
    size: float
    font: str = FONT
    colour: str = BLACK
    anchor: str = "middle"  # start | middle | end


Shape = Line | Rect | Text


@dataclass(frozen=True)
class Group:
    """Shapes that belong together: ``kind`` is grid, caption or header (the SVG writer's ``class``)."""

    kind: str
    shapes: tuple[Shape, ...]


@dataclass(frozen=True)
class Page:
    width: float
    height: float
    groups: tuple[Group, ...]


@dataclass(frozen=True)
class Slot:
    """One puzzle's place on a page: its caption band and, under it, its square grid."""

    caption: Box
    grid: Box


@dataclass(frozen=True)
class Item:
    """What a slot shows: the caption's text, the puzzle, and the solution (None on a puzzle page)."""

    caption: str
    puzzle: str
    solution: Optional[str] = None


def content_box(page: tuple[float, float] = A4, margin: float = MARGIN, header: float = HEADER) -> Box:
    """The part of the page the slots share: inside the margins, under the header band."""
    return Box(margin, margin + header, page[0] - 2 * margin, page[1] - 2 * margin - header)


def page_slots(per_page: int, page: tuple[float, float] = A4, margin: float = MARGIN, header: float = HEADER,
               caption_font: float = CAPTION_FONT) -> list[Slot]:
    """The slots of a page holding ``per_page`` puzzles, row by row, left to right.

    The slots are arranged as :data:`ARRANGEMENTS` says, all of one size (the largest square grid for which
    every grid and caption fits), at least :data:`GUTTER` apart; the room left over is shared evenly by the gaps
    between the slots and the content box's edges. The thick border of a grid reaches half its width outside the grid's box, which the gutter
    and the margins leave room for."""
    if per_page not in ARRANGEMENTS:
        raise ValueError(f"per_page must be one of {', '.join(map(str, ARRANGEMENTS))}, not {per_page}")
    cols, rows = ARRANGEMENTS[per_page]
    # inset by half the thickest line: a grid's border, centred on its box's edge, stays inside the content box
    area = content_box(page, margin, header).grown(-MAX_THICK / 2)
    band = caption_font * 1.9
    side = min((area.w - (cols - 1) * GUTTER) / cols, (area.h - (rows - 1) * GUTTER) / rows - band)
    if side <= 0:
        raise ValueError("the page is too small for its margins")
    # the room left over (across or down) is shared evenly by the gaps between slots and the two ends
    gap_x = GUTTER + (area.w - cols * side - (cols - 1) * GUTTER) / (cols + 1)
    gap_y = GUTTER + (area.h - rows * (band + side) - (rows - 1) * GUTTER) / (rows + 1)
    x0 = area.x + gap_x - GUTTER
    y0 = area.y + gap_y - GUTTER
    slots = []
    for r in range(rows):
        for c in range(cols):
            x = x0 + c * (side + gap_x)
            y = y0 + r * (band + side + gap_y)
            slots.append(Slot(Box(x, y, side, band), Box(x, y + band, side, side)))
    return slots


def paginate(count: int, per_page: int) -> list[range]:
    """The item indices of each page: ``ceil(count / per_page)`` pages, the last one possibly part-filled."""
    return [range(start, min(start + per_page, count)) for start in range(0, count, per_page)]


def line_widths(side: float, n: int) -> tuple[float, float]:
    """(thin, thick) line widths for an n x n grid ``side`` points wide: thick lines grow with the grid, and thin
    lines stay visible but lighter than the digits' strokes."""
    thick = min(MAX_THICK, max(1.0, side / 120))
    thin = min(0.8, max(0.3, thick / 3, side / n / 60))
    return thin, thick


def digit_size(side: float, n: int) -> float:
    """The font size of a cell's digit: 62% of the cell for digits, a little less for the letters of 16x16 and
    25x25 grids (some are wider than a figure)."""
    return side / n * (0.62 if n <= 9 else 0.56)


def grid_shapes(puzzle: str, grid: Box, solution: Optional[str] = None) -> tuple[Shape, ...]:
    """The shapes of one grid in ``grid``: lines, border, and the givens (plus, with ``solution``, the solved
    digits, in a lighter colour; the givens are then bold).

    ``puzzle`` and ``solution`` are in the line format (``.`` or ``0`` for a blank)."""
    cells = len(puzzle)
    n = math.isqrt(cells)
    b = math.isqrt(n)
    if n * n != cells or b * b != n:
        raise ValueError(f"not a grid: {cells} cells")
    if solution is not None and len(solution) != cells:
        raise ValueError(f"the solution has {len(solution)} cells, the puzzle {cells}")
    step = grid.w / n
    thin, thick = line_widths(grid.w, n)
    shapes: list[Shape] = []
    for k in range(1, n):  # thin lines first: the thick ones are drawn over their crossings
        if k % b:
            p = k * step
            shapes.append(Line(grid.x + p, grid.y, grid.x + p, grid.bottom, thin, THIN_COLOUR))
            shapes.append(Line(grid.x, grid.y + p, grid.right, grid.y + p, thin, THIN_COLOUR))
    for k in range(b, n, b):
        p = k * step
        shapes.append(Line(grid.x + p, grid.y, grid.x + p, grid.bottom, thick))
        shapes.append(Line(grid.x, grid.y + p, grid.right, grid.y + p, thick))
    shapes.append(Rect(grid, thick))
    size = digit_size(grid.w, n)
    for c, ch in enumerate(puzzle):
        given = ch not in ".0"
        symbol = ch if given else (solution[c] if solution is not None else ".")
        if symbol in ".0":
            continue
        if symbol not in SYMBOLS[1:n + 1]:
            raise ValueError(f"cell {c + 1}: {symbol!r} is not a digit of a {n}x{n} grid")
        x = grid.x + (c % n + 0.5) * step
        y = grid.y + (c // n + 0.5) * step + _HALF_CAP * size
        if solution is None:
            shapes.append(Text(x, y, symbol, size))
        elif given:
            shapes.append(Text(x, y, symbol, size, font=BOLD))
        else:
            shapes.append(Text(x, y, symbol, size, colour=SOLVED_COLOUR))
    return tuple(shapes)


def text_width(text: str, font: str, size: float) -> float:
    """The width of ``text`` in a base-14 font, from the font's own metrics (reportlab's tables)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return stringWidth(text, font, size)


def caption_shapes(text: str, band: Box, font_size: float = CAPTION_FONT) -> tuple[Shape, ...]:
    """The caption on the band's left, its baseline a third of the band above the grid; shrunk to fit the band's
    width if it is too long (it never runs past the grid's edge)."""
    width = text_width(text, BOLD, font_size)
    if width > band.w:
        font_size *= band.w / width
    return (Text(band.x, band.bottom - band.h * 0.3, text, font_size, font=BOLD, anchor="start"),)


def header_shapes(title: str, folio: str, page: tuple[float, float] = A4, margin: float = MARGIN,
                  header: float = HEADER) -> tuple[Shape, ...]:
    """The header band: the title at the left, ``folio`` (e.g. "page 2 of 5") at the right, a thin rule under."""
    base = margin + header * 0.45
    rule = margin + header * 0.7
    right = page[0] - margin
    return (Text(margin, base, title, 10.0, font=BOLD, anchor="start"),
            Text(right, base, folio, 9.0, colour=THIN_COLOUR, anchor="end"),
            Line(margin, rule, right, rule, 0.5, THIN_COLOUR))


def sheet(items: Sequence[Item], per_page: int, title: str = "", folio: str = "",
          page: tuple[float, float] = A4) -> Page:
    """One page: ``items`` (at most ``per_page``) in the slots of :func:`page_slots`, with the header if
    ``title`` or ``folio`` is given. Solution pages use smaller captions."""
    slots = page_slots(per_page, page)
    if len(items) > len(slots):
        raise ValueError(f"{len(items)} items on a page of {len(slots)}")
    font = CAPTION_FONT if per_page in PER_PAGE else CAPTION_FONT * 0.85
    groups = []
    if title or folio:
        groups.append(Group("header", header_shapes(title, folio, page)))
    for item, slot in zip(items, slots):
        groups.append(Group("caption", caption_shapes(item.caption, slot.caption, font)))
        groups.append(Group("grid", grid_shapes(item.puzzle, slot.grid, item.solution)))
    return Page(page[0], page[1], tuple(groups))


def single(item: Item, side: float = 360.0, pad: float = 12.0) -> Page:
    """A page just big enough for one captioned grid ``side`` points wide (the web server's picture)."""
    band = CAPTION_FONT * 1.9
    grid = Box(pad, pad + band, side, side)
    return Page(side + 2 * pad, side + band + 2 * pad,
                (Group("caption", caption_shapes(item.caption, Box(pad, pad, side, band))),
                 Group("grid", grid_shapes(item.puzzle, grid, item.solution))))


def shape_box(shape: Shape) -> Box:
    """The box a shape's ink may reach (a text's from its width and the font's ascent and descent)."""
    if isinstance(shape, Line):  # butt caps (the writers' and SVG's default): the ink ends where the line does
        half = shape.width / 2
        x, y = min(shape.x1, shape.x2), min(shape.y1, shape.y2)
        w, h = abs(shape.x2 - shape.x1), abs(shape.y2 - shape.y1)
        if h == 0:
            return Box(x, y - half, w, shape.width)
        if w == 0:
            return Box(x - half, y, shape.width, h)
        return Box(x - half, y - half, w + shape.width, h + shape.width)
    if isinstance(shape, Rect):
        return shape.box.grown(shape.width / 2)
    width = text_width(shape.text, shape.font, shape.size)
    left = {"start": shape.x, "middle": shape.x - width / 2, "end": shape.x - width}[shape.anchor]
    return Box(left, shape.y - 0.718 * shape.size, width, 0.925 * shape.size)  # cap height + descender 207
