"""Opening the catalogue: engines, SQLite settings, the write lock, and migrations on first use.

- SQLite: every connection gets WAL (readers never block the writer), a 30 s busy timeout (a second process
  waits for the lock instead of failing at once), foreign keys ON and synchronous=NORMAL (in WAL mode a
  committed transaction survives a killed process; only a power cut can lose the last commits). pysqlite's own
  transaction handling is switched off so that we emit BEGIN ourselves: that is what makes ``BEGIN IMMEDIATE``
  possible (SQLAlchemy's documented pysqlite recipe).
- ``write_transaction(engine)`` is the database write lock. On SQLite it is ``BEGIN IMMEDIATE``: the write lock
  is taken at BEGIN, so two writers never both read ``max(number)`` and then collide. On PostgreSQL it is a
  transaction-scoped advisory lock on a constant key, which serialises board numbering across processes.
- ``open_catalogue(settings)`` upgrades the schema to head the first time a database is used. The check is one
  small query against ``alembic_version`` compared with ``HEAD_REVISION``, so Alembic is imported only when a
  migration actually runs.
- ``reading(settings)`` is what the read commands (query, export, stats) use: on a SQLite file already at head
  it is a plain stdlib ``sqlite3`` connection, because importing SQLAlchemy alone takes longer than the 200 ms
  a query may take; anything else goes through open_catalogue. For the same reason this module imports
  SQLAlchemy inside the functions that need it. Reading never creates a catalogue: a SQLite file that does not
  exist is an error (a mistyped ``--db`` would otherwise leave an empty file behind and answer "nothing").
"""
from __future__ import annotations

import re
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Optional

from .config import Settings, hide_password, resolve
from .errors import UserError

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection, Engine

# SQLAlchemy is imported inside the functions that use it: importing it costs ~200 ms, more than the whole
# budget of `catalogue query` (bench/bench_query.py), and `reading()` on SQLite does not need it.

#: the newest migration in migrations/versions (tests/test_db.py checks it against Alembic's own idea of head)
HEAD_REVISION = "0003"
#: the revisions this program knows, oldest first: a database at any other revision is newer than the program
KNOWN_REVISIONS = ("0001", "0002", "0003")
#: PostgreSQL advisory lock key for writes and migrations: any constant works, as long as every process uses it
WRITE_LOCK_KEY = 0x0CA7A106
BUSY_TIMEOUT_MS = 30_000
PG_CONNECT_TIMEOUT_S = 10


def _sqlite_on_connect(dbapi_connection, _record) -> None:
    # None = autocommit at the driver level: pysqlite stops issuing its own BEGINs, ours (below) take over.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        # busy_timeout first: switching to WAL needs a lock another process may briefly hold.
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
    finally:
        cursor.close()


def _sqlite_on_begin(conn: Connection) -> None:
    mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
    conn.exec_driver_sql(f"BEGIN {mode}")


def make_engine(url: str) -> Engine:
    """An engine for ``url`` with this project's connection settings (no schema check; see open_catalogue)."""
    from sqlalchemy import create_engine, event
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        if url.startswith("sqlite"):
            _make_sqlite_parent(url)
            engine = create_engine(url)
            event.listen(engine, "connect", _sqlite_on_connect)
            event.listen(engine, "begin", _sqlite_on_begin)
            return engine
        connect_args = {}
        if url.startswith("postgresql") and "connect_timeout" not in url:
            connect_args["connect_timeout"] = PG_CONNECT_TIMEOUT_S  # an unreachable host fails, never hangs
        return create_engine(url, connect_args=connect_args)
    except (ArgumentError, NoSuchModuleError, ImportError, ValueError) as e:
        raise UserError(f"cannot open database {hide_password(url)}: not a usable database URL ({e})") from None


def _make_sqlite_parent(url: str) -> None:
    path = Settings(url, Path("."), 1, 1, 1).sqlite_path
    if path is None:
        return
    if path.is_dir():  # sqlite3 would only say "unable to open database file"
        raise UserError(f"cannot open database {path}: is a folder, not a database file")
    if path.parent.exists():
        if not path.parent.is_dir():
            raise UserError(f"cannot open database {path}: {path.parent} is a file, not a folder")
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot open database {path}: cannot create folder {path.parent} ({e.strerror})") \
            from None


