"""The datasette metadata (catalogue/datasette/metadata.json) against a real, filled catalogue: every table and
column it describes exists, every column of the schema is described, and every saved query runs."""
from __future__ import annotations

import json
import re
import sqlite3

import pytest
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.datasette import METADATA

#: values for the saved queries' named parameters
PARAMETERS = {"count": "5", "technique": "hidden-single", "number": "3"}


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("ds") / "catalogue.db"
    assert CliRunner().invoke(app, ["fill", "--count", "40", "--seed", "8", "--db", str(path)]).exit_code == 0
    return path


def test_every_table_and_column_is_described_and_exists(db):
    meta = json.loads(METADATA.read_text())["databases"]["catalogue"]
    conn = sqlite3.connect(db)
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert set(meta["tables"]) == tables, "each table is described (or hidden), and only tables that exist"
    for table, info in meta["tables"].items():
        if info.get("hidden"):
            continue
        columns = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        assert set(info["columns"]) == columns, table
        assert all(text.endswith(".") for text in info["columns"].values()), table


def test_every_saved_query_runs(db):
    meta = json.loads(METADATA.read_text())["databases"]["catalogue"]
    conn = sqlite3.connect(db)
    for name, query in meta["queries"].items():
        names = set(re.findall(r":(\w+)", query["sql"]))
        assert names == set(query.get("params", [])), name
        rows = conn.execute(query["sql"], {n: PARAMETERS[n] for n in names}).fetchall()
        assert rows, f"{name} found nothing in a 40-board catalogue"
    sample = conn.execute(meta["queries"]["random_sample"]["sql"], {"count": "5"}).fetchall()
    assert len(sample) == 5
