"""The board folder is a closed room: a link, a FIFO, a device or a stray where a board file goes is never written
through or over, never waited on, never read whole; fill and import refuse to start in one line naming it, and
verify reports it and goes on. Each is planted in a real folder and met by the CLI: in a process with a timeout
where the thing planted could hang it or fill its memory (a FIFO used to hang verify and fill; a link to
/dev/zero, read whole, grew verify to gigabytes), otherwise the same argv through CliRunner in this process."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.store import plainfile

CLI = [sys.executable, "-m", "catalogue"]
#: the plants that could hang a command (a FIFO) or fill its memory (/dev/zero): met in a process with a timeout
RISKY = ("fifo", "zero")


def cli(tmp_path: Path, *args: str, process: bool = True):
    """``catalogue ARGS --db c.db --out boards`` in ``tmp_path``: in a process of its own with a timeout, or (not
    ``process``) through CliRunner here; either way with ``returncode``, ``stdout`` and ``stderr``."""
    argv = [*args, "--db", str(tmp_path / "c.db"), "--out", str(tmp_path / "boards")]
    if process:
        return subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=120)
    return here(*argv)


def here(*argv: str) -> SimpleNamespace:
    result = CliRunner().invoke(app, list(argv), prog_name="catalogue")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return SimpleNamespace(returncode=result.exit_code, stdout=result.stdout, stderr=result.stderr)


@pytest.fixture(scope="module")
def filled(tmp_path_factory) -> Path:
    """One catalogue of 10 boards, filled once by the real CLI; each test works on a copy of it."""
    home = tmp_path_factory.mktemp("filled")
    done = cli(home, "fill", "--count", "10", "--seed", "3")
    assert done.returncode == 0, done.stderr
    return home


@pytest.fixture
def folder(filled, tmp_path) -> Path:
    """The filled catalogue copied here: its database and its board folder (recorded relative to the database)."""
    shutil.copy2(filled / "c.db", tmp_path / "c.db")
    shutil.copytree(filled / "boards", tmp_path / "boards", symlinks=True)
    return tmp_path / "boards"


def one_line(done: subprocess.CompletedProcess) -> str:
    lines = [line for line in done.stderr.splitlines() if not line.startswith("catalogue: compiling")]
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.parametrize("plant", ["link", "dangling", "fifo", "stray"])
def test_fill_refuses_what_is_where_its_next_board_goes(folder, tmp_path, plant):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    target = folder / "11.txt"  # the second new board's file
    if plant == "link":
        target.symlink_to(victim)
    elif plant == "dangling":
        target.symlink_to(tmp_path / "nowhere" / "made.txt")
    elif plant == "fifo":
        os.mkfifo(target)
    else:
        target.write_text("a stray\n")
    before = target.lstat()
    done = cli(tmp_path, "fill", "--count", "5", "--seed", "4", process=plant in RISKY)
    assert done.returncode == 1
    line = one_line(done)
    assert line.startswith(f"catalogue: {folder}: 1 file the catalogue did not write where its board files go "
                           f"(11.txt: ") and "move them away first" in line
    assert victim.read_text() == "keep me\n" and not (tmp_path / "nowhere").exists()
    assert (target.lstat().st_mode, target.lstat().st_ino) == (before.st_mode, before.st_ino)
    assert not (folder / "10.txt").exists(), "nothing was written before the refusal"
    target.unlink()  # moved away: the fill goes on
    assert cli(tmp_path, "fill", "--count", "5", "--seed", "4", process=False).returncode == 0


@pytest.mark.parametrize("plant", ["fifo", "zero", "link"])
def test_verify_reports_what_is_not_a_plain_file_and_never_writes_through_it(folder, tmp_path, plant):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    board = folder / "5.txt"
    board.unlink()
    if plant == "fifo":
        os.mkfifo(board)
    elif plant == "zero":
        board.symlink_to("/dev/zero")  # read whole, it grew verify to gigabytes
    else:
        board.symlink_to(victim)
    (folder / "7.txt").unlink()  # a missing file beside it is still found and repaired
    done = cli(tmp_path, "verify", "--full", process=plant in RISKY)
    assert done.returncode == 1
    kind = {"fifo": "a FIFO", "zero": "a symbolic link", "link": "a symbolic link"}[plant]
    assert f"1 not plain files (5.txt: {kind})" in done.stdout and "1 missing (7.txt)" in done.stdout
    repaired = cli(tmp_path, "verify", "--full", "--repair", process=plant in RISKY)
    assert repaired.returncode == 1 and "repaired      1 files rewritten" in repaired.stdout
    assert f"5.txt: {kind}" in repaired.stderr
    assert (folder / "7.txt").is_file() and victim.read_text() == "keep me\n" and plainfile.lkind(board) == (
        "a FIFO" if plant == "fifo" else "a symbolic link")


def test_a_fifo_in_place_of_the_marker_is_refused_at_once(folder, tmp_path):
    (folder / ".catalogue").unlink()
    os.mkfifo(folder / ".catalogue")
    done = cli(tmp_path, "fill", "--count", "2", "--seed", "5")
    assert done.returncode == 1
    assert one_line(done) == (f"catalogue: {folder} holds the board files of another catalogue (a marker that is a "
                              f"FIFO): give this catalogue its own folder with --out")


def test_plain_writes(tmp_path):
    path = tmp_path / "1.txt"
    plainfile.write(path, b"new\n", replace=False)
    with pytest.raises(plainfile.NotPlainFile, match="a regular file the catalogue did not write"):
        plainfile.write(path, b"other\n", replace=False)  # a new board's file never goes over one that is there
    plainfile.write(path, b"ok\n", replace=True)  # the catalogue's own torn file is rewritten
    assert path.read_bytes() == b"ok\n"
    link = tmp_path / "2.txt"
    link.symlink_to(path)
    with pytest.raises(plainfile.NotPlainFile, match="a symbolic link"):
        plainfile.write(link, b"x", replace=True)
    with pytest.raises(plainfile.NotPlainFile, match="a symbolic link"):
        plainfile.read(link, 10)
    assert plainfile.read(tmp_path / "none.txt", 10) is None
    assert plainfile.read(path, 1) == b"ok"  # at most limit + 1 bytes, whatever the file holds


def test_verify_names_every_damaged_row_and_goes_on(folder, tmp_path):
    """Rows that are valid SQLite but not boards (as sqlite3 lets anyone write them): each is one line, the other
    boards and their files are still checked, and nothing is an internal error."""
    import sqlite3

    conn = sqlite3.connect(tmp_path / "c.db")
    with conn:
        for sql in ("UPDATE boards SET board = 'xyz' WHERE number = 1",
                    "UPDATE boards SET size = 0 WHERE number = 2",
                    "UPDATE boards SET size = 7 WHERE number = 3",
                    "UPDATE puzzles SET puzzle = '' WHERE board_number = 4",
                    "UPDATE puzzles SET clues = 'abc' WHERE board_number = 5",
                    "UPDATE boards SET board = :big WHERE number = 6"):
            conn.execute(sql, {"big": "1" * 10_000_000} if ":big" in sql else {})
    conn.close()
    (folder / "8.txt").unlink()  # a good board's missing file is still found
    done = cli(tmp_path, "verify", "--full", process=False)
    assert done.returncode == 1 and "internal error" not in done.stderr
    assert done.stderr.splitlines()[:6] == [
        "catalogue: board 1: its board is not 81 symbols of a 9x9 grid (3 characters)",
        "catalogue: board 2: its size 0 is not its shape's (3x3 is 9x9)",
        "catalogue: board 3: its size 7 is not its shape's (3x3 is 9x9)",
        "catalogue: board 4: its puzzle is not 81 symbols of a 9x9 grid (0 characters)",
        "catalogue: board 5: its puzzle's clue count 'abc' is not a number",
        "catalogue: board 6: its board is not 81 symbols of a 9x9 grid (10,000,000 characters)"]
    assert "1 missing (8.txt)" in done.stdout and "2 not checked (rows that are not boards" in done.stdout
    regraded = here("regrade", "--dry-run", "--format", "json", "--db", str(tmp_path / "c.db"))
    assert regraded.returncode == 0 and "internal error" not in regraded.stderr
    import json

    summary = json.loads(regraded.stdout)
    # the empty puzzle (rows 2 and 3 have a wrong size, but their shape, which says how to read them, is 3x3)
    assert (summary["matched"], summary["skipped"]) == (10, 1)
    stats = here("stats", "--db", str(tmp_path / "c.db"))
    assert stats.returncode == 0 and "abc" in stats.stdout  # shown as stored, not a crash
    book = here("book", "--db", str(tmp_path / "c.db"), "-o", str(tmp_path / "b.pdf"))
    assert book.returncode == 0 and "left out 5 rows that cannot be drawn" in book.stderr  # 1, 2, 3, 4, 6
    assert (tmp_path / "b.pdf").read_bytes().startswith(b"%PDF-")


def test_verify_names_a_board_of_symbols_that_are_not_digits(folder, tmp_path):
    import sqlite3

    conn = sqlite3.connect(tmp_path / "c.db")
    with conn:
        conn.execute("UPDATE boards SET board = :x WHERE number = 3", {"x": "x" * 81})
    conn.close()
    done = cli(tmp_path, "verify", "--full", process=False)
    assert done.returncode == 1 and "internal error" not in done.stderr
    assert "catalogue: board 3: a grid cannot be read ('x' is not a symbol" in done.stderr
