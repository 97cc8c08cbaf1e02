"""The database invariants ``catalogue verify`` checks, read straight from the tables.

Board numbers are exactly 0..N-1 (no gap), every board has a puzzle, and for a sample of boards (all with
``full``) the stored key is the key recomputed from the board, the board is a complete valid grid, and the
puzzle's clues agree with the board.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

SAMPLE = 1000


@dataclass
class DatabaseReport:
    boards: int = 0
    problems: list[str] = field(default_factory=list)
    keys_checked: int = 0
    #: the file failed SQLite's page checks: the problems are its findings, no invariant was read
    corrupt: bool = False


#: boards per key computation in check_database: between two, its progress callback is called
CHUNK = 4096


def row_problem(row) -> str | None:
    """What makes a board row (number, size, shape, equivalence, key, board, puzzle, clues) unusable, without reading
    its grids (their symbols are checked when the key batch reads them), or None: a row that is valid SQLite but not
    a board (edited by hand, written by a broken program) is a problem to report, never an internal error."""
    from engine.vocabulary import EQUIVALENCES

    from ..shapes import shape_of

    try:
        shape = shape_of(row.shape) if isinstance(row.shape, str) else None
    except ValueError:
        shape = None
    if shape is None:
        return f"its shape {_shown(row.shape)} is not a shape (RxC, latinN, jigsawN:LAYOUT)"
    if not isinstance(row.size, int) or row.size != shape.size:
        return f"its size {_shown(row.size)} is not its shape's ({shape.name} is {shape.size}x{shape.size})"
    if row.equivalence not in EQUIVALENCES:
        return f"its equivalence {_shown(row.equivalence)} is not one of {', '.join(EQUIVALENCES)}"
    if not isinstance(row.clues, int) or isinstance(row.clues, bool):
        return f"its puzzle's clue count {_shown(row.clues)} is not a number"
    for name, text in (("board", row.board), ("puzzle", row.puzzle)):
        if not isinstance(text, str) or len(text) != row.size * row.size:
            got = f"{len(text):,} characters" if isinstance(text, str) else _shown(text)
            return f"its {name} is not {row.size * row.size} symbols of a {row.size}x{row.size} grid ({got})"
    return None


def _grids(row, box: int):
    """(board cells, puzzle cells) of a row that passed :func:`row_problem`, or the reason one cannot be read."""
    from engine.formats import from_line

    try:
        return from_line(row.board, box), from_line(row.puzzle, box)
    except ValueError as e:
        return f"a grid cannot be read ({str(e).split(': ', 1)[-1]})"


def _shown(value) -> str:
    """A stored value as a message shows it: short, quoted if text."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_database(engine, full: bool = False, sample: int = SAMPLE,
                   progress: Callable[[int, int], None] | None = None) -> DatabaseReport:
    """The invariants above; the key/grid checks cover ``sample`` random boards, or all of them with ``full``.

    ``progress(checked, total)``, if given, is called after every :data:`CHUNK` boards whose keys were checked."""
    import numpy as np
    from sqlalchemy import func, select

    from engine.geometry import geometry
    from engine.keys import key_texts

    from ..shapes import kernel_shape
    from .models import Board, Puzzle

    out = DatabaseReport()
    with engine.connect() as conn:
        count, low, high = conn.execute(select(func.count(), func.min(Board.number), func.max(Board.number))).one()
        out.boards = count
        if count and (low != 0 or high != count - 1):
            out.problems.append(f"board numbers are not contiguous: {count} boards numbered {low}..{high}")
        orphans = conn.execute(select(func.count()).select_from(Board).outerjoin(
            Puzzle, Puzzle.board_number == Board.number).where(Puzzle.id.is_(None))).scalar()
        if orphans:
            out.problems.append(f"{orphans} boards have no puzzle")
        query = select(Board.number, Board.size, Board.shape, Board.equivalence, Board.key, Board.board, Puzzle.puzzle,
                       Puzzle.clues).join(Puzzle, Puzzle.board_number == Board.number)
        if not full:
            query = query.order_by(func.random()).limit(sample)
        rows = conn.execute(query).all()
    groups: dict[tuple[str, str], list] = {}
    for row in rows:
        wrong = row_problem(row)
        if wrong is not None:  # a row no kernel can take: named here, left out of the batches
            out.problems.append(f"board {row.number}: {wrong}")
            out.keys_checked += 1
            continue
        groups.setdefault((row.shape, row.equivalence), []).append(row)
    chunks = [((shape, equivalence), members[i:i + CHUNK]) for (shape, equivalence), group in groups.items()
              for members in [group] for i in range(0, len(group), CHUNK)]
    if progress is not None:
        progress(0, len(rows))
    for (shape, equivalence), chunk in chunks:
        box = kernel_shape(shape)
        geo = geometry(box)
        size = geo.size
        members, boards, puzzles = [], [], []
        for row in chunk:  # each row's grids read once, a chunk at a time
            grids = _grids(row, box)
            if isinstance(grids, str):  # a symbol that is not one: named, left out of the batch
                out.problems.append(f"board {row.number}: {grids}")
                out.keys_checked += 1
                continue
            members.append(row)
            boards.append(grids[0])
            puzzles.append(grids[1])
        if not members:
            continue
        boards, puzzles = np.stack(boards), np.stack(puzzles)
        houses = np.sort(boards[:, geo.houses], axis=2)
        valid = (houses == np.arange(1, size + 1)).all(axis=(1, 2))
        keys = key_texts(boards, box, equivalence)
        agree = ((puzzles == 0) | (puzzles == boards)).all(axis=1)
        clue_counts = (puzzles != 0).sum(axis=1)
        for i, r in enumerate(members):
            if not valid[i]:
                out.problems.append(f"board {r.number} is not a complete valid {size}x{size} grid of shape "
                                    f"{shape.partition(':')[0]}")
            elif keys[i] != r.key:
                out.problems.append(f"board {r.number}: stored key differs from the {equivalence} key of its board")
            if not agree[i]:
                out.problems.append(f"board {r.number}: its puzzle has clues that differ from the board")
            if clue_counts[i] != r.clues:
                out.problems.append(f"board {r.number}: its puzzle has {clue_counts[i]} clues, stored {r.clues}")
        out.keys_checked += len(members)
        if progress is not None:
            progress(out.keys_checked, len(rows))
    return out
