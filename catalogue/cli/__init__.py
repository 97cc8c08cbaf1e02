"""The ``catalogue`` command line: thin typer commands that parse options and call library functions.

Each command lives in its own module under :mod:`catalogue.cli.commands` and adds itself with ``register(app)``.
Data goes to stdout; messages and progress go to stderr (:mod:`catalogue.console`).

The package is the only part of catalogue that imports typer (tests/test_imports.py checks it), and nothing
outside it imports it but the entry points (``catalogue.entry``, ``python -m catalogue``):

``__init__.py``  the app, the lazy group of :data:`COMMANDS`, ``-q``/``-v``, :func:`main`
``group.py``     the error boundary every command runs inside (:class:`~catalogue.cli.group.CatalogueGroup`)
``options.py``   the options several commands share (``--db``, ``--out``, ``--threads``, ``--format``, ...)
``filters.py``   the option groups that select puzzles (``@filter_options``, ``@sample_options``)
``commands/``    one module per command

Command modules are imported only when their command runs (:class:`LazyGroup`): the engine's compiled kernels
cost numba's import, a large share of the start-up that ``catalogue query`` and ``catalogue export`` may not pay
(their targets are 200 and 300 ms from the shell: docs/benchmarks.md, Reading). ``catalogue --help`` and shell
completion of command names list the commands from :data:`COMMANDS` (name, module, one-line summary) without
importing any command module; a test checks that
each summary is the first sentence of its command's own help, so the two cannot drift apart.
"""
from __future__ import annotations

import os
import sys
from importlib import import_module
from typing import Annotated

import typer
import typer.main
from typer.core import CompletionItem

from .. import __version__
from .group import CatalogueGroup

#: ``-h`` as well as ``--help``, on every command: click hands help_option_names down to every sub-context, so
#: the lazily loaded commands (and `db`'s subcommands) inherit them. ``--help`` first: it is the name click
#: quotes in "Try 'catalogue query --help' for help."
CONTEXT_SETTINGS = {"help_option_names": ["--help", "-h"]}

#: command name -> (module under catalogue.cli.commands, one-line summary), in the order the commands appear in
#: --help. The summary is the first sentence of the command's help (tests/test_help_examples.py checks it).
COMMANDS = {
    "fill": ("fill", "Add new unique boards, with carved puzzles, to the catalogue."),
    "import": ("importcmd", "Add the puzzles of files that have exactly one solution to the catalogue."),
    "query": ("query", "List puzzles from the catalogue, filtered and sorted."),
    "daily": ("daily", "Print the puzzle of the day, one per level."),
    "book": ("book", "Lay puzzles from the catalogue out as a print-ready book (PDF) or sheet (SVG)."),
    "export": ("export", "Print one board and its puzzle."),
    "stats": ("stats", "Summarise what the catalogue holds and how it was made."),
    "verify": ("verify", "Check the catalogue's database and board files."),
    "regrade": ("regrade", "Grade the catalogue's puzzles again with this version's grader, and store the grades "
                           "that changed."),
    "serve": ("serve", "Serve the catalogue read-only over HTTP: a JSON API with OpenAPI docs."),
    "db": ("dbcmd", "Inspect and migrate the catalogue's schema."),
    "generate": ("generate", "Print complete boards made by a generator."),
    "solve": ("solve", "Solve every puzzle in a file, or count its solutions."),
    "check": ("check", "Check every grid in a file for conflicting digits and for exactly one solution."),
    "carve": ("carve", "Carve each complete board of a file into a unique puzzle."),
    "key": ("key", "Print the canonical key of every grid in a file."),
    "grade": ("grade", "Grade every puzzle in a file the way a person would solve it."),
    "explore": ("explore", "Time the solvers on random grids with K valid clues."),
    "compile": ("compile", "Compile the engine's kernels now, for the commands and grid sizes given."),
}


#: command -> {old flag: the option it is now}: old names that still work, hidden from --help. `solve --count`
#: and `solve --limit` became --count-solutions and --max-solutions: everywhere else --count is how many to make
#: and --limit how many to show.
HIDDEN_ALIASES = {"solve": {"--count": "--count-solutions", "--limit": "--max-solutions"}}


def _add_hidden_aliases(command, aliases: dict[str, str]):
    """Give ``command`` a hidden option per old flag: a copy of the renamed option under the old flag, with the
    same parameter name, so the parser stores either flag's value where the command reads it."""
    import copy

    for old, new in aliases.items():
        option = next(p for p in command.params if new in p.opts)
        alias = copy.copy(option)
        alias.opts, alias.secondary_opts, alias.hidden = [old], [], True
        command.params.append(alias)
    return command


def _number_annotation(annotation) -> bool:
    """int or float, also inside Optional[...] / list[...] (how typer annotations spell optional numbers)."""
    from typing import get_args

    if annotation in (int, float):
        return True
    return any(_number_annotation(arg) for arg in get_args(annotation))


