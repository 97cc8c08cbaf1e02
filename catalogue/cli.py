"""The ``catalogue`` command line: thin typer commands that parse options and call library functions.

Each command lives in its own module under :mod:`catalogue.commands` and adds itself with ``register(app)``.
Data goes to stdout; messages and progress go to stderr.
"""
from __future__ import annotations

from importlib import import_module
from typing import Annotated, Optional

import typer

from . import __version__
from .errors import CatalogueGroup

#: the modules under catalogue.commands, in the order their commands appear in --help
COMMAND_MODULES = [
    "solve",
    "generate",
    "check",
    "explore",
]

app = typer.Typer(
    cls=CatalogueGroup,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Build, check and serve a catalogue of unique Sudoku boards and the minimal puzzles carved from them.",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"catalogue {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[Optional[bool], typer.Option("--version", callback=_version, is_eager=True,
                                                    help="Print the version and exit.")] = None,
) -> None:
    """Build, check and serve a catalogue of unique Sudoku boards and the minimal puzzles carved from them."""


for _name in COMMAND_MODULES:
    import_module(f"catalogue.commands.{_name}").register(app)


def main() -> None:
    app()
