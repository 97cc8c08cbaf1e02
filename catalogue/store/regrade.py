"""Grading stored puzzles again with this version's grader (``catalogue regrade``).

A grade is stored when a puzzle is stored, by the grader of that day. When the grader learns more (nested forcing
chains rate puzzles an earlier version left to guessing, at 10.0), the stored grades go stale: this grades the
puzzles again and writes the grades that changed (level, score, hardest technique, the steps per technique).

Chunks of :data:`CHUNK` puzzles, each written in one short write transaction (the write lock is held only for
the UPDATE, never while grading), so a fill may run beside it, and a Ctrl-C loses at most the chunk in flight: what
was written stays, and running the command again finds it unchanged and goes on. Nothing else is touched: not the
boards, not their numbers, not the board files.

On 16x16 and 25x25 the grader leaves the dynamic forcing chains out unless asked (``full_scale``). A puzzle whose
stored grade used them (a step of theirs among its stored steps: a regrade with ``full_scale`` before) is graded
with them again, whatever this run asks: without them it could only come out as needing guessing, which would undo
a rating for no reason but cost. Such grading takes a second to minutes a puzzle, so a chunk read is cut into
pieces by weight (:data:`WEIGHT`): each piece is one thread's work and one transaction, and a Ctrl-C loses only
the pieces in flight.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from engine.vocabulary import FULL_SCALE_ROWS  # plain data

from ..shapes import kernel_shape, shape_of
from .records import GRADE_COLUMNS, grade_columns

#: puzzles graded and written together (a few seconds of grading, one short transaction)
CHUNK = 1000
#: what grading a puzzle costs against a 9x9 one, roughly, by (size, with the dynamic chains): a piece of a chunk
#: weighs at most ``chunk`` (docs/grading.md, "Other sizes"; the measured costs are in docs/benchmarks.md, "Cost
#: against size": big grids cost tens to hundreds of 9x9 puzzles, and far more with the dynamic chains)
WEIGHT = {(16, False): 16, (25, False): 250, (16, True): 250, (25, True): 1000,
          # boxes of r x c (docs/benchmarks.md, "Shapes": 12x12 grades in about 60 9x9 puzzles' time)
          (10, False): 3, (12, False): 60}
#: a jigsaw's puzzles need the chains far more often than boxes of its size: weighed as a big grid
JIGSAW_WEIGHT = 100


@dataclass
class RegradeReport:
    """What a regrade did: puzzles matched, graded so far, changed (written unless a dry run), and how the
    changed ones moved, ``(old level, old hardest, new level, new hardest) -> count``."""

    matched: int = 0
    graded: int = 0
    changed: int = 0
    skipped: int = 0  #: rows that are not puzzles the grader can take (verify names them): left as they are
    moves: Counter = field(default_factory=Counter)


def regrade(catalogue, filters: dict[str, Any], *, write: bool = True, uniqueness: bool = True,
            full_scale: bool = False, progress: Optional[Callable[[int, int], None]] = None, chunk: int = CHUNK,
            threads: int = 0, report: Optional[RegradeReport] = None,
            prepare: Optional[Callable[[list[str]], Any]] = None) -> RegradeReport:
    """Grade the puzzles matching ``filters`` (``PuzzleFilter.given()``) again, in ``threads`` threads (0: one per
    CPU); write the grades that changed unless ``write`` is False. ``full_scale``: try the dynamic forcing chains
    on 16x16 and 25x25 too (``engine.grade.grade_many``). ``report`` (made if None) is filled in as chunks are
    written, so a caller that is interrupted still knows how far it got. ``prepare`` is given the warm-up jobs
    (catalogue/kernels.py) of the sizes met, before any thread grades: the kernels compile in the calling thread,
    where Ctrl-C stops the compile at once, and never inside a grading thread."""
    from sqlalchemy import bindparam, select, update

    from ..background import background_map
    from ..signals import Held
    from .database import write_transaction
    from .models import Board, Puzzle
    from .queries import matching_ids

    report = report if report is not None else RegradeReport()
    with catalogue.reading() as conn:
        ids = matching_ids(conn, **filters)
    report.matched = len(ids)
    if prepare is not None and ids:
        from ..kernels import jobs_for

        # the catalogue's shapes: a glance at the boards (one index descent a shape), where the matching ids could
        # be many; square boxes have compiled kernels to make ready, the other shapes load theirs when graded
        boxes = {kernel_shape(spec) for spec in catalogue.shapes() if _known(spec)}
        prepare(jobs_for("regrade", {b for b in boxes if isinstance(b, int)}))
    if progress:
        progress(0, len(ids))
    engine = catalogue.engine
    columns = (Puzzle.id, Board.shape, Puzzle.puzzle, *(getattr(Puzzle, name) for name in GRADE_COLUMNS))
    change = (update(Puzzle).where(Puzzle.id == bindparam("pid"))
              .values(**{name: bindparam(f"new_{name}") for name in GRADE_COLUMNS}))

    def rows_of(part: list[int]):
        with engine.connect() as conn:
            rows = conn.execute(select(*columns).join(Board, Board.number == Puzzle.board_number)
                                .where(Puzzle.id.in_(part))).all()
        good = [row for row in rows if _known(row[1]) and _readable(row)]
        report.skipped += len(rows) - len(good)  # rows that are not boards: `catalogue verify` names each
        return good

    # graded in daemon threads (the grader releases the GIL: each core grades a chunk), so Ctrl-C stops at once
    # even while a kernel grades a puzzle for minutes, and a chunk in flight is simply not written
    threads = threads or os.cpu_count() or 1
    chunks = (piece for start in range(0, len(ids), chunk)
              for piece in _pieces(rows_of(ids[start:start + chunk]), chunk, full_scale))
    for rows, grades in background_map(lambda piece: (piece[0], _grades(*piece, uniqueness)), chunks, "regrade",
                                       ahead=2 * threads, threads=threads):
        changes = []
        for row, new in zip(rows, grades):
            old = dict(zip(GRADE_COLUMNS, row[3:]))
            if not _same(old, new):
                changes.append({"pid": row[0], **{f"new_{name}": new[name] for name in GRADE_COLUMNS}})
                report.moves[(old["level"], old["hardest"], new["level"], new["hardest"])] += 1
        held = Held()  # a stop signal during the commit waits for the counts: the line tells what was written
        try:
            if write and changes:
                with write_transaction(engine) as conn:
                    conn.execute(change, changes)
                    held.hold()
            held.hold()
            report.graded += len(rows)
            report.changed += len(changes)
        finally:
            held.release()
        if progress:
            progress(report.graded, report.matched)
    return report


def _full(row, full_scale: bool) -> bool:
    """Whether the row's puzzle is graded with the dynamic chains: asked, or its stored steps used them (a row is
    (id, shape, puzzle, *GRADE_COLUMNS)). Its steps, not only its hardest: a long multiple forcing chain can rate
    above a dynamic one, and the hardest is the first step of the top rating."""
    if full_scale or shape_of(row[1]).size < 16:
        return full_scale
    stored = dict(zip(GRADE_COLUMNS, row[3:]))
    if stored["technique"] in FULL_SCALE_ROWS:
        return True
    try:
        steps = json.loads(stored["techniques"] or "{}")
    except ValueError:
        return False
    return isinstance(steps, dict) and any(steps.get(name) for name in FULL_SCALE_ROWS)


def _known(spec) -> bool:
    """Whether ``spec`` names a shape (a damaged row's may not)."""
    try:
        kernel_shape(spec)
    except (ValueError, TypeError, AttributeError):
        return False
    return True


def _readable(row) -> bool:
    """Whether a row (id, shape, puzzle, ...) of a shape is a puzzle the grader can take: that many
    symbols of the line format (a row edited by hand may hold anything SQLite lets it)."""
    from engine.formats import from_line

    spec, puzzle = row[1], row[2]
    n = shape_of(spec).size
    if not isinstance(puzzle, str) or len(puzzle) != n * n:
        return False
    try:
        from_line(puzzle, kernel_shape(spec))
    except ValueError:
        return False
    return True


def _pieces(rows, limit: int, full_scale: bool):
    """``rows`` in order, cut into pieces ``(rows, fulls)`` that weigh at most ``limit`` (:data:`WEIGHT`; a 9x9
    puzzle weighs 1, a puzzle heavier than the limit is a piece alone); ``fulls[i]`` is :func:`_full` of row i."""
    piece, fulls, load = [], [], 0
    for row in rows:
        full = _full(row, full_scale)
        shape = shape_of(row[1])
        weight = JIGSAW_WEIGHT if shape.kind == "jigsaw" else WEIGHT.get((shape.size, full), 1)
        if piece and load + weight > limit:
            yield piece, fulls
            piece, fulls, load = [], [], 0
        piece.append(row)
        fulls.append(full)
        load += weight
    if piece:
        yield piece, fulls


def _grades(rows, fulls, uniqueness: bool) -> list[dict[str, Any]]:
    """The grade columns of each row's puzzle, by this version's grader (the compiled path, and the step path for
    the puzzles that need nested chains), in the rows' order: with the dynamic chains on big grids where
    ``fulls`` says (:func:`_full`)."""
    import numpy as np

    from engine.formats import from_line
    from engine.grade import grade_many

    out: list[Optional[dict[str, Any]]] = [None] * len(rows)
    groups: dict[tuple[int, bool], list[int]] = {}
    for i, (row, full) in enumerate(zip(rows, fulls)):
        groups.setdefault((row[1], full), []).append(i)
    for (spec, full), members in groups.items():
        box = kernel_shape(spec)
        cells = np.stack([from_line(rows[i][2], box) for i in members])
        for i, g in zip(members, grade_many(cells, box, uniqueness=uniqueness, full_scale=full)):
            out[i] = grade_columns(g)
    return out  # type: ignore[return-value]


def _same(old: dict[str, Any], new: dict[str, Any]) -> bool:
    if old["level"] != new["level"] or old["hardest"] != new["hardest"] or old["technique"] != new["technique"]:
        return False
    if old["score"] is None or round(old["score"], 1) != round(new["score"], 1):
        return False
    try:
        return json.loads(old["techniques"] or "null") == json.loads(new["techniques"])
    except ValueError:
        return False