def describe_error(exc: BaseException) -> str:
    """The useful part of a driver's error, lower-case, one line: 'connection refused', 'file is not a database'."""
    original = getattr(exc, "orig", None) or exc
    lines = [line.strip() for line in str(original).strip().splitlines() if line.strip()]
    message = lines[0] if lines else type(original).__name__
    # psycopg: 'connection failed: connection to server at "127.0.0.1", port 5433 failed: Connection refused'
    message = re.split(r"\bfailed: ", message)[-1]
    message = re.sub(r"^(FATAL|ERROR):\s*", "", message)
    return message[:1].lower() + message[1:]


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction that holds the catalogue's write lock from its first statement until commit.

    Use it for every batch that assigns board numbers: ``with write_transaction(engine) as conn: ...``.
    It commits when the block ends and rolls back if the block raises. ``Session(bind=conn)`` works inside it.
    """
    from sqlalchemy import text

    with engine.connect() as conn:
        dialect = conn.dialect.name
        if dialect == "sqlite":
            conn.execution_options(sqlite_begin="IMMEDIATE")
        with conn.begin():
            if dialect == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": WRITE_LOCK_KEY})
            yield conn


def current_revision(conn: Connection) -> Optional[str]:
    """The schema revision stored in the database, None for an empty database."""
    from sqlalchemy import inspect, text

    if not inspect(conn).has_table("alembic_version"):
        return None
    return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def migrations_dir() -> Path:
    """The folder of the ``migrations`` package (env.py, versions/), wherever it is installed."""
    import migrations

    # __path__ rather than __file__: an editable install made before migrations/__init__.py existed
    # imports the folder as a namespace package, whose __file__ is None.
    for entry in migrations.__path__:
        if (Path(entry) / "env.py").is_file():
            return Path(entry)
    raise UserError("the catalogue's migrations are missing from this installation (migrations/env.py)")


def alembic_config(url: str, connection: Optional[Connection] = None):
    """An Alembic Config for ``url`` that finds migrations/ wherever the package is installed, from any cwd."""
    from alembic.config import Config  # only on the (rare) upgrade path: Alembic is slow to import

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir()))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))  # ConfigParser interpolates '%'
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def upgrade(engine: Engine, url: str, revision: str = "head") -> tuple[Optional[str], Optional[str]]:
    """Migrate to ``revision`` under the write lock (two processes starting at once migrate once).

    Returns (revision before, revision after). Call it from the main thread before any worker starts.
    """
    from alembic import command

    with write_transaction(engine) as conn:
        before = current_revision(conn)  # re-read under the lock: another process may have just migrated
        if before != revision and not (revision == "head" and before == HEAD_REVISION):
            command.upgrade(alembic_config(url, conn), revision)
        after = current_revision(conn)
    return before, after


def require_existing(settings: Settings) -> None:
    """UserError unless the catalogue's SQLite file exists (servers are always 'there'; connecting tells)."""
    path = settings.sqlite_path
    if path is not None and not path.exists():
        raise UserError(f"no catalogue at {path}: `catalogue fill` makes one, `catalogue db upgrade` an empty one")


def open_catalogue(settings: Settings | None = None, *, migrate: bool = True, create: bool = True) -> Engine:
    """An engine on the catalogue, its schema upgraded to head if needed; user errors for bad databases.

    ``create=False`` (the read commands): a SQLite file that does not exist is a UserError, not a new catalogue.
    """
    from sqlalchemy.exc import DBAPIError

    settings = settings or resolve()
    if not create:
        require_existing(settings)
    engine = make_engine(settings.db_url)
    try:
        with engine.connect() as conn:
            revision = current_revision(conn)
        if revision is not None and revision not in KNOWN_REVISIONS:
            raise UserError(f"{settings.db_label} has schema revision {revision}, which this version of "
                            f"catalogue does not know: upgrade catalogue")
        if migrate and revision != HEAD_REVISION:
            upgrade(engine, settings.db_url)
    except DBAPIError as e:
        engine.dispose()
        raise UserError(f"cannot open database {settings.db_label}: {describe_error(e)}") from None
    except UserError:
        engine.dispose()
        raise
    return engine


def _sqlite_reader(settings: Settings) -> Optional[sqlite3.Connection]:
    """A plain sqlite3 connection on an existing SQLite catalogue at head; None when the full path is needed.

    None sends the caller to open_catalogue, which creates, migrates, or explains what is wrong.
    """
    path = settings.sqlite_path
    if path is None or not path.is_file():
        return None
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error:
        return None
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA query_only = ON")  # readers never write, whatever a bug upstream might try
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.Error:
        row = None
    if row is None or row[0] != HEAD_REVISION:
        conn.close()
        return None
    # one read transaction for the whole command: stats' counts and histograms come from one snapshot even
    # while a fill is committing batches
    conn.execute("BEGIN")
    return conn


@contextmanager
def reading(settings: Settings) -> Iterator[Any]:
    """A connection for read-only queries on a catalogue at head (migrated first if need be, never created).

    On an existing SQLite file at head it is a stdlib ``sqlite3.Connection`` (starting SQLAlchemy would cost
    more than `catalogue query` may take); otherwise a SQLAlchemy Connection. ``catalogue.repository``
    accepts both and runs the same SQL text on either.
    """
    conn = _sqlite_reader(settings)
    if conn is not None:
        try:
            yield conn
        except sqlite3.Error as e:
            raise UserError(f"cannot read database {settings.db_label}: {describe_error(e)}") from None
        finally:
            conn.close()
        return
    from sqlalchemy.exc import DBAPIError

    engine = open_catalogue(settings, create=False)
    try:
        with engine.connect() as sa_conn:
            yield sa_conn
    except DBAPIError as e:
        raise UserError(f"cannot read database {settings.db_label}: {describe_error(e)}") from None
    finally:
        engine.dispose()
