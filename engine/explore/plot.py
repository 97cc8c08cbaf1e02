"""A small line-chart writer that produces SVG text with no dependency beyond the standard library.

Enough for the explore experiment: one or more panels stacked vertically, sharing an x axis, each with its own
y axis (linear or log10), series drawn as polylines with a dot per point, and a legend per panel. The output is
plain SVG 1.1 that browsers and ``xml.etree`` read; all text is escaped.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Sequence
from xml.sax.saxutils import escape, quoteattr

#: colours picked to stay apart for readers with the common colour-vision deficiencies (Okabe-Ito palette)
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
#: stroke-dasharray values, one per solver when several share a panel
DASHES = ("", "6,3", "2,3", "8,3,2,3")

_LEFT, _RIGHT, _TOP, _BOTTOM = 72, 170, 34, 46  # margins around each panel's plot area, in px


@dataclass
class Series:
    name: str
    xs: Sequence[float]
    ys: Sequence[float | None]  # None leaves a gap (e.g. a median of no values)
    color: str = PALETTE[0]
    dash: str = ""


@dataclass
class Panel:
    title: str
    y_label: str
    series: list[Series] = field(default_factory=list)
    log_y: bool = False
    y_range: tuple[float, float] | None = None  # fixed (low, high); default: fitted to the data


def _nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values (1, 2, 2.5 or 5 times a power of ten) covering low..high."""
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    ticks, t = [], first
    while t <= high + step * 1e-9:
        ticks.append(round(t, 10))
        t += step
    return ticks


def _label(value: float) -> str:
    if value != 0 and (abs(value) >= 1e5 or abs(value) < 1e-3):
        return f"{value:.0e}".replace("e+0", "e").replace("e+", "e")
    return f"{value:g}"


def _y_scale(panel: Panel) -> tuple[float, float, list[float], Callable[[float], float]]:
    """(low, high, ticks, transform) of a panel's y axis; transform maps a value to the axis' linear space."""
    values = [y for s in panel.series for y in s.ys if y is not None and (not panel.log_y or y > 0)]
    if panel.log_y:
        lo = math.floor(math.log10(min(values))) if values else 0
        hi = math.ceil(math.log10(max(values))) if values else 1
        hi = max(hi, lo + 1)
        return lo, hi, [float(p) for p in range(lo, hi + 1)], lambda v: math.log10(v)
    if panel.y_range is not None:
        lo, hi = panel.y_range
    else:
        lo, hi = (min(values + [0.0]), max(values + [1.0])) if values else (0.0, 1.0)
    ticks = _nice_ticks(lo, hi)
    return min(lo, ticks[0]), max(hi, ticks[-1]), ticks, lambda v: v


def line_chart(panels: Sequence[Panel], x_label: str, x_ticks: Sequence[float], title: str = "",
               width: int = 720, panel_height: int = 280) -> str:
    """The SVG text of ``panels`` stacked top to bottom over a shared x axis with ``x_ticks`` marked."""
    if not panels:
        raise ValueError("a chart needs at least one panel")
    plot_w = width - _LEFT - _RIGHT
    plot_h = panel_height - _TOP - _BOTTOM
    head = 28 if title else 0
    height = head + panel_height * len(panels)
    x_lo, x_hi = (min(x_ticks), max(x_ticks)) if x_ticks else (0.0, 1.0)
    if x_hi == x_lo:
        x_lo, x_hi = x_lo - 1, x_hi + 1

    def px(x: float) -> float:
        return _LEFT + (x - x_lo) / (x_hi - x_lo) * plot_w

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>']
    if title:
        out.append(f'<text x="{width / 2:.1f}" y="20" text-anchor="middle" font-size="15">{escape(title)}</text>')
    for i, panel in enumerate(panels):
        top = head + i * panel_height + _TOP
        lo, hi, ticks, tf = _y_scale(panel)

        def py(v: float, top=top, lo=lo, hi=hi, tf=tf) -> float:
            return top + plot_h - (tf(v) - lo) / (hi - lo) * plot_h

        out.append(f'<text x="{_LEFT}" y="{top - 10}" font-size="13">{escape(panel.title)}</text>')
        out.append(f'<rect x="{_LEFT}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#888"/>')
        for t in ticks:  # y grid lines and labels (log ticks are exponents)
            value = 10 ** t if panel.log_y else t
            y = py(value)
            out.append(f'<line x1="{_LEFT}" y1="{y:.1f}" x2="{_LEFT + plot_w}" y2="{y:.1f}" stroke="#ddd"/>')
            out.append(f'<text x="{_LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{escape(_label(value))}</text>')
        for x in x_ticks:
            out.append(f'<line x1="{px(x):.1f}" y1="{top + plot_h}" x2="{px(x):.1f}" y2="{top + plot_h + 5}" '
                       f'stroke="#888"/>')
            out.append(f'<text x="{px(x):.1f}" y="{top + plot_h + 18}" text-anchor="middle">{escape(_label(x))}</text>')
        out.append(f'<text x="{_LEFT + plot_w / 2:.1f}" y="{top + plot_h + 36}" text-anchor="middle">'
                   f'{escape(x_label)}</text>')
        mid = top + plot_h / 2
        out.append(f'<text x="16" y="{mid:.1f}" text-anchor="middle" transform="rotate(-90 16 {mid:.1f})">'
                   f'{escape(panel.y_label)}</text>')
        for k, s in enumerate(panel.series):
            dash = f' stroke-dasharray="{s.dash}"' if s.dash else ""
            points = [(px(x), py(y)) for x, y in zip(s.xs, s.ys)
                      if y is not None and (not panel.log_y or y > 0)]
            if len(points) > 1:
                coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
                out.append(f'<polyline points="{coords}" fill="none" stroke={quoteattr(s.color)} '
                           f'stroke-width="2"{dash}/>')
            for x, y in points:
                out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill={quoteattr(s.color)}/>')
            ly = top + 8 + 18 * k  # legend entry to the right of the plot area
            lx = _LEFT + plot_w + 12
            out.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + 24}" y2="{ly}" stroke={quoteattr(s.color)} '
                       f'stroke-width="2"{dash}/>')
            out.append(f'<text x="{lx + 30}" y="{ly + 4}">{escape(s.name)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
