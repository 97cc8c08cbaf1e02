"""PDF writer: :class:`~.layout.Page`\\ s to a PDF file's bytes with reportlab's canvas, every shape a vector.

Lines are stroked paths and digits are text in Helvetica (a base-14 font: nothing is embedded, every reader has
it, and the text can be searched and copied); no picture is ever placed. The output is reproducible: reportlab's
``invariant`` mode leaves out the creation date and the random document id, so the same puzzles give the same
bytes. Why reportlab: docs/commands/book.md.
"""
from __future__ import annotations

import io
from typing import Iterable

from .layout import Fill, Line, Page, Rect, Text


def _rgb(colour: str, cache: dict = {}) -> tuple[float, float, float]:  # noqa: B006 (a memo of a few colours)
    if colour not in cache:
        cache[colour] = tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return cache[colour]


def write_pdf(pages: Iterable[Page], title: str = "", author: str = "catalogue") -> bytes:
    """The PDF of ``pages`` (one PDF page each, of the page's own size)."""
    from reportlab.pdfgen.canvas import Canvas

    out = io.BytesIO()
    canvas = Canvas(out, invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.setAuthor(author)
    canvas.setCreator("catalogue book")
    count = 0
    for page in pages:
        count += 1
        _draw(canvas, page)
        canvas.showPage()
    if not count:
        raise ValueError("a PDF needs at least one page")
    canvas.save()
    return out.getvalue()


def _draw(canvas, page: Page) -> None:
    """One page: per group, its shaded cells as one filled path per colour (under the lines), its lines as one
    path per width and colour, its rectangles, and its texts in one
    text object (one BT ... ET for a grid's 81 digits, not 81: text is most of a book's cost, docs/benchmarks.md,
    Books)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    canvas.setPageSize((page.width, page.height))
    h = page.height
    canvas.setLineCap(0)
    canvas.setLineJoin(0)  # mitred corners on the border rectangles
    widths: dict[tuple[str, str, float], float] = {}
    for group in page.groups:
        fills: dict[str, list] = {}
        lines: dict[tuple[float, str], list[tuple[float, float, float, float]]] = {}
        rects = []
        texts = []
        for shape in group.shapes:
            if isinstance(shape, Line):
                lines.setdefault((shape.width, shape.colour), []).append(
                    (shape.x1, h - shape.y1, shape.x2, h - shape.y2))
            elif isinstance(shape, Rect):
                rects.append(shape)
            elif isinstance(shape, Fill):
                fills.setdefault(shape.colour, []).append(shape.box)
            elif isinstance(shape, Text):
                texts.append(shape)
        for colour, boxes in fills.items():
            path = canvas.beginPath()
            for b in boxes:
                path.rect(b.x, h - b.bottom, b.w, b.h)
            canvas.setFillColorRGB(*_rgb(colour))
            canvas.drawPath(path, stroke=0, fill=1)
        # then lines, in the group's order of widths (thin before thick: thick ones cover the crossings)
        for (width, colour), batch in lines.items():
            canvas.setLineWidth(width)
            canvas.setStrokeColorRGB(*_rgb(colour))
            canvas.lines(batch)
        for rect in rects:
            canvas.setLineWidth(rect.width)
            canvas.setStrokeColorRGB(*_rgb(rect.colour))
            b = rect.box
            canvas.rect(b.x, h - b.bottom, b.w, b.h, stroke=1, fill=0)
        if not texts:
            continue
        text = canvas.beginText()
        font = colour = None
        for shape in texts:
            if (shape.font, shape.size) != font:
                font = (shape.font, shape.size)
                text.setFont(*font)
            if shape.colour != colour:
                colour = shape.colour
                text.setFillColorRGB(*_rgb(colour))
            x = shape.x
            if shape.anchor != "start":
                key = (shape.text, shape.font, shape.size)
                if key not in widths:
                    widths[key] = stringWidth(*key)
                x -= widths[key] / (2 if shape.anchor == "middle" else 1)
            text.setTextOrigin(x, h - shape.y)
            text.textOut(shape.text)
        canvas.drawText(text)
