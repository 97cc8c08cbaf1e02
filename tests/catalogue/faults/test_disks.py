"""Faults of the disk under a real catalogue: full (bytes, then inodes) and read-only, on real tmpfs mounts.

Each test mounts a small tmpfs of its own (root only: CI runs as root; elsewhere they skip with the reason), runs
the real commands against it, and checks afterwards that every line was one line, that nothing committed was
lost (tests/consistency.py, an independent re-reading), and that `verify` agrees with the database once the disk
has room again.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from consistency import assert_consistent, catalogue_rows
from typer.testing import CliRunner

from catalogue.cli import app

runner = CliRunner()
pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="tmpfs mounts are Linux's")


def _mount(where: Path, options: str) -> None:
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip() or 'mount failed'}): needs root")


def _remount(where: Path, options: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{options}", str(where)], check=True, capture_output=True)


@pytest.fixture
def disk(tmp_path):
    """A folder on a tmpfs of its own, unmounted afterwards; ``disk.mount(options)`` mounts it."""
    if not shutil.which("mount") or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root and mount(8): CI runs as root")
    where = tmp_path / "disk"
    where.mkdir()

    class Disk:
        path = where

        @staticmethod
        def mount(options: str) -> None:
            _mount(where, options)

        @staticmethod
        def remount(options: str) -> None:
            _remount(where, options)

    yield Disk
    subprocess.run(["umount", "-l", str(where)], capture_output=True)


def run(*args: str):
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    for line in result.stderr.splitlines():
        assert line.startswith("catalogue: "), line
    return result


def _one_full_disk_line(result, folder: Path) -> None:
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    # the line names what could not be written: a board file, or the database
    assert len(lines) == 1 and "no space left" in lines[0], lines
    assert str(folder) in lines[0] or ".db" in lines[0], lines


@pytest.mark.parametrize("options", ["size=3m", "size=64m,nr_inodes=400"], ids=["bytes", "inodes"])
def test_a_full_disk_loses_nothing_and_says_so_in_one_line(disk, options):
    disk.mount(options)
    db, folder = disk.path / "c.db", disk.path / "c-boards"
    url = f"sqlite:///{db}"
    first = run("fill", "--count", "20000", "--seed", "5", "--db", str(db))
    _one_full_disk_line(first, disk.path)
    kept = catalogue_rows(url)
    assert kept, "the boards committed before the disk filled are kept"
    assert not [p for p in folder.iterdir() if p.is_file() and p.stat().st_size == 0], "no torn or empty file"

    # while the disk is still full: verify says what is missing, a repair and the next fill fail in one line
    checked = run("verify", "--db", str(db))
    assert checked.exit_code in (0, 1)
    for again in (run("verify", "--repair", "--db", str(db)), run("fill", "--count", "50", "--db", str(db))):
        if again.exit_code != 0:
            _one_full_disk_line(again, disk.path)
    assert [r.number for r in catalogue_rows(url)][:len(kept)] == [r.number for r in kept]

    # the disk grows: the repair restores every file and verify agrees with the database
    disk.remount("size=64m,nr_inodes=100000")
    repaired = run("verify", "--repair", "--db", str(db))
    assert repaired.exit_code == 0, repaired.output
    assert run("verify", "--db", str(db)).exit_code == 0
    rows = assert_consistent(url, folder)
    assert [r.board for r in rows[:len(kept)]] == [r.board for r in kept], "nothing committed was lost"


def test_a_read_only_catalogue_reads_and_refuses_writes_in_one_line(disk):
    disk.mount("size=16m")
    db = disk.path / "c.db"
    assert run("fill", "--count", "200", "--seed", "2", "--db", str(db)).exit_code == 0
    before = {p.name: p.read_bytes() for p in disk.path.rglob("*") if p.is_file()}
    disk.remount("ro")
    for args in (["query", "--limit", "3"], ["stats"], ["export", "7"], ["verify"], ["verify", "--full"],
                 ["db", "current"]):
        result = run(*args, "--db", str(db))
        assert result.exit_code == 0, (args, result.output)
    assert run("query", "--limit", "0", "--format", "csv", "--db", str(db)).stdout.count("\n") == 201
    for args in (["fill", "--count", "5"],):
        result = run(*args, "--db", str(db))
        assert result.exit_code == 1
        [line] = result.stderr.splitlines()
        assert "read-only" in line and str(db) in line
    assert {p.name: p.read_bytes() for p in disk.path.rglob("*") if p.is_file()} == before
