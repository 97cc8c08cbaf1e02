"""The Catalogue: one object that owns every read and write of one catalogue, its database and its board folder.

Shaped like datasette's ``Database``: one object per catalogue; reads on any thread (each read takes its own
connection: a plain ``sqlite3`` one on a SQLite file at head, SQLAlchemy otherwise); writes go through its write
path only (:meth:`store_batch`, :meth:`write_board_files`, the run rows, the repairs), which holds the database
write lock for each transaction and a thread lock around each call, so a second writer thread waits its turn
instead of interleaving. In a fill the one writer actor makes those calls; commands, actors and the Python API
receive a Catalogue instead of a SQLAlchemy engine or paths, and nothing outside ``catalogue/store`` opens a
connection or writes a board file.

This file is the object itself: opening it (the checks, the connection, the schema), its reads and its identity.
Its write path (``write_path.WritePath``) and its board folder (``ownership.BoardFolder``) are mixins, an idea
each in a file of its own.

::

    with Catalogue.open("data/catalogue.db", create=False) as cat:
        hard = cat.puzzles(level="hard").sample(10, seed=1)   # a lazy PuzzleQuery
        board = cat.board(0)                                   # a BoardRecord
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Optional, Sequence

from ..config import database_label, database_url, sqlite_path
from ..errors import UserError
from ..failures import set_database
from . import folder as folders
from . import queries, summary
from .database import at_head, make_engine, sqlite_reader
from .location import check_sqlite_file, check_url, unusable
from .migrate import HEAD_REVISION, KNOWN_REVISIONS
from .ownership import BoardFolder
from .records import BoardRecord, PuzzleRecord
from .selection import DateLike, PuzzleFilter, PuzzleQuery
from .write_path import WritePath

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from .files import FileReport


class Catalogue(WritePath, BoardFolder):
    """One catalogue: ``url`` (its database), ``folder`` (its board files), ``id`` (what its folder's marker names).

    Make one with :meth:`open`; close it (or use ``with``) to release its connections.
    """

    def __init__(self, url: str, out: Optional[str | Path] = None):
        """Checks that ``url`` can hold a catalogue (``location``: not in memory, not a folder, a device or a name
        too long), before anything is read or made; connects only when first used."""
        check_url(url)  # a catalogue in memory would be lost with its numbers, its board files orphaned
        self.url = url
        self.label = database_label(url)
        self.database_file = sqlite_path(url)
        if self.database_file is not None:
            check_sqlite_file(self.database_file)
        set_database(self.label)  # database errors name this catalogue wherever they surface
        self._out = Path(out).expanduser() if out is not None else None
        self._engine: Optional[Engine] = None
        self._info: Optional[dict[str, Any]] = None
        self._write_lock = threading.RLock()
        self._create = True  # open(create=False): a database without a catalogue is refused, not given one
        self._read_only = False  # open(read_only=True): nothing is written, switched or migrated

    # -- opening ------------------------------------------------------------------------------------------------
    @classmethod
    def open(cls, db: Optional[str] = None, out: Optional[str | Path] = None, *, create: bool = True,
             migrate: bool = True, read_only: bool = False) -> "Catalogue":
        """The catalogue at ``db`` (a SQLite file path or a SQLAlchemy URL; None: ``./data/catalogue.db``).

        ``out`` names the folder of board files for this session (default: the folder the catalogue recorded,
        else one beside its database file). ``create=False`` refuses a SQLite file that does not exist, or a
        database that holds no catalogue, instead of making a new catalogue (what read commands want: a mistyped
        path must not leave an empty file behind, nor a read write a schema into an empty or foreign database).
        ``migrate`` upgrades an older schema to head. ``read_only`` (the read commands) changes nothing at all:
        no catalogue made, no migration (an older schema is refused with the command that upgrades it), no WAL
        switch and no write on the connection, so another program's database, an empty file or a read-only
        catalogue keep every byte. The database is checked here; the folder only when it is first used.
        """
        catalogue = cls(database_url(db), out)
        if read_only:
            create = migrate = False
        catalogue._create = create
        catalogue._read_only = read_only
        path = catalogue.database_file
        if path is not None and not path.exists():
            if not create:
                raise UserError(f"no catalogue at {path}: `catalogue fill` makes one, `catalogue db upgrade` an "
                                f"empty one")
            # a new catalogue can only own a folder no other catalogue has used: refuse before the file exists
            # (the folder as it will be: a new catalogue has recorded none, and reading the row would create it)
            folders.check_new(catalogue._out or folders.default_folder(path), catalogue._folder_name())
        if path is None or (migrate or read_only) and not at_head(path, HEAD_REVISION):
            catalogue._connect(migrate=migrate)
        return catalogue

    def _connect(self, migrate: bool = True) -> Engine:
        """The SQLAlchemy engine, made on first use and the schema checked (and upgraded if ``migrate``)."""
        if self._engine is not None:
            return self._engine
        from sqlalchemy.exc import DBAPIError

        from .migrate import current_revision, refuse_foreign_tables, upgrade

        migrate = migrate and not self._read_only
        engine = make_engine(self.url, read_only=self._read_only)
        try:
            with engine.connect() as conn:
                revision = current_revision(conn)
                if revision is None and (migrate or self._read_only) and not self._create:
                    # an empty file or schema, or another program's database: a read must not make a catalogue there
                    refuse_foreign_tables(conn, self.url)  # the more telling answer when it is another program's
                    raise UserError(f"no catalogue in {self.label}: `catalogue fill` makes one, `catalogue db "
                                    f"upgrade` an empty one")
            if revision is not None and revision not in KNOWN_REVISIONS:
                raise UserError(f"{self.label} has schema revision {revision}, which this version of catalogue "
                                f"does not know: upgrade catalogue")
            if self._read_only and revision != HEAD_REVISION:
                # a read changes nothing, its schema included: the upgrade is a command of its own
                raise UserError(f"{self.label} is a catalogue of schema revision {revision}, older than this "
                                f"version's {HEAD_REVISION}: run `catalogue db upgrade` first (a read changes nothing)")
            if migrate and revision != HEAD_REVISION:
                upgrade(engine, self.url)
        except DBAPIError as e:
            engine.dispose()
            raise self.database_error("open", e) from None
        except BaseException:
            engine.dispose()
            raise
        self._engine = engine
        return engine

    def database_error(self, verb: str, error: BaseException) -> UserError:
        """The one line for a driver's error while ``verb``-ing this catalogue (``location.unusable``)."""
        return unusable(self.label, self.database_file, verb, error)

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine (for the store's own modules and tests; commands use the methods)."""
        return self._connect()

    def close(self) -> None:
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None

    def __enter__(self) -> "Catalogue":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Catalogue({self.label!r})"

    # -- reads (any thread) -------------------------------------------------------------------------------------
    @contextmanager
    def reading(self) -> Iterator[Any]:
        """A connection for read-only queries (``catalogue.store.queries`` runs the same SQL on either kind).

        On a SQLite file at head it is a stdlib ``sqlite3.Connection`` inside one read transaction (starting
        SQLAlchemy would cost more than `catalogue query` may take); otherwise a SQLAlchemy Connection.
        """
        import sqlite3

        if self.database_file is not None and not self.database_file.exists():
            # deleted or moved since it was opened (a long-running server): reading must not make a new one
            raise UserError(f"no catalogue at {self.database_file}: it was moved or deleted")
        conn = sqlite_reader(self.database_file, HEAD_REVISION) if self.database_file is not None else None
        if conn is not None:
            try:
                yield conn
            except sqlite3.Error as e:
                raise self.database_error("read", e) from None
            finally:
                conn.close()
            return
        from sqlalchemy.exc import DBAPIError

        try:
            with self._connect().connect() as sa_conn:
                yield sa_conn
        except DBAPIError as e:
            raise self.database_error("read", e) from None

    def puzzles(self, **filters) -> PuzzleQuery:
        """A lazy, chainable selection of puzzles (:class:`~catalogue.store.selection.PuzzleQuery`): the filters
        of ``PuzzleFilter.of`` (``level="hard"``, ``clues=(17, 24)``, ``min_score=3``, ...); then ``.sample(n,
        seed)``, ``.order_by(key)``, ``.offset(n)``, ``.limit(n)``; iterate it for :class:`PuzzleRecord` s."""
        return PuzzleQuery(self, PuzzleFilter.of(**filters))

    def board(self, number: int, variant: Optional[int] = None) -> Optional[BoardRecord]:
        """Board ``number`` with its puzzle ``variant`` (None: its first; ``BoardRecord.puzzle`` is None if it has
        no such puzzle); None if there is no such board."""
        with self.reading() as conn:
            row = queries.get_board(conn, number, variant)
        return None if row is None else BoardRecord.from_row(row)

    def puzzle(self, name: str) -> Optional[BoardRecord]:
        """The puzzle named ``name`` (``N`` or ``N.K``: records.puzzle_name) with its board; None if there is no
        such puzzle. ValueError for a name that is not one."""
        from .records import parse_reference

        number, variant = parse_reference(name)
        found = self.board(number, variant) if 0 <= number < 2 ** 63 and variant < 2 ** 31 else None
        return found if found is not None and found.puzzle is not None else None

    def daily(self, date: Optional[DateLike] = None, level: Optional[str] = None,
              **filters) -> Optional[PuzzleRecord]:
        """The puzzle of the day ``date`` (a ``datetime.date`` or ``YYYY-MM-DD``; default today) at ``level``
        (None: any level), among the puzzles matching ``filters``; None if none does. The same catalogue gives
        the same puzzle on every machine (the rule is in ``catalogue.store.selection``)."""
        return self.puzzles(level=level, **filters).daily(date)

    def sources(self, limit: int = 500) -> list[str]:
        """The sources of the imported puzzles (``import --source``, by default the files' names), sorted; at most
        ``limit`` of them."""
        with self.reading() as conn:
            return queries.sources(conn, limit)

    def shapes(self, limit: int = 500) -> list[str]:
        """The shapes of the catalogue's boards (their specs: a jigsaw's with its layout), sorted; at most
        ``limit``."""
        with self.reading() as conn:
            return queries.shape_specs(conn, limit)

    def stats(self) -> dict[str, Any]:
        with self.reading() as conn:
            return summary.stats(conn)

    def runs(self) -> list[dict[str, Any]]:
        with self.reading() as conn:
            return summary.runs(conn)

    def revision(self) -> Optional[str]:
        """The schema revision stored in the database (None: empty), without migrating anything."""
        from .migrate import current_revision

        return self._look(current_revision, None)

    def foreign_tables(self) -> list[str]:
        """The tables a catalogue did not make (another program's), sorted, without migrating anything."""
        from .migrate import foreign_tables

        return self._look(foreign_tables, [])

    def _look(self, read, missing):
        """``read(connection)`` on the database as it is, or ``missing`` when its file does not exist (looking
        must not create it)."""
        from sqlalchemy.exc import DBAPIError

        path = self.database_file
        if path is not None and not path.exists():
            return missing
        engine = self._engine or make_engine(self.url, read_only=True)  # looking changes nothing
        try:
            with engine.connect() as conn:
                return read(conn)
        except DBAPIError as e:
            raise self.database_error("open", e) from None
        finally:
            if engine is not self._engine:
                engine.dispose()

    def known_keys(self, shape: str, equivalence: str, keys: Sequence[str]) -> set[str]:
        """Which of ``keys`` the catalogue already holds for this shape and equivalence (the checkers' read)."""
        from .rows import known_keys

        with self._connect().connect() as conn:
            return known_keys(conn, shape, equivalence, keys)

    def known_puzzles(self, boards: Sequence[dict], puzzle_keys: Sequence[str], key_of) -> list[bool]:
        """Whether each imported row's puzzle is already stored on its board (``boards[i]`` holds ``shape``,
        ``equivalence`` and the solution's ``key``): a read, to skip grading what the import would not store.
        The write path checks again under the write lock."""
        from .insert import known_puzzles

        with self._connect().connect() as conn:
            return known_puzzles(conn, boards, puzzle_keys, key_of)

    def check_database(self, full: bool = False, sample: int = 1000, progress=None):
        """The database invariants ``verify`` reports (``integrity.DatabaseReport``); ``progress(checked, total)``
        is called as the keys are checked. A SQLite file is first checked page by page (``PRAGMA quick_check``):
        when that fails, its findings are the report, since reading tables through damaged pages proves nothing."""
        from .integrity import DatabaseReport, check_database
        from .location import quick_check

        damage = quick_check(self.database_file) if self.database_file is not None else None
        if damage:
            return DatabaseReport(problems=[f"database file is corrupt (PRAGMA quick_check): {' '.join(line.split())}"
                                            for line in damage], corrupt=True)
        return check_database(self._connect(), full=full, sample=sample, progress=progress)

    def check_files(self, full: bool = True, progress=None) -> FileReport:
        """Every board's file against its row, and the folder listed for strays (``files.check_files``);
        ``progress(checked, total)`` is called as the files are checked."""
        from .files import check_files

        return check_files(self._connect(), self.folder, full=full, progress=progress)

    # -- identity (the board folder is ownership.BoardFolder's, the write path write_path.WritePath's) --------
    def _row(self) -> dict[str, Any]:
        if self._info is None:
            from sqlalchemy import select

            from .models import CatalogueInfo

            with self._connect().connect() as conn:
                row = conn.execute(select(CatalogueInfo.id, CatalogueInfo.board_folder)).first()
            if row is None:
                raise UserError(f"{self.label} has no catalogue row (its id): `catalogue db upgrade` did not "
                                f"finish; run it again")
            self._info = {"id": row.id, "board_folder": row.board_folder}
        return self._info

    @property
    def id(self) -> str:
        """The catalogue's id, made when it was created; its board folder's marker names it."""
        return self._row()["id"]

    def board_row(self, number: int) -> Optional[dict[str, Any]]:
        """``{"board": line, "size": n, "shape": spec}`` of board ``number``, None if there is none."""
        with self.reading() as conn:
            rows = queries.fetch(conn, "SELECT board, size, shape FROM boards WHERE number = :number",
                                 {"number": int(number)})
        return rows[0] if rows else None
