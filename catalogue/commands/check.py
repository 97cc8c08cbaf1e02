"""catalogue check: read grids in any input format and report, for each, whether its digits conflict."""
from __future__ import annotations

from typing import Annotated

import typer

from engine.formats import FormatError, Parsed
from engine.grid import Grid

from ..choices import InputFormat, InputFormatOption, SizeOption, read_entries
from ..errors import report


def describe(grid: Grid) -> str:
    """``9x9 board``, ``complete 9x9 grid`` (filled but conflicting) or ``9x9 puzzle with 30 clues``."""
    n = grid.size
    if grid.is_complete():
        return f"{n}x{n} board" if grid.is_valid() else f"complete {n}x{n} grid"
    return f"{n}x{n} puzzle with {grid.clue_count} clue{'s' if grid.clue_count != 1 else ''}"


def check_line(parsed: Parsed) -> tuple[bool, str]:
    """Whether the grid is valid, and its report line."""
    grid = parsed.grid
    where = f"grid {parsed.index + 1} ({parsed.source}:{parsed.line})"
    invalid = grid.invalid_cells()
    if not invalid:
        return True, f"{where}: valid {describe(grid)}"
    cells = ", ".join(f"r{r + 1}c{c + 1} {d} ({why.describe()})" for r, c, d, why in invalid)
    plural = "s" if len(invalid) != 1 else ""
    return False, f"{where}: {len(invalid)} invalid cell{plural}: {cells}; {describe(grid)}"


def register(app: typer.Typer) -> None:
    @app.command()
    def check(
        path: Annotated[str, typer.Argument(help="File of grids to check, or - for stdin.", show_default=False)],
        input_format: InputFormatOption = InputFormat.auto,
        size: SizeOption = None,
    ) -> None:
        """Check every grid in a file for conflicting digits.

        Lists each invalid cell with its reason (row, column and/or box conflict) and says whether the grid is a
        board or a puzzle with K clues. Exit 0 if every grid is valid, 1 if any is invalid or cannot be read (read
        errors go to stderr as file:line:column: message).

        \b
        Examples:
          catalogue check data/samples/puzzles_9x9.sdm
          catalogue check --size 9 data/samples/puzzle_9x9.rcv
          catalogue generate --count 3 | catalogue check -
        """
        entries = read_entries(path, input_format, size)
        valid = invalid = unreadable = 0
        for entry in entries:
            if isinstance(entry, FormatError):
                unreadable += 1
                report(str(entry))
                continue
            ok, line = check_line(entry)
            valid += ok
            invalid += not ok
            typer.echo(line)
        parts = [f"{valid} valid"] + [f"{invalid} invalid"] * bool(invalid) + [f"{unreadable} unreadable"] * bool(
            unreadable)
        report(f"{len(entries)} grid{'s' if len(entries) != 1 else ''}: {', '.join(parts)}")
        if invalid or unreadable:
            raise typer.Exit(1)
