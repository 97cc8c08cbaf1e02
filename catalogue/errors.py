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


def background_map(fn, items, name: str = "worker", ahead: int = 16):
    """Yield ``fn(item)`` for each item, in order, computed in a daemon thread.

    Why: a compiled kernel holds the thread that called it until it returns (counting the solutions of an empty
    25x25 grid, carving a 25x25 board, grading), and Python only runs its Ctrl-C handler between bytecodes of the
    main thread, so a kernel called from the main thread made Ctrl-C wait for the kernel. Here the main thread
    only waits on a queue with a timeout, so Ctrl-C raises KeyboardInterrupt at once (exit 130 via
    :class:`CatalogueGroup`); the daemon thread dies with the process. One thread for the whole sequence keeps
    its per-thread scratch arrays, and the bounded queue keeps it at most ``ahead`` results in front.
    An exception in ``fn`` is raised in the caller, as if ``fn`` had been called there.
    """
    import queue
    import threading

    out: queue.Queue = queue.Queue(maxsize=ahead)
    stop = threading.Event()
    done = object()

    def put(item) -> bool:
        while not stop.is_set():
            try:
                out.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def work() -> None:
        try:
            for item in items:
                if not put((fn(item), None)):
                    return
            put((done, None))
        except BaseException as e:  # handed to the caller's thread
            put((None, e))

    threading.Thread(target=work, name=name, daemon=True).start()
    try:
        while True:
            try:
                value, error = out.get(timeout=0.1)
            except queue.Empty:
                continue
            if error is not None:
                raise error
            if value is done:
                return
            yield value
    finally:
        stop.set()
