"""Board files: names from integers only, bytes equal to the formats' txt writer, checks and repairs."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from sqlalchemy import text

from catalogue.config import resolve
from catalogue.db import open_catalogue
from catalogue.errors import UserError
from catalogue.files import (board_path, check_at_open, check_files, out_folder, render, render_one, repair,
                             run_alive)
from catalogue.pipeline.run import fill
from engine.formats import to_txt
from consistency import assert_consistent


def test_board_path_takes_integers_only(tmp_path):
    assert board_path(tmp_path, 12) == tmp_path / "12.txt"
    assert board_path(tmp_path, np.int64(3)) == tmp_path / "3.txt"
    for bad in ("12", "../etc/passwd", 1.0, None):
        with pytest.raises(TypeError):
            board_path(tmp_path, bad)
    with pytest.raises(ValueError):
        board_path(tmp_path, -1)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(1, 6), st.integers(0, 2 ** 32 - 1))
def test_render_is_to_txt_plus_newline(box, m, seed):
    """The batch renderer, its plain twin and the formats helper's to_txt agree byte for byte."""
    n = box * box
    grids = np.random.default_rng(seed).integers(1, n + 1, size=(m, n * n)).astype(np.int8)
    fast = render(grids, box)
    assert fast == [render_one(g, box) for g in grids]
    assert fast == [(to_txt(g, box) + "\n").encode() for g in grids]


@pytest.fixture
def catalogue(tmp_path):
    s = resolve(f"sqlite:///{tmp_path / 'c.db'}", str(tmp_path / "boards"))
    fill(s, 40, batch=16, seed=2, generators=1, checkers=1)
    engine = open_catalogue(s)
    yield s, engine
    engine.dispose()


def test_full_check_finds_missing_torn_and_strays_and_repair_fixes(catalogue):
    s, engine = catalogue
    assert check_files(engine, s.out_dir).describe() == "all good"
    (s.out_dir / "3.txt").unlink()
    (s.out_dir / "7.txt").write_bytes((s.out_dir / "7.txt").read_bytes()[:40])  # torn: cut mid-write
    (s.out_dir / "8.txt").write_text("")
    (s.out_dir / "99.txt").write_text("stray")
    (s.out_dir / "007.txt").write_text("not a name we write")
    (s.out_dir / "notes.md").write_text("ignored: not a board file name")
    report = check_files(engine, s.out_dir)
    assert report.missing == [3] and sorted(report.torn) == [7, 8]
    assert sorted(report.strays) == ["007.txt", "99.txt"] and report.checked == 40
    assert repair(engine, s.out_dir, report) == 3
    after = check_files(engine, s.out_dir)
    assert after.problems == 0 and sorted(after.strays) == ["007.txt", "99.txt"]  # strays are never deleted
    assert_consistent(s.db_url, s.out_dir)


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
        board_path(s.out_dir, n).unlink()
    board_path(s.out_dir, 35).write_text("1")
    (s.out_dir / "40.txt").write_text("stray just past the last board")
    report = check_at_open(engine, s.out_dir)
    assert report.checked == 8 and report.missing == [33, 39] and report.torn == [35]
    assert report.repaired == 3 and report.strays == ["40.txt"] and report.closed_runs == [1]
    with engine.connect() as conn:
        assert tuple(conn.execute(text("SELECT status, files_through, accepted FROM runs")).one()) == \
               ("interrupted", 39, 40)
    assert check_at_open(engine, s.out_dir).checked == 0  # settled: not checked again
    assert check_files(engine, s.out_dir).missing == [5]  # only the full check sees below the watermark


def test_open_check_skips_a_live_run_and_checks_one_from_another_host(catalogue):
    s, engine = catalogue
    _fake_kill(engine, 1, None, os.getppid())  # alive on this host: its process writes its own files
    board_path(s.out_dir, 0).unlink()
    report = check_at_open(engine, s.out_dir)
    assert report.checked == 0 and report.closed_runs == []
    with engine.begin() as conn:
        conn.execute(text("UPDATE runs SET parameters = :p"), {"p": json.dumps({"pid": 1, "host": "elsewhere"})})
    report = check_at_open(engine, s.out_dir)  # fate unknown: checked and repaired, but never closed
    assert report.checked == 40 and report.repaired == 1 and report.closed_runs == []
    assert run_alive(json.dumps({"pid": os.getppid(), "host": os.uname().nodename})) is True
    assert run_alive(json.dumps({"pid": dead_pid(), "host": os.uname().nodename})) is False
    assert run_alive("not json") is None


def test_fill_repairs_what_a_crash_left(catalogue):
    s, engine = catalogue
    _fake_kill(engine, 1, 20, dead_pid())
    for n in range(25, 40):
        board_path(s.out_dir, n).unlink()
    summary = fill(s, 5, batch=16, seed=3)
    assert summary.recovered.repaired == 15 and summary.recovered.closed_runs == [1]
    assert_consistent(s.db_url, s.out_dir)


def test_out_folder_refuses_a_file_and_a_path_through_a_file(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(UserError, match=r"^--out .*/f: is a file, not a folder for the board files$"):
        out_folder(tmp_path / "f")
    with pytest.raises(UserError, match=r"^--out .*/f/sub: cannot create the folder \(.*/f is a file, not a "
                                        r"folder\)$"):
        out_folder(tmp_path / "f" / "sub")
    assert out_folder(tmp_path / "a" / "b") == tmp_path / "a" / "b" and (tmp_path / "a" / "b").is_dir()
    assert not (tmp_path / "c").exists() and out_folder(tmp_path / "c", create=False) == tmp_path / "c"


def test_files_under_a_file_count_as_missing(catalogue):
    s, engine = catalogue
    (s.out_dir.parent / "f").write_text("x")
    report = check_files(engine, s.out_dir.parent / "f" / "boards")  # was NotADirectoryError
    assert (report.checked, len(report.missing)) == (40, 40)
