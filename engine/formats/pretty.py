"""Box-drawing pictures of grids (the style of seed 004), written exactly in that style and read back.

    ╔═══╤═══╦═══╤═══╗        double lines (═ ║) frame the grid and part the boxes,
    ║ 1 │   ║   │ 4 ║        single lines (─ │) part the cells inside a box;
    ╟───┼───╫───┼───╢        a blank cell is spaces; digits above 9 are A-P.
    ...
    ╚═══╧═══╩═══╧═══╝

The reader is lenient about how a picture was drawn: any of ║ │ ┃ | part cells (so ASCII pictures with ``|`` and
``+---+`` rules read too, given ``--input-format pretty``), cells may be wider than three characters, ``.`` and
``0`` also mean blank, and a number like ``12`` is accepted in a wide cell. A line with a top corner (╔ ┌ ┏)
starts a grid; a bottom corner (╚ └ ┗) or a line of plain text ends it.
"""
from __future__ import annotations

import re
import unicodedata
from itertools import islice
from typing import Iterator

import numpy as np

from ..shape import Shape
from .base import SYMBOLS, as_cells, decode_symbols, numbered_lines
from .blocks import Row, Run, grids_of_run, is_separator, number_value
from .limits import MAX_ROW_CELLS
from .shapes import regions, with_directive
from .text import Entry

BOX_DRAWING = re.compile("[\u2500-\u257f]")
_VERTICAL = "║│┃|"
_BAR = re.compile(f"[{_VERTICAL}]")
_TOP, _BOTTOM = "╔┌┏", "╚└┗"


def to_pretty(grid_or_cells, box=None) -> str:
    """The grid drawn with box-drawing characters, exactly as in seed 004 for square boxes; any other shape is
    drawn with heavy lines (━ ┃) along its regions' borders and light ones (─ │) between the other cells, after
    its ``# shape`` line (:func:`_shape_picture`). No final newline."""
    cells, b = as_cells(grid_or_cells, box)
    if isinstance(b, Shape):
        return with_directive(b, _shape_picture(cells, b))
    n = b * b

    def rule(left: str, fill: str, thin: str, thick: str, right: str) -> str:
        joins = [thick if (c + 1) % b == 0 else thin for c in range(n - 1)] + [right]
        return left + "".join(fill * 3 + j for j in joins)

    def row(r: int) -> str:
        parts = ["║"]
        for c in range(n):
            v = int(cells[r * n + c])
            parts.append(f" {SYMBOLS[v] if v else ' '} " + ("║" if (c + 1) % b == 0 else "│"))
        return "".join(parts)

    out = [rule("╔", "═", "╤", "╦", "╗")]
    for r in range(n):
        if r:
            out.append(rule("╠", "═", "╪", "╬", "╣") if r % b == 0 else rule("╟", "─", "┼", "╫", "╢"))
        out.append(row(r))
    out.append(rule("╚", "═", "╧", "╩", "╝"))
    return "\n".join(out)


def _junctions() -> dict[tuple[int, int, int, int], str]:
    """Every light and heavy box-drawing character by its arms ``(up, right, down, left)``, each 0 (none), 1
    (light) or 2 (heavy), read from the characters' Unicode names (``BOX DRAWINGS UP HEAVY AND RIGHT DOWN
    LIGHT``: a weight names the directions before it, or all of them when it comes first)."""
    arms = {"UP": (0,), "RIGHT": (1,), "DOWN": (2,), "LEFT": (3,), "VERTICAL": (0, 2), "HORIZONTAL": (1, 3)}
    weights = {"LIGHT": 1, "HEAVY": 2}
    table = {}
    for code in range(0x2500, 0x2580):
        words = unicodedata.name(chr(code)).split()[2:]
        if not set(words) <= set(arms) | set(weights) | {"AND"}:
            continue  # dashes, double lines, arcs, diagonals
        got, pending, default = [0, 0, 0, 0], [], 0
        for word in words:
            if word in weights:
                if pending:
                    for a in pending:
                        got[a] = weights[word]
                    pending = []
                else:
                    default = weights[word]
            elif word in arms:
                pending += arms[word]
        for a in pending:
            got[a] = default
        table.setdefault(tuple(got), chr(code))
    return table


