"""JSON: ``{"size": 9, "box": 3, "grid": [[0, 0, 6, ...], ...]}`` (0 or null = blank).

Read: that object, an array of them, a bare list of lists, an array of such lists, or a stream of any of these one
after another (JSON Lines, or what ``write`` gives when callers join grids with newlines). ``"grid"`` may also hold
rows as strings of symbols or one line-format string. Errors name the line and column of the offending value:
values are decoded one by one with ``raw_decode`` so each keeps its position in the text.

Memory: a list of grids is never decoded whole. Its elements are decoded one at a time, twice: once to check the
list is JSON (json's own message, at json's own place, when it is not) and to tell a list of grids from a grid's
list of rows, then once more to read each grid. A value that may hold a grid is decoded only when it is at most
:data:`~engine.formats.limits.MAX_JSON_GRID_CHARS` long (:func:`_guard` measures it first).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterator

import numpy as np

from ..geometry import BOX_SIZES, box_for_size, check_shape
from ..shape import Shape
from .base import SIZES, FormatError, as_cells, check_symbols, decode_symbols
from .limits import (
    MAX_JSON_DEPTH,
    MAX_JSON_GRID_CHARS,
    MAX_NUMBER_DIGITS,
    too_long_grid,
    too_long_number,
)
from .lines import cells_from_field
from .shapes import side
from .text import Entry

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"\s*")
_RESYNC = re.compile(r"^[\[{]", re.MULTILINE)  # a value starting at column 1: where to go on after bad JSON
# what the guard looks at before json parses a value: strings (skipped whole; an unterminated one ends at its line,
# as JSON strings hold no raw newline), brackets, and runs of digits longer than a number may be
_GUARD = re.compile(r'"(?:[^"\\\n]|\\.)*"?|[\[\]{}]|[0-9]{%d,}' % (MAX_NUMBER_DIGITS + 1))
_NUMBER = re.compile(r"-?[0-9]*")
_JSON_SPACE = re.compile(r"[ \t\n\r]*")  # what json skips between tokens (no other space)


def to_json(grid_or_cells, box=None) -> str:
    """``{"size": n, "box": b, "grid": [[...], ...]}`` with one row per line; a grid of any other shape than square
    boxes has ``"shape": "2x3"`` (its spec, engine.formats.shapes) instead of ``"box"``. No final newline."""
    cells, b = as_cells(grid_or_cells, box)
    n = side(b)
    rows = ",\n".join("  " + json.dumps([int(v) for v in cells[r * n:(r + 1) * n]]) for r in range(n))
    what = f'"shape": {json.dumps(b.spec)}' if isinstance(b, Shape) else f'"box": {b}'
    return f'{{"size": {n}, {what}, "grid": [\n{rows}\n]}}'


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
        guard = _guard(text, pos)
        if guard.problem is not None:
            bad, message, go_on = guard.problem
            yield doc.error(bad, message)
            m = _RESYNC.search(text, bad + 1) if go_on else None
            if not m:
                return
            pos = m.start()
            continue
        if pos in guard.long:  # one grid, too long to be decoded
            yield doc.error(pos, too_long_grid((guard.end or len(text)) - pos))
            if guard.end is None:
                return
            pos = doc.skip(guard.end)
            continue
        try:
            if text[pos] == "[":
                shape = _scan(text, pos, guard.long)
                value, end = None, shape.end
            else:
                shape = None
                value, end = _DECODER.raw_decode(text, pos)
        except json.JSONDecodeError as e:
            yield FormatError(source, *doc.where(e.pos), f"invalid JSON: {e.msg}")
            m = _RESYNC.search(text, max(e.pos, pos + 1))  # the bad spot may itself start the next value
            if not m:
                return
            pos = m.start()
            continue
        except _Unended as e:  # an element too long to be decoded runs to the end: what follows cannot be told
            yield doc.error(e.pos, too_long_grid(len(text) - e.pos))
            return
        if shape is None:
            yield _entry(doc, pos, value, box)
        elif shape.matrix:  # a grid's rows
            if shape.count > SIZES[-1]:
                yield _rows_error(doc, pos, shape.count, box)
            else:
                yield _entry(doc, pos, _DECODER.raw_decode(text, pos)[0], box)
        else:  # a list of grids
            for item_pos, item, _ in _elements(text, pos, guard.long):
                yield doc.error(item_pos, too_long_grid(guard.long[item_pos] - item_pos)) if item is _LONG \
                    else _entry(doc, item_pos, item, box)
        pos = doc.skip(end)


@dataclass
class _Guarded:
    """What :func:`_guard` found: a problem ``(offset, message, go on after it)``, or None; where the value ends
    (None: it does not); ``long``: offset -> end of each value that may hold a grid and is longer than
    :data:`MAX_JSON_GRID_CHARS` (end None: it does not end)."""

    problem: tuple[int, str, bool] | None = None
    end: int | None = None
    long: dict[int, int | None] = field(default_factory=dict)


def _guard(text: str, pos: int) -> _Guarded:
    """What in the value starting at ``pos`` json must not be given, checked before it is: nesting deeper than
    :data:`MAX_JSON_DEPTH` (json recurses once per level), a number of more than :data:`MAX_NUMBER_DIGITS`
    digits (int() refuses 4,300 and more), and values that may hold a grid but are longer than
    :data:`MAX_JSON_GRID_CHARS` (the value itself, or each element of a list).

    Nesting too deep ends the reading: where the value ends cannot be told without reading it all, so going on
    would report the same mistake once per line."""
    if text[pos] not in "[{":
        m = _NUMBER.match(text, pos)
        digits = m.end() - pos - text.startswith("-", pos)
        return _Guarded((pos, too_long_number(digits), True) if digits > MAX_NUMBER_DIGITS else None)
    grid_depth = 2 if text[pos] == "[" else 1  # where a grid may start: an element of a list, or the value
    depth, opened, long = 0, pos, {}
    for m in _GUARD.finditer(text, pos):
        token = m.group()
        if token in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return _Guarded((m.start(), f"arrays and objects nested more than {MAX_JSON_DEPTH} deep (a grid "
                                            f"needs 2 or 3); reading stops here", False))
            if depth == grid_depth:
                opened = m.start()
        elif token in "]}":
            if depth == grid_depth and m.end() - opened > MAX_JSON_GRID_CHARS:
                long[opened] = m.end()
            depth -= 1
            if depth <= 0:
                return _Guarded(None, m.end(), long)
        elif token[0] != '"':
            return _Guarded((m.start(), too_long_number(len(token)), True))
    if depth >= grid_depth and len(text) - opened > MAX_JSON_GRID_CHARS:
        long[opened] = None
    return _Guarded(None, None, long)


class _Unended(Exception):
    """An element too long to be decoded that runs to the end of the text."""

    def __init__(self, pos: int):
        self.pos = pos


_LONG = object()  # an element too long to be decoded, in place of its value


@dataclass
class _Shape:
    end: int  # just after the list
    count: int  # its elements
    matrix: bool  # a grid's rows (_is_matrix), not a list of grids


def _scan(text: str, pos: int, long: dict) -> _Shape:
    """The list at ``pos`` checked as json checks it, one element at a time, keeping none: where it ends, its
    length and whether it is a grid's rows (:func:`_is_matrix`, told as the elements go by). Raises json's own
    JSONDecodeError where json would (:func:`_json_error`)."""
    count, strings, flat, first_length = 0, True, True, 0
    last = None  # (start, end) of the last element read
    elements = _elements(text, pos, long)
    while True:
        try:
            item_pos, value, end = next(elements)
        except StopIteration as done:
            if done.value is not None:
                return _Shape(done.value, count, bool(count) and (first_length == count if strings else flat))
            raise _json_error(text, pos, last) from None
        except json.JSONDecodeError:
            raise _json_error(text, pos, last) from None
        if value is _LONG:
            strings = flat = False
        else:
            if count == 0 and isinstance(value, str):
                first_length = len(value)
            strings = strings and isinstance(value, str)
            flat = flat and isinstance(value, list) and not any(isinstance(x, (list, dict)) for x in value)
        count += 1
        last = item_pos, end


def _elements(text: str, pos: int, long: dict) -> Iterator[tuple[int, Any, int]]:
    """``(offset, value, end)`` of each element of the list at ``pos``, decoded one at a time (:data:`_LONG`
    for one too long to be); returns the offset just after the list, or None where the list goes wrong."""
    i = _JSON_SPACE.match(text, pos + 1).end()
    if text.startswith("]", i):
        return i + 1
    while True:
        if i in long:
            end = long[i]
            if end is None:
                raise _Unended(i)
            yield i, _LONG, end
        else:
            value, end = _DECODER.raw_decode(text, i)
            yield i, value, end
        j = _JSON_SPACE.match(text, end).end()
        if text.startswith("]", j):
            return j + 1
        if not text.startswith(",", j):
            return None
        i = _JSON_SPACE.match(text, j + 1).end()


def _json_error(text: str, pos: int, last: tuple[int, int] | None) -> json.JSONDecodeError:
    """json's own error for the list at ``pos``, which went wrong after its element ``last`` (start, end; None:
    in its first element), found without decoding the elements before: the text up to that element is blanked
    and the element itself turned into ``0``, so json reaches the same place in the same state (after a value)
    and says what it says there, at the same offset."""
    doc = text
    if last is not None:
        start, end = last
        doc = text[:pos + 1] + " " * (start - pos - 1) + "0" + " " * (end - start - 1) + text[end:]
    try:
        _DECODER.raw_decode(doc, pos)
    except json.JSONDecodeError as e:
        return e
    try:  # (not reached: the list is JSON after all) json's own reading of the whole list
        _DECODER.raw_decode(text, pos)
    except json.JSONDecodeError as e:
        return e
    raise AssertionError(f"the JSON list at offset {pos} was refused, but json reads it")


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
            b = box if box is not None else box_for_size(round(cells.size ** 0.5))
        else:
            raise doc.error(pos, 'expected a grid: {"size": 9, "box": 3, "grid": [[...], ...]} or a list of lists')
    except FormatError as e:
        return e
    return doc.where(pos)[0], cells, b


def _object(doc: _Text, pos: int, box: int | None) -> tuple[np.ndarray, int]:
    members = doc.members(pos)
    if "grid" not in members:
        raise doc.error(pos, 'the object has no "grid" (expected {"size": 9, "box": 3, "grid": [[...], ...]})')
    shape = _shape_member(doc, members)
    for key, allowed in (("box", BOX_SIZES), ("size", SIZES)):
        if key in members and shape is None:
            kpos, k = members[key]
            if type(k) is not int or k not in allowed:
                raise doc.error(kpos, f'"{key}" must be one of {", ".join(map(str, allowed))}, got {_shown(k)}')
        elif key in members and members[key][1] != (side(shape) if key == "size" else shape):
            raise doc.error(members[key][0], f'"{key}" {_shown(members[key][1])} does not agree with "shape"')
    declared = [shape, members["box"][1] if "box" in members and shape is None else None,
                box_for_size(members["size"][1]) if "size" in members and shape is None else None, box]
    known = {b for b in declared if b is not None}
    if len(known) > 1:
        said = [f"{k} {members[k][1]}" for k in ("size", "box", "shape") if k in members]
        raise doc.error(pos, "the grid's size does not agree: " + ", ".join(said + ([f"box {box} asked for"] if box
                                                                                       else [])))
    b = known.pop() if known else None
    gpos, grid = members["grid"]
    if isinstance(grid, str):  # one line of symbols
        line, column = doc.where(gpos + 1)
        cells = cells_from_field(grid, doc.source, line, column, b)
        return cells, b or box_for_size(round(cells.size ** 0.5))
    return _matrix(doc, gpos, grid, b)


def _shape_member(doc: _Text, members: dict) -> "int | Shape | None":
    """The object's ``"shape"`` (a box size for square boxes), or None."""
    if "shape" not in members:
        return None
    spos, spec = members["shape"]
    if not isinstance(spec, str):
        raise doc.error(spos, f'"shape" must be a shape such as "2x3" or "latin5", got {_shown(spec)}')
    try:
        return check_shape(Shape.parse(spec))
    except ValueError as e:
        raise doc.error(spos, f'"shape": {e}') from None


def _matrix(doc: _Text, pos: int, rows: Any, box: int | None) -> tuple[np.ndarray, int]:
    if not isinstance(rows, list):
        raise doc.error(pos, f"expected a list of rows, got {json.dumps(rows)[:20]}")
    n = side(box) if box else len(rows)
    if (not box and n not in SIZES) or len(rows) != n:
        raise _rows_error(doc, pos, len(rows), box)
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
    return cells, box if box else box_for_size(n)


def _rows_error(doc: _Text, pos: int, rows: int, box: int | None) -> FormatError:
    return doc.error(pos, f"a grid has {side(box) if box else '4, 9, 16 or 25'} rows, got {rows}")


def _shown(value: Any) -> str:
    """A JSON value as quoted in a message, cut short (a string may be a whole file's worth)."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:40] + "..."
