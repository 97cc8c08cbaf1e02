"""The field list (catalogue.store.fields) is the tables' own: every column of the models' boards and puzzles
tables, in their order, with the same Python type and nullability; and what is made from it agrees."""
from __future__ import annotations

import dataclasses
import subprocess
import sys
import typing

import pytest
from paths import ROOT

from catalogue.store import models
from catalogue.store.fields import BOARD_FIELDS, BY_NAME, FIELDS, PUZZLE_FIELDS, RECORD_FIELDS, RESULT_FIELDS
from catalogue.store.records import BoardPuzzle, BoardRecord, PuzzleRecord
from catalogue.web.schemas import FullRecord, PuzzleRow

#: what a column's SQL type gives in Python; `techniques` is stored as JSON text and read as a dict
JSON_TEXT = {"techniques"}


@pytest.mark.parametrize("model", [models.Board, models.Puzzle])
def test_the_field_list_is_every_column_of_the_tables(model):
    table = model.__table__
    listed = [f for f in FIELDS if f.table == table.name]
    assert [f.stored for f in listed] == [c.name for c in table.columns]
    for field in listed:
        column = table.columns[field.stored]
        expected = str if field.name in JSON_TEXT else field.type
        assert column.type.python_type is expected, field.name
        assert column.nullable == field.optional or column.primary_key, field.name


def test_the_records_and_the_api_are_made_from_the_list():
    assert tuple(f.name for f in dataclasses.fields(PuzzleRecord)) == RESULT_FIELDS
    assert {f.name for f in dataclasses.fields(BoardPuzzle)} == set(PUZZLE_FIELDS)
    hints = typing.get_type_hints(PuzzleRecord)
    assert all(hints[name] == BY_NAME[name].annotation for name in RESULT_FIELDS)
    assert tuple(PuzzleRow.model_fields) == RESULT_FIELDS and tuple(FullRecord.model_fields) == RECORD_FIELDS
    assert FullRecord.model_fields["clues"].description == BY_NAME["clues"].about
    # a board row and its puzzle row hold every field of a full record between them
    board_columns = {f.name for f in dataclasses.fields(BoardRecord)} - {"puzzle"}
    assert board_columns == {BY_NAME[name].stored for name in BOARD_FIELDS}
    assert set(BOARD_FIELDS) | set(PUZZLE_FIELDS) == set(RECORD_FIELDS)


def test_datasette_metadata_is_current():
    """Its boards' and puzzles' column descriptions are the field list's (tools/datasette_metadata.py)."""
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "datasette_metadata.py"), "--check"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr.strip()


def test_stand_ins_complete_a_row_or_name_the_column_nobody_made():
    from catalogue.store.fields import ASSIGNED, stand_ins

    columns = [f.stored for f in FIELDS if f.table == "puzzles" and f.name not in ASSIGNED]
    required = [f.stored for f in FIELDS if f.table == "puzzles" and f.name not in ASSIGNED and not f.optional]
    # a carved puzzle: everything but where an imported one came from
    assert stand_ins("puzzles", [c for c in columns if c not in ("source", "source_line")]) == {
        "source": None, "source_line": None}
    # an imported one: what the import does not make stands in for what a carving would have made
    made = [c for c in columns if c not in ("carve_seed", "attempts", "target_clues")]
    assert stand_ins("puzzles", made, imported=True) == {"carve_seed": 0, "attempts": 0, "target_clues": None}
    for column in required:  # a column without a stand-in that a row leaves out is named, not stored as NULL
        with pytest.raises(RuntimeError, match=f"leave out {column},"):
            stand_ins("puzzles", [c for c in columns if c != column])
    with pytest.raises(RuntimeError, match="does not have: colour"):
        stand_ins("boards", ["colour"])


def test_fill_and_import_rows_are_whole(tmp_path):
    """Both makers of rows store every column the table has (a NULL only where a column is optional), through the
    real commands."""
    import sqlite3

    from typer.testing import CliRunner

    from catalogue.cli import app

    db = tmp_path / "c.db"
    runner = CliRunner()
    assert runner.invoke(app, ["fill", "--count", "3", "--seed", "1", "--db", str(db), "--out",
                               str(tmp_path / "b")]).exit_code == 0
    puzzle = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
    (tmp_path / "p.txt").write_text(puzzle + "\n")
    result = runner.invoke(app, ["import", str(tmp_path / "p.txt"), "--db", str(db), "--out", str(tmp_path / "b")])
    assert result.exit_code == 0, result.output
    with sqlite3.connect(db) as conn:
        for table in ("boards", "puzzles"):
            names = [f.stored for f in FIELDS if f.table == table and not f.optional]
            rows = conn.execute(f"SELECT {', '.join(names)} FROM {table}").fetchall()
            assert len(rows) == 4 and all(value is not None for row in rows for value in row), table
        imported = conn.execute("SELECT carve_seed, attempts, target_clues, source FROM puzzles "
                                "WHERE source IS NOT NULL").fetchall()
    assert imported == [(0, 0, None, "p.txt")]
