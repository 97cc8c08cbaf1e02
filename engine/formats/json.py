"""JSON: ``{"size": 9, "box": 3, "grid": [[0, 0, 6, ...], ...]}`` (0 or null = blank).

Read: that object, an array of them, a bare list of lists, an array of such lists, or a stream of any of these one
after another (JSON Lines, or what ``write`` gives when callers join grids with newlines). ``"grid"`` may also hold
rows as strings of symbols or one line-format string. Errors name the line and column of the offending value:
values are decoded one by one with ``raw_decode`` so each keeps its position in the text.
"""
from __future__ import annotations

import json
import re
from typing import Any, Iterator

import numpy as np

from .base import SIZES, FormatError, as_cells, check_symbols, decode_symbols
from .limits import MAX_JSON_DEPTH, MAX_NUMBER_DIGITS, echo, too_long_number
from .text import Entry, cells_from_field
from ..geometry import BOX_SIZES, box_for_size

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"\s*")
_RESYNC = re.compile(r"^[\[{]", re.MULTILINE)  # a value starting at column 1: where to go on after bad JSON
# what the guard looks at before json parses a value: strings (skipped whole; an unterminated one ends at its line,
# as JSON strings hold no raw newline), brackets, and runs of digits longer than a number may be
_GUARD = re.compile(r'"(?:[^"\\\n]|\\.)*"?|[\[\]{}]|[0-9]{%d,}' % (MAX_NUMBER_DIGITS + 1))
_NUMBER = re.compile(r"-?[0-9]*")


def to_json(grid_or_cells, box: int | None = None) -> str:
    """``{"size": n, "box": b, "grid": [[...], ...]}`` with one row per line. No final newline."""
    cells, b = as_cells(grid_or_cells, box)
    n = b * b
    rows = ",\n".join("  " + json.dumps([int(v) for v in cells[r * n:(r + 1) * n]]) for r in range(n))
    return f'{{"size": {n}, "box": {b}, "grid": [\n{rows}\n]}}'


class _Text:
    """The text with a line index, so any offset turns into (line, column)."""

    def __init__(self, text: str, source: str):
        self.text, self.source = text, source
        # a cursor instead of a table of every line start (8 bytes and more per line of the file): positions are
        # asked for in file order, so counting the newlines since the last one asked for is linear overall
        self._pos, self._line, self._start = 0, 1, 0  # an offset, its line, and where that line starts

    def where(self, pos: int) -> tuple[int, int]:
        if pos < self._pos:
            self._pos, self._line, self._start = 0, 1, 0
        newlines = self.text.count("\n", self._pos, pos)
        if newlines:
            self._line += newlines
            self._start = self.text.rfind("\n", self._pos, pos) + 1
        self._pos = pos
        return self._line, pos - self._start + 1

    def error(self, pos: int, message: str) -> FormatError:
        return FormatError(self.source, *self.where(pos), message)

    def skip(self, pos: int) -> int:
        return _SPACE.match(self.text, pos).end()

    def items(self, pos: int) -> list[tuple[int, Any]]:
        """(offset, value) of each element of the (already valid) array starting at ``pos``."""
        out, pos = [], self.skip(pos + 1)
        while self.text[pos] != "]":
            value, end = _DECODER.raw_decode(self.text, pos)
            out.append((pos, value))
            pos = self.skip(end)
            if self.text[pos] == ",":
                pos = self.skip(pos + 1)
        return out

    def members(self, pos: int) -> dict[str, tuple[int, Any]]:
        """key -> (offset, value) of the (already valid) object starting at ``pos``."""
        out, pos = {}, self.skip(pos + 1)
        while self.text[pos] != "}":
            key, end = _DECODER.raw_decode(self.text, pos)
            pos = self.skip(self.skip(end) + 1)  # past the ':'
            value, end = _DECODER.raw_decode(self.text, pos)
            out[key] = (pos, value)
            pos = self.skip(end)
            if self.text[pos] == ",":
                pos = self.skip(pos + 1)
        return out


def read_json(text: str, source: str, box: int | None = None) -> Iterator[Entry]:
    doc = _Text(text, source)
    pos = doc.skip(0)
    while pos < len(text):
        problem = _guard(text, pos)
        if problem is not None:
            bad, message, go_on = problem
            yield doc.error(bad, message)
            m = _RESYNC.search(text, bad + 1) if go_on else None
            if not m:
                return
            pos = m.start()
            continue
        try:
            value, end = _DECODER.raw_decode(text, pos)
        except json.JSONDecodeError as e:
            yield FormatError(source, e.lineno, e.colno, f"invalid JSON: {e.msg}")
            m = _RESYNC.search(text, max(e.pos, pos + 1))  # the bad spot may itself start the next value
            if not m:
                return
            pos = m.start()
            continue
        if _is_matrix(value) or not isinstance(value, list):
            yield _entry(doc, pos, value, box)
        else:
            for item_pos, item in doc.items(pos):
                yield _entry(doc, item_pos, item, box)
        pos = doc.skip(end)


