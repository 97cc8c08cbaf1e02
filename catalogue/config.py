"""Every setting of the catalogue and its environment variable, in one place.

Precedence, highest first: the command-line option, its environment variable, the default below. The
environment variables are read by click's own ``envvar`` support on each option (so ``--help`` shows them and a
bad value is a usage error naming the variable), never by hand: the Python API (``Catalogue.open``) reads no
environment at all.

| option           | environment variable     | default                                                |
|------------------|--------------------------|--------------------------------------------------------|
| ``--db``         | ``CATALOGUE_DB``         | ``./data/catalogue.db`` (a SQLite file)                |
| ``--out``        | ``CATALOGUE_OUT``        | the folder the catalogue recorded, else beside its file |
| ``--generators`` | ``CATALOGUE_GENERATORS`` | one per core                                           |
| ``--checkers``   | ``CATALOGUE_CHECKERS``   | one per core                                           |
| ``--queue-size`` | ``CATALOGUE_QUEUE_SIZE`` | 256 boards                                             |

The options themselves (``DbOption``, ``OutOption``, ...) are declared once in :mod:`catalogue.cli.options`, from
the defaults here. This module imports only the standard library: it sits on the start-up path of ``catalogue
query`` and ``catalogue export``, which must answer in a fraction of a second, and the store reads it.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from .errors import UsageError

DEFAULT_DB = "./data/catalogue.db"
#: the board folder of a catalogue with no database file (PostgreSQL) when none is recorded or given
DEFAULT_SERVER_FOLDER = "./data/boards"
DEFAULT_QUEUE_SIZE = 256
#: the search budget of one puzzle in `solve`, `check` and `import` (overridable: --node-limit, 0 = never): a
#: conflict-free 25x25 puzzle without a solution can take the search longer than anyone waits (one ran for hours),
#: and one such line must not hold up a file of others. 10 million nodes is seconds of CPU on 25x25, and no puzzle
#: with one solution that the catalogue makes needs a tenth of it; a 9x9 search never comes near.
NODE_BUDGET = 10_000_000
#: test hook, not a user setting: "stage:n" makes the fill actors of that stage raise InjectedFailure on their
#: n-th unit of work, so the failure path is exercised with a real exception in a real thread
#: (tests/catalogue/pipeline/test_pipeline.py, test_signals.py)
FAIL_ENV = "CATALOGUE_TEST_FAIL"
#: upper bounds of the sizing options: every worker is an OS thread (30,000 of them never got started), and the
#: queue is allocated in batches the kernels fill whole
MAX_WORKERS = 256
MAX_QUEUE_SIZE = 1_000_000
#: the largest seed a command takes (--seed): the kernels' int64
SEED_MAX = 2 ** 63 - 1
#: the bits of a seed drawn when none is given: 53, exact in JSON and JavaScript (the page and the API show them)
SEED_BITS = 53


def draw_seed() -> int:
    """A run's seed when none is given (fill, generate, the page's random puzzle): printed or stored, so the run
    can be made again."""
    import secrets

    return secrets.randbelow(2 ** SEED_BITS)


def default_workers() -> int:
    """Threads per CPU stage: one per core (the kernels release the GIL, so threads use every core)."""
    return max(1, os.cpu_count() or 1)


def hide_password(url: str) -> str:
    """``scheme://user:secret@host/db`` -> ``scheme://user:***@host/db`` (messages never show a password)."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    creds, at, host = rest.rpartition("@")
    if ":" not in creds:
        return url
    user = creds.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}"


def database_url(value: Optional[str | os.PathLike] = None) -> str:
    """A SQLAlchemy URL from what the user typed (None: the default): URLs pass through, anything else is a
    SQLite file path.

    ``postgresql://`` and ``postgres://`` get the psycopg 3 driver, the one this project installs (SQLAlchemy
    would otherwise look for psycopg2).
    """
    value = os.fspath(DEFAULT_DB if value is None else value).strip()
    if not value:
        raise UsageError("--db is empty: give a database URL or a SQLite file path")
    if "://" not in value:
        # A path: sqlite:///relative/path or sqlite:////absolute/path, exactly as SQLAlchemy spells them.
        return f"sqlite:///{Path(value).expanduser()}"
    scheme, _, rest = value.partition("://")
    if scheme in ("postgresql", "postgres"):
        return f"postgresql+psycopg://{rest}"
    return value


def sqlite_path(url: str) -> Optional[Path]:
    """The database file of a SQLite URL (None for other databases and for in-memory SQLite)."""
    if not url.startswith("sqlite"):
        return None
    _, _, rest = url.partition(":///")
    rest, _, query = rest.partition("?")
    if "uri=true" in query.lower().split("&") and rest.startswith("file:"):
        # SQLite's URI form (sqlite:///file:c.db?mode=ro&uri=true): the file is what follows "file:"
        rest = rest.removeprefix("file:")
    return Path(rest) if rest and rest != ":memory:" else None


def database_label(url: str) -> str:
    """How messages name a database: the file for SQLite, the URL without its password otherwise."""
    path = sqlite_path(url)
    return str(path) if path is not None else hide_password(url)
