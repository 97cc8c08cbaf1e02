"""Selections of puzzles: the filter every reading command shares, a lazy chainable query, uniform samples and
the daily puzzle.

::

    with Catalogue.open("data/catalogue.db", create=False) as cat:
        hard = cat.puzzles(level="hard", clues=(17, 24))        # a PuzzleQuery: nothing is read yet
        for record in hard.sample(5, seed=1).order_by("score"):  # PuzzleRecord, typed and frozen
            print(record.number, record.score, record.puzzle)
        cat.daily("2026-11-23", "hard")                          # the same puzzle on every machine

**The order.** Every query has one total order: the sort key, then board number, then puzzle id. Without a sort
key it is board number then puzzle id (``catalogue query``'s default): positions in that order are what
``offset``, a sample and the daily puzzle count in.

**Samples are uniform and reproducible.** ``sample(n, seed)`` reads the ids of the M matching puzzles in that
default order, draws min(n, M) distinct positions with Floyd's algorithm (each subset of that size equally
likely), finds the ids at those positions (on SQLite by seeking through the board number index for a small
sample, by reading every matching id for a large one; on PostgreSQL by numbering the matches with
``row_number()`` in the database: ``ids_at_positions``), and then reads only the chosen rows. The random numbers come from BLAKE2b over ``sample|seed|counter``, turned into integers below a
bound by rejection (no modulo bias), not from Python's ``random``: they are specified down to the byte, so the same
seed picks the same puzzles on SQLite and PostgreSQL, on any machine and any Python. Nothing is shuffled or sorted
by ``random()`` in the database, and no row but the chosen ones is read whole.

**The daily puzzle** of a date and level is the puzzle at position ``jump(h, M)`` among the M puzzles of that level
(and any other filters) in the order they were stored (puzzle id), where h is the first 8 bytes of BLAKE2b of ``daily|<catalogue id>|<date>|
<level>`` and ``jump`` is Lamping and Veach's jump consistent hash. The same catalogue (its id and its rows)
gives the same puzzle everywhere; other dates and levels give independent choices (two dates share a puzzle with
probability 1/M). It does not have to stay fixed forever, but it stays put as the catalogue grows as far as it can
without remembering anything: every puzzle stored later (on a new board, or imported onto a stored one) takes a
higher id, so old puzzles keep their positions, and a jump hash moves a key only into the new positions; when M grows to M', a given day's puzzle changes with probability
(M' - M) / M' (a fill that adds 1% changes 1 day in 100), and then to one of the new puzzles. A plain ``h mod M``
would change almost every day's puzzle at each fill.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import re
import sqlite3
from dataclasses import dataclass, field, fields, replace
from itertools import islice
from typing import Any, ContextManager, Iterator, Optional, Protocol, Union

from . import columns, queries
from .records import PuzzleRecord


class Reader(Protocol):
    """What a query reads through: a :class:`~catalogue.store.Catalogue`, whose ``reading()`` lends a connection
    (a protocol rather than the class: catalogue.py makes the queries, so it imports this module, not the other
    way round)."""

    def reading(self) -> ContextManager[Any]: ...

#: a date: a ``datetime.date`` or its text ``YYYY-MM-DD``
DateLike = Union[dt.date, str]

#: how many chosen ids one query binds at most (SQLite >= 3.32 allows 32,766 parameters, older ones 999; the
#: PostgreSQL protocol 65,535); a larger sample is read by walking the matches and keeping the chosen ones
MAX_BOUND_IDS = 30_000 if sqlite3.sqlite_version_info >= (3, 32) else 900


@dataclass(frozen=True)
class PuzzleFilter:
    """Which puzzles match: every field None means no condition; bounds are inclusive.

    The filters of `catalogue query` (and of every command that selects puzzles): clue count, grid size (rows),
    shape, equivalence, generator method (or ``import``), the source of an imported puzzle, level, hardest technique
    and the grade's score.
    """

    min_clues: Optional[int] = None
    max_clues: Optional[int] = None
    size: Optional[int] = None
    #: a shape's name (``2x3``, ``latin5``, ``3x3+x``, ``jigsaw9``: every layout) or a whole spec
    shape: Optional[str] = None
    equivalence: Optional[str] = None
    method: Optional[str] = None
    source: Optional[str] = None  #: where an imported puzzle came from (``import --source``, or the file's name)
    level: Optional[str] = None
    technique: Optional[str] = None
    min_score: Optional[float] = None
    max_score: Optional[float] = None

    def __post_init__(self) -> None:
        for low, high in (("min_clues", "max_clues"), ("min_score", "max_score")):
            a, b = getattr(self, low), getattr(self, high)
            if a is not None and b is not None and a > b:
                raise ValueError(f"{low} {a} is above {high} {b}")

    @classmethod
    def of(cls, clues: Union[int, tuple[Optional[int], Optional[int]], None] = None,
           score: Optional[tuple[Optional[float], Optional[float]]] = None, **filters) -> "PuzzleFilter":
        """A filter from keyword arguments: the field names, plus ``clues=(17, 24)`` or ``clues=22`` and
        ``score=(2.0, 4.5)`` as shorthands for both bounds (None for an open end)."""
        if clues is not None:
            low, high = (clues, clues) if isinstance(clues, int) else clues
            filters.update(min_clues=low, max_clues=high)
        if score is not None:
            filters.update(min_score=score[0], max_score=score[1])
        unknown = set(filters) - set(queries.FILTER_NAMES)
        if unknown:
            raise TypeError(f"unknown puzzle filter(s): {', '.join(sorted(unknown))}; known: clues, score, "
                            f"{', '.join(queries.FILTER_NAMES)}")
        return cls(**filters)

    def given(self) -> dict[str, Any]:
        """The conditions set, as ``queries`` takes them."""
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None}


@dataclass(frozen=True)
class PuzzleQuery:
    """A lazy selection of puzzles: nothing is read until it is iterated, counted or asked for its first row.

    Every method returns a new query (this one is unchanged), so selections compose and can be reused:
    ``where(**filters)`` adds conditions, ``order_by(key, desc=False)`` sorts (``columns.ORDER_KEYS``),
    ``sample(n, seed)`` keeps a uniform random sample of n matches, and ``offset(n)`` / ``limit(n)`` take a window
    of the result (in that order: filter, sample, sort, window). Each call replaces the value of an earlier call of
    the same method. Iterating yields :class:`PuzzleRecord` s; ``dicts()`` yields the same rows as plain dicts.
    """

    catalogue: Reader = field(repr=False, compare=False)
    filter: PuzzleFilter = PuzzleFilter()
    key: str = "number"
    descending: bool = False
    sampled: Optional[tuple[int, int]] = None  #: (n, seed)
    skip: int = 0
    take: Optional[int] = None
    cursor: Optional[tuple[Any, int, int]] = None  #: only the rows past it (``after``)

    # -- building ------------------------------------------------------------------------------------------------
    def where(self, **filters) -> "PuzzleQuery":
        """More conditions (``PuzzleFilter.of``'s arguments); a condition given again replaces the old one."""
        more = PuzzleFilter.of(**filters).given()
        return replace(self, filter=replace(self.filter, **more))

    def order_by(self, key: str, desc: bool = False) -> "PuzzleQuery":
        if key not in columns.ORDER_KEYS:
            raise ValueError(f"no sort key {key!r}; one of: {', '.join(columns.ORDER_KEYS)}")
        return replace(self, key=key, descending=bool(desc))

    def sample(self, n: int, seed: int = 0) -> "PuzzleQuery":
        """A uniform random sample of ``n`` of the matching puzzles (all of them if fewer match), the same for
        the same ``seed`` and catalogue; ``n`` >= 0, ``seed`` any integer."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"a sample size is a whole number >= 0, not {n!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"a seed is a whole number, not {seed!r}")
        return replace(self, sampled=(n, seed))

    def offset(self, n: int) -> "PuzzleQuery":
        """Skip the first ``n`` rows of the result."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"an offset is a whole number >= 0, not {n!r}")
        return replace(self, skip=n)

    def after(self, cursor: Optional[tuple[Any, int, int]]) -> "PuzzleQuery":
        """Only the rows past ``cursor`` in this query's order: (sort key value, board number, variant), as
        ``keyset.cursor_of`` reads it off the last row of a page. Keyset paging: the next page is a seek, and
        puzzles added meanwhile do not shift it."""
        return replace(self, cursor=None if cursor is None else tuple(cursor))

    def limit(self, n: Optional[int]) -> "PuzzleQuery":
        """At most ``n`` rows (None: no limit)."""
        if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 0):
            raise ValueError(f"a limit is a whole number >= 0 or None, not {n!r}")
        return replace(self, take=n)

    # -- reading -------------------------------------------------------------------------------------------------
    def __iter__(self) -> Iterator[PuzzleRecord]:
        return (PuzzleRecord.from_row(row) for row in self.dicts())

    def dicts(self) -> Iterator[dict[str, Any]]:
        """The rows as plain dicts (``columns.RESULT_FIELDS``), streamed from the database cursor: what the
        printers take, at constant memory. The read connection stays open until the iterator is exhausted."""
        with self.catalogue.reading() as conn:
            yield from self._rows(conn)

    def _rows(self, conn) -> Iterator[dict[str, Any]]:
        filters = self.filter.given()
        window = {"offset": self.skip, "limit": self.take, "after": self.cursor}
        if self.sampled is None:
            yield from queries.iter_query_puzzles(conn, order_by=self.key, desc=self.descending, **window,
                                                  **filters)
            return
        chosen = sample_ids(conn, filters, *self.sampled)
        if len(chosen) <= MAX_BOUND_IDS:
            yield from queries.iter_query_puzzles(conn, order_by=self.key, desc=self.descending, ids=chosen,
                                                  **window, **filters)
            return
        # too many ids to bind: walk the matches in the query's order and keep the chosen ones
        if self.cursor is not None:
            raise ValueError(f"after() takes a sample of at most {MAX_BOUND_IDS:,} puzzles")
        keep = set(chosen)
        rows = (row for row in queries.iter_query_puzzles(conn, order_by=self.key, desc=self.descending,
                                                          with_id=True, **filters)
                if row.pop("puzzle_id") in keep)
        stop = None if self.take is None else self.skip + self.take
        yield from islice(rows, self.skip, stop)

    def first(self) -> Optional[PuzzleRecord]:
        """The first row, or None when nothing matches."""
        return next(iter(self.limit(1)), None)

    def count(self) -> int:
        """How many rows iterating would give (the sample's size, after offset and limit)."""
        with self.catalogue.reading() as conn:
            total = queries.count_puzzles(conn, **self.filter.given())
        if self.sampled is not None:
            total = min(total, self.sampled[0])
        total = max(total - self.skip, 0)
        return total if self.take is None else min(total, self.take)

    def __len__(self) -> int:
        return self.count()

    def daily(self, date: Optional[DateLike] = None) -> Optional[PuzzleRecord]:
        """The puzzle of ``date`` (default today, local time) among this query's matches (its filters only: not
        its order, sample or window); None if nothing matches. See the module's docstring for the rule."""
        day = parse_date(date)
        filters = self.filter.given()
        with self.catalogue.reading() as conn:
            total = queries.count_puzzles(conn, **filters)
            if not total:
                return None
            position = daily_position(queries.catalogue_id(conn), day, self.filter.level, total)
            rows = queries.query_puzzles(conn, ids=[queries.id_stored_at(conn, position, **filters)], **filters)
        return PuzzleRecord.from_row(rows[0])


