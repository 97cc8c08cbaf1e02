"""User-facing errors and how the CLI turns them into one line on stderr and an exit code.

Exit codes: 0 success (an empty query result too), 1 runtime error (unknown id, bad file, failed worker),
2 usage error, 130 after Ctrl-C. A user error never shows a traceback.
"""
from __future__ import annotations

import typer
from typer.core import TyperGroup

EXIT_RUNTIME = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class UserError(Exception):
    """A problem the user can fix: printed as ``catalogue: <message>`` on stderr, exit code 1."""

    code = EXIT_RUNTIME


class UsageError(UserError):
    """Options that do not fit together: exit code 2."""

    code = EXIT_USAGE


class Interrupted(UserError):
    """Raised after a Ctrl-C once work in flight has been saved: exit code 130."""

    code = EXIT_INTERRUPTED


def report(message: str) -> None:
    """One line on stderr (messages and progress never go to stdout, which carries data)."""
    typer.echo(f"catalogue: {message}", err=True)


class CatalogueGroup(TyperGroup):
    """Runs a command and turns user errors and Ctrl-C into one line and the right exit code."""

    def invoke(self, ctx: typer.Context):
        try:
            return super().invoke(ctx)
        except UserError as e:
            report(str(e))
            ctx.exit(e.code)
        except KeyboardInterrupt:
            report("interrupted")
            ctx.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:  # `catalogue query | head`: the reader left, which is not an error of ours
            ctx.exit(0)
