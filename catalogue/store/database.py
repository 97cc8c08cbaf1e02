"""Connections to a catalogue's database: engines, SQLite settings, the write lock, the fast read path.

- SQLite: every connection gets WAL (readers never block the writer), a 30 s busy timeout (a second process
  waits for the lock instead of failing at once), foreign keys ON and synchronous=NORMAL (in WAL mode a
  committed transaction survives a killed process; only a power cut can lose the last commits), and for the
  writer a larger page cache and checkpoint interval (see WRITER_CACHE_KIB, CHECKPOINT_PAGES). pysqlite's own
  transaction handling is switched off so that we emit BEGIN ourselves: that is what makes ``BEGIN IMMEDIATE``
  possible (SQLAlchemy's documented pysqlite recipe).
- ``write_transaction(engine)`` is the database write lock. On SQLite it is ``BEGIN IMMEDIATE``: the write lock
  is taken at BEGIN, so two writers never both read ``max(number)`` and then collide. On PostgreSQL it is a
  transaction-scoped advisory lock on a constant key, which serialises board numbering across processes.
- ``sqlite_reader(path, revision)`` is the read commands' connection on a SQLite file already at the schema
  head: a plain stdlib ``sqlite3`` connection, because importing SQLAlchemy alone takes longer than the 200 ms
  a query may take. For the same reason this module imports SQLAlchemy inside the functions that need it.

Only :class:`catalogue.store.Catalogue` calls these; nothing else in the program opens a connection.
"""
from __future__ import annotations

import sqlite3
import time
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Optional

from ..config import hide_password, sqlite_path
from ..errors import UserError
from .location import check_sqlite_file, writable

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection, Engine

# SQLAlchemy is imported inside the functions that use it: importing it costs about the whole start-up budget of
# `catalogue query` (bench/bench_query.py; docs/benchmarks.md, Reading), and `reading()` on SQLite does not need it.

#: PostgreSQL advisory lock key for writes and migrations: any constant works, as long as every process uses it
WRITE_LOCK_KEY = 0x0CA7A106
BUSY_TIMEOUT_MS = 30_000
PG_CONNECT_TIMEOUT_S = 10


@dataclass
class LockClock:
    """This process's time on the write lock: waiting for it and holding it (seconds), and how often it was taken.

    Two ``perf_counter`` calls a transaction; ``bench/bench_scaleout.py`` prints the figures, which say where the
    lock saturates when several processes write one catalogue."""

    taken: int = 0
    waiting: float = 0.0
    holding: float = 0.0
    #: PostgreSQL blocks: time spent waiting for the writers of earlier blocks to commit (the lock is not held)
    turn: float = 0.0

    def reset(self) -> None:
        self.taken, self.waiting, self.holding, self.turn = 0, 0.0, 0.0, 0.0


#: the write lock's figures of this process (see LockClock)
lock_clock = LockClock()


#: SQLite's page cache per read-write connection, KiB (its default is 2,000). The writer inserts keys in random
#: order into the UNIQUE key index, so each batch touches pages all over it; once the index outgrows the cache
#: every batch read them back from the OS (bench/bench_scaleout.py capacity: docs/benchmarks.md, "Scale-out on
#: PostgreSQL"). Memory is
#: taken only as pages are read, up to this much.
WRITER_CACHE_KIB = 65_536
#: WAL pages after which a commit copies the log back into the database file (SQLite's default is 1,000). A
#: batch of 256 boards writes ~300 pages, so the default checkpointed every third or fourth batch, each time
#: writing and syncing pages scattered over a file that grows with the catalogue: the writer slowed as it grew.
#: 10,000 pages (~40 MB of log) checkpoints every ~30 batches. The price: in WAL mode with synchronous=NORMAL a
#: power cut (not a killed process) can lose the commits since the last checkpoint, now up to ~30 batches instead
#: of ~3 (their files then lie past the last board: the next fill's check at open reports them as strays, and
#: the boards numbered next replace them; docs/storage.md).
CHECKPOINT_PAGES = 10_000


