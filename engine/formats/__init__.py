"""Readers and writers for the formats people exchange grids in: the public names of every format family.

One module per family (``lines``: a grid per line; ``blocks``: block and the catalogue's txt; ``rcv``; ``pretty``;
``json``; ``svg``), what they share in ``base`` (symbols, FormatError, Parsed) and, for the plain-text readers,
``text`` (what a reader yields and keeps), and ``registry``: format names to readers and writers, detection, and
the entry points below.
"""
from __future__ import annotations

from .base import SYMBOLS, FormatError, Parsed
from .blocks import from_txt, to_block, to_txt
from .json import to_json
from .pretty import to_pretty
from .rcv import to_rcv
from .registry import (
    FORMATS,
    WRITE_FORMATS,
    conflict_errors,
    conflict_pairs,
    detect,
    from_line,
    parse,
    read_grids,
    to_line,
    write,
    write_many,
)
from .svg import to_svg

__all__ = ["SYMBOLS", "FORMATS", "WRITE_FORMATS", "FormatError", "Parsed", "parse", "read_grids", "detect", "write",
           "write_many", "conflict_errors", "conflict_pairs", "to_line", "from_line", "to_block", "to_txt", "from_txt",
           "to_pretty", "to_rcv", "to_json", "to_svg"]
