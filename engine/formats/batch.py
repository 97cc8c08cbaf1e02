"""Whole batches of grids written in one numpy step: the line format and the catalogue's N.txt files.

``catalogue fill`` turns every board and puzzle of a run into text (50,000 boards: 100,000 lines and 50,000
files). A Python loop per cell costs the writer and checker threads seconds of GIL time; one gather of symbol
bytes for the whole batch costs milliseconds. The plain, one-grid writers :func:`engine.formats.to_line` and
:func:`engine.formats.to_txt` are their twins, and the tests hold each batch writer to them.
"""
from __future__ import annotations

import numpy as np

from .base import SYMBOLS

_SYMBOL_BYTES = np.frombuffer(SYMBOLS.encode("ascii"), dtype=np.uint8)
_DIGITS = np.frombuffer(b"0123456789", dtype=np.uint8)


def lines(grids: np.ndarray) -> tuple[str, ...]:
    """The line format of each row of ``grids`` (m, ncells): ``to_line`` for a whole batch."""
    grids = np.asarray(grids)
    m, ncells = grids.shape
    text = _SYMBOL_BYTES[grids.astype(np.intp)].tobytes().decode("ascii")
    return tuple(text[i * ncells:(i + 1) * ncells] for i in range(m))


def txt_files(grids: np.ndarray, box) -> list[bytes]:
    """The bytes of each grid's N.txt file: ``to_txt`` plus a final newline, for a whole batch; ``box`` is a box
    size or a Shape (engine.shape).

    Up to 9x9 square boxes it is one gather; above, numbers of two digits are space-separated, and every other
    shape names itself in a ``# shape`` line: the plain writer is used.
    """
    grids = np.asarray(grids)
    if not isinstance(box, int):
        from .blocks import to_txt

        return [(to_txt(g, box) + "\n").encode("ascii") for g in grids]
    n = box * box
    if n > 9:
        from .blocks import to_txt

        return [(to_txt(g, box) + "\n").encode("ascii") for g in grids]
    m = grids.shape[0]
    out = np.full((m, n, n + 1), ord("\n"), dtype=np.uint8)
    out[:, :, :n] = _DIGITS[grids.reshape(m, n, n).astype(np.intp)]
    width = n * (n + 1)
    flat = out.reshape(m, width).tobytes()
    return [flat[i * width:(i + 1) * width] for i in range(m)]