def _sqlite_on_connect(dbapi_connection, _record) -> None:
    # None = autocommit at the driver level: pysqlite stops issuing its own BEGINs, ours (below) take over.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        # busy_timeout first: switching to WAL needs a lock another process may briefly hold.
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys = ON")
        _switch_to_wal(cursor)
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute(f"PRAGMA cache_size = {-WRITER_CACHE_KIB}")
        cursor.execute(f"PRAGMA wal_autocheckpoint = {CHECKPOINT_PAGES}")
    finally:
        cursor.close()


def _switch_to_wal(cursor) -> None:
    """``PRAGMA journal_mode = WAL``, retried while another connection holds the lock, up to the busy timeout.

    Switching a new file to WAL reads its header under a shared lock and then needs an exclusive one. When two
    connections do that at once (several processes or threads opening a new catalogue), each holds the shared
    lock the other waits on, so SQLite answers "database is locked" at once, without the busy handler (it would
    deadlock). Letting go and trying again breaks the tie: the first to win makes the file WAL, and the mode is
    stored in the file, so the others then find it set. Three threads opening a new catalogue on two busy cores:
    5 of 300 trios had an open fail before, 0 of 600 after."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    pause = 0.001
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


def _sqlite_on_connect_read_only(dbapi_connection, _record) -> None:
    dbapi_connection.isolation_level = None
    dbapi_connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    dbapi_connection.execute("PRAGMA query_only = ON")  # a read never writes, whatever a bug upstream might try


def _postgresql_on_connect_read_only(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
    finally:
        cursor.close()
    dbapi_connection.commit()


def _sqlite_on_begin(conn: Connection) -> None:
    mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
    conn.exec_driver_sql(f"BEGIN {mode}")


def make_engine(url: str, read_only: bool = False) -> Engine:
    """An engine for ``url`` with this project's connection settings (no schema check; see open_catalogue).

    ``read_only``: connections that change nothing, for the read commands. On SQLite no folder is made, the file
    is not switched to WAL (a switch rewrites its header: another program's database, or an empty file, would
    change), and every connection is query_only, opened as the readers' are (``_read_target``: the file must exist;
    the normal mode, so that the last reader to close removes the -wal and -shm files it made beside a catalogue);
    on PostgreSQL every transaction is READ ONLY."""
    from sqlalchemy import create_engine, event
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        if url.startswith("sqlite"):
            path = sqlite_path(url)
            if read_only and path is not None:
                engine = create_engine("sqlite://", creator=lambda: sqlite3.connect(
                    _read_target(path), uri=True, check_same_thread=False, isolation_level=None))
                event.listen(engine, "connect", _sqlite_on_connect_read_only)
                event.listen(engine, "begin", _sqlite_on_begin)
                return engine
            _make_sqlite_parent(url)
            if path is not None and path.is_file() and not writable(path):
                # a catalogue on a read-only disk: readable (verify, db current) through an immutable connection,
                # and every write fails with SQLite's "readonly database", which the boundary says in one line
                engine = create_engine("sqlite://", creator=lambda: sqlite3.connect(
                    _read_target(path), uri=True, check_same_thread=False, isolation_level=None))
                event.listen(engine, "connect", _sqlite_on_connect_read_only)
                event.listen(engine, "begin", _sqlite_on_begin)
                return engine
            engine = create_engine(url)
            event.listen(engine, "connect", _sqlite_on_connect)
            event.listen(engine, "begin", _sqlite_on_begin)
            return engine
        connect_args = {}
        if url.startswith("postgresql") and "connect_timeout" not in url:
            connect_args["connect_timeout"] = PG_CONNECT_TIMEOUT_S  # an unreachable host fails, never hangs
        engine = create_engine(url, connect_args=connect_args)
        if read_only and url.startswith("postgresql"):
            event.listen(engine, "connect", _postgresql_on_connect_read_only)
        return engine
    except (ArgumentError, NoSuchModuleError, ImportError, ValueError) as e:
        raise UserError(f"cannot open database {hide_password(url)}: not a usable database URL ({e})") from None


def _make_sqlite_parent(url: str) -> None:
    path = sqlite_path(url)
    if path is None:
        return
    check_sqlite_file(path)
    if path.parent.exists():
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot open database {path}: cannot create folder {path.parent} ({e.strerror})") \
            from None


@contextmanager
def write_transaction(bind: Engine | Connection) -> Iterator[Connection]:
    """A transaction that holds the catalogue's write lock from its first statement until commit.

    Use it for every batch that assigns board numbers: ``with write_transaction(engine) as conn: ...``.
    It commits when the block ends and rolls back if the block raises. ``Session(bind=conn)`` works inside it.
    ``bind`` is an engine (a connection is taken for the block) or a connection with no transaction open.
    """
    from sqlalchemy import text
    from sqlalchemy.engine import Connection

    with (nullcontext(bind) if isinstance(bind, Connection) else bind.connect()) as conn:
        dialect = conn.dialect.name
        if dialect == "sqlite":
            conn.execution_options(sqlite_begin="IMMEDIATE")
        asked = time.perf_counter()
        while True:
            transaction = conn.begin()
            if dialect != "postgresql":
                break
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": WRITE_LOCK_KEY})
            blocks = live_blocks(conn)
            if not blocks:
                break
            # writers are filling blocks of numbers (insert.store_rows): this transaction's max(number) + 1 would
            # land in one of them, so it lets go of the lock and waits until they are committed (or abandoned)
            transaction.rollback()
            for block in blocks:
                wait_for_block(conn, block.place)
        got = time.perf_counter()
        lock_clock.waiting += got - asked
        lock_clock.taken += 1
        with transaction:
            yield conn
        lock_clock.holding += time.perf_counter() - got  # commit included: the lock is held until it ends


# -- PostgreSQL: blocks of numbers (catalogue.store.insert explains the protocol) -----------------------------
# A block is marked by two session-level advisory locks its writer holds from reserving it until it commits:
# (BLOCK_ORDER, its place in line), exclusive, which later blocks wait on; and (BLOCK_SIZE, how many numbers it
# reserved), shared (blocks of one size share the key). pg_locks lists both with the writer's pid, which pairs them.
# The two classes are derived from the schema's name, so catalogues in two schemas of one database never see each
# other's blocks (advisory locks are already per database). A writer that dies loses its connection, and with it
# its locks: a dead block vanishes.
_SPACE = "(hashtext(current_schema()) & 1073741823) * 2"
BLOCK_ORDER, BLOCK_SIZE = _SPACE, f"{_SPACE} + 1"
#: PostgreSQL's SQLSTATEs for a lock wait that ran past lock_timeout, and for a deadlock it broke
LOCK_TIMEOUT, DEADLOCK = "55P03", "40P01"


@dataclass(frozen=True)
class Block:
    place: int  # its place in line: blocks commit in this order
    size: int  # how many numbers it reserved
    pid: int  # its writer's backend


def live_blocks(conn: Connection) -> list[Block]:
    """Every block a live writer holds, in line order."""
    from sqlalchemy import text

    rows = conn.execute(text(
        f"SELECT l.classid::bigint = ({BLOCK_ORDER}), l.objid::bigint, l.pid FROM pg_locks l "
        f"WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 "
        f"AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
        f"AND (l.classid::bigint = ({BLOCK_SIZE}) OR l.classid::bigint = ({BLOCK_ORDER}) "
        f"AND l.mode = 'ExclusiveLock')")).all()  # not the shared lock a waiter holds for an instant
    places = {pid: int(value) for is_place, value, pid in rows if is_place}
    sizes = {pid: int(value) for is_place, value, pid in rows if not is_place}
    # a writer between its two lock calls has only one: its block is not there yet
    return sorted((Block(places[pid], sizes[pid], pid) for pid in places if pid in sizes), key=lambda b: b.place)


#: step 2 of the protocol in one statement (every round trip under the lock counts): the block that follows every
#: committed board and every live block, its place after theirs, and its two locks; (first number, place)
RESERVE_BLOCK = f"""
WITH locks AS (
    SELECT l.classid::bigint AS class, l.objid::bigint AS value, l.pid, l.mode FROM pg_locks l
    WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
      AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())),
