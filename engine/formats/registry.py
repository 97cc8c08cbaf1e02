"""Readers and writers for the formats people exchange grids in, shared by every command.

Formats (names for ``fmt``): ``line`` (81 symbols on a line; files of one puzzle per line, tdoku's
``puzzle:count:solution`` lines too), ``block`` (n rows of symbols, spaces, ``|`` and ``-+-`` rules allowed),
``rcv`` ("row column value" triples, 1-based, seed 002), ``pretty`` (box-drawing picture, seed 004), ``json``,
``txt`` (the catalogue's N.txt files: digits for n <= 9, space-separated numbers above); ``svg`` is written only.
Symbols above 9 are A-P (A = 10 ... P = 25); ``.`` or ``0`` is a blank. See :func:`detect` for how a format is
recognised. Readers never raise on bad input: each grid that cannot be read becomes one :class:`FormatError`
(``source:line:column: message``) in the result and reading goes on with the next grid. Givens that conflict are
not a parse error; :func:`conflict_errors` names them.
"""
from __future__ import annotations

import re
from array import array
from collections.abc import Sequence
from typing import Callable, Iterable, Iterator

import numpy as np

from ..geometry import check_shape, geometry
from ..grid import Conflict, Grid, shared_units
from ..inputs import check_name
from ..shape import Shape
from ..vocabulary import FORMATS, WRITE_FORMATS
from .base import (
    SYMBOLS,
    FormatError,
    Parsed,
    as_cells,
    decode_symbols,
    lines_of,
    numbered_lines,
)
from .blocks import read_blocks, read_txt, to_block, to_txt
from .json import read_json, to_json
from .limits import MAX_FORMAT_ERRORS
from .lines import cells_from_field, line_field, puzzle_column, read_line_file
from .pretty import BOX_DRAWING, read_pretty, to_pretty
from .rcv import is_triple, read_rcv, size_directive, to_rcv
from .shapes import agreed, directive, read_directive, shape_name
from .svg import to_svg

# two or more whitespace-separated whole numbers (a regular expression: split() makes a string per number, which
# on a 10 MB line is hundreds of MB)
_NUMBERS = re.compile(r"\s*+[0-9]++(?:\s++[0-9]++)++\s*+")  # possessive: no backtracking on a long line
_SPACE = re.compile(r"\s*")

_READERS: dict[str, Callable[[str, str, int | None], Iterator]] = {
    "line": read_line_file,
    "block": read_blocks,
    "rcv": read_rcv,
    "pretty": read_pretty,
    "json": read_json,
    "txt": read_txt,
}


def to_line(cells: np.ndarray, box: int | None = None, blank: str = ".") -> str:
    """The one-line form of a flat grid: n*n symbols, ``blank`` for empty cells."""
    if isinstance(cells, np.ndarray) and cells.dtype.kind in "iu":  # as Python ints: several times faster than numpy's
        s = "".join([SYMBOLS[v] for v in cells.tolist()])
    else:
        s = "".join(SYMBOLS[int(v)] for v in cells)
    return s if blank == "." else s.replace(".", blank)


def from_line(text: str, box=None, source: str = "<line>") -> np.ndarray:
    """A flat int8 grid from a line of symbols (``.`` or ``0`` blank); raises FormatError (a ValueError) on bad
    input, e.g. ``<line>:1:12: 'x' is not a symbol ...``."""
    field, column = text.strip(), len(text) - len(text.lstrip()) + 1
    if box is not None:
        box = check_shape(box)
    return cells_from_field(field, source, 1, column, box)


