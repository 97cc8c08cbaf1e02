"""User-facing errors and how the CLI turns them into one line on stderr and an exit code.

Exit codes: 0 success (an empty query result too), 1 runtime error (unknown id, bad file, failed worker),
2 usage error, 130 after Ctrl-C. A user error never shows a traceback.
"""
from __future__ import annotations

import re
import sys

import typer
# typer 0.29 raises its vendored click's usage errors and exports only BadParameter of them: these are the
# classes it raises (a separately installed click's would never match)
from typer._click.exceptions import ClickException, NoArgsIsHelpError
from typer._click.exceptions import UsageError as ClickUsageError
from typer.core import TyperGroup

from .failures import EXIT_INTERRUPTED, EXIT_RUNTIME, EXIT_USAGE, describe


class UserError(Exception):
    """A problem the user can fix: printed as ``catalogue: <message>`` on stderr, exit code 1."""

    code = EXIT_RUNTIME


class UsageError(UserError):
    """Options that do not fit together: exit code 2."""

    code = EXIT_USAGE


class Interrupted(UserError):
    """Raised after a Ctrl-C once work in flight has been saved: exit code 130."""

    code = EXIT_INTERRUPTED


def unknown_choice(option: str, noun: str, value: object, names) -> str:
    """The one line for a value outside a fixed set: ``--technique: no technique 'xwing'; one of: a, b, c``."""
    return f"{option}: no {noun} {value!r}; one of: {', '.join(names)}"


#: what an option's values are called in :func:`unknown_choice` when the option's name does not say it
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
    message = shorten_values(message)
    # sys.stderr as it is now, not click's cached stream of fd 2: a progress display on the terminal replaces
    # sys.stderr with a proxy that prints the line above itself (a write past it would break the display)
    typer.echo(f"catalogue: {message}", file=sys.stderr)


def fail(exc: BaseException, where: str | None = None):
    """Print the one line for ``exc`` (:func:`catalogue.failures.describe`), after ``where`` if given, and return
    the :class:`~catalogue.failures.Failure`; a bug's traceback follows only under ``-v``. The error boundary of
    every command, and of every request of the web server."""
    failure = describe(exc)
    report(f"{where}: {failure.message}" if where else failure.message, error=True)
    if not failure.expected and _verbose:
        import traceback

        traceback.print_exception(exc, file=sys.stderr)
    return failure


class CatalogueGroup(TyperGroup):
    """The error boundary: runs a command and turns every failure into one line and the right exit code (usage
    errors 2, Ctrl-C 130, everything else :func:`fail`: 1). Nothing a command raises reaches the user as a
    traceback, unless it is a bug and ``-v`` was given.

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
        except KeyboardInterrupt:
            report("interrupted")
            ctx.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:  # `catalogue query | head`: the reader left, which is not an error of ours
            ctx.exit(0)
        except (typer.Exit, typer.Abort, ClickException):  # click's own ways out: it prints and exits as it should
            raise
        except Exception as e:  # noqa: BLE001 - the boundary: every other failure becomes one line
            ctx.exit(fail(e).code)


def background_map(fn, items, name: str = "worker", ahead: int = 16, label: str | None = None, threads: int = 1,
                   jobs: list[str] | None = None):
    """Yield ``fn(item)`` for each item, in order, computed in ``threads`` daemon threads.

    Why: a compiled kernel holds the thread that called it until it returns (counting the solutions of an empty
    25x25 grid, carving a 25x25 board, grading), and Python only runs its Ctrl-C handler between bytecodes of the
    main thread, so a kernel called from the main thread made Ctrl-C wait for the kernel. Here the main thread
    only waits on a queue with a timeout, so Ctrl-C raises KeyboardInterrupt at once (exit 130 via
    :class:`CatalogueGroup`); the daemon threads die with the process. One thread (the default) does the whole
    sequence and keeps its per-thread scratch arrays; more take the items in turn (a kernel that releases the GIL
    then runs on several cores), and the results still come out in the items' order. At most ``ahead`` results
    are ever in front of the caller. An exception in ``fn`` (or in iterating ``items``) is raised in the caller,
    at its place in the order, as if ``fn`` had been called there. With ``label``, a big input shows a bar over the
    items on the terminal (``catalogue.progress.item_bar``), after the kernels of ``jobs`` (catalogue/kernels.py)
    are made ready, before any thread starts.
    """
    import queue
    import threading

    out: queue.Queue = queue.Queue()
    room = threading.Semaphore(ahead)  # a slot per result not yet consumed
    stop = threading.Event()
    done = object()
    source = iter(items)
    taking = threading.Lock()  # the items are taken (and numbered) one thread at a time
    taken = [0]

    def work() -> None:
        while not stop.is_set():
            if not room.acquire(timeout=0.1):
                continue
            with taking:
                index = taken[0]
                try:
                    item = next(source)
                except StopIteration:
                    out.put((index, done, None))
                    return
                except BaseException as e:  # handed to the caller's thread
                    out.put((index, None, e))
                    return
                taken[0] += 1
            try:
                out.put((index, fn(item), None))
            except BaseException as e:
                out.put((index, None, e))
                return

    from contextlib import nullcontext

    if label is not None:
        from .progress import item_bar

        bar = item_bar(label, len(items) if hasattr(items, "__len__") else None, jobs=jobs, what=name)
    else:
        bar = nullcontext(None)
    try:
        with bar as step:  # the kernels are ready when it is entered: only then do the threads start
            for k in range(max(1, threads)):
                threading.Thread(target=work, name=name if threads <= 1 else f"{name}-{k}", daemon=True).start()
            waiting: dict = {}  # results that came before the one due
            count = 0
            while True:
                if count not in waiting:
                    try:
                        index, value, error = out.get(timeout=0.1)
                    except queue.Empty:
                        continue
                    waiting[index] = (value, error)
                    continue
                value, error = waiting.pop(count)
                if error is not None:
                    raise error
                if value is done:
                    return
                count += 1
                room.release()
                if step is not None:
                    step(count)
                yield value
    finally:
        stop.set()
