"""Reads change nothing: every read command, on another program's SQLite database, an empty file, a catalogue at
head, a read-only catalogue and an older catalogue, leaves each file's bytes as they were and no -wal or -shm file
beside it; what is not a catalogue at head is refused in one line (exit 1), an older one with the command that
upgrades it. Real files; the commands run in this process through typer's CliRunner (the catalogue is filled once
by the real ``catalogue`` command in a subprocess), each from a folder of its own."""
from __future__ import annotations

import hashlib
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.store import Catalogue
from catalogue.store.migrate import HEAD_REVISION, downgrade

#: the read commands, as a person types them (``--db`` is added)
READS = (["query", "--limit", "2"], ["stats"], ["daily", "--date", "2026-11-26"], ["export", "0"], ["verify"],
         ["db", "current"], ["regrade", "--dry-run"], ["book", "--count", "2", "-o", "{tmp}/book.pdf"])


def _catalogue(args: list[str], db: Path, tmp: Path, monkeypatch) -> SimpleNamespace:
    """``catalogue ARGS --db DB`` run from the folder ``tmp``: its exit code, stdout and stderr."""
    monkeypatch.chdir(tmp)
    result = CliRunner().invoke(app, [*(a.format(tmp=tmp) for a in args), "--db", str(db)], prog_name="catalogue")
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exc_info
    return SimpleNamespace(returncode=result.exit_code, stdout=result.stdout, stderr=result.stderr)


def _state(folder: Path) -> dict[str, str]:
    """Every file of ``folder`` but the command's own outputs, with its content's hash."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())
            if p.is_file() and p.suffix != ".pdf"}


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    """One file of each kind, each alone in its folder."""
    root = tmp_path_factory.mktemp("reads")
    made = {}
    for kind in ("foreign", "empty", "head", "read-only", "older"):
        (root / kind).mkdir()
        made[kind] = root / kind / "c.db"
    conn = sqlite3.connect(made["foreign"])
    conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
    conn.execute("INSERT INTO users (name) VALUES ('ada')")
    conn.commit()
    conn.close()
    made["empty"].write_bytes(b"")
    out = subprocess.run([sys.executable, "-m", "catalogue", "fill", "--count", "6", "--seed", "3", "--db",
                          str(made["head"])], capture_output=True, text=True, timeout=600, cwd=root / "head")
    assert out.returncode == 0, out.stderr
    for kind in ("read-only", "older"):
        shutil.copytree(root / "head", root / kind, dirs_exist_ok=True)
    with Catalogue.open(str(made["older"])) as cat:
        assert downgrade(cat.engine, cat.url, "0007") == (HEAD_REVISION, "0007")
    for path in (made["read-only"], made["read-only"].parent):
        path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    yield made
    made["read-only"].parent.chmod(0o755)


@pytest.mark.parametrize("args", READS, ids=lambda a: " ".join(a[:2]))
@pytest.mark.parametrize("kind", ["foreign", "empty", "head", "read-only", "older"])
def test_a_read_changes_no_byte(files, kind, args, tmp_path, monkeypatch):
    # (run as root, the read-only file is writable after all: it then holds to what any catalogue does)
    db = files[kind]
    before = _state(db.parent)
    result = _catalogue(args, db, tmp_path, monkeypatch)
    assert _state(db.parent) == before, result.stderr  # no byte changed, no -wal / -shm / folder left beside it
    if args[:2] == ["db", "current"]:
        assert result.returncode == 0 and result.stdout.startswith(f"{db}: ")
        return
    lines = result.stderr.strip().splitlines()
    if kind in ("head", "read-only"):
        assert result.returncode in (0, 1) and "Traceback" not in result.stderr  # verify of a copy: no board files
        return
    assert result.returncode == 1 and len(lines) == 1, result.stderr
    expected = {"foreign": "is not a catalogue: it holds other tables (users)",
                "empty": "no catalogue in",
                "older": "is a catalogue of schema revision 0007, older than this version's"}[kind]
    assert expected in lines[0] and lines[0].startswith("catalogue: ")
    if kind == "older":
        assert "run `catalogue db upgrade` first" in lines[0]


def test_db_current_names_each_without_changing_it(files, tmp_path, monkeypatch):
    said = {kind: _catalogue(["db", "current"], db, tmp_path, monkeypatch).stdout.strip()
            for kind, db in files.items()}
    assert said["foreign"].endswith("not a catalogue: it holds other tables (users)")
    assert said["empty"].endswith("empty (no schema)")
    assert said["head"].endswith(f"{HEAD_REVISION} (head)") and said["older"].endswith(": 0007")
