"""The catalogue's tables as SQLAlchemy 2.x typed models: the catalogue itself, runs, boards and puzzles.

Migrations in ``catalogue/store/migrations/versions`` build exactly these tables, and a test runs ``alembic check``
on SQLite and PostgreSQL to prove models and migrations agree.

- ``catalogue`` holds one row: the catalogue's id (what the marker file in its board folder names) and the board
  folder it recorded (``catalogue.store.folder``).
- ``boards.number`` is the public id and the primary key that ``puzzles.board_number`` refers to, so every
  browser that follows foreign keys (datasette, DB Browser for SQLite) lands on the right board. Numbers are
  0, 1, 2, ... contiguous, assigned by the writer as ``max(number) + 1`` while it holds the database write lock
  (``catalogue.store.database.write_transaction``; on PostgreSQL in blocks that commit in line,
  ``catalogue.store.insert``), never from a sequence, because PostgreSQL sequences leave gaps after conflicts and
  rollbacks.
- ``boards.key`` is the line text of the board's canonical representative under ``equivalence``; the UNIQUE
  constraint on (shape, equivalence, key) is what rejects duplicates, also across processes.
- Grids are stored in the line format (``engine.formats.to_line``): n*n symbols, ``.`` for blanks.
- JSON fields (``parameters``, ``stage_stats``, ``techniques``) are JSON text, so SQLite and PostgreSQL store
  the same bytes.
- Every metric `catalogue stats` summarises, and ``puzzles.minimal``, has its own index (migration 0006): min and
  max are one descent and the median a walk over half of one narrow index, instead of a scan of the wide table
  and a sort per metric (``catalogue.store.summary``).
"""
from __future__ import annotations

import datetime as dt
from typing import Optional

from sqlalchemy import (BigInteger, Boolean, CheckConstraint, DateTime, Float, ForeignKey, Index, Integer,
                        MetaData, String, Text, UniqueConstraint)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: constraint and index names are derived, not left to each database, so migrations can name what they alter
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