# -- detection --------------------------------------------------------------------------------------------------
def detect(text: str) -> str:
    """The name of the format ``text`` is written in, judged from the text alone.

    In order: ``json`` if it starts with ``[`` or ``{``; ``pretty`` if it holds box-drawing characters; ``rcv``
    if most lines are three whole numbers; ``line`` if the first line is a CSV header naming the puzzles' column
    (QQWing's ``--csv``, catalogue query's csv); ``line`` if most lines (before any ``:count:solution``) hold 81, 256 or
    625 symbols, or 16 symbols that could all be 4x4 digits (16 rows of 16 that use digits above 4 are a 16x16
    block); ``txt`` if most lines are whitespace-separated whole numbers; ``line`` if there are fewer than 4 lines (no
    block is that short, so a single line of the wrong length is reported as a line); otherwise ``block``.
    Blank and ``#`` comment lines are left out of every count.
    """
    first = _SPACE.match(text).end()  # (not text.lstrip(): a copy of the whole text)
    if text[first:first + 1] in ("[", "{"):
        return "json"
    if BOX_DRAWING.search(text):
        return "pretty"

    # the lines are gone through two or three times rather than kept (3 million strings for 16 MiB)
    total = triples = 0
    head = None  # the first line
    for line in _content_lines(text):
        total += 1
        triples += is_triple(line)
        head = line if head is None else head
    if not total:  # comments only: an empty rcv grid keeps its size in a "# size N" comment
        return "rcv" if any(size_directive(line) for _, _, line in numbered_lines(text)) else "line"
    if 2 * triples > total:
        return "rcv"
    if puzzle_column(head) is not None:  # a CSV header naming the puzzles' column
        return "line"
    whole = sixteen = colons = 0  # lines of 81, 256 or 625 symbols; of 16; with a ':'
    above_four = False  # a line of 16 symbols holds a digit above 4
    for line in _content_lines(text):
        f = line_field(line)[0]
        whole += len(f) in (81, 256, 625)
        colons += ":" in line
        if len(f) == 16:
            sixteen += 1
            above_four = above_four or int(decode_symbols(f).max(initial=0)) > 4
    if 2 * whole > total or 2 * colons > total:
        return "line"
    if 2 * sixteen > total:
        return "block" if above_four and total % 16 == 0 else "line"
    if 2 * sum(1 for line in _content_lines(text) if _NUMBERS.fullmatch(line)) > total:
        return "txt"
    if total < 4:  # too few lines for the smallest block (4x4): a line of the wrong length, say so as such
        return "line"
    return "block"


def _content_lines(text: str) -> Iterator[str]:
    """The lines of ``text`` that are not blank or comments (:func:`~engine.formats.base.is_skipped`), one at a
    time: what :func:`detect` counts."""
    for line in lines_of(text):
        s = line.strip()
        if s and s[0] != "#":
            yield line


# -- reading ----------------------------------------------------------------------------------------------------
def parse(text: str, source: str = "<stdin>", fmt: str | None = None, box: int | None = None
          ) -> list[Parsed | FormatError]:
    """Every grid in ``text``, in file order: a :class:`Parsed` for each good one, a :class:`FormatError` for
    each bad one. ``fmt`` forces a format (default: :func:`detect`); ``box`` forces the box size. After
    :data:`~engine.formats.limits.MAX_FORMAT_ERRORS` bad grids, one more error says reading stopped there.
    (:func:`parse_entries` holds the same entries in a few bytes a cell.)"""
    out: list[Parsed | FormatError] = []
    for entry in _read(text, source, fmt, box):
        if isinstance(entry, FormatError):
            out.append(entry)
        else:
            line, cells, b = entry
            out.append(Parsed(Grid.puzzle(cells, b), source, line, len(out)))
    return out


def _read(text: str, source: str, fmt: str | None, box: int | None) -> Iterator:
    """The reader's entries of ``text`` one at a time (``(line, cells, box)`` or FormatError), at most
    :data:`~engine.formats.limits.MAX_FORMAT_ERRORS` errors and one more that says reading stops."""
    if not isinstance(text, str):  # bytes or None failed deep inside a reader with an unrelated message
        raise TypeError(f"parse takes text (str), got {type(text).__name__}; decode bytes first")
    if fmt is None:
        fmt = detect(text)
    check_name("input format", fmt, FORMATS)
    if box is not None:
        box = check_shape(box)  # a box size, or any Shape (engine.formats.shapes)
    try:
        box = agreed(read_directive(text, source), box, source)
    except FormatError as e:  # the shape of every grid is unknown: nothing more can be read
        yield e
        return
    errors = 0
    for entry in _READERS[fmt](text, source, box):
        if isinstance(entry, FormatError):
            errors += 1
            if errors > MAX_FORMAT_ERRORS:
                yield FormatError(source, entry.line, entry.column, f"more than {MAX_FORMAT_ERRORS:,} "
                                                                    f"unreadable grids; reading stops here")
                return
        yield entry


