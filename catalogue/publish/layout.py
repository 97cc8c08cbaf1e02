"""Page geometry for printed puzzles: where each grid and its caption go on a page, and what to draw for a grid.

Pure functions over plain values (no file, no PDF or SVG object): they return :class:`Page`\\ s made of four
kinds of shape, :class:`Line`, :class:`Rect`, :class:`Fill` and :class:`Text`, in points (1/72 inch) with the
origin at the page's top left and y growing downwards, as in SVG. The writers (:mod:`.pdf`, :mod:`.svg`) only
translate shapes, so a PDF page and an SVG sheet of the same puzzles are the same drawing, and the geometry is
tested here (tests/catalogue/publish/test_publish_layout.py, test_publish_shapes.py) without parsing any file.

A grid is square and drawn in its own rules (an :class:`engine.shape.Shape`, which the caller reads from the
record's ``shape``, never guesses from the cell count: a 9x9 jigsaw has a 9x9 Sudoku's 81 cells): thin cell lines,
thick lines along the borders between regions (boxes of r x c, or a jigsaw's layout; none inside a Latin square),
the diagonals' cells shaded when the diagonals are units, and a thick border (drawn as one closed rectangle, so its
corners are mitred), each given centred in its cell. Digits above 9 are the line format's letters
(``engine.vocabulary.SYMBOLS``: 1-9 then A-P), so a 12x12, 16x16 or 25x25 grid prints one character per cell.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence

from engine.shape import Shape as Rules
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
#: the diagonals' cells: light enough for the digits on them to read as on white, dark enough that an office
#: laser printer (which drops greys above about 90% white) still prints it
DIAGONAL_SHADE = "#d9d9d9"
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
class Fill:
    """A filled rectangle without an outline (a shaded cell)."""

    box: Box
    colour: str


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


Shape = Line | Rect | Fill | Text


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
    """What a slot shows: the caption's text, the puzzle, the solution (None on a puzzle page), and the grid's
    rules (None: square boxes, for a bare grid of 16, 81, 256 or 625 cells)."""

    caption: str
    puzzle: str
    solution: Optional[str] = None
    shape: Optional[Rules] = None


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


def regions(rules: Rules) -> Optional[list[int]]:
    """Each cell's region in reading order (boxes numbered row by row), or None for a Latin square.

    Computed here from the shape's fields rather than taken from ``engine.geometry``, so that the tests can hold
    the drawing against the engine's own tables."""
    n = rules.size
    if rules.kind == "jigsaw":
        return list(rules.regions)
    if rules.kind == "latin":
        return None
    r, c = rules.box_rows, rules.box_cols
    return [(cell // n // r) * (n // c) + cell % n // c for cell in range(n * n)]


def region_borders(rules: Rules) -> list[tuple[int, int, int, int]]:
    """The borders between regions as straight runs of cell edges, in cells from the grid's top left:
    ``(x1, y1, x2, y2)`` with ``x1 == x2`` (a vertical run) or ``y1 == y2``, each as long as it goes (a box line
    of r x c boxes is one run from edge to edge). Vertical runs first, left to right, then horizontal ones."""
    region = regions(rules)
    if region is None:
        return []
    n = rules.size
    runs = []
    for vertical in (True, False):
        for k in range(1, n):  # the line between column (row) k - 1 and k
            start = None
            for j in range(n + 1):  # its edges, top to bottom (left to right); n closes the last run
                a, b = (j * n + k - 1, j * n + k) if vertical else ((k - 1) * n + j, k * n + j)
                border = j < n and region[a] != region[b]
                if border and start is None:
                    start = j
                elif not border and start is not None:
                    runs.append((k, start, k, j) if vertical else (start, k, j, k))
                    start = None
    return runs


def diagonal_cells(rules: Rules) -> list[int]:
    """The cells of the two diagonals in reading order (the centre of an odd grid once), none without them."""
    n = rules.size
    return sorted({r * n + c for r in range(n) for c in (r, n - 1 - r)}) if rules.diagonals else []


def _rules_of(cells: int, rules: Optional[Rules]) -> Rules:
    """The grid's rules: ``rules`` if given (its side must fit the cell count), else square boxes."""
    n = math.isqrt(cells)
    if rules is not None:
        if rules.ncells != cells:
            raise ValueError(f"not a grid of shape {rules.name}: {cells} cells, not {rules.ncells}")
        return rules
    b = math.isqrt(n)
    if n * n != cells or b * b != n or b < 2:
        raise ValueError(f"not a grid: {cells} cells")
    return Rules.square(b)


def grid_shapes(puzzle: str, grid: Box, solution: Optional[str] = None,
                shape: Optional[Rules] = None) -> tuple[Shape, ...]:
    """The shapes of one grid in ``grid``: the diagonals' shading, cell lines, region borders, frame, and the
    givens (plus, with ``solution``, the solved digits, in a lighter colour; the givens are then bold).

    ``puzzle`` and ``solution`` are in the line format (``.`` or ``0`` for a blank); ``shape`` is the grid's rules
    (None: square boxes, from the cell count)."""
    cells = len(puzzle)
    rules = _rules_of(cells, shape)
    n = rules.size
    if solution is not None and len(solution) != cells:
        raise ValueError(f"the solution has {len(solution)} cells, the puzzle {cells}")
    step = grid.w / n
    thin, thick = line_widths(grid.w, n)
    shapes: list[Shape] = []
    for cell in diagonal_cells(rules):  # under everything: the lines and digits are drawn over the shade
        shapes.append(Fill(Box(grid.x + cell % n * step, grid.y + cell // n * step, step, step), DIAGONAL_SHADE))
    borders = region_borders(rules)
    whole = {(x1, y1) for x1, y1, x2, y2 in borders if (y1, y2) == (0, n) or (x1, x2) == (0, n)}
    for k in range(1, n):  # thin lines first: the thick ones are drawn over their crossings
        p = k * step
        if (k, 0) not in whole:  # a thick line from edge to edge hides the thin one: not drawn at all
            shapes.append(Line(grid.x + p, grid.y, grid.x + p, grid.bottom, thin, THIN_COLOUR))
        if (0, k) not in whole:
            shapes.append(Line(grid.x, grid.y + p, grid.right, grid.y + p, thin, THIN_COLOUR))
    half = thick / 2
    for x1, y1, x2, y2 in borders:
        # a run that stops inside the grid meets a border across it there (a region's corner, or a third
        # region's border): reaching half a width on fills the corner that butt ends would leave notched
        if x1 == x2:
            top = grid.y + y1 * step - (half if y1 else 0)
            bottom = grid.y + y2 * step + (half if y2 < n else 0)
            shapes.append(Line(grid.x + x1 * step, top, grid.x + x1 * step, bottom, thick))
        else:
            left = grid.x + x1 * step - (half if x1 else 0)
            right = grid.x + x2 * step + (half if x2 < n else 0)
            shapes.append(Line(left, grid.y + y1 * step, right, grid.y + y1 * step, thick))
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
        groups.append(Group("grid", grid_shapes(item.puzzle, slot.grid, item.solution, item.shape)))
    return Page(page[0], page[1], tuple(groups))


def single(item: Item, side: float = 360.0, pad: float = 12.0) -> Page:
    """A page just big enough for one captioned grid ``side`` points wide (the web server's picture)."""
    band = CAPTION_FONT * 1.9
    grid = Box(pad, pad + band, side, side)
    return Page(side + 2 * pad, side + band + 2 * pad,
                (Group("caption", caption_shapes(item.caption, Box(pad, pad, side, band))),
                 Group("grid", grid_shapes(item.puzzle, grid, item.solution, item.shape))))


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
    if isinstance(shape, Fill):
        return shape.box
    width = text_width(shape.text, shape.font, shape.size)
    left = {"start": shape.x, "middle": shape.x - width / 2, "end": shape.x - width}[shape.anchor]
    return Box(left, shape.y - 0.718 * shape.size, width, 0.925 * shape.size)  # cap height + descender 207