#: the states of a fill run; `exhausted` means the space of classes ran out (e.g. 4x4) before the count
RUN_STATUSES = ("running", "completed", "interrupted", "failed", "exhausted")


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def square_shape(context) -> str:
    """A row's shape when none is given: square boxes of its size (what every row had before shapes); a row of
    another size must name its shape (KeyError here, before anything is written)."""
    from ..shapes import SQUARE_SPECS

    return SQUARE_SPECS[context.get_current_parameters()["size"]]


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class CatalogueInfo(Base):
    """The catalogue itself (one row): its id and the folder of its board files."""

    __tablename__ = "catalogue"

    #: a random hex id made when the catalogue is created; the board folder's marker file names it
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: where the N.txt files live: relative to the database file's folder (SQLite), or absolute; None until a
    #: command first writes board files
    board_folder: Mapped[Optional[str]] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Run(Base):
    """One `catalogue fill`: its parameters (to reproduce it), its counts and its throughput."""

    __tablename__ = "runs"
    __table_args__ = (
        CheckConstraint("status IN ('running', 'completed', 'interrupted', 'failed', 'exhausted')",
                        name="status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    started_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[Optional[dt.datetime]] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(16), default="running")
    program_version: Mapped[str] = mapped_column(String(32))
    command: Mapped[str] = mapped_column(Text)
    size: Mapped[int] = mapped_column(Integer)
    #: the shape's spec (engine.shape.Shape.spec: ``3x3``, ``2x3``, ``latin5``, ``3x3+x``, a jigsaw's with its
    #: layout; migration 0009)
    shape: Mapped[str] = mapped_column(Text, default=square_shape)
    method: Mapped[str] = mapped_column(String(32))
    equivalence: Mapped[str] = mapped_column(String(16))
    symmetry: Mapped[str] = mapped_column(String(16))
    target_clues: Mapped[Optional[int]] = mapped_column(Integer)
    #: `fill --level L`: the grade carving aimed for (added with the grading columns, migration 0002)
    level: Mapped[Optional[str]] = mapped_column(String(16))
    seed: Mapped[int] = mapped_column(BigInteger)
    generators: Mapped[int] = mapped_column(Integer)
    checkers: Mapped[int] = mapped_column(Integer)
    queue_size: Mapped[int] = mapped_column(Integer)
    parameters: Mapped[str] = mapped_column(Text, default="{}")
    generated: Mapped[int] = mapped_column(Integer, default=0)
    accepted: Mapped[int] = mapped_column(Integer, default=0)
    duplicates: Mapped[int] = mapped_column(Integer, default=0)
    contradictions: Mapped[int] = mapped_column(Integer, default=0)
    elapsed_seconds: Mapped[float] = mapped_column(Float, default=0.0)
    stage_stats: Mapped[str] = mapped_column(Text, default="{}")
    #: the highest board number whose N.txt this run wrote (None before its first file)
    files_through: Mapped[Optional[int]] = mapped_column(Integer)


class Board(Base):
    """A complete grid, unique in the catalogue up to its equivalence."""

    __tablename__ = "boards"
    __table_args__ = (UniqueConstraint("shape", "equivalence", "key"),)

    #: the public id, 0..N-1 without gaps; never autoincremented (the writer assigns it under the write lock)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    size: Mapped[int] = mapped_column(Integer)
    #: the rules its grid keeps, as ``Run.shape`` (migration 0009): part of what makes a board unique, since a
    #: 2x3 board and a 3x2 one, or a 9x9 board with and without its diagonals, may share a key
    shape: Mapped[str] = mapped_column(Text, default=square_shape)
    equivalence: Mapped[str] = mapped_column(String(16))
    key: Mapped[str] = mapped_column(Text)
    board: Mapped[str] = mapped_column(Text)
    method: Mapped[str] = mapped_column(String(32))
    #: `generate(box, seed)` with this method remakes the board
    seed: Mapped[int] = mapped_column(BigInteger)
    restarts: Mapped[int] = mapped_column(Integer, default=0, index=True)
    generate_seconds: Mapped[float] = mapped_column(Float, default=0.0, index=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id"))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Puzzle(Base):
    """Givens carved from a board (or imported: 0005), with how hard they were to carve, to solve, (0002) to solve
    by hand, (0003) whether they are proven minimal, and (0005) the file and line an imported puzzle came from."""

    __tablename__ = "puzzles"
    __table_args__ = (Index("ix_puzzles_board_number_variant", "board_number", "variant", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    board_number: Mapped[int] = mapped_column(ForeignKey("boards.number"), index=True)
    #: the puzzle's number on its board (migration 0007): 1 for the first, 2, 3, ... for puzzles imported onto it
    #: later; the puzzle is named ``N`` (1) or ``N.K`` (catalogue.store.records.puzzle_name)
    variant: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    puzzle: Mapped[str] = mapped_column(Text)
    clues: Mapped[int] = mapped_column(Integer, index=True)
    symmetry: Mapped[str] = mapped_column(String(16))
    target_clues: Mapped[Optional[int]] = mapped_column(Integer)
    carve_seed: Mapped[int] = mapped_column(BigInteger)
    carve_checks: Mapped[int] = mapped_column(Integer, index=True)
    carve_seconds: Mapped[float] = mapped_column(Float, index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=1)
    # solver metrics (engine/solvers/base.py defines them) of the fast solver on this puzzle
    nodes: Mapped[int] = mapped_column(Integer, index=True)
    guesses: Mapped[int] = mapped_column(Integer, index=True)
    backtracks: Mapped[int] = mapped_column(Integer, index=True)
    checks: Mapped[int] = mapped_column(Integer, index=True)
    max_depth: Mapped[int] = mapped_column(Integer, index=True)
    solve_seconds: Mapped[float] = mapped_column(Float, index=True)
    # human-style grade (migration 0002); None for puzzles stored before grading existed
    level: Mapped[Optional[str]] = mapped_column(String(16), index=True)
    score: Mapped[Optional[float]] = mapped_column(Float, index=True)
    # the hardest step's own name (engine.vocabulary.STEP_NAMES) and the technique row that made it (migration 0008)
    hardest: Mapped[Optional[str]] = mapped_column(String(64), index=True)  # 32 until migration 0010
    technique: Mapped[Optional[str]] = mapped_column(String(32), index=True)
    techniques: Mapped[Optional[str]] = mapped_column(Text)
    # minimality (migration 0003; None for puzzles stored before it). `minimal` is False when some removal test
    # hit the carver's node limit (the default on 25x25; `undecided` counts those tests), or when `fill --level`
    # put clues back (engine.carve.toward): the puzzle is unique but not proven minimal (engine.carve.CarveResult)
    minimal: Mapped[Optional[bool]] = mapped_column(Boolean, index=True)
    undecided: Mapped[Optional[int]] = mapped_column(Integer)
    # where an imported puzzle came from (migration 0005): the file (`import --source`, default the file's name)
    # and the 1-based line its grid starts on; None for carved puzzles
    source: Mapped[Optional[str]] = mapped_column(Text)
    source_line: Mapped[Optional[int]] = mapped_column(Integer)