def read_grids(text: str, source: str, fmt: str | None = None, box: int | None = None
               ) -> tuple[list[Parsed], list[FormatError]]:
    """:func:`parse`, split into the good grids and the errors (each list in file order)."""
    entries = parse(text, source, fmt, box)
    return ([e for e in entries if isinstance(e, Parsed)], [e for e in entries if isinstance(e, FormatError)])


class Entries(Sequence):
    """The entries of a text as a command lists them: :func:`parse`'s, in file order and, on one line, grids
    before errors. Held in a few bytes a cell instead of an object per grid: the cells of every grid in one
    buffer, a line number and a box size each; a :class:`Parsed` is made when an entry is asked for, and dropped
    by the caller when done with it. So a file costs about its own size once read (a 16 MiB file of 4x4 lines is
    a million grids: 16 MB of cells and 25 MB of offsets, line numbers and sizes, where Parsed objects took a
    GB), and the errors kept are at most :data:`~engine.formats.limits.MAX_FORMAT_ERRORS` + 1."""

    def __init__(self, source: str, cells: bytearray, starts, lines, boxes, errors: list[FormatError],
                 shapes: tuple = ()):
        self.source = source
        self._cells = cells
        self._starts = np.asarray(starts, dtype=np.int64)  # where each grid's cells start; an error's index
        self._lines = np.asarray(lines, dtype=np.int64)
        # a box size; 0: a FormatError; -k: the grid is of shapes[k - 1] (any other shape than square boxes)
        self._boxes = np.asarray(boxes, dtype=np.int8)
        self._shapes = tuple(shapes)
        self._errors = errors
        # file order: sorted by line, errors after the grids of their line (stable: the reader's order otherwise)
        self._order = np.argsort(self._lines * 2 + (self._boxes == 0), kind="stable")

    def __len__(self) -> int:
        return len(self._order)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self._entry(int(i)) for i in self._order[k]]
        return self._entry(int(self._order[k]))

    def __iter__(self) -> Iterator[Parsed | FormatError]:
        for i in self._order.tolist():
            yield self._entry(i)

    def _entry(self, i: int) -> Parsed | FormatError:
        b = self._box(int(self._boxes[i]))
        if not b:
            return self._errors[int(self._starts[i])]
        ncells = b.ncells if isinstance(b, Shape) else b ** 4
        cells = np.frombuffer(self._cells, dtype=np.int8, count=ncells, offset=int(self._starts[i])).copy()
        return Parsed(Grid.puzzle(cells, b), self.source, int(self._lines[i]), i)

    def _box(self, code: int):
        return self._shapes[-code - 1] if code < 0 else code

    @property
    def grids(self) -> int:
        """How many entries are grids (the others are errors)."""
        return len(self) - len(self._errors)

    @property
    def errors(self) -> list[FormatError]:
        return list(self._errors)

    @property
    def boxes(self) -> set:
        """The box sizes of the grids (a Shape for a grid of any other shape than square boxes)."""
        return {self._box(int(b)) for b in np.unique(self._boxes) if b}

    def box_of(self, k: int):
        """The box size (or Shape) of entry ``k`` (0 for an error), without making it."""
        return self._box(int(self._boxes[self._order[k]]))


def parse_entries(text: str, source: str = "<stdin>", fmt: str | None = None, box: int | None = None) -> Entries:
    """:func:`parse`'s entries, held compactly (:class:`Entries`): what the commands read files with."""
    cells = bytearray()
    starts, lines, boxes = array("q"), array("q"), array("b")
    errors: list[FormatError] = []
    shapes: dict = {}  # Shape -> its code in boxes (-1, -2, ...)
    for entry in _read(text, source, fmt, box):
        if isinstance(entry, FormatError):
            starts.append(len(errors))
            lines.append(entry.line)
            boxes.append(0)
            errors.append(entry)
        else:
            line, grid, b = entry
            starts.append(len(cells))
            lines.append(line)
            boxes.append(shapes.setdefault(b, -len(shapes) - 1) if isinstance(b, Shape) else b)
            cells += np.ascontiguousarray(grid, dtype=np.int8).tobytes()
    return Entries(source, cells, starts, lines, boxes, errors, tuple(shapes))


