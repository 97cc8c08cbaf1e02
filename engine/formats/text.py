"""What the plain-text readers share: what a reader yields, and how it holds a grid's lines rather than the file's.

Every reader takes the whole text and yields, in file order, either ``(line, cells, box)`` for a grid or a
:class:`~engine.formats.base.FormatError` for a grid it could not read, then goes on with the next grid
(:data:`Entry`). A reader holds one grid's lines at a time, never the file's: a run of rows (block, txt) or a group
of triples (rcv) longer than :data:`KEPT_ROWS` is kept as where it starts and what its rows count, and read a second
time to make its grids; a long line's words are counted without a string per word (:func:`count_words`). Blank
lines and ``#`` comment lines are ignored everywhere.

The formats are a module each: ``lines`` (one grid per line), ``blocks`` (a grid's rows: block and txt) and
``rcv`` (row column value triples); ``pretty`` and ``json`` yield the same entries.
"""
from __future__ import annotations

#: what a reader yields for each grid, in file order (a string: it only names the types for annotations)
Entry = "tuple[int, np.ndarray, int] | FormatError"

#: rows of a run (triples of a group) kept as they are read; a longer run is read a second time instead
KEPT_ROWS = 1024


def count_words(text: str, chunk: int = 1 << 20) -> int:
    """``len(text.split())`` without a string per word (a 10 MB line of ``1 1 1 ...`` made 5 million of them):
    split a chunk at a time, not counting twice a word that a chunk boundary cuts."""
    words = 0
    for start in range(0, len(text), chunk):
        words += len(text[start:start + chunk].split())
        if start and not text[start - 1].isspace() and not text[start].isspace():
            words -= 1
    return words