def _guard(text: str, pos: int) -> tuple[int, str, bool] | None:
    """What in the value starting at ``pos`` json must not be given, checked before it is: nesting deeper than
    :data:`MAX_JSON_DEPTH` (json recurses once per level) or a number of more than :data:`MAX_NUMBER_DIGITS`
    digits (int() refuses 4,300 and more). ``(offset, message, go on after it)`` or None.

    Nesting too deep ends the reading: where the value ends cannot be told without reading it all, so going on
    would report the same mistake once per line."""
    if text[pos] not in "[{":
        m = _NUMBER.match(text, pos)
        digits = m.end() - pos - text.startswith("-", pos)
        return (pos, too_long_number(digits), True) if digits > MAX_NUMBER_DIGITS else None
    depth = 0
    for m in _GUARD.finditer(text, pos):
        token = m.group()
        if token in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return (m.start(), f"arrays and objects nested more than {MAX_JSON_DEPTH} deep (a grid needs 2 or "
                                   f"3); reading stops here", False)
        elif token in "]}":
            depth -= 1
            if depth <= 0:
                return None
        elif token[0] != '"':
            return m.start(), too_long_number(len(token)), True
    return None


def _is_matrix(value: Any) -> bool:
    """A list of rows (lists of numbers, or strings of n symbols), as opposed to a list of grids."""
    if not isinstance(value, list) or not value:
        return False
    if all(isinstance(r, str) for r in value):  # rows of a grid, or puzzles in the line format
        return len(value[0]) == len(value)
    return all(isinstance(r, list) and not any(isinstance(x, (list, dict)) for x in r) for r in value)


def _entry(doc: _Text, pos: int, value: Any, box: int | None) -> Entry:
    try:
        if isinstance(value, dict):
            cells, b = _object(doc, pos, box)
        elif isinstance(value, list):
            cells, b = _matrix(doc, pos, value, box)
        elif isinstance(value, str):  # a puzzle in the line format
            line, column = doc.where(pos + 1)
            cells = cells_from_field(value, doc.source, line, column, box)
            b = box_for_size(round(cells.size ** 0.5))
        else:
            raise doc.error(pos, 'expected a grid: {"size": 9, "box": 3, "grid": [[...], ...]} or a list of lists')
    except FormatError as e:
        return e
    return doc.where(pos)[0], cells, b


def _object(doc: _Text, pos: int, box: int | None) -> tuple[np.ndarray, int]:
    members = doc.members(pos)
    if "grid" not in members:
        raise doc.error(pos, 'the object has no "grid" (expected {"size": 9, "box": 3, "grid": [[...], ...]})')
    for key, allowed in (("box", BOX_SIZES), ("size", SIZES)):
        if key in members:
            kpos, k = members[key]
            if type(k) is not int or k not in allowed:
                raise doc.error(kpos, f'"{key}" must be one of {", ".join(map(str, allowed))}, got {_shown(k)}')
    declared = [members["box"][1] if "box" in members else None,
                box_for_size(members["size"][1]) if "size" in members else None, box]
    known = {b for b in declared if b is not None}
    if len(known) > 1:
        said = [f"{k} {members[k][1]}" for k in ("size", "box") if k in members]
        raise doc.error(pos, "the grid's size does not agree: " + ", ".join(said + ([f"box {box} asked for"] if box
                                                                                       else [])))
    b = known.pop() if known else None
    gpos, grid = members["grid"]
    if isinstance(grid, str):  # one line of symbols
        line, column = doc.where(gpos + 1)
        cells = cells_from_field(grid, doc.source, line, column, b)
        return cells, b or box_for_size(round(cells.size ** 0.5))
    return _matrix(doc, gpos, grid, b)


def _matrix(doc: _Text, pos: int, rows: Any, box: int | None) -> tuple[np.ndarray, int]:
    if not isinstance(rows, list):
        raise doc.error(pos, f"expected a list of rows, got {json.dumps(rows)[:20]}")
    n = box * box if box else len(rows)
    if n not in SIZES or len(rows) != n:
        raise doc.error(pos, f"a grid has {n if box else '4, 9, 16 or 25'} rows, got {len(rows)}")
    cells = np.zeros(n * n, dtype=np.int8)
    for r, (rpos, row) in enumerate(doc.items(pos)):
        if isinstance(row, str):
            line, column = doc.where(rpos + 1)
            values = decode_symbols(row)
            check_symbols(values, row, n, doc.source, line, column)
            if len(row) != n:
                raise doc.error(rpos, f"row {r + 1} has {len(row)} symbols, expected {n}")
            cells[r * n:(r + 1) * n] = values
            continue
        if not isinstance(row, list):
            raise doc.error(rpos, f"row {r + 1} is not a list: {json.dumps(row)[:20]}")
        if len(row) != n:
            raise doc.error(rpos, f"row {r + 1} has {len(row)} values, expected {n}")
        for c, (vpos, v) in enumerate(doc.items(rpos)):
            if v is None:
                continue
            if type(v) is not int:
                raise doc.error(vpos, f"expected a number 0-{n} (0 or null = blank), got {json.dumps(v)[:20]}")
            if not 0 <= v <= n:
                raise doc.error(vpos, f"{v} is out of range for a {n}x{n} grid (0-{n}, 0 = blank)")
            cells[r * n + c] = v
    return cells, box_for_size(n)


def _shown(value: Any) -> str:
    """A JSON value as quoted in a message, cut short (a string may be a whole file's worth)."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:40] + "..."