# ------------------------------------------------------------------------------------------ the random choices


def _digest(text: str) -> int:
    """The first 8 bytes of BLAKE2b of ``text`` (UTF-8), as an unsigned integer."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def draw_positions(seed: int, population: int, k: int) -> list[int]:
    """``min(k, population)`` distinct positions of ``range(population)``, sorted: a uniformly random subset.

    Floyd's algorithm: for j = population-k .. population-1, draw t uniform in [0, j]; take t, or j if t was
    taken. Each step keeps every subset of the positions so far equally likely, so all k-subsets are. The uniform
    integers come from BLAKE2b over ``sample|seed|counter``, by rejection below the largest multiple of the bound.
    """
    k = min(k, population)
    counter = 0

    def below(bound: int) -> int:
        nonlocal counter
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            value = _digest(f"sample|{seed}|{counter}")
            counter += 1
            if value < limit:
                return value % bound

    chosen: set[int] = set()
    for j in range(population - k, population):
        t = below(j + 1)
        chosen.add(j if t in chosen else t)
    return sorted(chosen)


#: a sample of k of M matches seeks each chosen position (``queries.ids_at``) when k * SEEK_RATIO < M and no
#: index narrows the matches down, else it reads every matching id (``queries.matching_ids``): the ratio is a
#: seek's cost on SQLite counted in ids read into Python, and a walk that must read each puzzle's row to test a filter
#: loses to an index that hands over few matches (docs/benchmarks.md, "Sampling and the daily puzzle"). Both
#: find the same ids: the choice changes the time, never the sample.
SEEK_RATIO = 60


def sample_ids(conn, filters: dict[str, Any], n: int, seed: int) -> list[int]:
    """The puzzle ids of the sample ``(n, seed)`` of the puzzles matching ``filters``, in board order."""
    total = queries.count_puzzles(conn, **filters)
    return ids_at_positions(conn, filters, draw_positions(seed, total, n), total)


def ids_at_positions(conn, filters: dict[str, Any], positions: list[int], total: int) -> list[int]:
    """The ids of the matches of ``filters`` at ``positions`` (sorted) of the board order, ``total`` matches in
    all, whichever way should be fastest: on SQLite by seeking each position or by reading every matching id; on
    PostgreSQL by numbering the matches in the database (``queries.ids_numbered``), unless there are too many
    positions to bind. All find the same ids."""
    if not queries.is_sqlite(conn):
        if len(positions) <= MAX_BOUND_IDS:
            return queries.ids_numbered(conn, positions, **filters)
    elif len(positions) * SEEK_RATIO < total and not queries.index_narrows(conn, **filters):
        return queries.ids_at(conn, positions, **filters)
    ids = queries.matching_ids(conn, **filters)
    if len(ids) != total:
        raise LookupError("the catalogue changed while it was read: try again")
    return [ids[position] for position in positions]


_MASK64 = (1 << 64) - 1


def jump_hash(key: int, buckets: int) -> int:
    """Lamping and Veach's jump consistent hash: a bucket in [0, buckets) for a 64-bit ``key``. Going from n to
    n + 1 buckets moves a key only into the new bucket, and only with probability 1 / (n + 1)."""
    if buckets < 1:
        raise ValueError("jump_hash needs at least one bucket")
    b, j = -1, 0
    while j < buckets:
        b = j
        key = (key * 2862933555777941757 + 1) & _MASK64
        j = int((b + 1) * (float(1 << 31) / float((key >> 33) + 1)))
    return b


def daily_position(catalogue_id: str, day: dt.date, level: Optional[str], population: int) -> int:
    """The position, among ``population`` puzzles in the order they were stored, of the daily puzzle of ``day``
    and ``level``."""
    return jump_hash(_digest(f"daily|{catalogue_id}|{day.isoformat()}|{level or ''}"), population)


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def parse_date(value: Optional[DateLike]) -> dt.date:
    """A date from a ``datetime.date`` or ``YYYY-MM-DD`` text (None: today, in local time); ValueError else."""
    if value is None:
        return dt.date.today()
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str) and _DATE.fullmatch(value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise ValueError(f"not a date (YYYY-MM-DD): {value!r}")


__all__ = ["PuzzleFilter", "PuzzleQuery", "PuzzleRecord", "draw_positions", "daily_position",
           "jump_hash", "parse_date", "sample_ids"]
