"""Print-ready output of catalogue puzzles: books (PDF), sheets and single puzzles (SVG, PDF).

:mod:`.layout` computes the pages (pure geometry), :mod:`.pdf` and :mod:`.svg` write them, :mod:`.book` is the
API the ``catalogue book`` command and the web server call. reportlab (its font metrics place the captions, its
canvas writes the PDF) is imported on first use, not with the package.
"""
from .book import book_pages, book_pdf, book_svg, caption, page_counts, puzzle_pdf, puzzle_svg

__all__ = ["book_pages", "book_pdf", "book_svg", "caption", "page_counts", "puzzle_pdf", "puzzle_svg"]
