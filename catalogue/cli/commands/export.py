"""catalogue export: one board and its puzzle in any format: text, line, block, rcv, box drawing, JSON, SVG.

Like `query`, this sits on a start-up budget (<= 300 ms from the shell): typer only at import time; the
database layer and engine.formats (numpy) load when the command runs, and only if the format needs them.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from engine.vocabulary import JSON, LINE, PRETTY, SVG, TXT, WRITE_FORMATS

from ...console import report
from ...errors import UsageError, UserError
from ..options import DbOption, format_option, grid_formats

if TYPE_CHECKING:
    from ...store.records import BoardRecord


#: every format a grid is written in, the board file's own (txt) first: the default
ExportFormatOption = format_option(grid_formats("How to write the grid", (TXT, *WRITE_FORMATS), notes={
    TXT: "as the board file N.txt", JSON: "the record", SVG: "a printable page"}))


#: formats that show both puzzle and solution when neither --puzzle nor --solution is given
BOTH_BY_DEFAULT = {PRETTY, SVG, JSON}


def board_record(board: BoardRecord) -> dict:
    """`--format json`: the one record shape (``BoardRecord.record``: query's fields, then how it was made),
    always with the same keys. ``--puzzle`` and ``--solution`` leave the other grid null rather than change it."""
    return board.record()


def _named(board: BoardRecord) -> str:
    """``board 7`` for a board's first puzzle, ``board 7, puzzle 7.2`` for another."""
    variant = board.puzzle.variant if board.puzzle else 1
    return f"board {board.number}" + (f", puzzle {board.number}.{variant}" if variant > 1 else "")


def render(board: BoardRecord, fmt: str, show: str) -> str:
    """The exported text; ``show`` is "puzzle", "solution" or "both"."""
    puzzle_line = board.puzzle.puzzle if board.puzzle else None
    solution_line = board.board
    if fmt == JSON:  # one shape whatever is shown: the record, the grid not asked for as null
        import json

        record = board_record(board)
        if show == "puzzle":
            record["solution"] = None
        elif show == "solution":
            record["puzzle"] = None
        return json.dumps(record, indent=2)
    if fmt == LINE:  # the stored text itself: `--solution` prints exactly the board's line
        return solution_line if show == "solution" else puzzle_line

    from engine import formats

    from ...shapes import kernel_shape

    box = kernel_shape(board.shape)
    puzzle = formats.from_line(puzzle_line, box) if puzzle_line is not None else None
    solution = formats.from_line(solution_line, box)
    if fmt == SVG:  # a printable page: the puzzle, and its solution in a second grid beside it
        n = board.size
        if show == "solution":
            return formats.to_svg(solution, box, title=f"board {board.number}: {n}x{n} solution")
        title = f"{_named(board)}: {n}x{n} puzzle, {board.puzzle.clues} clues"
        if show == "both":
            return formats.to_svg(puzzle, box, solution=solution, beside=True, title=f"{title}, with solution")
        return formats.to_svg(puzzle, box, title=title)
    if show == "both":  # pretty: the puzzle, then its solution
        return "\n".join((f"{_named(board)}: puzzle, {board.puzzle.clues} clues",
                          formats.write(puzzle, fmt, box).rstrip("\n"), "",
                          f"board {board.number}: solution",
                          formats.write(solution, fmt, box).rstrip("\n")))
    return formats.write(puzzle if show == "puzzle" else solution, fmt, box)


def register(app: typer.Typer) -> None:
    @app.command("export")
    def export(
        name: Annotated[str, typer.Argument(metavar="ID", help=(
            "The puzzle: its board's number (0, 1, 2, ...), or N.K for the K-th puzzle of board N."))],
        fmt: ExportFormatOption = TXT,
        puzzle: Annotated[bool, typer.Option("--puzzle", help="Only the puzzle (the default for most formats).")]
        = False,
        solution: Annotated[bool, typer.Option("--solution", help="Only the solution: the complete board.")]
        = False,
        output: Annotated[Optional[Path], typer.Option("-o", "--output", metavar="FILE", dir_okay=False,
                                                       help="Write to FILE (whole or not at all), not stdout.")]
        = None,
        db: DbOption = None,
    ) -> None:
        """Print one board and its puzzle.

        ID is a puzzle's number as `query` shows it: N for board N and its first puzzle, N.2 for a second puzzle
        imported onto that board later. By default the puzzle; pretty, svg and json show the puzzle and its
        solution unless --puzzle or --solution says otherwise. `--format line --solution` prints exactly the board's line. The examples read
        demo.db, made by catalogue fill's example.

        \b
        Examples:
          catalogue export 0 --db demo.db
          catalogue export 0 --db demo.db --format pretty
          catalogue export 1 --db demo.db --format svg -o board1.svg
        """
        if puzzle and solution:
            raise UsageError("--puzzle and --solution exclude each other: give one, or neither")
        show = "solution" if solution else "puzzle" if puzzle or fmt.value not in BOTH_BY_DEFAULT else "both"

        from ...store import Catalogue
        from ...store.records import parse_reference

        try:
            number, variant = parse_reference(name)
        except ValueError as e:
            raise UsageError(f"ID: {e}") from None
        with Catalogue.open(db, read_only=True) as catalogue:
            board = (catalogue.board(number, variant if variant > 1 else None)
                     if 0 <= number < 2 ** 63 and variant < 2 ** 31 else None)
        if board is None:
            raise UserError(f"no board number {number} in {catalogue.label}")
        if board.puzzle is None and variant > 1:
            raise UserError(f"board {number} has no puzzle {name} in {catalogue.label}")
        if board.puzzle is None and show != "solution":
            raise UserError(f"board {number} has no puzzle in {catalogue.label}: use --solution for the board")
        try:
            text = render(board, fmt.value, show)
        except ValueError as e:  # a row edited by hand, or written by a broken version: say so, no traceback
            raise UserError(f"board {number} in {catalogue.label} cannot be read: {e}") from None
        text = text if text.endswith("\n") else text + "\n"
        if output is None:
            typer.echo(text, nl=False)
            return
        from ...io import check_output_path, write_atomic

        write_atomic(check_output_path(output), text)  # whole file or nothing; errors are one line
        report(f"wrote {_named(board)} ({fmt.value}) to {output}")
