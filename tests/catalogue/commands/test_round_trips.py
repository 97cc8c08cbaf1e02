"""What `catalogue query` writes, read back by the tools people pipe it into: sqlite-utils (its command line, as a
user runs it) and pandas, with their default options, and with the one option docs/commands/query.md gives for
the one thing a format cannot carry (a grid made only of digits, in CSV or TSV, or in JSON read by pandas, whose
readers guess a number from the text). Every field of every record is compared with the JSON records."""
from __future__ import annotations

import io
import json
import math
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.store.columns import RESULT_FIELDS

runner = CliRunner()
GRIDS = ("puzzle", "solution")
SQLITE_UTILS = shutil.which("sqlite-utils", path=str(Path(sys.executable).parent)) or shutil.which("sqlite-utils")
pytestmark = pytest.mark.skipif(SQLITE_UTILS is None,
                                reason="sqlite-utils is a test dependency: pip install -e '.[test]'")


def query(url: str, fmt: str) -> str:
    result = runner.invoke(app, ["query", "--db", url, "--format", fmt, "--limit", "0"])
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.fixture
def records(sample_sqlite) -> list[dict]:
    rows = json.loads(query(sample_sqlite, "json"))
    assert all(set(r) == set(RESULT_FIELDS) for r in rows)
    # the sample holds what the formats find hard: a 9x9 solution of digits only, a minimal of None, floats
    assert any(r["solution"].isdigit() for r in rows) and any(r["minimal"] is None for r in rows)
    return rows


def insert(tmp_path: Path, text: str, option: str, *extra: str) -> list[dict]:
    """``sqlite-utils insert t.db rows FILE OPTION`` as a user types it; the rows as SQLite returns them."""
    source = tmp_path / f"rows{option.replace('-', '.')}"
    source.write_text(text)
    db = tmp_path / f"t{len(list(tmp_path.iterdir()))}.db"
    subprocess.run([SQLITE_UTILS, "insert", str(db), "rows", str(source), option, *extra], check=True,
                   capture_output=True, text=True)
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    rows = [dict(row) for row in conn.execute("SELECT * FROM rows ORDER BY rowid")]
    conn.close()
    return rows


def same(value, expected, exact: bool = True) -> bool:
    """A value read back equals the record's: booleans as 1 / 0 (how SQLite keeps them), floats exactly (or to
    the last bit where ``exact`` is False: pandas' default JSON parser, see test_pandas_read_json_lines)."""
    if expected is None:
        return value is None or value == "" or (isinstance(value, float) and math.isnan(value))
    if isinstance(expected, bool):
        return value in (expected, int(expected))
    if isinstance(expected, float) and not exact:
        return math.isclose(value, expected, rel_tol=4e-16)
    return value == expected


def compare(got: list[dict], records: list[dict], skip=(), exact: bool = True) -> None:
    assert len(got) == len(records)
    for row, record in zip(got, records):
        wrong = {name: (row[name], record[name]) for name in RESULT_FIELDS
                 if name not in skip and not same(row[name], record[name], exact)}
        assert not wrong, f"board {record['number']}: {wrong}"


def test_sqlite_utils_nl_keeps_every_field(sample_sqlite, records, tmp_path):
    compare(insert(tmp_path, query(sample_sqlite, "ndjson"), "--nl"), records)


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_sqlite_utils_csv_and_tsv(sample_sqlite, records, tmp_path, fmt):
    text = query(sample_sqlite, fmt)
    # default options: every field but the digit-only grids, which its type detection makes numbers
    guessed = insert(tmp_path, text, f"--{fmt}")
    compare(guessed, records, skip=GRIDS)
    assert any(not isinstance(row["solution"], str) for row in guessed)  # why the docs give the option below
    # --no-detect-types: every field as the text the file holds; the grids whole
    kept = insert(tmp_path, text, f"--{fmt}", "--no-detect-types")
    assert [(row["puzzle"], row["solution"]) for row in kept] == [(r["puzzle"], r["solution"]) for r in records]
    compare([{name: _typed(row[name], record[name]) for name, _ in row.items()} for row, record
             in zip(kept, records)], records)


def _typed(text, like):
    """A --no-detect-types field's text read as the record's type (what `sqlite-utils transform --type` does)."""
    if text in (None, "") or like is None or isinstance(like, str):
        return None if text in (None, "") and like is None else text
    return type(like)(float(text)) if isinstance(like, (bool, int)) else float(text)


def test_pandas_read_json_lines(sample_sqlite, records):
    pd = pytest.importorskip("pandas")
    text = query(sample_sqlite, "ndjson")
    # pandas' default JSON parser rounds some floats in their last bit (0.00012 -> 0.00012000000000000002): its
    # own precise_float=True reads them exactly, as the documented call does
    compare(pd.read_json(io.StringIO(text), lines=True).to_dict("records"), records, skip=GRIDS, exact=False)
    frame = pd.read_json(io.StringIO(text), lines=True, dtype={"puzzle": str, "solution": str}, precise_float=True)
    compare(frame.to_dict("records"), records)


@pytest.mark.parametrize("fmt, sep", [("csv", ","), ("tsv", "\t")])
def test_pandas_read_csv(sample_sqlite, records, fmt, sep):
    pd = pytest.importorskip("pandas")
    text = query(sample_sqlite, fmt)
    compare(pd.read_csv(io.StringIO(text), sep=sep).to_dict("records"), records, skip=GRIDS)
    frame = pd.read_csv(io.StringIO(text), sep=sep, dtype={"puzzle": str, "solution": str})
    compare(frame.to_dict("records"), records)