def _strict_numbers(command):
    """Refuse numbers with spaces around them (``--count ' 5'``) like any other malformed number.

    Why: typer converts option values through pydantic, whose lax mode strips whitespace from numeric strings, so
    ``' 5'`` was accepted where ``'5x'`` was a usage error; a value that a script built wrongly should be named,
    not guessed at. Applied to every number option and argument of every command (and of a group's commands)."""
    for param in getattr(command, "params", []):
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is None or not _number_annotation(descriptor.annotation):
            continue

        def process_value(ctx, value, _param=param, _process=param.process_value):
            for raw in value if isinstance(value, (list, tuple)) else [value]:
                if isinstance(raw, str) and raw != raw.strip():
                    raise typer.BadParameter(f"{raw!r} is not a valid number (spaces around it)", ctx=ctx,
                                             param=_param)
            return _process(ctx, value)

        param.process_value = process_value
    for sub in getattr(command, "commands", {}).values():
        _strict_numbers(sub)
    return command


#: typer's names of an option's value type -> what the help shows instead (a choice list is shown as it is)
_VALUE_NAMES = {"<int>": "N", "<int range>": "N", "<float>": "X", "<float range>": "X", "<str>": "TEXT"}


def _plain_help(command):
    """Arguments and options shown as a person writes them: ``ID`` and ``FILE...`` in the usage line and in the
    help, ``--count N``, without typer's internals (``{ID}``, ``{FILE...}...``, ``path <str>``, ``FILE...
    <list[str]>``, ``<int range>``, ``x<=9223372036854775807``). The help text says what a value may be; a value
    outside its range is still refused with the range named."""
    for param in getattr(command, "params", []):
        kind = getattr(param, "param_type_name", "")
        if kind == "argument":
            name = (param.metavar or param.name).upper().rstrip(".")
            shown = (name if param.required else f"[{name}]") + ("..." if param.nargs != 1 else "")
            param._usage_display_name = param._rich_display_name = lambda shown=shown: shown
            param.display_type_rich = lambda ctx: None
        elif kind == "option" and hasattr(param, "display_type_rich"):
            param.display_type_rich = (lambda ctx, shown=param.display_type_rich:
                                       _VALUE_NAMES.get(shown(ctx), shown(ctx)))
            param._get_number_range_help_str = lambda: None
    for sub in getattr(command, "commands", {}).values():
        _plain_help(sub)
    return command


def load_command(name: str):
    """Import one command module and build the click command typer makes of it (None for an unknown name).

    Only typer's public names are used here and everywhere: typer 0.29 vendors its own click, so a separately
    installed click would be a different library whose exceptions and contexts typer does not know."""
    entry = COMMANDS.get(name)
    if entry is None:
        return None
    holder = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
                         context_settings=CONTEXT_SETTINGS)
    import_module(f"catalogue.cli.commands.{entry[0]}").register(holder)

    @holder.callback()
    def _holder() -> None:  # a callback makes typer build a group even for a single command
        pass

    command = typer.main.get_group(holder).commands.get(name)
    return _plain_help(_strict_numbers(_add_hidden_aliases(command, HIDDEN_ALIASES.get(name, {}))))


