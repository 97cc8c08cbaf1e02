"""PDF writer: :class:`~.layout.Page`\\ s to a PDF file's bytes with reportlab's canvas, every shape a vector.

Lines are stroked paths and digits are text in Helvetica (a base-14 font: nothing is embedded, every reader has
it, and the text can be searched and copied); no picture is ever placed. The output is reproducible: reportlab's
``invariant`` mode leaves out the creation date and the random document id, so the same puzzles give the same
bytes. Why reportlab: docs/commands/book.md.
"""
from __future__ import annotations

import io
from typing import Iterable

from .layout import Line, Page, Rect, Text


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
    canvas.setPageSize((page.width, page.height))
    h = page.height
    canvas.setLineCap(0)
    canvas.setLineJoin(0)  # mitred corners on the border rectangles
    stroke = font = fill = None
    for group in page.groups:
        # lines of one width and colour go out as one path (fewer operators: smaller and faster)
        batch: list[tuple[float, float, float, float]] = []
        for shape in group.shapes:
            if isinstance(shape, Line):
                key = (shape.width, shape.colour)
                if key != stroke:
                    if batch:
                        canvas.lines(batch)
                        batch = []
                    canvas.setLineWidth(shape.width)
                    canvas.setStrokeColorRGB(*_rgb(shape.colour))
                    stroke = key
                batch.append((shape.x1, h - shape.y1, shape.x2, h - shape.y2))
                continue
            if batch:
                canvas.lines(batch)
                batch = []
            if isinstance(shape, Rect):
                if (shape.width, shape.colour) != stroke:
                    canvas.setLineWidth(shape.width)
                    canvas.setStrokeColorRGB(*_rgb(shape.colour))
                    stroke = (shape.width, shape.colour)
                b = shape.box
                canvas.rect(b.x, h - b.bottom, b.w, b.h, stroke=1, fill=0)
            elif isinstance(shape, Text):
                if (shape.font, shape.size) != font:
                    canvas.setFont(shape.font, shape.size)
                    font = (shape.font, shape.size)
                if shape.colour != fill:
                    canvas.setFillColorRGB(*_rgb(shape.colour))
                    fill = shape.colour
                y = h - shape.y
                if shape.anchor == "middle":
                    canvas.drawCentredString(shape.x, y, shape.text)
                elif shape.anchor == "end":
                    canvas.drawRightString(shape.x, y, shape.text)
                else:
                    canvas.drawString(shape.x, y, shape.text)
        if batch:
            canvas.lines(batch)
    # showPage resets the graphics state: the next page sets everything again
