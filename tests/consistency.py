"""The independent consistency check of a catalogue: a plain re-reading that shares no code with the pipeline.

Numbers exactly 0..N-1, keys unique, at least one puzzle per board (``catalogue import`` can add more), every
puzzle's clues agreeing with its board, and every file holding exactly its board (written here with
``engine.formats.to_txt``, the formats helper's own writer).
"""
from __future__ import annotations

from pathlib import Path

from sqlalchemy import create_engine, text

from engine.formats import from_line, to_txt
from engine.shape import Shape


def catalogue_rows(url: str, every_puzzle: bool = False) -> list:
    """One row per board with its first puzzle (``every_puzzle``: one row per puzzle, boards without any too)."""
    engine = create_engine(url)
    first = "" if every_puzzle else " AND p.id = (SELECT min(q.id) FROM puzzles q WHERE q.board_number = b.number)"
    try:
        with engine.connect() as conn:
            return conn.execute(text(
                "SELECT b.number, b.size, b.shape, b.equivalence, b.key, b.board, p.puzzle, p.clues, b.run_id "
                f"FROM boards b LEFT JOIN puzzles p ON p.board_number = b.number{first} "
                "ORDER BY b.number, p.id")).all()
    finally:
        engine.dispose()


def assert_consistent(url: str, out: Path, files: bool = True) -> list:
    """Numbers 0..N-1, unique keys, matching puzzles (one at least) per board, N.txt == board N; returns one row
    per board (with its first puzzle)."""
    for r in catalogue_rows(url, every_puzzle=True):  # every puzzle, not only each board's first
        assert r.puzzle is not None, f"board {r.number} has no puzzle"
        shape = Shape.parse(r.shape)
        assert shape.size == r.size, f"board {r.number}: size {r.size}, shape {r.shape}"
        board, puzzle = from_line(r.board, shape), from_line(r.puzzle, shape)
        assert ((puzzle == 0) | (puzzle == board)).all(), f"a puzzle of board {r.number} disagrees with it"
        assert int((puzzle != 0).sum()) == r.clues
    rows = catalogue_rows(url)
    numbers = [r.number for r in rows]
    assert numbers == list(range(len(rows))), f"numbers are not 0..{len(rows) - 1}: {numbers[:20]}"
    keys = [(r.shape, r.equivalence, r.key) for r in rows]
    assert len(set(keys)) == len(keys), "a key is stored twice"
    for r in rows:
        assert r.puzzle is not None, f"board {r.number} has no puzzle"
        shape = Shape.parse(r.shape)
        board, puzzle = from_line(r.board, shape), from_line(r.puzzle, shape)
        assert ((puzzle == 0) | (puzzle == board)).all(), f"puzzle {r.number} disagrees with its board"
        assert int((puzzle != 0).sum()) == r.clues
        if files:
            path = Path(out) / f"{r.number}.txt"
            assert path.exists(), f"{path} is missing"
            assert path.read_text() == to_txt(board, shape) + "\n", f"{path} does not hold board {r.number}"
    return rows


def assert_accounted(summary) -> None:
    """Every board generated is accepted, a duplicate, not needed, or counted as dropped in flight."""
    assert summary.generated == summary.accepted + summary.duplicates + summary.surplus + summary.dropped, summary
