"""Whether a database URL or path can hold a catalogue, checked before anything is read, created or written.

A catalogue is persistent: its boards are numbered once and their files written beside it. So a URL that keeps
nothing (SQLite in memory) is refused, and so is a path that can never be a database file (a folder, a device,
a name the file system cannot hold, a path through a file), each in one line naming the path, before a database
file is created or a board file written. A file that exists but does not open cleanly is examined with SQLite's
``PRAGMA quick_check`` so that the line says "corrupt" and where, rather than the driver's first complaint.

Standard library only: this runs on the start-up path of ``catalogue query``.
"""
from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path
from typing import Optional

from ..config import hide_password
from ..errors import UserError

#: lines of ``PRAGMA quick_check`` a message quotes (SQLite lists up to 100 problems)
QUICK_CHECK_LINES = 3


def check_url(url: str) -> None:
    """Refuse, in one line, a SQLAlchemy URL that cannot hold a persistent catalogue."""
    if not url.startswith("sqlite"):
        return
    _, _, rest = url.partition("://")
    path, _, query = rest.partition("?")
    options = {part.split("=", 1)[0].lower(): part.partition("=")[2].lower() for part in query.split("&") if part}
    in_memory = (path in ("", "/", "/:memory:") or path.startswith("/file::memory:")
                 or options.get("mode") == "memory")
    if in_memory:
        raise UserError(f"--db {hide_password(url)}: a SQLite database in memory keeps nothing after the command "
                        f"ends: give a file path (e.g. data/catalogue.db) or a server's URL")


def check_sqlite_file(path: Path) -> None:
    """One clear UserError when ``path`` can never be a SQLite database file (sqlite3 would only say "unable to
    open database file", or "disk I/O error" for a device); nothing is created."""
    _check_name_lengths(path)
    try:
        mode = path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):  # the second is named below: the file in the folder's place
        mode = None
    except OSError as e:  # a loop of links, a folder we may not enter: the OS's words, naming the path
        raise UserError(f"cannot open database {_shown(path)}: {(e.strerror or str(e)).lower()}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise UserError(f"cannot open database {path}: is a folder, not a database file")
    if mode is not None and not stat.S_ISREG(mode):
        kind = "a pipe" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
        raise UserError(f"cannot open database {path}: is {kind}, not a database file")
    blocker = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise UserError(f"cannot open database {path}: {blocker} is a file, not a folder")


def _check_name_lengths(path: Path) -> None:
    """A path the file system cannot hold, said before any call fails with errno 36 deep inside a driver."""
    text = os.fspath(path)
    limit_path = _pathconf(path, "PC_PATH_MAX", 4096)
    if len(os.fsencode(os.path.abspath(text))) >= limit_path:
        raise UserError(f"cannot open database {_shown(path)}: the path is too long ({len(text):,} characters; "
                        f"this system allows {limit_path - 1:,})")
    limit_name = _pathconf(path, "PC_NAME_MAX", 255)
    for part in path.parts:
        if len(os.fsencode(part)) > limit_name:
            raise UserError(f"cannot open database {_shown(path)}: a name in the path is too long "
                            f"({len(part):,} characters; the file system allows {limit_name})")


def _pathconf(path: Path, name: str, default: int) -> int:
    """A file-system limit at the nearest existing folder of ``path``."""
    folder = next((p for p in [path, *path.absolute().parents] if _exists(p)), Path("/"))
    try:
        return os.pathconf(folder, name)
    except (OSError, ValueError):
        return default


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:  # the name itself is too long to ask about
        return False


def _shown(path: Path) -> str:
    text = os.fspath(path)
    return text if len(text) <= 200 else f"{text[:100]}...{text[-60:]}"


def quick_check(path: Path) -> Optional[list[str]]:
    """What SQLite's ``PRAGMA quick_check`` finds wrong in the database file ``path``: [] when it is sound, None
    when it could not be run (no access, a read-only folder: not a finding about the file's pages)."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return _findings(row[0] for row in conn.execute("PRAGMA quick_check"))
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        return [str(e)] if _is_damage(str(e)) else None
    except sqlite3.Error:
        return None


def _findings(rows) -> list[str]:
    rows = list(rows)
    return [] if rows == ["ok"] else rows


#: what SQLite says of a file whose pages or header are damaged (SQLITE_CORRUPT, SQLITE_NOTADB)
_DAMAGE_WORDS = ("malformed", "file is not a database", "corrupt")


def _is_damage(message: str) -> bool:
    return any(word in message.lower() for word in _DAMAGE_WORDS)


def damage(path: Path) -> Optional[str]:
    """Why a SQLite file cannot be used, in words for a message, when the file itself is the reason: damaged
    pages (``quick_check``), or no database at all, or read-only to us. None: look at the driver's error."""
    problems = quick_check(path)
    if problems == ["file is not a database"]:
        return "not a SQLite database file (or an encrypted one, or one whose header is destroyed)"
    if problems:
        problems = [" ".join(problem.split()) for problem in problems]  # SQLite's lines hold newlines of their own
        shown = "; ".join(problems[:QUICK_CHECK_LINES]) + (f"; and {len(problems) - QUICK_CHECK_LINES} more"
                                                          if len(problems) > QUICK_CHECK_LINES else "")
        return f"the file is corrupt (PRAGMA quick_check: {shown}): restore it from a backup"
    if not writable(path):
        return ("the file or its folder is read-only, and SQLite needs to write beside a catalogue it changes "
                "(its journal): use a copy where it can")
    return None


def writable(path: Path) -> bool:
    """Whether SQLite can write ``path`` and make its journal files beside it (a read-only file system or
    folder, or a read-only file, says no; ``os.access`` also asks the file system, so root sees EROFS)."""
    return os.access(path, os.W_OK) and os.access(path.parent if str(path.parent) else Path("."), os.W_OK)


def unusable(label: str, path: Optional[Path], verb: str, error: BaseException) -> UserError:
    """The one line for a driver's error while opening, reading or writing a catalogue: a SQLite file that fails
    ``PRAGMA quick_check`` is called corrupt (the driver's own words name only the first page it tripped on), or
    read-only; anything else is the driver's reason in a user's words (``failures.database_meaning``)."""
    from ..failures import database_meaning, describe_error

    why = damage(path) if path is not None and path.is_file() else None
    return UserError(f"cannot {verb} database {label}: {why or database_meaning(describe_error(error))[0]}")
