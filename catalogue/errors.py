"""The errors a user can fix, and the exit codes they end a command with.

Exit codes: 0 success (an empty query result too), 1 runtime error (unknown id, bad file, failed worker),
2 usage error, 130 after Ctrl-C and after SIGTERM (:data:`EXIT_TERMINATED`). A user error never shows a
traceback: the CLI's error boundary (:class:`catalogue.cli.group.CatalogueGroup`) prints it as one line, and the
web server answers it with its status (:mod:`catalogue.failures` says how every other exception reads).

Standard library only, and nothing else of catalogue's: the store, the pipeline and the server raise these
without loading the CLI.
"""
from __future__ import annotations

EXIT_RUNTIME = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
#: the exit code after SIGTERM: 130 as after Ctrl-C, not the shell's 143 (128 + 15), because fill and import
#: documented 130 for both before every command stopped on SIGTERM (docs/storage.md, "What survives"; the fill and
#: import guides); the line says which signal it was (``terminated``, not ``interrupted``)
EXIT_TERMINATED = 130


class UserError(Exception):
    """A problem the user can fix: printed as ``catalogue: <message>`` on stderr, exit code 1."""

    code = EXIT_RUNTIME


class UsageError(UserError):
    """Options that do not fit together: exit code 2."""

    code = EXIT_USAGE


class Interrupted(UserError):
    """Raised after a Ctrl-C once work in flight has been saved: exit code 130."""

    code = EXIT_INTERRUPTED

    def __init__(self, message: str, code: int = EXIT_INTERRUPTED):
        super().__init__(message)
        self.code = code


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread as Ctrl-C raises KeyboardInterrupt (:mod:`catalogue.signals`): every
    ``except KeyboardInterrupt`` cleans up after it the same way, and the line says ``terminated``."""

    what = "terminated"
    code = EXIT_TERMINATED


def stopped_by(exc: BaseException) -> tuple[str, int]:
    """What stopped a command, as its line says it, and the exit code: ``("terminated", EXIT_TERMINATED)`` for
    :class:`Terminated`, ``("interrupted", EXIT_INTERRUPTED)`` for any other KeyboardInterrupt."""
    if isinstance(exc, Terminated):
        return "terminated", EXIT_TERMINATED
    return "interrupted", EXIT_INTERRUPTED


def unknown_choice(option: str, noun: str, value: object, names) -> str:
    """The one line for a value outside a fixed set: ``--technique: no technique 'xwing'; one of: a, b, c``."""
    return f"{option}: no {noun} {value!r}; one of: {', '.join(names)}"
