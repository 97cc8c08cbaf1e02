"""Counts and ranges said as English says them: "1 puzzle", "2 puzzles", "number 7", "numbers 7..9".

One place, so that every summary and message agrees: a count is grouped (``1,024 boards``), a number a person may
paste back into a command (a board's number) never is (``catalogue export 10657``, not ``10,657``).
"""
from __future__ import annotations

from typing import Optional


def count(n: int, noun: str, plural: Optional[str] = None) -> str:
    """``1 puzzle``, ``0 puzzles``, ``1,024 boards`` (``plural`` for a noun that does not take an s)."""
    return f"{n:,} {noun if n == 1 else (plural or noun + 's')}"


def numbers(first: Optional[int], last: Optional[int]) -> str:
    """The numbers a run gave its new boards: ``number 7``, ``numbers 7..9``, ``no new numbers``."""
    if first is None:
        return "no new numbers"
    return f"number {first}" if first == last else f"numbers {first}..{last}"
