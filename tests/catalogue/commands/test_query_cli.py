"""`catalogue query` through the real CLI app: exact output per format, errors, and hostile input."""
from __future__ import annotations

import json

import pytest
from conftest import fill_sample, sample_rows
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.cli.commands.query import DEFAULT_LIMIT

runner = CliRunner()


@pytest.fixture(scope="module")
def sample_sqlite(tmp_path_factory) -> str:
    """conftest's sample catalogue on SQLite, filled once for the module: every test here only reads it."""
    url = f"sqlite:///{tmp_path_factory.mktemp('sample') / 'catalogue.db'}"
    fill_sample(url)
    return url


def query(url, *args, env=None):
    return runner.invoke(app, ["query", "--db", url, *args], env=env)


def test_json_is_every_record_with_every_field(sample_sqlite):
    result = query(sample_sqlite, "--format", "json")
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout == json.dumps(sample_rows(), indent=2) + "\n"


@pytest.mark.postgres
def test_json_on_postgresql(pg_url, fill_catalogue):
    fill_catalogue(pg_url)
    result = query(pg_url, "--format", "json", "--order-by", "clues", "--desc")
    assert result.exit_code == 0
    assert [r["number"] for r in json.loads(result.stdout)] == [2, 0, 4, 1, 3]


def test_csv_exact(sample_sqlite):
    result = query(sample_sqlite, "--format", "csv", "--size", "4")
    assert result.exit_code == 0
    assert result.stdout == (
        "number,variant,size,shape,equivalence,method,clues,symmetry,nodes,guesses,backtracks,checks,max_depth,"
        "solve_seconds,carve_checks,carve_seconds,minimal,undecided,level,score,hardest,technique,source,source_line,"
        "puzzle,solution\n"
        '3,1,4,"2x2","none","backtrack",8,"none",7,0,0,21,0,7e-06,53,0.004,,,,,,,,,".1.3.3.1.2.4.4.2","4123234112343412"\n')


def test_minimality_in_json_and_csv(sample_sqlite):
    """Proven minimal, cut off by the node limit (board 4), and unknown (board 3, as stored before 0003)."""
    records = json.loads(query(sample_sqlite, "--format", "json").stdout)
    assert [(r["number"], r["minimal"], r["undecided"]) for r in records] == [
        (0, True, 0), (1, True, 0), (2, True, 0), (3, None, None), (4, False, 3)]
    csv_lines = query(sample_sqlite, "--format", "csv", "--technique", "xy-wing").stdout.splitlines()
    header, row = (line.split(",") for line in csv_lines)
    assert dict(zip(header, row))["minimal"] == "0" and dict(zip(header, row))["undecided"] == "3"


def test_line_is_puzzles_only(sample_sqlite):
    result = query(sample_sqlite, "--format", "line", "--min-clues", "21", "--order-by", "clues")
    assert result.exit_code == 0
    rows = {r["number"]: r["puzzle"] for r in sample_rows()}
    assert result.stdout == f"{rows[4]}\n{rows[0]}\n{rows[2]}\n"


def test_table_exact(sample_sqlite):
    result = query(sample_sqlite, "--level", "hard", "--technique", "x-wing")
    assert result.exit_code == 0
    puzzle = sample_rows()[1]["puzzle"]
    header = "number  level  score  hardest  clues  puzzle"
    row = "     1  hard     4.2  X-Wing      20  " + puzzle
    assert result.stdout.splitlines() == [header, "─" * len(row), row]


def test_metrics_table_exact(sample_sqlite):
    result = query(sample_sqlite, "--level", "hard", "--technique", "x-wing", "--metrics")
    assert result.exit_code == 0
    puzzle = sample_rows()[1]["puzzle"]
    header = ("number  level  score  hardest  clues  size  nodes  guesses  backtracks  max_depth  solve_seconds  "
              "puzzle")
    row = ("     1  hard     4.2  X-Wing      20     9    480       30          15         10        0.00048  "
           + puzzle)
    assert result.stdout.splitlines() == [header, "─" * len(row), row]


@pytest.mark.parametrize("fmt, stdout", [("table", ""), ("line", ""), ("json", "[]\n"),
                                         ("csv", None)])
