"""Settings every catalogue command shares: where the database is, where board files go, how many workers.

Precedence, highest first: the command-line option (``--db``, ``--out``), the environment variable
(``CATALOGUE_DB``, ``CATALOGUE_OUT``, ``CATALOGUE_GENERATORS``, ``CATALOGUE_CHECKERS``, ``CATALOGUE_QUEUE_SIZE``),
then the defaults below. ``--db`` takes any SQLAlchemy URL or a plain file path, which means a SQLite file.

This module imports only the standard library and typer: it sits on the start-up path of ``catalogue query``
and ``catalogue export``, which must answer in a fraction of a second.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Optional

import typer

from .errors import UsageError

DEFAULT_DB = "sqlite:///./data/catalogue.db"
DEFAULT_OUT = "./data/boards"
DEFAULT_QUEUE_SIZE = 256

ENV_DB = "CATALOGUE_DB"
ENV_OUT = "CATALOGUE_OUT"
ENV_GENERATORS = "CATALOGUE_GENERATORS"
ENV_CHECKERS = "CATALOGUE_CHECKERS"
ENV_QUEUE_SIZE = "CATALOGUE_QUEUE_SIZE"

# The shared typer options: every command that opens the catalogue declares `db: DbOption = None` and
# `out: OutOption = None` and passes both to `resolve`, so names, help and precedence are the same everywhere.
DbOption = Annotated[Optional[str], typer.Option(
    "--db", metavar="URL|PATH",
    help=f"Catalogue database: a SQLAlchemy URL (sqlite:///file.db, postgresql+psycopg://user@host/db) or a "
         f"SQLite file path. Default: ${ENV_DB}, else {DEFAULT_DB}.")]
OutOption = Annotated[Optional[str], typer.Option(
    "--out", metavar="DIR",
    help=f"Folder of the board files N.txt. Default: ${ENV_OUT}, else {DEFAULT_OUT}.")]


@dataclass(frozen=True)
class Settings:
    """Where the catalogue lives and how the fill pipeline is sized."""

    db_url: str
    out_dir: Path
    generators: int
    checkers: int
    queue_size: int

    @property
    def is_sqlite(self) -> bool:
        return self.db_url.startswith("sqlite")

    @property
    def sqlite_path(self) -> Optional[Path]:
        """The database file of a SQLite URL (None for PostgreSQL and for in-memory SQLite)."""
        if not self.is_sqlite:
            return None
        _, _, rest = self.db_url.partition(":///")
        rest, _, query = rest.partition("?")
        if "uri=true" in query.lower().split("&") and rest.startswith("file:"):
            # SQLite's URI form (sqlite:///file:c.db?mode=ro&uri=true): the file is what follows "file:"
            rest = rest.removeprefix("file:")
        return Path(rest) if rest and rest != ":memory:" else None

    @property
    def db_label(self) -> str:
        """How messages name the database: the file for SQLite, the URL without its password otherwise."""
        path = self.sqlite_path
        if path is not None:
            return str(path)
        return hide_password(self.db_url)


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


def normalise_db(value: str) -> str:
    """A SQLAlchemy URL from what the user typed: URLs pass through, anything else is a SQLite file path.

    ``postgresql://`` and ``postgres://`` get the psycopg 3 driver, the one this project installs (SQLAlchemy
    would otherwise look for psycopg2).
    """
    value = value.strip()
    if not value:
        raise UsageError("--db is empty: give a database URL or a SQLite file path")
    if "://" not in value:
        # A path: sqlite:///relative/path or sqlite:////absolute/path, exactly as SQLAlchemy spells them.
        return f"sqlite:///{Path(value).expanduser()}"
    scheme, _, rest = value.partition("://")
    if scheme in ("postgresql", "postgres"):
        return f"postgresql+psycopg://{rest}"
    return value


def _env_int(name: str, default: int, minimum: int = 1) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = int(raw)
    except ValueError:
        raise UsageError(f"${name}={raw!r} is not a whole number") from None
    if value < minimum:
        raise UsageError(f"${name}={value} must be at least {minimum}")
    return value


def default_workers() -> int:
    """Threads per CPU stage: one per core (the kernels release the GIL, so threads use every core)."""
    return max(1, os.cpu_count() or 1)


def resolve(db: str | None = None, out: str | None = None, *, workers: bool = True) -> Settings:
    """The settings for one command: options first, then environment variables, then defaults.

    ``workers=False`` (commands that start no pipeline: query, export, stats, verify, db) leaves the worker
    variables unread, so a bad ``$CATALOGUE_GENERATORS`` meant for fill does not stop a query.
    """
    db_value = db if db is not None else os.environ.get(ENV_DB) or DEFAULT_DB
    out_value = out if out is not None else os.environ.get(ENV_OUT) or DEFAULT_OUT
    if not out_value.strip():
        raise UsageError("--out is empty: give a folder for the board files")
    threads = default_workers()
    env_int = _env_int if workers else (lambda _name, default: default)
    return Settings(
        db_url=normalise_db(db_value),
        out_dir=Path(out_value).expanduser(),
        generators=env_int(ENV_GENERATORS, threads),
        checkers=env_int(ENV_CHECKERS, threads),
        queue_size=env_int(ENV_QUEUE_SIZE, DEFAULT_QUEUE_SIZE),
    )