class LazyGroup(CatalogueGroup):
    def list_commands(self, ctx: typer.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: typer.Context, cmd_name: str):
        return load_command(cmd_name)

    def format_commands(self, ctx: typer.Context, formatter) -> None:
        """The command list of ``catalogue --help`` from :data:`COMMANDS`: no command module is imported, and
        each summary is a whole sentence (folded by the formatter when narrow, never cut with "...")."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, summary) for name, (_, summary) in COMMANDS.items()])

    def shell_complete(self, ctx: typer.Context, incomplete: str) -> list[CompletionItem]:
        """Command names complete from :data:`COMMANDS` too (a TAB must not import numba)."""
        names = [CompletionItem(name, help=summary) for name, (_, summary) in COMMANDS.items()
                 if name.startswith(incomplete)]
        return names + typer.core.TyperCommand.shell_complete(self, ctx, incomplete)

    def get_params(self, ctx: typer.Context):
        # typer coerces every option value that is not already a bool through pydantic, whose import is a large
        # share of a read command's start-up; the root's --help and completion flags default to None, so
        # `catalogue query --help` paid it
        # before query's own --help could answer. False is what "not given" means to their callbacks anyway.
        params = super().get_params(ctx)
        for param in params:
            if getattr(param, "is_flag", False) and param.default is None:
                param.default = False
        return params


app = typer.Typer(
    cls=LazyGroup,
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings=CONTEXT_SETTINGS,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"catalogue {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    # a plain bool (False when absent), not Optional[bool]: typer coerces None through pydantic (its import)
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing on stderr but errors: no progress, "
                                                              "no notes (data on stdout is unchanged).")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log more detail on stderr (cache folder, "
                                                                  "timings).")] = False,
) -> None:
    """Build, check and serve a catalogue of unique Sudoku boards and the minimal puzzles carved from them.

    Each command has its own help with examples: catalogue COMMAND -h.

    \b
    Examples:
      catalogue fill --count 20 --seed 1 --db demo.db
      catalogue query --db demo.db --limit 5
      catalogue generate --count 2 | catalogue carve -
    """
    _set_verbosity(quiet, verbose)


def _set_verbosity(quiet: bool, verbose: bool) -> None:
    """-q silences notes and progress (:func:`catalogue.console.report` and the display consult it); -v turns on
    the ``catalogue`` logger's INFO records on stderr (standard logging), -q wins if both are given. Without -v,
    logging is not imported here (``catalogue query --help`` must stay fast)."""
    from ..console import set_quiet, set_verbose

    set_quiet(quiet)
    verbose = verbose and not quiet
    set_verbose(verbose)
    if not verbose and "logging" not in sys.modules:
        return
    import logging

    class StderrHandler(logging.StreamHandler):
        """Writes to ``sys.stderr`` as it is at each record: while a progress display runs, that is rich's proxy,
        which prints the line above the display (a handler holding the original stream would break it)."""

        @property
        def stream(self):
            return sys.stderr

        @stream.setter
        def stream(self, value) -> None:
            pass

    logger = logging.getLogger("catalogue")
    for handler in [h for h in logger.handlers if getattr(h, "catalogue_verbose", False)]:
        logger.removeHandler(handler)  # a second invocation in one process (tests) starts afresh
    logger.setLevel(logging.INFO if verbose else logging.WARNING)
    if verbose:
        handler = StderrHandler()
        handler.catalogue_verbose = True
        handler.setFormatter(logging.Formatter("catalogue: %(message)s"))
        logger.addHandler(handler)


def main() -> None:
    try:
        from .. import signals

        signals.install()  # SIGTERM takes Ctrl-C's road (done already when the script's entry point ran)
        # Before any command module imports a kernel: numba fixes a kernel's cache folder when it is defined.
        # Cheap (hashes the engine's source, sets NUMBA_CACHE_DIR); numba itself is not imported here.
        from engine import cache

        cache.enable()
        app()
    except SystemExit as done:
        _say_stop(done)
        _leave(done)
        raise
    except KeyboardInterrupt as stop:  # before the commands' own boundary took over (typer setting up, an import)
        from ..console import report
        from ..errors import stopped_by

        what, code = stopped_by(stop)
        report(what, error=True)
        done = SystemExit(code)
        _leave(done)
        raise done from None


def _say_stop(done: SystemExit) -> None:
    """The line for a stop typer ended in silence: a Ctrl-C or SIGTERM outside the commands' boundary (while typer
    parses the options or closes the context) is turned by typer into exit 130 without a word (``raise Exit(130)
    from`` the KeyboardInterrupt: ``done``'s context is that Exit, its cause the KeyboardInterrupt). Seen about
    once in 150 Ctrl-Cs at random moments of a start."""
    stop = getattr(done.__context__, "__cause__", None)
    if isinstance(stop, KeyboardInterrupt):
        from ..console import report
        from ..errors import stopped_by

        what, done.code = stopped_by(stop)
        report(what, error=True)


def _leave(done: SystemExit) -> None:
    """Leave at once, past the interpreter's shutdown, when a daemon thread is still alive (a command that failed
    while its threads grade or carve), and always after Ctrl-C or SIGTERM.

    Why: such a thread may be inside LLVM, compiling a kernel, and a normal exit runs LLVM's static destructors
    under it: LLVM then aborts (seen in CI: an assertion in SelectionDAG, exit -6 where Ctrl-C must give 130).
    And a stop must end within 2 s (docs/reliability.md, "Stopping"): a normal exit joins every thread that is
    not a daemon (fill's checkers, import's workers, the server's request threads), and one inside a 25x25
    carving or an endless search held the process for seconds or for ever after its last line; and the
    interpreter's own shutdown, with numba and LLVM loaded, is slow too (what a stop takes, measured: the same
    section). Nothing is lost by leaving early: every command closes or removes what it writes before it returns
    (files are written under a temporary name and renamed; the database's own transactions are whole or absent;
    fill and import store nothing a thread hands over after they stopped waiting for it)."""
    import threading

    from ..errors import EXIT_INTERRUPTED, EXIT_TERMINATED

    stopped = done.code in (EXIT_INTERRUPTED, EXIT_TERMINATED)
    if not stopped and not any(t.daemon and t.is_alive() for t in threading.enumerate()):
        return
    code = done.code
    if code is not None and not isinstance(code, int):  # sys.exit("message"): print it as Python would
        print(code, file=sys.stderr)
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (`| head`) or stream: nothing more can reach the reader
            pass
    os._exit(code or 0)
