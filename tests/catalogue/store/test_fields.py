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
