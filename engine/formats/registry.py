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
from typing import Callable, Iterable, Iterator

import numpy as np

from .base import SYMBOLS, FormatError, Parsed, as_cells, decode_symbols, is_skipped, split_lines
from .json import read_json, to_json
from .limits import MAX_FORMAT_ERRORS
from .pretty import BOX_DRAWING, read_pretty, to_pretty
from .svg import to_svg
from .text import (cells_from_field, is_triple, line_field, puzzle_column, read_blocks, read_line_file, read_rcv,
                   read_txt, size_directive, to_block, to_rcv, to_txt)
from ..geometry import check_box, geometry
from ..grid import Conflict, Grid
from ..inputs import check_name
from ..vocabulary import FORMATS, WRITE_FORMATS


# two or more whitespace-separated whole numbers (a regular expression: split() makes a string per number, which
# on a 10 MB line is hundreds of MB)
_NUMBERS = re.compile(r"\s*+[0-9]++(?:\s++[0-9]++)++\s*+")  # possessive: no backtracking on a long line

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


def from_line(text: str, box: int | None = None, source: str = "<line>") -> np.ndarray:
    """A flat int8 grid from a line of symbols (``.`` or ``0`` blank); raises FormatError (a ValueError) on bad
    input, e.g. ``<line>:1:12: 'x' is not a symbol ...``."""
    field, column = text.strip(), len(text) - len(text.lstrip()) + 1
    if box is not None:
        check_box(box)
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
    head = text.lstrip()
    if head[:1] in ("[", "{"):
        return "json"
    if BOX_DRAWING.search(text):
        return "pretty"
    lines = [line for line in split_lines(text) if not is_skipped(line)]
    if not lines:  # comments only: an empty rcv grid keeps its size in a "# size N" comment
        return "rcv" if any(size_directive(line) for line in split_lines(text)) else "line"

    def most(test) -> bool:
        return 2 * sum(1 for line in lines if test(line)) > len(lines)

    if most(is_triple):
        return "rcv"
    if puzzle_column(lines[0]) is not None:  # a CSV header naming the puzzles' column
        return "line"
    fields = [line_field(line)[0] for line in lines]
    if 2 * sum(len(f) in (81, 256, 625) for f in fields) > len(lines) or most(lambda line: ":" in line):
        return "line"
    if 2 * sum(len(f) == 16 for f in fields) > len(lines):
        above_four = any(int(decode_symbols(f).max(initial=0)) > 4 for f in fields if len(f) == 16)
        return "block" if above_four and len(lines) % 16 == 0 else "line"
    if most(lambda line: _NUMBERS.fullmatch(line) is not None):
        return "txt"
    if len(lines) < 4:  # too few lines for the smallest block (4x4): a line of the wrong length, say so as such
        return "line"
    return "block"


# -- reading ----------------------------------------------------------------------------------------------------
def parse(text: str, source: str = "<stdin>", fmt: str | None = None, box: int | None = None
          ) -> list[Parsed | FormatError]:
    """Every grid in ``text``, in file order: a :class:`Parsed` for each good one, a :class:`FormatError` for
    each bad one. ``fmt`` forces a format (default: :func:`detect`); ``box`` forces the box size. After
    :data:`~engine.formats.limits.MAX_FORMAT_ERRORS` bad grids, one more error says reading stopped there."""
    if not isinstance(text, str):  # bytes or None failed deep inside a reader with an unrelated message
        raise TypeError(f"parse takes text (str), got {type(text).__name__}; decode bytes first")
    if fmt is None:
        fmt = detect(text)
    check_name("input format", fmt, FORMATS)
    if box is not None:
        check_box(box)
    out: list[Parsed | FormatError] = []
    errors = 0
    for entry in _READERS[fmt](text, source, box):
        if isinstance(entry, FormatError):
            errors += 1
            if errors > MAX_FORMAT_ERRORS:
                out.append(FormatError(source, entry.line, entry.column, f"more than {MAX_FORMAT_ERRORS:,} "
                                                                          f"unreadable grids; reading stops here"))
                break
            out.append(entry)
        else:
            line, cells, b = entry
            out.append(Parsed(Grid.puzzle(cells, b), source, line, len(out)))
    return out


def read_grids(text: str, source: str, fmt: str | None = None, box: int | None = None
               ) -> tuple[list[Parsed], list[FormatError]]:
    """:func:`parse`, split into the good grids and the errors (each list in file order)."""
    entries = parse(text, source, fmt, box)
    return ([e for e in entries if isinstance(e, Parsed)], [e for e in entries if isinstance(e, FormatError)])


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
    texts = [write(g, fmt, box) for g in grids]
    return ("\n" if fmt == "line" else "\n\n").join(texts) + ("\n" if texts else "")


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
        why = Conflict.NONE
        for flag, table in ((Conflict.ROW, geo.row_of), (Conflict.COLUMN, geo.col_of), (Conflict.BOX, geo.box_of)):
            if table[a] == table[b]:
                why |= flag
        out.append((int(a), b, int(cells[a]), why))
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
        if pairs:
            text = "; ".join(f"r{a // n + 1}c{a % n + 1} and r{b // n + 1}c{b % n + 1} both hold {d} ({why.describe()})"
                             for a, b, d, why in pairs)
            out.append(FormatError(p.source, p.line, None, text))
    return out


def _check_registry() -> None:
    """The names are the vocabulary's (the CLI's choices come from it): a reader or writer added here alone, or a
    name added there alone, fails at import instead of at a user's command."""
    for what, table, names in (("readers", _READERS, FORMATS), ("writers", _WRITERS, WRITE_FORMATS)):
        if tuple(table) != names:
            raise RuntimeError(f"engine.formats {what} {tuple(table)} do not match engine.vocabulary {names}")


_check_registry()