live AS (
    SELECT o.value AS place, s.value AS size FROM locks o JOIN locks s ON s.pid = o.pid AND s.class = ({BLOCK_SIZE})
    WHERE o.class = ({BLOCK_ORDER}) AND o.mode = 'ExclusiveLock'),
block AS (
    SELECT coalesce((SELECT max(number) FROM boards) + 1, 0) + coalesce(sum(size), 0) AS first,
           coalesce(max(place) + 1, 0) AS place FROM live)
SELECT first, place, pg_advisory_lock({BLOCK_ORDER}, place::int), pg_advisory_lock_shared({BLOCK_SIZE}, :size)
FROM block"""


#: what releases a block, as a select list (blocks.py puts it in the statement that reads max(number))
RELEASE_BLOCK = (f"pg_advisory_unlock({BLOCK_ORDER}, :place), "
                 f"pg_advisory_unlock_shared({BLOCK_SIZE}, :size)")


def release_block(conn: Connection, place: int, size: int) -> None:
    from sqlalchemy import text

    conn.execute(text(f"SELECT {RELEASE_BLOCK}"), {"place": place, "size": size})


def wait_for_block(conn: Connection, place: int, timeout_ms: Optional[int] = None) -> bool:
    """Wait until the block at ``place`` is committed or abandoned (its writer's lock is released); False if
    ``timeout_ms`` passed first. Outside a transaction of this connection's, or inside one (then in a savepoint,
    which a timeout rolls back without touching the rest)."""
    from sqlalchemy import text
    from sqlalchemy.exc import OperationalError

    wait = text(f"SELECT pg_advisory_lock_shared({BLOCK_ORDER}, :place), "
                f"pg_advisory_unlock_shared({BLOCK_ORDER}, :place)")
    outer = conn.in_transaction()
    scope = conn.begin_nested() if outer else conn.begin()
    try:
        with scope:
            if timeout_ms is not None:
                conn.execute(text(f"SET LOCAL lock_timeout = {int(timeout_ms)}"))
            conn.execute(wait, {"place": place})
            if timeout_ms is not None and outer:
                conn.execute(text("SET LOCAL lock_timeout TO DEFAULT"))  # a released savepoint keeps SET LOCAL
    except OperationalError as e:
        # a deadlock PostgreSQL broke by failing this wait: the caller looks at who waits for whom, as after a
        # timeout
        if getattr(e.orig, "sqlstate", None) not in (LOCK_TIMEOUT, DEADLOCK):
            raise
        return False
    return True


def _read_target(path: Path) -> str:
    """The URI a reader opens ``path`` by. A catalogue on a read-only disk or folder (a DVD, a read-only mount, a
    shared folder) cannot be read in WAL mode, which makes a shared-memory file beside it; no one can write such
    a file, so it is opened as immutable (SQLite then takes no locks at all). With a WAL file left beside it
    (committed work not yet copied into the database), immutable would not see that work, so the normal open is
    tried instead and its error said."""
    from urllib.parse import quote

    wal = path.with_name(path.name + "-wal")
    immutable = not writable(path) and not (wal.exists() and wal.stat().st_size)
    return f"file:{quote(str(path))}?{'immutable=1' if immutable else 'mode=rw'}"


def sqlite_reader(path: Path, head: str) -> Optional[sqlite3.Connection]:
    """A plain read-only sqlite3 connection on an existing SQLite catalogue at revision ``head``; None when the
    full path is needed (no such file, not a catalogue at head: the caller goes through SQLAlchemy, which
    migrates or explains what is wrong)."""
    if not path.is_file():
        return None
    try:
        conn = sqlite3.connect(_read_target(path), isolation_level=None, check_same_thread=False, uri=True)
    except sqlite3.Error:
        return None
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA query_only = ON")  # readers never write, whatever a bug upstream might try
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.Error:
        row = None
    if row is None or row[0] != head:
        conn.close()
        return None
    # one read transaction for the whole command: stats' counts and histograms come from one snapshot even
    # while a fill is committing batches
    conn.execute("BEGIN")
    return conn


def at_head(path: Path, head: str) -> bool:
    """Whether a SQLite catalogue file is at the schema revision ``head`` (read with the stdlib: no SQLAlchemy)."""
    conn = sqlite_reader(path, head)
    if conn is None:
        return False
    conn.close()
    return True
