"""Readers and writers for the formats people exchange (being extended: see the formats issue)."""
from __future__ import annotations

import numpy as np

from .geometry import box_for_ncells

#: digit -> symbol in the line and block formats: 0 is '.', 1-9, then A = 10 ... P = 25
SYMBOLS = ".123456789ABCDEFGHIJKLMNOP"


def to_line(cells: np.ndarray, box: int | None = None, blank: str = ".") -> str:
    """The one-line form of a flat grid: n*n symbols, ``blank`` for empty cells."""
    s = "".join(SYMBOLS[int(v)] for v in cells)
    return s if blank == "." else s.replace(".", blank)


def from_line(text: str, box: int | None = None) -> np.ndarray:
    """A flat int8 grid from a line of symbols (``.`` or ``0`` blank); raises ValueError on bad input."""
    text = text.strip()
    b = box_for_ncells(len(text)) if box is None else box
    n = b * b
    out = np.zeros(len(text), dtype=np.int8)
    for i, ch in enumerate(text.upper()):
        if ch in ".0":
            continue
        v = SYMBOLS.find(ch)
        if v <= 0 or v > n:
            raise ValueError(f"column {i + 1}: {ch!r} is not a symbol of a {n}x{n} grid")
        out[i] = v
    return out
