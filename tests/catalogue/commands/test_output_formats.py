"""The output contract of `query` and `stats`: every format parses with the standard library and names the same
columns; CSV booleans and grids; one format per float column; tables fit 80 columns; ndjson in constant memory."""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest
from conftest import sample_rows
from records import parse_records
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.output import RECORD_FORMATS, write_records
from catalogue.store.columns import RESULT_FIELDS
from catalogue.tables import column_formatter, table_text

runner = CliRunner()


@pytest.mark.parametrize("fmt", ["csv", "tsv", "json", "ndjson"])
def test_query_formats_parse_and_name_the_same_columns(sample_sqlite, fmt):
    result = runner.invoke(app, ["query", "--db", sample_sqlite, "--format", fmt])
    assert result.exit_code == 0 and result.stderr == ""
    records = parse_records(fmt, result.stdout)
    assert [list(r) for r in records] == [list(RESULT_FIELDS)] * len(sample_rows())
    assert [str(r["number"]) for r in records] == [str(r["number"]) for r in sample_rows()]
    assert [r["solution"] for r in records] == [r["solution"] for r in sample_rows()]


def test_query_table_names_database_columns(sample_sqlite):
    header = runner.invoke(app, ["query", "--db", sample_sqlite, "--metrics"]).stdout.splitlines()[0].split()
    assert "solve_seconds" in header and "solve_ms" not in header
    assert set(header) <= set(RESULT_FIELDS)


def test_csv_booleans_none_and_grids_as_text(sample_sqlite):
    text = runner.invoke(app, ["query", "--db", sample_sqlite, "--format", "csv"]).stdout
    records = {int(r["number"]): r for r in csv.DictReader(io.StringIO(text))}
    assert (records[0]["minimal"], records[4]["minimal"], records[3]["minimal"]) == ("1", "0", "")
    assert records[3]["level"] == ""  # None is an empty field
    for row in sample_rows():  # every grid field is quoted: a solution of digits only stays text
        assert f'"{row["solution"]}"' in text and f'"{row["puzzle"]}"' in text


def test_a_solution_of_digits_survives_a_csv_round_trip_as_text():
    solution = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    out = io.StringIO()
    write_records([{"number": 7, "solution": solution, "minimal": True, "score": None}],
                  ("number", "solution", "minimal", "score"), "csv", out=out)
    assert out.getvalue() == f'number,solution,minimal,score\n7,"{solution}",1,\n'
    # a reader that types unquoted fields as numbers still gets the quoted solution as a string
    reader = csv.reader(io.StringIO(out.getvalue().splitlines()[1].rsplit(",", 2)[0]),
                        quoting=csv.QUOTE_NONNUMERIC)
    assert next(reader) == [7.0, solution]
    assert next(csv.DictReader(io.StringIO(out.getvalue())))["solution"] == solution


def test_json_is_one_array_even_when_streamed():
    rows = ({"a": i, "b": str(i)} for i in range(3))
    out = io.StringIO()
    assert write_records(rows, ("a", "b"), "json", out=out) == 3
    assert out.getvalue() == json.dumps([{"a": i, "b": str(i)} for i in range(3)], indent=2) + "\n"
    empty = io.StringIO()
    write_records(iter(()), ("a",), "json", out=empty)
    assert json.loads(empty.getvalue()) == []


def test_one_format_per_float_column_and_grouped_integers():
    text = column_formatter([2.869e-06, 0.5, None, 3])
    assert [text(v) for v in (2.869e-06, 0.5, None, 3)] == ["0.0000029", "0.5000000", "-", "3.0000000"]
    assert column_formatter([55143, 7])(55143) == "55,143"
    assert "e-0" not in column_formatter([1e-9, 1.0])(1e-9)


@pytest.mark.parametrize("fmt", RECORD_FORMATS)
def test_every_record_format_is_offered_by_query_and_stats_json_parses(sample_sqlite, fmt):
    assert runner.invoke(app, ["query", "--db", sample_sqlite, "--format", fmt]).exit_code == 0
    stats = runner.invoke(app, ["stats", "--db", sample_sqlite, "--format", "json"])
    assert isinstance(json.loads(stats.stdout), dict)


def test_wide_terminal_keeps_the_puzzle_on_one_line(sample_sqlite):
    result = runner.invoke(app, ["query", "--db", sample_sqlite], env={"COLUMNS": "250"})
    assert result.stderr == "" and sample_rows()[0]["puzzle"] in result.stdout.split()


