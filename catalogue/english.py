"""Counts, rates and ranges said as English says them: "1 puzzle", "2 puzzles", "1.7 puzzles/s", "number 7",
"numbers 7..9".

One place, so that every summary and message agrees: a count is grouped (``1,024 boards``), a number a person may
paste back into a command (a board's number) never is (``catalogue export 10657``, not ``10,657``).
"""
from __future__ import annotations

import math
from typing import Optional


def count(n: int, noun: str, plural: Optional[str] = None) -> str:
    """``1 puzzle``, ``0 puzzles``, ``1,024 boards`` (``plural`` for a noun that does not take an s)."""
    return f"{n:,} {noun if n == 1 else (plural or noun + 's')}"


def rate(per_second: float, unit: str) -> str:
    """``951 boards/s``, ``1.7 puzzles/s``, ``0.6 grids/s``, ``0.036 grids/s``: whole items from 10 a second, else
    two significant digits (written out, never ``1e-05``). Why: the hardest puzzles grade at one or two a second,
    and rounded to a whole number the bar read ``1 grids/s`` or ``0 grids/s`` while they went by."""
    if per_second >= 9.95 or per_second <= 0:
        return f"{per_second:,.0f} {unit}/s"
    text = f"{per_second:.2g}"
    if "e" in text:  # under 1e-4 a second (hours an item): %g turns to an exponent
        text = f"{per_second:.{1 - math.floor(math.log10(per_second))}f}"
    return f"{text} {unit}/s"


def numbers(first: Optional[int], last: Optional[int], runs: int = 1) -> str:
    """The numbers a run gave its new boards: ``number 7``, ``numbers 7..9``, ``no new numbers``; when other
    writers took numbers between (``runs`` > 1): ``numbers 10..5753 in 9 runs, others' between``."""
    if first is None:
        return "no new numbers"
    if first == last:
        return f"number {first}"
    return f"numbers {first}..{last}" + (f" in {runs} runs, others' between" if runs > 1 else "")