_JUNCTION = _junctions()


def _shape_picture(cells: np.ndarray, shape: Shape) -> str:
    """A grid of any shape: each border between two cells heavy where they lie in different regions (every
    border of a Latin square is light), the frame heavy; each crossing the character of its four arms."""
    n = shape.size
    region = regions(shape).reshape(n, n)

    def vertical(r: int, c: int) -> int:  # the border left of cell (r, c); c = n: the frame's right side
        if not 0 <= r < n:
            return 0
        return 2 if c in (0, n) or region[r, c - 1] != region[r, c] else 1

    def horizontal(r: int, c: int) -> int:  # the border above cell (r, c)
        if not 0 <= c < n:
            return 0
        return 2 if r in (0, n) or region[r - 1, c] != region[r, c] else 1

    out = []
    for r in range(n + 1):
        rule = []
        for c in range(n + 1):
            rule.append(_JUNCTION[(vertical(r - 1, c), horizontal(r, c), vertical(r, c), horizontal(r, c - 1))])
            if c < n:
                rule.append(("━" if horizontal(r, c) == 2 else "─") * 3)
        out.append("".join(rule))
        if r < n:
            row = []
            for c in range(n + 1):
                row.append("┃" if vertical(r, c) == 2 else "│")
                if c < n:
                    v = int(cells[r * n + c])
                    row.append(f" {SYMBOLS[v] if v else ' '} ")
            out.append("".join(row))
    return "\n".join(out)


def _kind(line: str) -> str:
    """'text' (no box-drawing: ends a grid), 'top', 'bottom', 'rule' or 'row'."""
    drawing = {ch for ch in set(line) if BOX_DRAWING.match(ch)}  # set(line) first: one test per kind of character
    if not drawing:  # ASCII pictures: "+---+---+" rules and "| 5 |   |" rows
        return "rule" if line.strip() and is_separator(line) else "row" if "|" in line else "text"
    if drawing & set(_TOP):
        return "top"
    if drawing & set(_BOTTOM):
        return "bottom"
    return "rule" if drawing - set(_VERTICAL) else "row"


def picture_row(line: str, number: int) -> Row:
    """The cells between the first and the last vertical bar of a picture row."""
    bars = [m.start() for m in islice(_BAR.finditer(line), MAX_ROW_CELLS + 2)]  # a long line's cells are counted, not kept
    count = max(len(bars) if len(bars) <= MAX_ROW_CELLS + 1 else sum(map(line.count, _VERTICAL)), 1) - 1
    values, texts, columns = [], [], []
    for left, right in zip(bars, bars[1:]):
        segment = line[left + 1:right]
        text = segment.strip()
        column = left + 2 + (len(segment) - len(segment.lstrip()) if text else len(segment) // 2)
        if not text:
            value = 0
        elif len(text) == 1:
            value = int(decode_symbols(text)[0])
        else:
            value = number_value(text)  # a number in a wide cell, e.g. "12"
        values.append(value)
        texts.append(text or " ")
        columns.append(column)
    end = (bars[-1] + 2) if bars else len(line) + 1  # just after the last bar, where a missing cell would go
    return Row(number, np.array(values, dtype=np.int16), texts, columns, end, count)


def _is_row(line: str) -> bool:
    return _kind(line) == "row"


def _cells(line: str) -> int:
    return picture_row(line, 0).count


def read_pretty(text: str, source: str, box: int | None = None) -> Iterator[Entry]:
    run: Run | None = None  # the rows of the grid being read (kept as where they start: text.Run)
    top = 0  # line of the top border of the grid being read, which is where the grid starts

    def flush() -> Iterator[Entry]:
        if run is None:
            return
        for i, entry in enumerate(grids_of_run(run, source, box)):
            yield (top, *entry[1:]) if i == 0 and top and not isinstance(entry, Exception) else entry

    for number, start, line in numbered_lines(text):
        kind = _kind(line)
        if kind == "row":
            if run is None:
                run = Run(text, start, number, picture_row, _is_row, _cells)
            run.add(line, number)
        elif kind != "rule":  # text, a top or a bottom border: the grid so far is complete
            yield from flush()
            run = None
            top = number if kind == "top" else 0
    yield from flush()
