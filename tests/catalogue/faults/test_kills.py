"""A real `catalogue fill` killed with SIGKILL at 12 random moments, one after another on the same catalogue.

The moments are drawn from a fixed seed: half of them anywhere in start-up (opening, recovering the previous
kill's files, loading the kernels), half while batches are being committed and their files written. Each half is
stratified: each of its kills falls in a slice of the window of its own (the slices' order shuffled), so that six
kills reach every part of start-up and of the writing, where twenty uniform draws (the test's earlier form, two
thirds more fill processes) could leave a gap. After every kill, everything the catalogue held
before it is still there, with the same numbers (nothing committed is lost or renumbered); at the end `verify
--repair` makes every file whole, `verify` agrees with the database, and the independent re-reading of
tests/consistency.py finds numbers 0..N-1, unique keys and every file.
"""
from __future__ import annotations

import random
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from catalogue.cli import app
from consistency import assert_consistent, catalogue_rows

CLI = [sys.executable, "-c", "from catalogue.cli import main; main()"]
KILLS = 12
pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"), pytest.mark.slow]


def _wait_for_new_files(proc: subprocess.Popen, boards, before: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        if boards.is_dir() and sum(1 for _ in boards.iterdir()) > before + 1:  # + 1: the folder's marker
            return
        time.sleep(0.02)
    assert proc.poll() is None, "fill ended before it was killed"


def _has_schema(url: str, db) -> bool:
    """Whether the catalogue file exists and holds its tables: a kill in the first run's start-up, after SQLite made
    the file but before the schema's transaction committed, leaves a file without tables (SQLite rolls the
    transaction back; the next run makes the schema). Nothing was committed then, which the caller's comparison
    with the boards kept so far checks."""
    if not db.exists():
        return False
    from sqlalchemy import create_engine, inspect

    engine = create_engine(url)
    try:
        return inspect(engine).has_table("boards")
    finally:
        engine.dispose()


def _stratified(rng: random.Random, count: int, low: float, high: float) -> list[float]:
    """``count`` random moments in [low, high), one in each of ``count`` equal slices, the slices in random order."""
    slices = list(range(count))
    rng.shuffle(slices)
    width = (high - low) / count
    return [low + (k + rng.random()) * width for k in slices]


def test_kills_at_random_moments_lose_nothing(tmp_path):
    db, boards = tmp_path / "c.db", tmp_path / "boards"
    url = f"sqlite:///{db}"
    moments = random.Random(20261123)
    in_start_up = _stratified(moments, KILLS // 2, 0.05, 2.0)
    while_writing = _stratified(moments, KILLS - KILLS // 2, 0.0, 1.0)
    kept: list = []
    for round_ in range(KILLS):
        proc = subprocess.Popen([*CLI, "fill", "--count", "1000000", "--batch", "64", "--seed", str(round_ + 1),
                                 "--db", str(db), "--out", str(boards)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if round_ % 2 == 0:  # anywhere in start-up: opening, recovering the last kill, loading the kernels
            time.sleep(in_start_up[round_ // 2])
        else:  # while batches are written: after this run's first new file, at a random moment
            _wait_for_new_files(proc, boards, len(kept))
            time.sleep(while_writing[round_ // 2])
        proc.send_signal(signal.SIGKILL)
        _, err = proc.communicate(timeout=60)
        assert "Traceback" not in err, err
        rows = catalogue_rows(url) if _has_schema(url, db) else []
        assert [(r.number, r.key) for r in rows[:len(kept)]] == [(r.number, r.key) for r in kept], \
            f"kill {round_ + 1}: a committed board was lost or renumbered"
        kept = rows
    assert kept, "the kills left some boards committed"

    def cli(*args: str):
        """The command on the killed fills' catalogue, in this process (the kills were the real processes)."""
        result = CliRunner().invoke(app, [*args, "--db", str(db), "--out", str(boards)], prog_name="catalogue")
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
        return result

    repaired = cli("verify", "--repair")
    assert repaired.exit_code == 0, repaired.stderr
    checked = cli("verify", "--full")
    assert checked.exit_code == 0 and checked.stdout.rstrip().endswith("ok"), checked.stderr
    rows = assert_consistent(url, boards)
    assert [(r.number, r.key) for r in rows] == [(r.number, r.key) for r in kept]
