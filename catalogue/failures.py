"""What went wrong, in one line: the error boundary every command runs inside (and the web server's JSON errors).

:func:`describe` turns any exception into a :class:`Failure`: the line to print after ``catalogue: ``, the exit
code, the HTTP status a server answers with, and whether the failure was expected. Expected failures are the
ones a user, a machine or a file can cause: our own :class:`~catalogue.errors.UserError`, operating-system errors
(a full disk, a read-only folder, a name too long; the line names the path), database errors from SQLAlchemy and
the drivers (the line names the database, and says what a corrupt, locked, read-only or full one means), text
that does not decode, and resource limits (memory, recursion, numbers too large to convert). Anything else is a
bug of ours: one line that says so and asks for a report; the traceback is printed only with ``-v``.

Why one function rather than ``except`` clauses in each command: a command cannot know every way the layers below
it fail (a full disk reaches ``fill`` through SQLite, through a board file, or through the temp folder), and the
same exception must read the same wherever it surfaces: in the CLI, in a fill worker's summary, in the server.

This module imports only the standard library (and :mod:`catalogue.errors`, which imports nothing): it is on the
start-up path of every command. SQLAlchemy's and the drivers' exceptions are recognised by the modules their
classes come from, so nothing is imported to classify them or to read their text (:func:`describe_error`, which
the store uses too)."""
from __future__ import annotations

import errno
import re
from dataclasses import dataclass
from typing import Optional

from .errors import EXIT_INTERRUPTED, EXIT_RUNTIME, EXIT_USAGE, UserError, stopped_by  # noqa: F401 (importable)

#: where a bug is reported (the one line of an unexpected failure says it)
REPORT_TO = "the catalogue developers (docs/development.md says how)"


@dataclass(frozen=True)
class Failure:
    """One failure as the user sees it: ``catalogue: {message}`` on stderr, then exit ``code``."""

    message: str
    code: int = EXIT_RUNTIME
    #: False for a bug of ours: the line asks for a report and ``-v`` prints the traceback
    expected: bool = True
    #: what the web server answers with: 400 for bad input, 404 for an unknown id (the raiser says), 500 for a bug,
    #: 503 for a database that cannot answer now
    status: int = 400


#: the database messages name (set by :class:`catalogue.store.Catalogue` when it is made: a database error can
#: surface far from the code that opened it, in a worker thread or a generator of rows)
_database_label: Optional[str] = None


def set_database(label: Optional[str]) -> None:
    global _database_label
    _database_label = label


def describe(exc: BaseException) -> Failure:
    """The :class:`Failure` for ``exc``: one line, never a traceback (see the module's docstring)."""
    if isinstance(exc, UserError):
        return Failure(str(exc), exc.code, status=getattr(exc, "status", 400 if exc.code == EXIT_USAGE else 503))
    if isinstance(exc, KeyboardInterrupt):  # Ctrl-C, or SIGTERM's Terminated: "terminated"
        what, code = stopped_by(exc)
        return Failure(what, code, status=503)
    if _is_database_error(exc):
        return _database_failure(exc)
    if isinstance(exc, OSError):
        return Failure(os_error_text(exc), status=503 if exc.errno in _SERVER_SIDE_ERRNOS else 400)
    if isinstance(exc, UnicodeError):
        reason = getattr(exc, "reason", None) or str(exc)
        return Failure(f"text that is not UTF-8: {reason}")
    if isinstance(exc, MemoryError):
        return Failure("out of memory: the input or the work asked for is too big for this machine", status=503)
    if isinstance(exc, RecursionError):
        return Failure("the input is nested too deeply to process", status=400)
    if isinstance(exc, OverflowError) or _is_int_digits_limit(exc):
        return Failure(f"a number is too large: {_first_line(exc)}")
    return unexpected(exc)


def unexpected(exc: BaseException) -> Failure:
    """The one line for a bug: what was raised, that it is ours, how to see the traceback and where to report."""
    text = _first_line(exc)
    what = type(exc).__name__ + (f": {text}" if text else "")
    return Failure(f"internal error: {what} (a bug in catalogue: please report it to {REPORT_TO}; "
                   f"-v prints the traceback)", expected=False, status=500)


