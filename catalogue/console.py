"""What the program says on stderr: one line per note or error, and whether to say it (``-q`` and ``-v``).

Data goes to stdout; every note, warning and error goes through :func:`report`, and every failure through
:func:`fail`, which prints its one line (:func:`catalogue.failures.describe`). The CLI's root command sets the
state once (``-q``: :func:`set_quiet`, ``-v``: :func:`set_verbose`); the library (the pipeline, the progress
display, the kernels' warm-up, the web server) reads it. Standard library only, as are the modules it imports:
no typer, so the library prints as the CLI does without loading it.
"""
from __future__ import annotations

import re
import sys

from .failures import describe

#: set once by the root command's -q/--quiet (:func:`set_quiet`): notes and progress are silenced, errors are not
_quiet = False
#: set once by the root command's -v/--verbose: a bug's traceback is printed after its one line
_verbose = False


def set_quiet(quiet: bool) -> None:
    global _quiet
    _quiet = bool(quiet)


def set_verbose(verbose: bool) -> None:
    global _verbose
    _verbose = bool(verbose)


def is_quiet() -> bool:
    return _quiet


def is_verbose() -> bool:
    return _verbose


#: a quoted value longer than this is shortened in a message: an option value of 100,000 characters was echoed
#: whole into its error line
MAX_ECHOED = 120
_QUOTED = re.compile(r"'([^'\n]{%d,})'|\"([^\"\n]{%d,})\"" % (MAX_ECHOED + 1, MAX_ECHOED + 1))
#: ANSI style codes, as click's ``echo`` strips them from a stream that is not a terminal (the pattern is click's)
_ANSI = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")


def shorten_values(message: str) -> str:
    """``message`` with every quoted value longer than :data:`MAX_ECHOED` cut to its start and its length:
    ``'xxxx...' (100,000 characters)``."""
    def cut(found: re.Match) -> str:
        value = found.group(1) if found.group(1) is not None else found.group(2)
        return f"'{value[:40]}...' ({len(value):,} characters)"

    return _QUOTED.sub(cut, message)


def report(message: str, error: bool = False) -> None:
    """One line on stderr (messages and progress never go to stdout, which carries data): the one place notes
    are printed, quoted values kept short (:func:`shorten_values`). Under ``-q`` only errors (``error=True``) are
    printed."""
    if _quiet and not error:
        return
    # sys.stderr as it is now, not a stream cached at start-up: a progress display on the terminal replaces
    # sys.stderr with a proxy that prints the line above itself (a write past it would break the display)
    _write_line(f"catalogue: {shorten_values(message)}", sys.stderr)


def _write_line(line: str, stream) -> None:
    """What ``typer.echo(line, file=stream)`` does with a line of text: style codes removed unless the stream is
    a terminal, the line ended and flushed at once."""
    if stream is None:  # no stderr at all (pythonw)
        return
    if not _isatty(stream):
        line = _ANSI.sub("", line)
    stream.write(line + "\n")
    stream.flush()


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except Exception:  # noqa: BLE001 - a stream that cannot say is not a terminal
        return False


def fail(exc: BaseException, where: str | None = None):
    """Print the one line for ``exc`` (:func:`catalogue.failures.describe`), after ``where`` if given, and return
    the :class:`~catalogue.failures.Failure`; a bug's traceback follows only under ``-v``. The error boundary of
    every command (:class:`catalogue.cli.group.CatalogueGroup`), and of every request of the web server."""
    failure = describe(exc)
    report(f"{where}: {failure.message}" if where else failure.message, error=True)
    if not failure.expected and _verbose:
        import traceback

        traceback.print_exception(exc, file=sys.stderr)
    return failure
