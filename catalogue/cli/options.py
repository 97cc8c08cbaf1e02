"""The options several commands share, declared once: names, help, environment variables and limits.

Every command that opens the catalogue declares ``db: DbOption = None`` (and ``out: OutOption = None`` where it
reads or writes board files) and passes both to ``Catalogue.open``, so names, help and precedence are the same
everywhere. The defaults and bounds are the library's (:mod:`catalogue.config`, :mod:`catalogue.choices`,
:mod:`catalogue.output`); only their typer form lives here.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, NamedTuple, Optional

import typer

from engine.vocabulary import GRID_FORMATS, JSON, NDJSON, RECORD_FORMATS

from ..choices import InputFormat, check_size, output_formats
from ..config import DEFAULT_DB, MAX_QUEUE_SIZE, MAX_WORKERS

DbOption = Annotated[Optional[str], typer.Option(
    "--db", metavar="URL|PATH", envvar="CATALOGUE_DB", show_envvar=True,
    help=f"Catalogue database: a SQLite file path or a SQLAlchemy URL (sqlite:///file.db, "
         f"postgresql://user@host/db). Default: {DEFAULT_DB}.")]
OutOption = Annotated[Optional[str], typer.Option(
    "--out", metavar="DIR", envvar="CATALOGUE_OUT", show_envvar=True,
    help="Folder of the board files N.txt for this command, e.g. to rebuild them on another host. Default: the "
         "folder the catalogue recorded, else one beside its database file.")]


def _workers_option(flag: str, envvar: str, what: str):
    return Annotated[Optional[int], typer.Option(
        flag, envvar=envvar, show_envvar=True, min=1, max=MAX_WORKERS, show_default=False,
        help=f"{what} threads (1-{MAX_WORKERS}). Default: one per core.")]


#: the file commands' worker threads (check, key, solve, grade, carve): 0 is one per core
ThreadsOption = Annotated[int, typer.Option(
    "--threads", envvar="CATALOGUE_THREADS", show_envvar=True, min=0, max=MAX_WORKERS, metavar="N",
    help="Worker threads; the chunks of grids go to them in turn, and the output keeps the file's order. "
         "0 (the default): one per core.")]


GeneratorsOption = _workers_option("--generators", "CATALOGUE_GENERATORS", "Board generator")
CheckersOption = _workers_option("--checkers", "CATALOGUE_CHECKERS", "Checker (keys, carving, grading)")
QueueSizeOption = Annotated[int, typer.Option(
    "--queue-size", envvar="CATALOGUE_QUEUE_SIZE", show_envvar=True, min=1, max=MAX_QUEUE_SIZE,
    help="Boards the queue between generators and checkers holds (backpressure).")]

#: the file commands' input: the format of the text, and the grid size when the format cannot tell it
InputFormatOption = Annotated[InputFormat, typer.Option(
    "--input-format", "-f", case_sensitive=False, help="Format of the input; auto recognises it from the text.")]
#: the shape of the grids a command makes (catalogue.choices.grid_kind; docs/shapes.md)
ShapeOption = Annotated[Optional[str], typer.Option(
    "--shape", metavar="SHAPE", show_default=False,
    help="Grids of another shape: RxC for boxes of R rows by C columns (2x3 is 6x6, 3x3 is 9x9), latin (with "
         "--size), jigsaw (with --regions).")]
DiagonalsOption = Annotated[bool, typer.Option(
    "--diagonals", help="Both diagonals hold every digit too (X-Sudoku).")]
RegionsOption = Annotated[Optional[str], typer.Option(
    "--regions", metavar="random|FILE", show_default=False,
    help="Jigsaw regions: drawn at random from the run's seed, or read from FILE (n lines of n letters).")]
GridSizeOption = Annotated[Optional[int], typer.Option(
    "--size", metavar="N", show_default=False,
    help="Rows of the grid: 4, 9, 16 or 25; any from 3 to 25 with --shape latin, 4 to 25 with --regions "
         "[default: 9].")]
InputShapeOption = Annotated[Optional[str], typer.Option(
    "--shape", metavar="SHAPE", show_default=False,
    help="The grids' shape when the input does not name it in a '# shape' line: RxC (2x3 is 6x6), latinN, "
         "jigsawN:LAYOUT, with +x for the diagonals (docs/formats.md, Shapes).")]
SizeOption = Annotated[Optional[int], typer.Option(
    "--size", metavar="N", callback=check_size, show_default=False,
    help="Grid size (4, 9, 16 or 25 rows) when the input cannot tell, e.g. sparse row-column-value files.")]


# --- --format ----------------------------------------------------------------------------------------------------
#: what a record format prints, said wherever it is offered (a command that prints one object says so instead)
RECORD_NOTES = {JSON: "one array", NDJSON: "one object per line"}


class Formats(NamedTuple):
    """One kind of output a ``--format`` offers: what it prints (``what``), in which formats (``names``: a list of
    :mod:`engine.vocabulary`, or a part of one where the command prints fewer), and a note on some of them."""

    what: str
    names: tuple[str, ...]
    notes: dict[str, str]


def grid_formats(what: str, names: Sequence[str] = GRID_FORMATS, notes: Optional[dict[str, str]] = None
                 ) -> Formats:
    """Grids, in every grid format a stream of grids is printed in (``engine.vocabulary.GRID_FORMATS``) unless
    ``names`` says which (export: every one written, WRITE_FORMATS; key and grade: one line an item, LINE)."""
    return Formats(what, tuple(dict.fromkeys(names)), dict(notes or {}))


def record_formats(what: str, names: Sequence[str] = RECORD_FORMATS, notes: Optional[dict[str, str]] = None
                   ) -> Formats:
    """Records (rows of named fields), in every record format (``engine.vocabulary.RECORD_FORMATS``) unless
    ``names`` says which (a summary: SUMMARY_FORMATS); :data:`RECORD_NOTES` unless ``notes`` says otherwise."""
    return Formats(what, tuple(dict.fromkeys(names)), {**RECORD_NOTES, **(notes or {})})


def format_option(*kinds: Formats, default: Optional[str] = None):
    """Every command's ``--format``, made of the kinds of output it offers (:func:`grid_formats`,
    :func:`record_formats`), in the order its help lists them: ``fmt: QueryFormatOption = TABLE``. The choices
    (:func:`catalogue.choices.output_formats`) and the help are made from the same lists, so a format added to the
    vocabulary is offered and named by every command that prints its kind. The help says what each kind prints and
    lists its formats, then the notes; typer adds the default, which the signature names (a vocabulary constant).
    ``default`` is for an option whose signature default is None because the command chooses (generate: pretty
    with --interactive): the help then says it, in these words."""
    choice = output_formats("OutputFormat", *(name for kind in kinds for name in kind.names))
    text = ", or ".join(f"{kind.what} ({', '.join(kind.names)})" for kind in kinds)
    notes = [f"{name}: {kind.notes[name]}" for kind in kinds for name in kind.names if name in kind.notes]
    text += "".join(f"; {note}" for note in notes) + "." + (f" [default: {default}]" if default else "")
    return Annotated[Optional[choice] if default else choice, typer.Option(
        "--format", case_sensitive=False, help=text, show_default=default is None)]