def os_error_text(exc: OSError) -> str:
    """``<path>: <why>`` for an operating-system error, with the path it was about when the error names one."""
    why = _OS_REASONS.get(exc.errno) or (exc.strerror or str(exc) or type(exc).__name__)
    why = why[:1].lower() + why[1:]
    paths = [p for p in (exc.filename, getattr(exc, "filename2", None)) if p is not None]
    if not paths:
        return why
    names = " -> ".join(_short_path(p) for p in paths)
    return f"{names}: {why}"


#: the operating system's words, made to say what the user can do about it
_OS_REASONS = {
    errno.ENOSPC: "no space left on the device (free some, then `catalogue verify --repair` restores any board "
                  "file that is missing)",
    errno.EDQUOT: "disk quota exceeded",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.ENAMETOOLONG: "the name is too long for the file system",
    errno.EMFILE: "too many open files (raise `ulimit -n`)",
    errno.EIO: "input/output error (a failing disk or a device that is not a file)",
}
#: errors of the machine rather than of the request: the server answers 503 ("try later"), not 400
_SERVER_SIDE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EMFILE, errno.EIO})


def _short_path(path) -> str:
    """A path as messages show it: whole unless absurdly long (a 5,000-character name would fill the screen)."""
    text = path.decode(errors="replace") if isinstance(path, bytes) else str(path)
    return text if len(text) <= 200 else f"{text[:100]}...{text[-60:]} ({len(text)} characters)"


# -- database errors -------------------------------------------------------------------------------------------
_DATABASE_MODULES = ("sqlalchemy", "sqlite3", "_sqlite3", "psycopg", "alembic")


def _is_database_error(exc: BaseException) -> bool:
    return any(cls.__module__.split(".")[0] in _DATABASE_MODULES for cls in type(exc).__mro__[:-2])


#: (words in the driver's message, what they mean to a user, HTTP status). SQLite's result codes as its messages
#: spell them, and PostgreSQL's.
_DATABASE_MEANINGS = (
    (("database disk image is malformed", "file is not a database", "malformed database schema"),
     "the database file is corrupt ({why}): restore it from a backup", 503),
    (("database is locked", "database table is locked"),
     "the database is busy: another process held its lock for longer than the 30 s this command waits", 503),
    (("attempt to write a readonly database", "readonly database", "read-only transaction"),
     "the database is read-only ({why}): this command writes to it", 503),
    (("database or disk is full", "no space left on device", "disk full"),
     "no space left for the database ({why}): free some and run the command again; nothing committed is lost",
     503),
    (("unable to open database file",),
     "cannot open the database file ({why}): check that its folder exists and can be written", 503),
    (("disk i/o error",),
     "input/output error reading the database: a failing disk, or a path that is a device, not a file", 503),
    (("connection refused", "could not connect", "could not translate host name", "timeout expired",
      "server closed the connection"),
     "the database server does not answer ({why})", 503),
)


def database_meaning(why: str) -> tuple[str, int]:
    """A driver's reason (``describe_error``) in words a user can act on, and the HTTP status it calls for."""
    lowered = why.lower()
    for words, meaning, status in _DATABASE_MEANINGS:
        if any(word in lowered for word in words):
            return meaning.format(why=why), status
    return why, 503


def describe_error(exc: BaseException) -> str:
    """The useful part of a driver's error, lower-case, one line: 'connection refused', 'file is not a database'."""
    original = getattr(exc, "orig", None) or exc
    lines = [line.strip() for line in str(original).strip().splitlines() if line.strip()]
    message = lines[0] if lines else type(original).__name__
    # psycopg: 'connection failed: connection to server at "127.0.0.1", port 5433 failed: Connection refused'
    message = re.split(r"\bfailed: ", message)[-1]
    message = re.sub(r"^(FATAL|ERROR):\s*", "", message)
    return message[:1].lower() + message[1:]


def _database_failure(exc: BaseException) -> Failure:
    where = f"database {_database_label}" if _database_label else "database"
    meaning, status = database_meaning(describe_error(exc))
    return Failure(f"{where}: {meaning}", status=status)


# -- helpers ---------------------------------------------------------------------------------------------------
def _is_int_digits_limit(exc: BaseException) -> bool:
    # Python's guard against quadratic int(str) conversion (CVE-2020-10735) raises a plain ValueError
    return isinstance(exc, ValueError) and "limit" in str(exc) and "integer string conversion" in str(exc)


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    text = lines[0] if lines else ""
    return text if len(text) <= 300 else text[:300] + "..."
