"""catalogue check: read grids in any input format and report, for each, whether its digits conflict."""
from __future__ import annotations

import enum
from typing import Annotated, Optional

import typer

from engine.formats import FORMATS, FormatError, Parsed, parse
from engine.grid import Grid

from ..errors import UserError, report
from ..io import read_text

InputFormat = enum.Enum("InputFormat", {"auto": "auto", **{name: name for name in FORMATS}}, type=str)
InputFormat.__doc__ = "Input formats of `catalogue check` (auto = recognise from the text)."


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
        input_format: Annotated[InputFormat, typer.Option(
            "--input-format", "-f", case_sensitive=False,
            help="Format of the input; auto recognises it from the text.")] = InputFormat.auto,
        box: Annotated[Optional[int], typer.Option(
            min=2, max=5, show_default=False,
            help="Box size (2-5: grids 4x4..25x25) when the input cannot tell, e.g. sparse row-column-value files."
        )] = None,
    ) -> None:
        """Check every grid in a file: list each invalid cell with its reason (row, column and/or box conflict)
        and say whether the grid is a board or a puzzle with K clues. Exit 0 if every grid is valid, 1 if any is
        invalid or cannot be read (read errors go to stderr as file:line:column: message)."""
        text, source = read_text(path)
        fmt = None if input_format.value == "auto" else input_format.value
        entries = parse(text, source, fmt, box)
        if not entries:
            raise UserError(f"{source}: no grid found")
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
