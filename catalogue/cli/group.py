"""The error boundary of every command: how the CLI turns a failure into one line on stderr and an exit code.

Exit codes: 0 success (an empty query result too), 1 runtime error (unknown id, bad file, failed worker),
2 usage error, 130 after Ctrl-C or SIGTERM. A user error never shows a traceback.
"""
from __future__ import annotations

import re

import typer
# typer 0.29 raises its vendored click's usage errors and exports only BadParameter of them: these are the
# classes it raises (a separately installed click's would never match)
from typer._click.exceptions import ClickException, NoArgsIsHelpError
from typer._click.exceptions import UsageError as ClickUsageError
from typer.core import TyperGroup

from ..console import fail, report
from ..errors import EXIT_USAGE, stopped_by

#: what an option's values are called in :func:`catalogue.errors.unknown_choice`'s line when the option's name
#: does not say it
CHOICE_NOUNS = {"--order-by": "sort key"}
#: typer's text for a value outside an enum's members: the value is taken from it for our line
_TYPER_NOT_ONE_OF = re.compile(r"^(?:Value error, )?(?P<value>'.*') is not one of ")


def usage_line(error: ClickUsageError) -> str:
    """One line for a usage error typer raised while parsing the options (no usage block, no "Try --help").

    A value outside a choice names the option and lists the valid values; anything else is typer's own message
    (``Invalid value for '--count': ...``, ``No such option: --bogus``)."""
    param = getattr(error, "param", None)
    choices = getattr(getattr(param, "type_descriptor", None), "choices", None)
    if choices and isinstance(error, typer.BadParameter):
        argument = getattr(param, "param_type_name", "") == "argument"  # named by its metavar: COMMAND
        option = (getattr(param, "metavar", None) or param.name.upper()) if argument or not param.opts else max(
            param.opts, key=len)
        found = _TYPER_NOT_ONE_OF.match(error.message)
        names = [getattr(c, "value", c) for c in choices]
        noun = CHOICE_NOUNS.get(option, option.lstrip("-").replace("-", " ").lower())
        if found:
            return f"{option}: no {noun} {found['value']}; one of: {', '.join(map(str, names))}"
    return error.format_message()


class CatalogueGroup(TyperGroup):
    """The error boundary: runs a command and turns every failure into one line and the right exit code (usage
    errors 2, Ctrl-C and SIGTERM 130, everything else :func:`catalogue.console.fail`: 1). Nothing a command
    raises reaches the user as a traceback, unless it is a bug and ``-v`` was given.

    Choices are case-insensitive everywhere (``--level EASY``, ``--technique X-Wing``): the context's
    ``token_normalize_func`` folds the case of every choice, option and command name before typer compares them,
    which our names (all lower case, vocabulary.py) allow, so no option needs its own ``case_sensitive=False``."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.context_settings.setdefault("token_normalize_func", str.lower)

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except NoArgsIsHelpError:
            raise
        except ClickUsageError as e:  # `catalogue --bogus`: the root's own options
            report(usage_line(e), error=True)
            raise typer.Exit(EXIT_USAGE) from None

    def invoke(self, ctx: typer.Context):
        try:
            return super().invoke(ctx)
        except NoArgsIsHelpError:  # `catalogue db`: typer prints the help
            raise
        except ClickUsageError as e:
            report(usage_line(e), error=True)
            ctx.exit(EXIT_USAGE)
        except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM (catalogue.signals): "terminated"
            what, code = stopped_by(stop)
            report(what, error=True)  # why the exit code is 130: said under -q too
            ctx.exit(code)
        except BrokenPipeError:  # `catalogue query | head`: the reader left, which is not an error of ours
            ctx.exit(0)
        except (typer.Exit, typer.Abort, ClickException):  # click's own ways out: it prints and exits as it should
            raise
        except Exception as e:  # noqa: BLE001 - the boundary: every other failure becomes one line
            ctx.exit(fail(e).code)
