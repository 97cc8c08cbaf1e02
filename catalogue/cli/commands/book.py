"""catalogue book: puzzles from the catalogue as a print-ready PDF book or one SVG sheet.

The puzzles are chosen exactly as `catalogue query` chooses them (the shared options of catalogue/filters.py, a
thin call of ``Catalogue.puzzles``), then laid out and drawn by :mod:`catalogue.publish`; the file is written
whole or not at all (:func:`catalogue.io.write_atomic`), and not at all when nothing matches.
"""
from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from ...console import report
from ...errors import UsageError, UserError
from ...io import check_output_path, write_atomic
from ...store.selection import PuzzleFilter
from ..filters import Sampling, filter_options, sample_options
from ..options import DbOption

DEFAULT_COUNT = 12
#: -o's extension -> what is written
KINDS = {".pdf": "pdf", ".svg": "svg"}

PerPage = enum.Enum("PerPage", {f"p{n}": str(n) for n in (1, 2, 4, 6)}, type=str)


def _drawable(record) -> bool:
    """Whether a record is a puzzle the layout can draw: a shape that can be read, whose side is the row's size,
    and its grids that long (a row edited by hand may hold anything SQLite lets it). The shape is the row's
    ``shape``, never guessed from the cell count: a 9x9 jigsaw has a 9x9 Sudoku's 81 cells."""
    from ...publish.book import rules

    try:
        shape = rules(record)
    except (TypeError, ValueError):
        return False
    cells = shape.ncells if shape.size == record.size else -1
    return all(isinstance(text, str) and len(text) == cells for text in (record.puzzle, record.solution))


def output_kind(path: str) -> str:
    """pdf or svg, from ``-o``'s extension (any case); a book (pdf) to ``-`` (standard output) and into a device
    or a FIFO, which have no extension to say; anything else is a usage error naming -o."""
    from ...io import output_kind as written_as

    kind = KINDS.get(Path(path).suffix.lower())
    if kind is None and written_as(path) in ("stdout", "stream"):
        return "pdf"
    if kind is None:
        raise UsageError(f"-o: the file must end in .pdf (a book) or .svg (one sheet), not {path!r}; - for "
                         f"standard output")
    return kind


def register(app: typer.Typer) -> None:
    @app.command("book")
    @sample_options
    @filter_options
    def book(
        output: Annotated[str, typer.Option(
            "-o", "--output", metavar="FILE", show_default=False,
            help="Where to write: FILE.pdf for a book, FILE.svg for one sheet (one page's puzzles), - for a book "
                 "on standard output.")],
        filters: PuzzleFilter,
        sampling: Sampling,
        count: Annotated[Optional[int], typer.Option(
            "--count", "-n", min=1, metavar="N", show_default=False,
            help=f"How many puzzles, in query order (or the sample's). Default {DEFAULT_COUNT}, the whole sample "
                 f"with --sample, or one sheet's with .svg.")] = None,
        per_page: Annotated[PerPage, typer.Option(
            "--per-page", help="Puzzles per A4 page.")] = PerPage.p4,
        solutions: Annotated[bool, typer.Option(
            "--solutions", help="Add the solutions at the end of the book, on pages of their own (PDF only).")] = False,
        db: DbOption = None,
    ) -> None:
        """Lay puzzles from the catalogue out as a print-ready book (PDF) or sheet (SVG).

        Each puzzle is a vector grid in its shape (thick lines along box and jigsaw region borders, thin cell
        lines, the diagonals of an X-Sudoku shaded, the givens centred; grids above 9x9 use the letters of the
        line format) under a caption with its board number, level, clue count
        and score, 1, 2, 4 or 6 to an A4 page. `--solutions` adds the solutions after the puzzles, smaller and
        more per page, under the same captions. The puzzles are chosen like `catalogue query`'s: the same
        filters, in board order, or `--sample N --seed S`. Nothing is written when no puzzle matches (exit 1).
        The examples read demo.db, made by catalogue fill's example.

        \b
        Examples:
          catalogue book --db demo.db -o book.pdf
          catalogue book --db demo.db -o e.pdf --level easy --per-page 6 --solutions
          catalogue book --db demo.db -o sheet.svg --sample 4 --seed 7
        """
        kind = output_kind(output)
        per = int(per_page.value)
        if kind == "svg":
            if solutions:
                raise UsageError("--solutions needs a book: -o FILE.pdf (an SVG is one sheet of puzzles)")
            if count is not None and count > per:
                raise UsageError(f"-o {output}: an SVG is one sheet: --count at most --per-page ({per})")
        check_output_path(output)  # a folder in the way fails now, not after the drawing
        if count is None:
            count = per if kind == "svg" else (None if sampling.sample is not None else DEFAULT_COUNT)
            if kind == "svg" and sampling.sample is not None:
                count = min(per, sampling.sample)
        from ...store import Catalogue

        with Catalogue.open(db, read_only=True) as catalogue:
            chosen = list(sampling.apply(catalogue.puzzles(**filters.given())).limit(count))
        records = [r for r in chosen if _drawable(r)]
        if len(records) < len(chosen):
            skipped = len(chosen) - len(records)
            report(f"left out {skipped} row{'s' if skipped > 1 else ''} that cannot be drawn (not a puzzle of a "
                   f"known shape and size: `catalogue verify` names {'them' if skipped > 1 else 'it'})")
        if not records:
            raise UserError("no puzzles match: nothing written")
        from ...english import count as counted
        from ...publish import book_pdf, book_svg, page_counts

        if kind == "svg":
            write_atomic(output, book_svg(records, per))
            report(f"wrote {output}: {counted(len(records), 'puzzle')} on one sheet")
            return
        write_atomic(output, book_pdf(records, per, solutions))
        pages, answers = page_counts(len(records), per, solutions, [r.size for r in records])
        more = f", then the solutions on {answers} more" if answers else ""
        report(f"wrote {output}: {counted(len(records), 'puzzle')} on {counted(pages, 'page')}{more}")
