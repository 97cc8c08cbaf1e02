"""Databases checked before use (catalogue/store/location.py): what cannot hold a catalogue is refused in one line,
before a database file or a board file is made."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.errors import UserError
from catalogue.store import Catalogue
from catalogue.store.location import check_url, damage, quick_check

runner = CliRunner()

MEMORY_URLS = ["sqlite://", "sqlite:///", "sqlite:///:memory:", "sqlite:///file::memory:?uri=true",
               "sqlite:///file:x.db?mode=memory&uri=true"]


@pytest.mark.parametrize("url", MEMORY_URLS)
def test_memory_urls_are_refused(url):
    with pytest.raises(UserError, match="in memory keeps nothing"):
        check_url(url)


@pytest.mark.parametrize("url", MEMORY_URLS)
@pytest.mark.parametrize("command", [["fill", "--count", "3"], ["query"], ["stats"], ["verify"], ["db", "upgrade"]])
def test_commands_refuse_memory_urls_before_writing_anything(tmp_path, monkeypatch, url, command):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, [*command, "--db", url])
    assert result.exit_code == 1, result.output
    [line] = result.stderr.splitlines()
    assert line.startswith(f"catalogue: --db {url}: a SQLite database in memory keeps nothing")
    assert list(tmp_path.iterdir()) == [], "no board folder, no file"


@pytest.mark.parametrize("path, words", [("/dev/null", "is a device"), ("/dev/zero", "is a device")])
@pytest.mark.parametrize("command", [["fill", "--count", "3"], ["query"], ["verify"], ["db", "upgrade"],
                                     ["db", "current"], ["export", "1"], ["stats"]])
def test_device_files_are_refused(tmp_path, monkeypatch, path, words, command):
    if not os.path.exists(path):
        pytest.skip(f"{path} does not exist here")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, [*command, "--db", path])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [f"catalogue: cannot open database {path}: {words}, not a database file"]
    assert list(tmp_path.iterdir()) == []


def test_a_fifo_is_refused(tmp_path):
    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)
    result = runner.invoke(app, ["query", "--db", str(fifo)])
    assert result.exit_code == 1 and "is a pipe, not a database file" in result.stderr


@pytest.mark.parametrize("make", [
    lambda tmp: tmp / ("a" * 5000 + ".db"),                   # one name far past NAME_MAX
    lambda tmp: tmp / ("a" * 300 + ".db"),                    # just past it
    lambda tmp: tmp.joinpath(*["abcdefgh"] * 600, "x.db"),    # short names, a path past PATH_MAX
])
@pytest.mark.parametrize("command", [["fill", "--count", "3"], ["query"], ["stats"], ["verify"], ["export", "1"],
                                     ["db", "current"], ["db", "upgrade"]])
def test_over_long_paths_are_one_line(tmp_path, make, command):
    path = make(tmp_path)
    result = runner.invoke(app, [*command, "--db", str(path)])
    assert result.exit_code == 1
    [line] = result.stderr.splitlines()
    assert line.startswith("catalogue: cannot open database ") and "too long" in line
    assert len(line) < 400, "the path is shortened in the message"
    assert sorted(tmp_path.iterdir()) == []


def _filled(tmp_path: Path, count: int = 300) -> Path:
    db = tmp_path / "c.db"
    result = runner.invoke(app, ["fill", "--count", str(count), "--seed", "3", "--db", str(db)])
    assert result.exit_code == 0, result.output
    return db


def _scribble(db: Path, at: float = 0.5, size: int = 8192, seed: int = 1) -> None:
    import random

    data = random.Random(seed).randbytes(size)
    with open(db, "r+b") as f:
        f.seek(int(db.stat().st_size * at) // 4096 * 4096)
        f.write(data)


def test_quick_check_finds_damage_in_the_middle_of_a_catalogue(tmp_path):
    db = _filled(tmp_path)
    assert quick_check(db) == [] and damage(db) is None
    _scribble(db)
    problems = quick_check(db)
    assert problems, "random bytes over index and table pages are found"
    assert damage(db).startswith("the file is corrupt (PRAGMA quick_check: ")


@pytest.mark.parametrize("command", [["verify"], ["verify", "--full"], ["verify", "--repair"], ["stats"],
                                     ["fill", "--count", "5"], ["query", "--limit", "0"], ["export", "250"]])
def test_a_corrupted_catalogue_is_one_line_per_problem_and_exit_1(tmp_path, command):
    db = _filled(tmp_path)
    _scribble(db)
    result = runner.invoke(app, [*command, "--db", str(db)])
    lines = result.stderr.splitlines()
    assert "Traceback" not in result.output
    if result.exit_code == 0:
        # a command that only touched sound pages (query and export read few; stats reads indexes, not the
        # tables, since migration 0006; a fill may write only new pages): SQLite itself does not notice, so
        # `verify`, which runs quick_check first, must
        assert command[0] in ("query", "export", "stats", "fill")
        check = runner.invoke(app, ["verify", "--db", str(db)])
        assert check.exit_code == 1 and "corrupt" in check.stderr
        return
    assert result.exit_code == 1 and lines
    assert all(line.startswith("catalogue: ") for line in lines)
    assert any("corrupt" in line for line in lines), lines


def test_verify_reports_what_quick_check_found(tmp_path):
    db = _filled(tmp_path)
    _scribble(db)
    result = runner.invoke(app, ["verify", "--db", str(db)])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0].startswith("catalogue: database file is corrupt (PRAGMA quick_check): ")
    assert lines[-1] == f"catalogue: database {db} is corrupt: restore it from a backup (its board files are left " \
                        f"as they are)"


@pytest.mark.parametrize("content, words", [
    (b"x" * 50_000, "not a SQLite database file"),
    (b"SQLite format 3\x00" + b"\xff" * 50_000, "header is destroyed"),
])
def test_junk_and_broken_headers(tmp_path, content, words):
    db = tmp_path / "c.db"
    db.write_bytes(content)
    for command in (["query"], ["fill", "--count", "3"], ["verify"], ["db", "current"], ["db", "upgrade"]):
        result = runner.invoke(app, [*command, "--db", str(db)])
        assert result.exit_code == 1, (command, result.output)
        [line] = result.stderr.splitlines()
        assert line.startswith(f"catalogue: ") and words in line, (command, line)
    assert db.read_bytes() == content, "a file that is not a catalogue is never written"


def test_a_truncated_catalogue(tmp_path):
    db = _filled(tmp_path)
    with open(db, "r+b") as f:
        f.truncate(db.stat().st_size // 3)
    for command in (["query"], ["stats"], ["verify"], ["fill", "--count", "3"]):
        result = runner.invoke(app, [*command, "--db", str(db)])
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert all(line.startswith("catalogue: ") for line in result.stderr.splitlines())
        assert "corrupt" in result.stderr


def test_the_python_api_refuses_the_same(tmp_path):
    with pytest.raises(UserError, match="in memory"):
        Catalogue.open("sqlite://")
    with pytest.raises(UserError, match="is a folder"):
        Catalogue.open(str(tmp_path))
    db = tmp_path / "junk.db"
    db.write_bytes(b"junk" * 10_000)
    with pytest.raises(UserError, match="not a SQLite database file"):
        Catalogue.open(str(db)).stats()
    conn = sqlite3.connect(tmp_path / "other.db")
    conn.execute("CREATE TABLE t (x)")
    conn.close()
    assert damage(tmp_path / "other.db") is None  # a sound SQLite file that is not a catalogue is not "corrupt"