def test_a_table_that_does_not_fit_draws_its_grids_then_becomes_records():
    rows = [{"number": 10657, "hardest": "x-wing", "puzzle": "1234" * 4}]
    fields = ("number", "hardest", "puzzle")
    assert table_text(rows, fields, width=80).splitlines() == [
        "number  hardest  puzzle", "─" * 33, " 10657  x-wing   1234123412341234"]  # a number is never grouped
    assert table_text(rows, fields, width=30).splitlines() == [
        "number  hardest  puzzle", "─" * 23, " 10657  x-wing   1234", *["                 1234"] * 3]
    assert table_text(rows, fields, width=20).splitlines() == [
        "number   10657", "hardest  x-wing", "puzzle   1234", *["         1234"] * 3]


# ----------------------------------------------------------------------------------------- constant memory

N_ROWS = 50_000


def build(path) -> None:
    """A catalogue of N_ROWS puzzles, rows inserted directly (as bench/bench_query.py's build does)."""
    import sqlite3

    assert runner.invoke(app, ["db", "upgrade", "--db", str(path)]).exit_code == 0
    row = sample_rows()[0]
    conn = sqlite3.connect(path)
    cols = [r[1] for r in conn.execute("PRAGMA table_info(boards)")]
    pcols = [r[1] for r in conn.execute("PRAGMA table_info(puzzles)")]
    board = {"size": 9, "equivalence": "d4", "method": "wfc", "board": row["solution"]}
    puzzle = {k: row.get(k) for k in pcols if k in row and k not in ("id",)}
    with conn:
        template = dict(_board_defaults(conn, cols), **board)
        conn.executemany(f"INSERT INTO boards ({', '.join(template)}, number, key) VALUES "
                         f"({', '.join('?' * len(template))}, ?, ?)",
                         ([*template.values(), n, f"k{n:08d}"] for n in range(N_ROWS)))
        ptemplate = dict(_puzzle_defaults(conn, pcols), **puzzle)
        conn.executemany(f"INSERT INTO puzzles ({', '.join(ptemplate)}, board_number) VALUES "
                         f"({', '.join('?' * len(ptemplate))}, ?)",
                         ([*ptemplate.values(), n] for n in range(N_ROWS)))
    conn.close()


def _defaults(conn, table, names, given):
    """A value for every NOT NULL column without a default that ``given`` does not set."""
    out = {}
    for cid, name, typ, notnull, default, pk in conn.execute(f"PRAGMA table_info({table})"):
        if notnull and default is None and not pk and name not in given:
            out[name] = "x" if "CHAR" in typ.upper() or "TEXT" in typ.upper() else 0
    return out


def _board_defaults(conn, cols):
    return _defaults(conn, "boards", cols, {"number", "key", "size", "equivalence", "method", "board"})


def _puzzle_defaults(conn, cols):
    return _defaults(conn, "puzzles", cols, {"board_number", "puzzle", "clues"})


@pytest.mark.slow
def test_ndjson_of_50000_rows_in_constant_memory(tmp_path):
    path = tmp_path / "big.db"
    build(path)
    script = ("import resource, subprocess, sys\n"
              "p = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)\n"
              "assert p.returncode == 0, p.stderr\n"
              "print(p.stdout.count(b'\\n'), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    base = [sys.executable, "-m", "catalogue", "query", "--db", str(path), "--limit", "0"]
    lines, ndjson_kb = map(int, subprocess.run([sys.executable, "-c", script, *base, "--format", "ndjson"],
                                               capture_output=True, text=True, check=True).stdout.split())
    assert lines == N_ROWS
    _, json_kb = map(int, subprocess.run([sys.executable, "-c", script, *base, "--format", "json"],
                                         capture_output=True, text=True, check=True).stdout.split())
    listing = ("import resource, sys\nfrom catalogue.store import Catalogue\n"
               "with Catalogue.open(sys.argv[1], create=False) as c: rows = [r.to_dict() for r in c.puzzles()]\n"
               "print(len(rows), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n")
    n, list_kb = map(int, subprocess.run([sys.executable, "-c", listing, str(path)], capture_output=True,
                                         text=True, check=True).stdout.split())
    print(f"peak RSS: ndjson {ndjson_kb / 1024:.1f} MB, json {json_kb / 1024:.1f} MB, "
          f"list of {n} rows {list_kb / 1024:.1f} MB")
    assert ndjson_kb < 150 * 1024 and json_kb < 150 * 1024
    assert ndjson_kb < list_kb