def test_empty_result_is_not_an_error(sample_sqlite, fmt, stdout):
    result = query(sample_sqlite, "--min-clues", "80", "--format", fmt)
    assert result.exit_code == 0
    assert result.stderr == "catalogue: no puzzles match\n"
    if stdout is not None:
        assert result.stdout == stdout
    else:
        assert result.stdout.count("\n") == 1 and result.stdout.startswith("number,variant,size,")


def test_a_missing_catalogue_is_an_error_and_is_not_created(tmp_path):
    # a mistyped --db used to leave an empty catalogue behind and answer "no puzzles match"
    path = tmp_path / "new" / "cat.db"
    result = query(str(path), "--format", "json")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (f"catalogue: no catalogue at {path}: `catalogue fill` makes one, "
                             f"`catalogue db upgrade` an empty one\n")
    assert not path.exists() and not path.parent.exists()


def test_an_empty_catalogue_answers_nothing(tmp_path):
    path = tmp_path / "cat.db"
    assert runner.invoke(app, ["db", "upgrade", "--db", str(path)]).exit_code == 0
    result = query(str(path), "--format", "json")
    assert (result.exit_code, result.stdout) == (0, "[]\n")


def test_filters_beyond_64_bits_select_what_they_mean(sample_sqlite):
    # SQLite's driver raised OverflowError (a traceback) on ints beyond 8 bytes; they are clamped, same rows
    huge = str(10 ** 20)
    assert query(sample_sqlite, "--min-clues", huge).stderr == "catalogue: no puzzles match\n"
    everything = query(sample_sqlite, "--format", "line", "--limit", "0").stdout
    result = query(sample_sqlite, "--format", "line", "--max-clues", huge, "--limit", huge)
    assert (result.exit_code, result.stdout) == (0, everything)
    assert query(sample_sqlite, "--size", huge).stderr == (
        f"catalogue: --size must be a grid's rows, 3 to 25, not {huge}\n")


def test_bad_order_key_is_a_usage_error(sample_sqlite):
    result = query(sample_sqlite, "--order-by", "clues; DROP TABLE boards")
    assert result.exit_code == 2 and result.stderr.startswith(
        "catalogue: --order-by: no sort key 'clues; DROP TABLE boards'; one of: number, size, clues,")
    assert query(sample_sqlite, "--format", "line").stdout.count("\n") == 5


@pytest.mark.parametrize("option, value", [("--method", "wfc' OR '1'='1"),
                                           ("--technique", "x'); DROP TABLE puzzles; --")])
def test_injection_in_a_filter_is_harmless(sample_sqlite, option, value):
    # refused as a name outside the vocabulary before any SQL runs; the filters are bound parameters anyway
    result = query(sample_sqlite, option, value, "--format", "json")
    assert (result.exit_code, result.stdout) == (2, "")
    assert query(sample_sqlite, "--format", "line").stdout.count("\n") == 5


TECHNIQUE_LIST = ("hidden-single, direct-pointing, direct-claiming, direct-hidden-pair, naked-single, "
                  "direct-hidden-triple, pointing, claiming, naked-pair, x-wing, hidden-pair, naked-triple, "
                  "swordfish, hidden-triple, xy-wing, xyz-wing, unique-loop, naked-quad, jellyfish, hidden-quad, "
                  "bug, aligned-pair-exclusion, chains-and-cycles, aligned-triple-exclusion, nishio, "
                  "multiple-forcing-chains, dynamic-forcing-chains, dynamic-forcing-chains-plus, "
                  "nested-forcing-chains, guessing")


@pytest.mark.parametrize("args, line", [
    (("--technique", "xwing"), f"--technique: no technique 'xwing'; one of: {TECHNIQUE_LIST}"),
    (("--method", "bogus"), "--method: no method 'bogus'; one of: wfc, backtrack, pattern, import"),
    (("--level", "trivial"), "--level: no level 'trivial'; one of: easy, medium, hard, expert, extreme"),
    (("--equivalence", "d8"), "--equivalence: no equivalence 'd8'; one of: d4, full, none"),
    (("--format", "xml"), "--format: no format 'xml'; one of: table, csv, tsv, json, ndjson, line, block, rcv, pretty, txt"),
    (("--size", "2"), "--size must be a grid's rows, 3 to 25, not 2"),
    (("--shape", "hexagon"), "--shape: 'hexagon' is not a shape; write RxC (3x3, 2x3), latinN, jigsawN, with +x for "
                             "the diagonals"),
])
def test_unknown_value_is_one_line_with_the_valid_values(sample_sqlite, args, line):
    """Before, an unknown name matched nothing: "no puzzles match", exit 0, as if the catalogue had none."""
    result = query(sample_sqlite, *args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"catalogue: {line}\n")