# -- writing ----------------------------------------------------------------------------------------------------
def write(grid_or_cells, fmt: str, box: int | None = None) -> str:
    """One grid (a Grid, or a flat or n x n array) in format ``fmt``, without a final newline.

    For ``svg``, a Grid's givens are the puzzle and its other filled cells are drawn as the solution.
    """
    check_name("output format", fmt, WRITE_FORMATS)
    return _WRITERS[fmt](grid_or_cells, box)


def _write_line(grid_or_cells, box: int | None) -> str:
    cells, _ = as_cells(grid_or_cells, box)
    return to_line(cells)


def _write_svg(grid_or_cells, box: int | None) -> str:
    if isinstance(grid_or_cells, Grid) and grid_or_cells.givens.any():
        g = grid_or_cells
        return to_svg(np.where(g.givens, g.cells, 0), g.box, g.cells)
    return to_svg(grid_or_cells, box)


_WRITERS: dict[str, Callable] = {"line": _write_line, "block": to_block, "rcv": to_rcv, "pretty": to_pretty,
                                 "json": to_json, "txt": to_txt, "svg": _write_svg}


def write_many(grids: Iterable, fmt: str, box: int | None = None) -> str:
    """Several grids in one text that :func:`parse` reads back grid for grid: one per line for ``line``, a blank
    line between grids otherwise. Ends with a newline (empty text for no grids). ``svg`` holds one grid only."""
    if fmt == "svg":
        raise ValueError("an SVG picture holds one grid: write one file per grid")
    check_name("output format", fmt, WRITE_FORMATS)
    texts, shape = [], None  # the shape of the grids (a box size: square boxes, which may mix)
    for g in grids:
        cells, b = as_cells(g, box)
        if texts and b != shape and (isinstance(b, Shape) or isinstance(shape, Shape)):  # square sizes mix freely
            raise ValueError(f"one text holds grids of one shape: {shape_name(shape)}, then {shape_name(b)}")
        shape = b
        text = _WRITERS[fmt](cells, b)
        texts.append(text.split("\n", 1)[1] if text.startswith("# shape ") else text)  # one # shape line, first
    head = "\n".join(directive(shape)) + "\n" if texts and fmt != "json" and directive(shape) else ""
    return head + ("\n" if fmt == "line" else "\n\n").join(texts) + ("\n" if texts else "")



# -- conflicting givens -----------------------------------------------------------------------------------------
def conflict_pairs(grid: Grid) -> list[tuple[int, int, int, Conflict]]:
    """Every pair of peers holding the same digit: ``(cell_a, cell_b, digit, shared houses)``, cell_a < cell_b,
    in reading order."""
    geo = geometry(grid.box)
    cells = grid.cells
    same = (cells[geo.peers] == cells[:, None]) & (cells[:, None] != 0) & (geo.peers > np.arange(geo.ncells)[:, None])
    out = []
    for a, k in zip(*np.nonzero(same)):
        b = int(geo.peers[a, k])
        out.append((int(a), b, int(cells[a]), shared_units(geo, int(a), b)))
    return out


def conflict_errors(parsed: Parsed | Iterable[Parsed | FormatError]) -> list[FormatError]:
    """One FormatError per grid whose givens conflict, naming every clashing pair, e.g.
    ``puzzles.txt:3: r1c4 and r1c9 both hold 7 (row conflict)``. Errors in the input are passed over."""
    items = [parsed] if isinstance(parsed, Parsed) else list(parsed)
    out = []
    for p in items:
        if not isinstance(p, Parsed):
            continue
        n = p.grid.size
        pairs = conflict_pairs(p.grid)
        region = "region" if isinstance(p.grid.box, Shape) and p.grid.box.kind == "jigsaw" else "box"
        if pairs:
            text = "; ".join(f"r{a // n + 1}c{a % n + 1} and r{b // n + 1}c{b % n + 1} both hold {d} "
                             f"({why.describe(region)})" for a, b, d, why in pairs)
            out.append(FormatError(p.source, p.line, None, text))
    return out


def _check_registry() -> None:
    """The names are the vocabulary's (the CLI's choices come from it): a reader or writer added here alone, or a
    name added there alone, fails at import instead of at a user's command."""
    for what, table, names in (("readers", _READERS, FORMATS), ("writers", _WRITERS, WRITE_FORMATS)):
        if tuple(table) != names:
            raise RuntimeError(f"engine.formats {what} {tuple(table)} do not match engine.vocabulary {names}")


_check_registry()
