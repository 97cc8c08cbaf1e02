"""Storage: the :class:`Catalogue` object and everything behind it.

``catalogue.py``  the Catalogue: one owner for every read and write of one catalogue
``write_path.py`` its write path: every write, one at a time under its lock
``database.py``   engines, SQLite settings, the write lock, the stdlib read path
``migrate.py``    schema revisions and upgrades (the migrations travel in ``migrations/`` as package data)
``models.py``     the tables
``queries.py``    read-side SQL (query, one board, stats)
``selection.py``  PuzzleFilter and the lazy PuzzleQuery: filters, uniform samples, offsets, the daily puzzle
``records.py``    the typed records reads return (PuzzleRecord, BoardRecord)
``insert.py``     the batch insert that numbers boards
``blocks.py``     its PostgreSQL form: numbers reserved in blocks, rows inserted outside the lock
``files.py``      the board files N.txt: writing, checking, repairing
``folder.py``     whose board folder is whose: the marker file, the recorded and default folders
``integrity.py``  the database invariants verify checks

Importing this package imports neither SQLAlchemy nor the engine: the read commands must start fast.
"""
from .catalogue import Catalogue

__all__ = ["Catalogue"]