@pytest.mark.parametrize("args", [("--technique", "X-Wing"), ("--technique", "x-wing"), ("--technique", "XY-WING"),
                                  ("--method", "WFC"), ("--level", "Hard"), ("--equivalence", "D4"),
                                  ("--format", "JSON")])
def test_names_are_case_insensitive(sample_sqlite, args):
    result = query(sample_sqlite, *args, "--format", "json") if args[0] != "--format" else query(sample_sqlite, *args)
    assert result.exit_code == 0, result.output
    lowered = query(sample_sqlite, args[0], args[1].lower(), *(("--format", "json") if args[0] != "--format" else ()))
    assert result.stdout == lowered.stdout


def test_min_above_max_is_a_usage_error(sample_sqlite):
    result = query(sample_sqlite, "--min-clues", "30", "--max-clues", "20")
    assert result.exit_code == 2
    assert result.stderr == "catalogue: --min-clues 30 is above --max-clues 20\n"


def test_environment_variable_names_the_catalogue(sample_sqlite):
    result = runner.invoke(app, ["query", "--format", "line", "--size", "4"], env={"CATALOGUE_DB": sample_sqlite})
    assert (result.exit_code, result.stdout) == (0, sample_rows()[3]["puzzle"] + "\n")


def test_default_limit_says_when_it_cut(sqlite_url, fill_catalogue):
    from catalogue.store.database import make_engine
    from sqlalchemy import insert

    from catalogue.store.models import Puzzle

    fill_catalogue(sqlite_url)
    row = sample_rows()[0]
    engine = make_engine(sqlite_url)
    with engine.begin() as conn:  # 100 more copies of puzzle 0 on board 0
        conn.execute(insert(Puzzle), [dict(board_number=0, variant=2 + k, puzzle=row["puzzle"], clues=row["clues"],
                                           symmetry="none", carve_seed=1, carve_checks=1, carve_seconds=0.0, nodes=1,
                                           guesses=0, backtracks=0, checks=0, max_depth=0, solve_seconds=0.0)
                                      for k in range(DEFAULT_LIMIT)])
    engine.dispose()
    cut = query(sqlite_url, "--format", "line")
    assert cut.stdout.count("\n") == DEFAULT_LIMIT
    assert cut.stderr == (f"catalogue: showing the first {DEFAULT_LIMIT} puzzles: --limit N for more, "
                          "--limit 0 for all\n")
    everything = query(sqlite_url, "--format", "line", "--limit", "0")
    assert (everything.stdout.count("\n"), everything.stderr) == (DEFAULT_LIMIT + 5, "")
    assert query(sqlite_url, "--format", "line", "--limit", "3").stderr == ""


def test_unreachable_database_is_one_line():
    result = query("postgresql://postgres@127.0.0.1:1/test")
    assert result.exit_code == 1
    assert result.stderr == ("catalogue: cannot open database postgresql+psycopg://postgres@127.0.0.1:1/test: "
                             "the database server does not answer (connection refused)\n")


@pytest.mark.parametrize("command", [["query"], ["export"], ["stats"], ["db"], ["db", "upgrade"],
                                     ["db", "current"]])
def test_help(command):
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0 and "Usage:" in result.stdout
    if command != ["db"]:
        # --db everywhere; --out only where board files are written (none of these read commands writes one)
        assert "--db" in result.stdout and "--out " not in result.stdout


def test_fill_only_settings_do_not_stop_a_query(sample_sqlite):
    # a bad $CATALOGUE_GENERATORS is fill's business: it used to make every read command exit 2
    result = query(sample_sqlite, "--format", "line", env={"CATALOGUE_GENERATORS": "many", "CATALOGUE_CHECKERS": "0"})
    assert (result.exit_code, result.stdout.count("\n")) == (0, 5)


def test_a_huge_value_is_not_echoed_whole(sample_sqlite):
    result = query(sample_sqlite, "--level", "x" * 100_000)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and len(result.stderr) < 300
    assert "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (100,000 characters)" in result.stderr
