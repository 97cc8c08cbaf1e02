"""Board files: names from integers only, bytes equal to the formats' txt writer, checks and repairs."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from consistency import assert_consistent
from sqlalchemy import text

from catalogue.errors import UserError
from catalogue.pipeline.run import fill
from catalogue.store import Catalogue
from catalogue.store.files import (
    board_path,
    check_at_open,
    check_files,
    repair,
    run_alive,
)
from catalogue.store.folder import check_usable


def test_board_path_takes_integers_only(tmp_path):
    assert board_path(tmp_path, 12) == tmp_path / "12.txt"
    assert board_path(tmp_path, np.int64(3)) == tmp_path / "3.txt"
    for bad in ("12", "../etc/passwd", 1.0, None):
        with pytest.raises(TypeError):
            board_path(tmp_path, bad)
    with pytest.raises(ValueError):
        board_path(tmp_path, -1)


@pytest.fixture
def catalogue(tmp_path):
    s = Catalogue.open(f"sqlite:///{tmp_path / 'c.db'}", tmp_path / "boards")
    fill(s, 40, batch=16, seed=2, generators=1, checkers=1)
    yield s, s.engine
    s.close()


def test_full_check_finds_missing_torn_and_strays_and_repair_fixes(catalogue):
    s, engine = catalogue
    assert check_files(engine, s.folder).describe() == "all good"
    (s.folder / "3.txt").unlink()
    (s.folder / "7.txt").write_bytes((s.folder / "7.txt").read_bytes()[:40])  # torn: cut mid-write
    (s.folder / "8.txt").write_text("")
    (s.folder / "99.txt").write_text("stray")
    (s.folder / "007.txt").write_text("not a name we write")
    (s.folder / "notes.md").write_text("ignored: not a board file name")
    report = check_files(engine, s.folder)
    assert report.missing == [3] and sorted(report.torn) == [7, 8]
    assert sorted(report.strays) == ["007.txt", "99.txt"] and report.checked == 40
    assert repair(engine, s.folder, report) == 3
    after = check_files(engine, s.folder)
    assert after.problems == 0 and sorted(after.strays) == ["007.txt", "99.txt"]  # strays are never deleted
    assert_consistent(s.url, s.folder)


def _fake_kill(engine, run_id: int, files_through: int | None, pid: int) -> None:
    """Make a finished run look like one whose process died after committing (status left running)."""
    with engine.begin() as conn:
        conn.execute(text("UPDATE runs SET status = 'running', files_through = :f, parameters = :p WHERE id = :i"),
                     {"f": files_through, "p": json.dumps({"pid": pid, "host": os.uname().nodename}),
                      "i": run_id})


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_open_check_looks_above_the_watermark_of_dead_runs_only(catalogue):
    s, engine = catalogue
    _fake_kill(engine, 1, 31, dead_pid())
    for n in (5, 33, 39):  # 5 is below the watermark: the cheap check trusts it; 33 and 39 are above
        board_path(s.folder, n).unlink()
    board_path(s.folder, 35).write_text("1")
    (s.folder / "40.txt").write_text("stray just past the last board")
    report = check_at_open(engine, s.folder)
    assert report.checked == 8 and report.missing == [33, 39] and report.torn == [35]
    assert report.repaired == 3 and report.strays == ["40.txt"] and report.closed_runs == [1]
    with engine.connect() as conn:
        assert tuple(conn.execute(text("SELECT status, files_through, accepted FROM runs")).one()) == \
               ("interrupted", 39, 40)
    assert check_at_open(engine, s.folder).checked == 0  # settled: not checked again
    assert check_files(engine, s.folder).missing == [5]  # only the full check sees below the watermark


def test_open_check_skips_a_live_run_and_checks_one_from_another_host(catalogue):
    s, engine = catalogue
    _fake_kill(engine, 1, None, os.getppid())  # alive on this host: its process writes its own files
    board_path(s.folder, 0).unlink()
    report = check_at_open(engine, s.folder)
    assert report.checked == 0 and report.closed_runs == []
    with engine.begin() as conn:
        conn.execute(text("UPDATE runs SET parameters = :p"), {"p": json.dumps({"pid": 1, "host": "elsewhere"})})
    report = check_at_open(engine, s.folder)  # fate unknown: checked and repaired, but never closed
    assert report.checked == 40 and report.repaired == 1 and report.closed_runs == []
    assert run_alive(json.dumps({"pid": os.getppid(), "host": os.uname().nodename})) is True
    assert run_alive(json.dumps({"pid": dead_pid(), "host": os.uname().nodename})) is False
    assert run_alive("not json") is None


def test_fill_repairs_what_a_crash_left(catalogue):
    s, engine = catalogue
    _fake_kill(engine, 1, 20, dead_pid())
    for n in range(25, 40):
        board_path(s.folder, n).unlink()
    summary = fill(s, 5, batch=16, seed=3)
    assert summary.recovered.repaired == 15 and summary.recovered.closed_runs == [1]
    assert_consistent(s.url, s.folder)


def test_a_folder_refuses_a_file_and_a_path_through_a_file(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(UserError, match=r"^.*/f: is a file, not a folder for the board files$"):
        check_usable(tmp_path / "f")
    with pytest.raises(UserError, match=r"^.*/f/sub: cannot create the folder \(.*/f is a file, not a folder\)$"):
        check_usable(tmp_path / "f" / "sub")
    check_usable(tmp_path / "a" / "b")  # a folder that does not exist yet is fine, and is not made
    assert not (tmp_path / "a").exists()


def test_files_under_a_file_count_as_missing(catalogue):
    s, engine = catalogue
    (s.folder.parent / "f").write_text("x")
    report = check_files(engine, s.folder.parent / "f" / "boards")  # was NotADirectoryError
    assert (report.checked, len(report.missing)) == (40, 40)
