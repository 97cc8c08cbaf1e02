"""Books and pictures of catalogue puzzles: records in, PDF or SVG bytes out.

``book_pdf`` lays the puzzles out ``per_page`` to an A4 page (1, 2, 4 or 6), in the order given, each with its
caption (board number, level, clue count, score or "needs guessing"), and with ``solutions=True`` adds the
solutions at the end, on pages of their own, smaller and more per page, under the same captions. ``book_svg``
is one such sheet.
``puzzle_svg`` and ``puzzle_pdf`` draw one puzzle for the web server's ``/puzzles/{number}.svg`` and ``.pdf``.

Every grid is drawn in its own shape, read from the record's ``shape`` (the stored spec: ``3x3``, ``2x3``,
``3x4``, ``latin5``, ``3x3+x``, ``jigsaw9:LAYOUT``), so one book may mix shapes. A shape other than the classic
9x9 is named where the reader looks for it: in the page's heading when every grid of the page has it ("Sudoku
6x6", "X-Sudoku 9x9"), else in each caption ("No. 7 · jigsaw 9x9 · hard · ...").

A record is anything with the fields of :class:`catalogue.PuzzleRecord` that are drawn: ``number``, ``shape``,
``level``, ``clues``, ``score``, ``hardest``, ``puzzle`` and ``solution``. The geometry is :mod:`.layout`'s;
the writers are :mod:`.pdf` and :mod:`.svg`. Nothing here touches a file: the command writes the bytes (atomically).
"""
from __future__ import annotations

from typing import Any, Sequence

from engine.vocabulary import GUESSING

from .layout import ARRANGEMENTS, PER_PAGE, SOLUTIONS_PER_PAGE, Item, Page, paginate, sheet, single
from .pdf import write_pdf
from .svg import write_svg

TITLE = "Sudoku"
SOLUTIONS_TITLE = "Solutions"
CLASSIC = "3x3"  # the shape nobody needs told: 9x9 Sudoku


def rules(record: Any):
    """The record's shape as the layout draws it (:class:`engine.shape.Shape`), from its ``shape`` field; a record
    without one (made before shapes) is square boxes of its size. ValueError for a spec that names no shape."""
    from ..shapes import shape_of, spec_for_size

    spec = getattr(record, "shape", None) or spec_for_size(record.size)
    return shape_of(spec)


def shape_words(record: Any) -> str:
    """The shape as a book names it: ``""`` for the classic 9x9; ``4x4``, ``6x6``, ``12x12``, ``X-Sudoku 9x9``,
    ``jigsaw 9x9``, ``jigsaw X 9x9``, ``Latin square 5x5``, ``diagonal Latin square 5x5``. A 6x6 of 2x3 boxes
    and one of 3x2 are both ``6x6``: the grid shows which."""
    shape = rules(record)
    if shape.spec == CLASSIC:
        return ""
    n = f"{shape.size}x{shape.size}"
    x = shape.diagonals
    if shape.kind == "latin":
        return ("diagonal " if x else "") + f"Latin square {n}"
    if shape.kind == "jigsaw":
        return "jigsaw " + ("X " if x else "") + n
    return ("X-Sudoku " if x else "") + n


def heading(title: str, records: Sequence[Any]) -> str:
    """A page's heading: ``title``, naming the shape when every grid of the page has the same one and it is not
    the classic 9x9 ("Sudoku 6x6", "X-Sudoku 9x9", "Jigsaw Sudoku 9x9", "Latin square 5x5"; "Solutions ·
    jigsaw 9x9"); a page of mixed shapes names them in its captions instead."""
    words = {shape_words(r) for r in records}
    if len(words) != 1 or words == {""}:
        return title
    (word,) = words
    if title != TITLE:
        return f"{title} \u00b7 {word}"
    shape = rules(records[0])
    n = f"{shape.size}x{shape.size}"
    if shape.kind == "latin":
        return word[0].upper() + word[1:]
    sudoku = "X-Sudoku" if shape.diagonals else TITLE
    return f"Jigsaw {sudoku} {n}" if shape.kind == "jigsaw" else f"{sudoku} {n}"


def caption(record: Any, named: bool = True) -> str:
    """``No. 1234 · hard · 24 clues · score 4.2``: the puzzle's number (``1234``, or ``1234.2`` for its board's
    second puzzle), its shape unless it is the classic 9x9 (and ``named``: a page's heading may name it for all
    its grids), the level ("ungraded" if none), the clue count, and the score with one decimal, as everywhere
    (``score 2.0``), when there is one ("needs guessing" instead of the 20 that stands for it: no score a reader
    could place on the scale)."""
    from ..store.records import puzzle_name

    words = shape_words(record) if named else ""
    parts = [f"No. {puzzle_name(record.number, getattr(record, 'variant', 1))}", *([words] if words else []),
             record.level or "ungraded", f"{record.clues} clues"]
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
    title (and the page's shape, :func:`heading`) and "page k of N". Each grid is drawn in its record's shape."""
    _check(per_page)
    records = list(records)
    shapes = [rules(r) for r in records]  # every spec read before anything is drawn: a bad one fails here
    per_solution_page = solutions_per_page(per_page, [r.size for r in records])
    chunks = [(TITLE, per_page, part) for part in paginate(len(records), per_page)]
    if solutions:
        chunks += [(SOLUTIONS_TITLE, per_solution_page, part) for part in paginate(len(records), per_solution_page)]
    pages = []
    for k, (title, per, part) in enumerate(chunks, 1):
        on_page = [records[i] for i in part]
        head = heading(title, on_page)
        named = head == title  # the heading names no shape: each caption names its own
        items = [Item(caption(records[i], named), records[i].puzzle,
                      records[i].solution if title == SOLUTIONS_TITLE else None, shapes[i]) for i in part]
        pages.append(sheet(items, per, head, f"page {k} of {len(chunks)}"))
    return pages


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
    item = Item(caption(record), record.puzzle, record.solution if solution else None, rules(record))
    return write_svg(single(item), title=f"{TITLE} {caption(record)}")


def puzzle_pdf(record: Any, solution: bool = False) -> bytes:
    """One puzzle on an A4 page, ready to print; with ``solution``, its solution on a second page."""
    shape = rules(record)
    pages = [sheet([Item(caption(record, False), record.puzzle, None, shape)], 1, heading(TITLE, [record]),
                   f"No. {record.number}")]
    if solution:
        pages.append(sheet([Item(caption(record, False), record.puzzle, record.solution, shape)], 1,
                           heading(SOLUTIONS_TITLE, [record]), f"No. {record.number}"))
    return write_pdf(pages, title=f"{TITLE} No. {record.number}")


__all__ = ["ARRANGEMENTS", "PER_PAGE", "book_pages", "book_pdf", "book_svg", "caption", "heading", "page_counts",
           "puzzle_pdf", "puzzle_svg", "rules", "shape_words", "solutions_per_page"]
