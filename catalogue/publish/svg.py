"""SVG writer: one :class:`~.layout.Page` to a standalone SVG document (bytes, UTF-8).

Sizes are the page's points, with a viewBox: an A4 sheet says ``width="210mm"`` and prints at its real size.
Each grid is a ``<g class="grid">``, each caption a ``<g class="caption">``; lines are ``<line>``, borders
``<rect>``, shaded cells ``<rect class="shade">``, digits ``<text>`` (Helvetica, or the reader's Arial /
sans-serif), all vectors.
"""
from __future__ import annotations

from html import escape

from .layout import Fill, Line, Page, Rect, Text

_MM = 72 / 25.4  # points per millimetre


def _n(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def write_svg(page: Page, title: str = "") -> bytes:
    width, height = _n(page.width), _n(page.height)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 {width} {height}" '
           f'width="{_n(page.width / _MM)}mm" height="{_n(page.height / _MM)}mm">']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>')
    for group in page.groups:
        out.append(f'<g class="{escape(group.kind)}" font-family="Helvetica, Arial, sans-serif">')
        for shape in group.shapes:
            if isinstance(shape, Line):
                out.append(f'<line x1="{_n(shape.x1)}" y1="{_n(shape.y1)}" x2="{_n(shape.x2)}" y2="{_n(shape.y2)}" '
                           f'stroke="{shape.colour}" stroke-width="{_n(shape.width)}"/>')
            elif isinstance(shape, Rect):
                b = shape.box
                out.append(f'<rect x="{_n(b.x)}" y="{_n(b.y)}" width="{_n(b.w)}" height="{_n(b.h)}" fill="none" '
                           f'stroke="{shape.colour}" stroke-width="{_n(shape.width)}" stroke-linejoin="miter"/>')
            elif isinstance(shape, Fill):
                b = shape.box
                out.append(f'<rect class="shade" x="{_n(b.x)}" y="{_n(b.y)}" width="{_n(b.w)}" height="{_n(b.h)}" '
                           f'fill="{shape.colour}"/>')
            elif isinstance(shape, Text):
                weight = ' font-weight="bold"' if shape.font.endswith("Bold") else ""
                out.append(f'<text x="{_n(shape.x)}" y="{_n(shape.y)}" font-size="{_n(shape.size)}" '
                           f'text-anchor="{shape.anchor}" fill="{shape.colour}"{weight}>{escape(shape.text)}</text>')
        out.append("</g>")
    out.append("</svg>")
    return ("\n".join(out) + "\n").encode("utf-8")
