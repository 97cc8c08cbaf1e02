"""What every reader and writer shares: the symbol scheme, the typed parse error, the parsed-grid record.

Symbols (line, block and pretty formats): ``1``-``9`` are the digits 1-9; above 9 the letters ``A``-``P`` stand for
10-25 (lowercase accepted on read); ``.`` or ``0`` is a blank. The txt and json formats use plain numbers instead.

Positions in messages are 1-based line and column numbers of the input text, counted in characters, so an editor
jumps straight to the offending symbol.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np

from .limits import echo
from ..geometry import check_shape
from ..grid import Grid
from ..shape import Shape
from ..vocabulary import SIZES, SYMBOLS

#: the cell counts a file may hold (SIZES: its rows)
NCELLS = tuple(n * n for n in SIZES)

NOT_A_SYMBOL = -1
# byte -> digit (0 blank), or NOT_A_SYMBOL; built once so a line of symbols is decoded with one numpy lookup
_LUT = np.full(256, NOT_A_SYMBOL, dtype=np.int16)
_LUT[ord(".")] = 0
_LUT[ord("0")] = 0
for _d, _ch in enumerate(SYMBOLS[1:], start=1):
    _LUT[ord(_ch)] = _d
    _LUT[ord(_ch.lower())] = _d
_LUT.flags.writeable = False  # shared by every thread that reads grids


class FormatError(ValueError):
    """Input that is not a grid: ``str()`` is ``source:line:column: message`` (``source:line: message`` when the
    problem belongs to a whole grid rather than one character, e.g. conflicting givens)."""

    def __init__(self, source: str, line: int, column: int | None, message: str):
        self.source = source
        self.line = line
        self.column = column
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" + (f":{self.column}" if self.column else "")
        return f"{where}: {self.message}"

    def __reduce__(self):  # keep the four fields when pickled (e.g. sent between processes)
        return (FormatError, (self.source, self.line, self.column, self.message))


@dataclass(frozen=True)
class Parsed:
    """One grid read from a text: its clues are givens (``Grid.puzzle``); ``line`` is the 1-based first line of the
    grid in ``source``; ``index`` its 0-based position among the grids of the file (bad grids count too)."""

    grid: Grid
    source: str
    line: int
    index: int


def symbol_range(n: int) -> str:
    """The symbols of an n x n grid, for messages: ``1-9`` or ``1-9, A-G``."""
    return "1-" + SYMBOLS[min(n, 9)] + (f", A-{SYMBOLS[n]}" if n > 9 else "")


def not_a_symbol(ch: str) -> str:
    return f"{echo(ch)} is not a symbol (digits 1-9, letters A-P for 10-25, '.' or '0' for a blank)"


def out_of_range(ch: str, value: int, n: int) -> str:
    shown = echo(ch) if ch.isdigit() else f"{echo(ch)} ({value})"  # letters: say which number they stand for
    return f"{shown} is out of range for a {n}x{n} grid (symbols {symbol_range(n)})"


def decode_symbols(text: str) -> np.ndarray:
    """The digit of each character of ``text`` (0 blank), NOT_A_SYMBOL where a character is not a symbol."""
    # 'replace' turns each non-ASCII character into one '?', which keeps indices aligned with characters
    raw = np.frombuffer(text.encode("ascii", errors="replace"), dtype=np.uint8)
    return _LUT[raw]


def check_symbols(values: np.ndarray, chars: str, n: int | None, source: str, line: int, column: int) -> None:
    """Raise FormatError at the first character of ``chars`` (which starts at ``column``) that is not a symbol,
    or, when ``n`` is known, that stands for a digit above n."""
    if values.min(initial=0) >= 0 and (n is None or values.max(initial=0) <= n):
        return  # the common case, checked with two reductions instead of a scan
    bad = np.flatnonzero(values == NOT_A_SYMBOL)
    if bad.size:
        i = int(bad[0])
        raise FormatError(source, line, column + i, not_a_symbol(chars[i]))
    if n is not None:
        i = int(np.flatnonzero(values > n)[0])
        raise FormatError(source, line, column + i, out_of_range(chars[i], int(values[i]), n))


def size_for_ncells_message(got: int, box) -> str:
    """What a line of ``got`` symbols lacks, for a grid of ``box`` (a box size or a Shape) or of any square boxes."""
    if box is not None:
        n = box.size if isinstance(box, Shape) else box * box
        shape = f" of shape {box.name}" if isinstance(box, Shape) else ""
        return f"expected {n * n} symbols for a {n}x{n} grid{shape}, got {got}"
    side = round(got ** 0.5)
    if side * side == got and 3 <= side <= SIZES[-1] and side not in SIZES:  # another shape's grid, unnamed
        return (f"expected 16, 81, 256 or 625 symbols, got {got}: a {side}x{side} grid needs its shape named "
                f"before it, on a line such as '# shape latin{side}' (docs/formats.md, \"Shapes\")")
    return f"expected 16, 81, 256 or 625 symbols, got {got}"


def split_lines(text: str) -> list[str]:
    """Lines without their ends; line i of the file is element i - 1 (``\\r\\n`` endings accepted)."""
    return [line for _, _, line in numbered_lines(text)]


#: characters of text split into lines at a time by :func:`numbered_lines`
LINES_CHUNK = 1 << 16


def numbered_lines(text: str, start: int = 0, number: int = 1) -> Iterator[tuple[int, int, str]]:
    """``(line number, offset, line)`` for each line of ``text`` from offset ``start`` (the start of line
    ``number``) on, without its end (``\\r\\n`` accepted): the lines of ``text.split("\\n")``, split
    :data:`LINES_CHUNK` characters at a time. The readers go through a text with it rather than with a list of its
    lines (16 MiB of short lines made 3 million strings before the first was read); a reader that must see a run
    of lines twice keeps where the run starts, not its lines."""
    pos = start
    for lines in _chunks(text, start):
        for line in lines:
            yield number, pos, line[:-1] if line.endswith("\r") else line
            number += 1
            pos += len(line) + 1


def lines_of(text: str) -> Iterator[str]:
    """The lines of :func:`numbered_lines`, without their numbers and offsets (faster)."""
    for lines in _chunks(text, 0):
        for line in lines:
            yield line[:-1] if line.endswith("\r") else line


def _chunks(text: str, pos: int) -> Iterator[list[str]]:
    """The lines of ``text`` from offset ``pos`` on (with their ``\\r``), a list of the lines of
    :data:`LINES_CHUNK` characters at a time."""
    size = len(text)
    while True:
        cut = text.rfind("\n", pos, pos + LINES_CHUNK) + 1 if pos + LINES_CHUNK < size else size
        if cut <= pos:  # a line longer than a chunk: alone
            cut = text.find("\n", pos) + 1 or size
        lines = text[pos:cut].split("\n")
        if cut < size:
            lines.pop()  # (the chunk ends with its last line's end: not a line of its own)
        yield lines
        if cut >= size:
            return
        pos = cut


def is_skipped(line: str) -> bool:
    """Blank lines and ``#`` comment lines carry no grid data in any text format."""
    s = line.strip()
    return not s or s.startswith("#")


def as_cells(grid_or_cells, box=None) -> tuple[np.ndarray, "int | Shape"]:
    """A flat int8 copy of a Grid or array-like and its box size, or its Shape when it is not square boxes
    (validated by Grid; engine.formats.shapes says how each shape is written)."""
    if isinstance(grid_or_cells, Grid):
        if box is not None and check_shape(box) != grid_or_cells.box:
            raise ValueError(f"box {box} given for a grid with box {grid_or_cells.box}")
        return grid_or_cells.cells.copy(), grid_or_cells.box
    g = Grid(grid_or_cells, box)
    return g.cells, g.box
