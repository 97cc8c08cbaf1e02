"""The error boundary (catalogue/failures.py, CatalogueGroup): every failure is one line and the right exit code.

The exceptions described here are real ones, raised by the real libraries (sqlite3, SQLAlchemy, the OS), not
built by hand where the library can be made to raise them.
"""
from __future__ import annotations

import errno
import os
import sqlite3
import sys

import pytest
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.errors import UsageError, UserError
from catalogue.failures import EXIT_INTERRUPTED, EXIT_RUNTIME, EXIT_USAGE, describe, set_database

runner = CliRunner()


def raised(fn) -> BaseException:
    try:
        fn()
    except BaseException as e:  # noqa: BLE001
        return e
    raise AssertionError("nothing was raised")


def test_user_and_usage_errors_keep_their_words_and_codes():
    assert describe(UserError("no board 7")).message == "no board 7"
    assert describe(UserError("x")).code == EXIT_RUNTIME
    assert describe(UsageError("--count: bad")).code == EXIT_USAGE
    assert describe(KeyboardInterrupt()).code == EXIT_INTERRUPTED


def test_os_errors_name_their_path_and_say_what_to_do(tmp_path):
    missing = raised(lambda: open(tmp_path / "nope" / "x.txt"))
    failure = describe(missing)
    assert failure.expected and failure.code == EXIT_RUNTIME
    assert failure.message == f"{tmp_path / 'nope' / 'x.txt'}: no such file or directory"
    full = describe(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "/data/boards/12.txt"))
    assert full.message.startswith("/data/boards/12.txt: no space left on the device")
    assert "verify --repair" in full.message and full.status == 503
    long_name = raised(lambda: open(tmp_path / ("a" * 5000)))
    text = describe(long_name).message
    assert "(5" in text and "characters)" in text and len(text) < 400, "a huge path is shortened"
    assert "name is too long" in text


def test_database_errors_name_the_database_and_what_the_driver_meant(tmp_path):
    set_database("demo.db")
    try:
        junk = tmp_path / "junk.db"
        junk.write_bytes(b"this is not a database at all" * 100)
        error = raised(lambda: sqlite3.connect(junk).execute("SELECT 1 FROM sqlite_master"))
        failure = describe(error)
        assert failure.message.startswith("database demo.db: the database file is corrupt (file is not a database)")
        from sqlalchemy import create_engine, text

        engine = create_engine(f"sqlite:///{tmp_path / 'ok.db'}")
        with engine.connect() as conn:
            sa_error = raised(lambda: conn.execute(text("SELECT * FROM no_such_table")))
        engine.dispose()
        failure = describe(sa_error)
        assert failure.expected and failure.message == "database demo.db: no such table: no_such_table"
        assert "\n" not in failure.message and "sqlalche.me" not in failure.message
    finally:
        set_database(None)


@pytest.mark.parametrize("make, words", [
    (lambda: int("9" * 5000), "a number is too large"),
    (lambda: b"\xff\xfe\xfa".decode("utf-8"), "text that is not UTF-8"),
    (lambda: float("1e308") * 10 ** 400, "a number is too large"),
    (lambda: (_ for _ in ()).throw(MemoryError()), "out of memory"),
])
def test_resource_limits_are_expected_failures(make, words):
    failure = describe(raised(make))
    assert failure.expected and failure.message.startswith(words)


def test_recursion_is_a_resource_limit():
    def deep(n):
        return deep(n + 1)

    failure = describe(raised(lambda: deep(0)))
    assert failure.expected and failure.message == "the input is nested too deeply to process"


def test_a_bug_says_it_is_one_and_asks_for_a_report():
    failure = describe(raised(lambda: {}["missing"]))
    assert not failure.expected and failure.status == 500 and failure.code == EXIT_RUNTIME
    assert failure.message.startswith("internal error: KeyError: 'missing' (a bug in catalogue: please report")
    assert "-v prints the traceback" in failure.message


def _broken_stats(monkeypatch):
    """Fault injection: the stats query raises a bug's exception (a real exception in the real command path)."""
    from catalogue.store import summary

    def stats(conn):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(summary, "stats", stats)


def test_cli_prints_a_bug_as_one_line_and_the_traceback_only_with_v(tmp_path, monkeypatch):
    db = str(tmp_path / "c.db")
    assert runner.invoke(app, ["db", "upgrade", "--db", db]).exit_code == 0
    _broken_stats(monkeypatch)
    result = runner.invoke(app, ["stats", "--db", db])
    assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stderr.splitlines() == [
        "catalogue: internal error: ZeroDivisionError: division by zero (a bug in catalogue: please report it to "
        "the catalogue developers (docs/development.md says how); -v prints the traceback)"]
    verbose = runner.invoke(app, ["-v", "stats", "--db", db])
    assert verbose.exit_code == 1
    assert "Traceback (most recent call last)" in verbose.stderr and "ZeroDivisionError" in verbose.stderr


@pytest.mark.parametrize("args", [
    ["fill", "--count", " 5"], ["fill", "--count", "5 "], ["query", "--limit", "\t3"],
    ["fill", "--count", "5", "--queue-size", " 8"],
])
def test_numbers_with_spaces_are_usage_errors(tmp_path, args):
    result = runner.invoke(app, [*args, "--db", str(tmp_path / "c.db")])
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert "is not a valid number (spaces around it)" in line
    assert not (tmp_path / "c.db").exists()


def test_numbers_with_spaces_from_the_environment_are_usage_errors_too(tmp_path):
    result = runner.invoke(app, ["fill", "--count", "5", "--db", str(tmp_path / "c.db")],
                           env={"CATALOGUE_QUEUE_SIZE": " 7"})
    assert result.exit_code == 2 and "CATALOGUE_QUEUE_SIZE" in result.stderr


def test_huge_numbers_are_usage_errors(tmp_path):
    for args, env in ((["--queue-size", "99999999999999999999"], {}),
                      ([], {"CATALOGUE_QUEUE_SIZE": "99999999999999999999"})):
        result = runner.invoke(app, ["fill", "--count", "5", *args, "--db", str(tmp_path / "c.db")], env=env)
        assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "c.db").exists()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")
def test_the_real_entry_point_prints_no_traceback(tmp_path):
    import subprocess

    nested = tmp_path / "nested.json"
    nested.write_text("[" * 100_000)
    done = subprocess.run([sys.executable, "-m", "catalogue", "check", str(nested)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert all(line.startswith("catalogue: ") for line in lines)
    assert lines[0].startswith(f"catalogue: {nested}:1:65: arrays and objects nested more than 64 deep")


@pytest.mark.parametrize("command", [["fill", "--count", "3"], ["db", "upgrade"], ["query"], ["stats"]])
def test_a_postgresql_url_with_sql_in_its_options_is_one_line(pg_url, tmp_path, monkeypatch, command):
    """libpq passes `options` to the server as settings; SQL smuggled into one is refused by the server, and that
    refusal is one line (before: a traceback), with no board file written."""
    monkeypatch.chdir(tmp_path)
    url = ("postgresql://postgres@127.0.0.1:5432/test?options=-c%20statement_timeout%3D1%3BDROP%20TABLE%20"
           "boards")
    result = runner.invoke(app, [*command, "--db", url])
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.startswith("catalogue: cannot open database postgresql+psycopg://postgres@127.0.0.1:5432/test?")
    assert 'invalid value for parameter "statement_timeout"' in line
    assert list(tmp_path.iterdir()) == []
