"""Books and pictures of catalogue puzzles: records in, PDF or SVG bytes out.

``book_pdf`` lays the puzzles out ``per_page`` to an A4 page (1, 2, 4 or 6), in the order given, each with its
caption (board number, level, clue count, score or "needs guessing"), and with ``solutions=True`` adds the solutions at the end, on
pages of their own, smaller and more per page, under the same captions. ``book_svg`` is one such sheet.
``puzzle_svg`` and ``puzzle_pdf`` draw one puzzle for the web server's ``/puzzles/{number}.svg`` and ``.pdf``.

A record is anything with the fields of :class:`catalogue.PuzzleRecord` that are drawn: ``number``, ``level``,
``clues``, ``score``, ``hardest``, ``puzzle`` and ``solution``. The geometry is :mod:`.layout`'s; the writers are :mod:`.pdf`
and :mod:`.svg`. Nothing here touches a file: the command writes the bytes (atomically).
"""
from __future__ import annotations

from typing import Any, Sequence

from engine.vocabulary import GUESSING

from .layout import ARRANGEMENTS, PER_PAGE, SOLUTIONS_PER_PAGE, Item, Page, paginate, sheet, single
from .pdf import write_pdf
from .svg import write_svg

TITLE = "Sudoku"
SOLUTIONS_TITLE = "Solutions"


def caption(record: Any) -> str:
    """``No. 1234 · hard · 24 clues · score 4.2``: the puzzle's number (``1234``, or ``1234.2`` for its board's
    second puzzle), the level ("ungraded" if none), the clue count, and the score with one decimal, as everywhere
    (``score 2.0``), when there is one ("needs guessing" instead of the 20 that stands for it: no score a reader
    could place on the scale)."""
    from ..store.records import puzzle_name

    parts = [f"No. {puzzle_name(record.number, getattr(record, 'variant', 1))}", record.level or "ungraded",
             f"{record.clues} clues"]
    if record.hardest == GUESSING:
        parts.append("needs guessing")
    elif record.score is not None:
        parts.append(f"score {record.score:.1f}")
    return " \u00b7 ".join(parts)


def _check(per_page: int) -> None:
    if per_page not in PER_PAGE:
        raise ValueError(f"per_page must be one of {', '.join(map(str, PER_PAGE))}, not {per_page}")


def solutions_per_page(per_page: int, sizes: Sequence[int] = (9,)) -> int:
    """How many solutions share a page: more than puzzles (they are smaller), except for 25x25 grids, whose
    cells would become too small to read."""
    return per_page if max(sizes, default=9) >= 25 else SOLUTIONS_PER_PAGE[per_page]


def page_counts(count: int, per_page: int, solutions: bool = False, sizes: Sequence[int] = (9,)) -> tuple[int, int]:
    """(puzzle pages, solution pages) of a book of ``count`` puzzles."""
    _check(per_page)
    puzzle_pages = -(-count // per_page)
    return puzzle_pages, (-(-count // solutions_per_page(per_page, sizes)) if solutions else 0)


def book_pages(records: Sequence[Any], per_page: int = 4, solutions: bool = False) -> list[Page]:
    """The pages of the book: the puzzles, then (``solutions``) the solutions; each page has a header with the
    title and "page k of N"."""
    _check(per_page)
    records = list(records)
    puzzles = [Item(caption(r), r.puzzle) for r in records]
    answers = [Item(caption(r), r.puzzle, r.solution) for r in records] if solutions else []
    per_solution_page = solutions_per_page(per_page, [r.size for r in records])
    chunks = [(TITLE, per_page, [puzzles[i] for i in part]) for part in paginate(len(puzzles), per_page)]
    chunks += [(SOLUTIONS_TITLE, per_solution_page, [answers[i] for i in part])
               for part in paginate(len(answers), per_solution_page)]
    total = len(chunks)
    return [sheet(items, per, title, f"page {k} of {total}") for k, (title, per, items) in enumerate(chunks, 1)]


def book_pdf(records: Sequence[Any], per_page: int = 4, solutions: bool = False, title: str = TITLE) -> bytes:
    """The book as a PDF (A4 pages, vector grids)."""
    if not records:
        raise ValueError("a book needs at least one puzzle")
    return write_pdf(book_pages(records, per_page, solutions), title=title)


def book_svg(records: Sequence[Any], per_page: int = 4) -> bytes:
    """One A4 sheet of at most ``per_page`` puzzles as SVG (the first page of ``book_pdf``'s book)."""
    _check(per_page)
    if not records or len(records) > per_page:
        raise ValueError(f"a sheet holds 1 to {per_page} puzzles, not {len(records)}")
    return write_svg(book_pages(records, per_page)[0], title=TITLE)


def puzzle_svg(record: Any, solution: bool = False) -> bytes:
    """One captioned grid as an SVG picture (384 x 413 points); with ``solution``, the solved grid."""
    item = Item(caption(record), record.puzzle, record.solution if solution else None)
    return write_svg(single(item), title=f"{TITLE} {caption(record)}")


def puzzle_pdf(record: Any, solution: bool = False) -> bytes:
    """One puzzle on an A4 page, ready to print; with ``solution``, its solution on a second page."""
    pages = [sheet([Item(caption(record), record.puzzle)], 1, TITLE, f"No. {record.number}")]
    if solution:
        pages.append(sheet([Item(caption(record), record.puzzle, record.solution)], 1, SOLUTIONS_TITLE,
                           f"No. {record.number}"))
    return write_pdf(pages, title=f"{TITLE} No. {record.number}")


__all__ = ["ARRANGEMENTS", "PER_PAGE", "book_pages", "book_pdf", "book_svg", "caption", "page_counts",
           "puzzle_pdf", "puzzle_svg", "solutions_per_page"]
