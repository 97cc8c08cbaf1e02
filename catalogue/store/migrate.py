"""The migrations glue: which schema revision a database is at, and upgrading it with Alembic.

The migrations themselves (``env.py``, ``versions/``) live in ``catalogue/store/migrations`` and travel as data
of the package, so an installed catalogue finds them from any working directory. Alembic is imported only when a
migration actually runs: it is slow to import, and most commands find their database already at head.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional

from .database import write_transaction

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection, Engine

#: where the migrations are: data files inside this package
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: the revisions this program knows, oldest first, read from the migrations' file names (``0008_step_names.py``:
#: each file's revision is its first four digits; a test holds them to Alembic's own chain): a database at any
#: other revision is newer than the program. Listing a folder is next to free, where importing Alembic would add
#: its import time to every command's start (docs/benchmarks.md, "Reading").
KNOWN_REVISIONS = tuple(sorted(p.name[:4] for p in (MIGRATIONS / "versions").glob("[0-9][0-9][0-9][0-9]_*.py")))
#: the newest migration (a test checks it against Alembic's own idea of head)
HEAD_REVISION = KNOWN_REVISIONS[-1]


def current_revision(conn: Connection) -> Optional[str]:
    """The schema revision stored in the database, None for an empty database."""
    from sqlalchemy import inspect, text

    if not inspect(conn).has_table("alembic_version"):
        return None
    return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def foreign_tables(conn: Connection) -> list[str]:
    """The tables of the database (its current schema) that a catalogue did not make (neither the models' nor
    Alembic's), sorted."""
    from sqlalchemy import inspect

    from .models import Base

    ours = set(Base.metadata.tables) | {"alembic_version"}
    return sorted(set(inspect(conn).get_table_names()) - ours)


def describe_foreign(tables: list[str]) -> str:
    """``it holds other tables (a, b, c)``: why a database is not a catalogue (the first five named)."""
    more = f" and {len(tables) - 5} more" if len(tables) > 5 else ""
    return f"it holds other tables ({', '.join(tables[:5])}{more})"


def refuse_foreign_tables(conn: Connection, url: str) -> None:
    """Refuse to make a catalogue in a database that holds another program's tables: a schema is made only in an
    empty database (file or PostgreSQL schema), never beside tables a catalogue did not make."""
    from ..config import database_label
    from ..errors import UserError

    foreign = foreign_tables(conn)
    if foreign:
        raise UserError(f"{database_label(url)} is not a catalogue: {describe_foreign(foreign)}; give a new file, "
                        f"or an empty database or schema")


def describe_revision(revision: Optional[str]) -> str:
    """``0004 (head)``, ``0003``, ``empty (no schema)``, or a revision newer than this program."""
    if revision is None:
        return "empty (no schema)"
    if revision not in KNOWN_REVISIONS:
        return f"{revision} (newer than this version of catalogue: upgrade catalogue)"
    return f"{revision} (head)" if revision == HEAD_REVISION else revision


def alembic_config(url: str, connection: Optional[Connection] = None):
    """An Alembic Config for ``url`` that finds the migrations wherever the package is installed, from any cwd."""
    import sys

    from alembic.config import Config

    # stdout named at each call: Config's default is the sys.stdout of the moment alembic was first imported, which
    # may be a stream since closed (a migration run first inside typer's CliRunner, as the import tests do)
    cfg = Config(stdout=sys.stdout)
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))  # ConfigParser interpolates '%'
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def upgrade(engine: Engine, url: str, revision: str = "head") -> tuple[Optional[str], Optional[str]]:
    """Migrate to ``revision`` under the write lock (two processes starting at once migrate once).

    Returns (revision before, revision after). Call it from the main thread before any worker starts.
    """
    return _migrate(engine, url, revision, downgrade=False)


def downgrade(engine: Engine, url: str, revision: str) -> tuple[Optional[str], Optional[str]]:
    """Migrate back to ``revision`` (for developers and the migration tests; no command offers it)."""
    return _migrate(engine, url, revision, downgrade=True)


def _migrate(engine: Engine, url: str, revision: str, downgrade: bool) -> tuple[Optional[str], Optional[str]]:
    """One migration under the write lock.

    On SQLite, foreign-key enforcement is off for the migration's connection (it cannot change inside a
    transaction): rebuilding a table that others refer to (revision 0004) drops and renames it, which SQLite
    would otherwise refuse or reject at commit. That is SQLite's documented procedure for schema changes; the
    migration checks every reference (``PRAGMA foreign_key_check``) before it commits.
    """
    from alembic import command

    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as conn:
        # on the driver's connection: through SQLAlchemy the statement would open a transaction first
        raw = conn.connection.driver_connection
        if sqlite:
            raw.execute("PRAGMA foreign_keys = OFF")
        try:
            with write_transaction(conn) as locked:
                before = current_revision(locked)  # re-read under the lock: another process may have migrated
                if before is None and not downgrade:
                    refuse_foreign_tables(locked, url)
                if downgrade:
                    command.downgrade(alembic_config(url, locked), revision)
                elif before != revision and not (revision == "head" and before == HEAD_REVISION):
                    command.upgrade(alembic_config(url, locked), revision)
                after = current_revision(locked)
        finally:
            if sqlite:
                raw.execute("PRAGMA foreign_keys = ON")
    return before, after
