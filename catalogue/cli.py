"""The ``catalogue`` command line: thin typer commands that parse options and call library functions.

Each command lives in its own module under :mod:`catalogue.commands` and adds itself with ``register(app)``.
Data goes to stdout; messages and progress go to stderr.

Command modules are imported only when their command runs (:class:`LazyGroup`): the engine's compiled kernels
cost ~0.3 s of numba import that ``catalogue query`` and ``catalogue export`` must not pay (their targets are 200
and 300 ms from the shell). ``catalogue --help`` imports them all to list them.
"""
from __future__ import annotations

from importlib import import_module
from typing import Annotated, Optional

import typer
import typer.main

from . import __version__
from .errors import CatalogueGroup

#: command name -> module under catalogue.commands, in the order the commands appear in --help
COMMANDS = {
    "fill": "fill",
    "query": "query",
    "export": "export",
    "stats": "stats",
    "verify": "verify",
    "db": "dbcmd",
    "generate": "generate",
    "solve": "solve",
    "check": "check",
    "carve": "carve",
    "key": "key",
    "grade": "grade",
    "explore": "explore",
}


def load_command(name: str):
    """Import one command module and build the click command typer makes of it (None for an unknown name).

    Only typer's public names are used here and everywhere: typer 0.29 vendors its own click, so a separately
    installed click would be a different library whose exceptions and contexts typer does not know."""
    module = COMMANDS.get(name)
    if module is None:
        return None
    holder = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
    import_module(f"catalogue.commands.{module}").register(holder)

    @holder.callback()
    def _holder() -> None:  # a callback makes typer build a group even for a single command
        pass

    return typer.main.get_group(holder).commands.get(name)


class LazyGroup(CatalogueGroup):
    def list_commands(self, ctx: typer.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: typer.Context, cmd_name: str):
        return load_command(cmd_name)


app = typer.Typer(
    cls=LazyGroup,
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


def main() -> None:
    # Before any command module imports a kernel: numba fixes a kernel's cache folder when it is defined. Cheap
    # (hashes the engine's source, sets NUMBA_CACHE_DIR); numba itself is not imported here.
    from engine import cache

    cache.enable()
    app()
