"""catalogue key: print the canonical key of every grid in a file."""
from __future__ import annotations

import enum
from typing import Annotated

import typer

from engine.canonical import KeySearchError, key_text
from engine.formats import FORMATS, conflict_errors, read_grids

from ..errors import UserError, report
from ..io import read_text


class Equivalence(str, enum.Enum):
    d4 = "d4"
    full = "full"
    none = "none"


InputFormat = enum.Enum("InputFormat", {name: name for name in ("auto", *FORMATS)}, type=str)


def register(app: typer.Typer) -> None:
    @app.command("key")
    def key(
        path: Annotated[str, typer.Argument(help="File of grids (any input format; '-' reads stdin).")],
        equivalence: Annotated[Equivalence, typer.Option(
            "--equivalence", "-e",
            help="d4: rotations and mirror images are the same grid; full: also band, stack, row and column "
                 "moves and relabelled digits; none: only the grid itself.")] = Equivalence.d4,
        input_format: Annotated[InputFormat, typer.Option(  # type: ignore[valid-type]
            "--input-format", "-f", help="Format of PATH (auto: detect it from the text).")] = InputFormat("auto"),
    ) -> None:
        """Print the canonical key of every grid in PATH, one per line, in line format.

        Grids that are the same under the equivalence get the same key (the smallest of their images; see
        engine.canonical). A grid that cannot be read or keyed gets one line on stderr naming file:line; the
        others are still keyed, and the exit code is then 1.
        """
        text, source = read_text(path)
        fmt = getattr(input_format, "value", input_format)
        grids, errors = read_grids(text, source, None if fmt == "auto" else fmt)
        if not grids and not errors:
            raise UserError(f"{source}: no grid found")
        # print in file order: keys to stdout, problems to stderr
        entries = sorted([(g.line, 0, g) for g in grids] + [(e.line, 1, e) for e in errors],
                         key=lambda item: (item[0], item[1]))
        failed = 0
        for _, is_error, entry in entries:
            if is_error:
                report(str(entry))
                failed += 1
                continue
            try:
                typer.echo(key_text(entry.grid.cells, entry.grid.box, equivalence.value))
            except KeySearchError as e:
                failed += 1
                clash = conflict_errors(entry)
                why = (clash[0].message if clash else str(e).split(": ", 1)[1])
                report(f"{entry.source}:{entry.line}: no {equivalence.value} key: {why}")
        if failed:
            raise typer.Exit(1)
