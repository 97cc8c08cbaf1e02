"""The bounds every reader keeps, so no input can drive it into a corner (a recursion, a quadratic scan, memory
that grows with the file rather than with a grid). Each bound is far above what any grid needs and is refused with
one :class:`~engine.formats.base.FormatError` naming the line and column (see docs/formats.md, "Limits").

Why these values:

- a grid is at most 25x25: a JSON grid needs a nesting depth of 2 (rows in a list) or 3 (a list of grids, or
  ``{"grid": [[...]]}`` in a list); 64 leaves room for any wrapper while staying far below Python's recursion
  limit (1000), which the standard ``json`` module otherwise hits with a RecursionError;
- the largest number a grid holds is 25 (2 digits) and the largest ``# size`` is 25; 9 digits still reads any
  sensible typo (``100``, ``123456789``) as an out-of-range number and keeps ``int()`` far from CPython's
  4,300-digit conversion limit, which raises a ValueError;
- the longest row of a block, txt or pretty grid has 25 cells: rows are decoded only up to
  :data:`MAX_ROW_CELLS` + 1 cells, so a 10 MB line costs a few MB, not a Python object per character;
- :data:`MAX_FORMAT_ERRORS`: after that many unreadable grids the text is plainly not a file of grids; one more
  error says reading stopped there, so garbage costs a bounded list of errors, not one per line;
- :data:`MAX_JSON_GRID_CHARS`: a grid written in JSON takes a few KB (a 25x25 one about 3,000 characters); a
  value that could hold one (an object, a list of rows, an element of a list of grids) of more than 1 MiB is
  refused before it is decoded, since decoded JSON costs up to 30 bytes a character (``[]`` is a 56-byte list:
  a 16 MiB value of them was half a GB). A list of grids is read one element at a time, so it may be as long as
  the input;
- :data:`MAX_ECHO` keeps a message one readable line when it quotes the input.

The input's size as a whole is bounded by the application that reads it (``catalogue.io.MAX_INPUT_BYTES``).
"""
from __future__ import annotations

#: deepest nesting of JSON arrays and objects read (a grid needs 2 or 3)
MAX_JSON_DEPTH = 64
#: most digits in a number (JSON, txt, rcv, a ``# size`` comment, a number in a pretty cell); a grid needs 2
MAX_NUMBER_DIGITS = 9
#: cells of a row decoded before the row is known to be too long (a row of the largest grid has 25)
MAX_ROW_CELLS = 25
#: unreadable grids reported before a reader stops: garbage yields up to one error per two bytes, and each is
#: kept until the caller reports it, so without a bound a 16 MiB file of garbage held 8 million of them
MAX_FORMAT_ERRORS = 10_000
#: characters of one JSON value that may hold a grid (an object, a list of rows, an element of a list of grids);
#: a 25x25 grid takes about 3,000
MAX_JSON_GRID_CHARS = 1 << 20
#: characters of the input quoted in a message before it is cut with "..."
MAX_ECHO = 40


def echo(text: str, limit: int = MAX_ECHO) -> str:
    """``repr(text)``, cut to about ``limit`` characters with ``...`` and the full length when longer."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def too_long_number(digits: int) -> str:
    return f"a number of {digits:,} digits (at most {MAX_NUMBER_DIGITS}; a grid needs 2)"


def too_long_grid(chars: int) -> str:
    return (f"a JSON value of {chars:,} characters where a grid is expected (at most {MAX_JSON_GRID_CHARS:,}; a "
            f"25x25 grid takes about 3,000)")
