"""-o never replaces what is not ours (issue: `export 0 -o /dev/null` as root replaced the system's /dev/null): a
device or a FIFO is written into, a symbolic link is followed and stays, a socket, a folder and a disk are refused
in one line, `-` is standard output; only a regular file gets the atomic write. Real files, FIFOs, sockets and
the real /dev/null, through the real CLI."""
from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import threading

import pytest
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.io import output_kind, write_atomic

runner = CliRunner()
CLI = [sys.executable, "-m", "catalogue"]


def export(url: str, *args: str):
    return runner.invoke(app, ["export", "0", "--db", url, "--format", "line", *args])


def test_dev_null_stays_a_device(sample_sqlite):
    before = os.stat("/dev/null")
    result = export(sample_sqlite, "-o", "/dev/null")
    assert result.exit_code == 0, result.output
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)


def test_a_fifo_is_written_into_and_stays_a_fifo(sample_sqlite, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = export(sample_sqlite, "-o", str(fifo))
    reader.join(30)
    assert result.exit_code == 0, result.output
    assert got and got[0] == export(sample_sqlite).stdout.encode()
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_link_is_followed_and_stays_a_link(sample_sqlite, tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    assert export(sample_sqlite, "-o", str(link)).exit_code == 0
    assert link.is_symlink() and real.read_text() == export(sample_sqlite).stdout
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(tmp_path / "made" / "by-the-link.txt")
    assert export(sample_sqlite, "-o", str(dangling)).exit_code == 0
    assert dangling.is_symlink() and (tmp_path / "made" / "by-the-link.txt").read_text() == export(sample_sqlite).stdout
    assert sorted(p.name for p in tmp_path.iterdir() if "catalogue" not in p.name) == [
        "dangling.txt", "link.txt", "made", "real.txt"]


def test_a_socket_and_a_folder_are_refused_in_one_line(sample_sqlite, tmp_path):
    path = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    try:
        result = export(sample_sqlite, "-o", str(path))
        assert (result.exit_code, result.stderr) == (1, f"catalogue: {path}: is a socket, not a file\n")
        assert stat.S_ISSOCK(os.lstat(path).st_mode)
    finally:
        server.close()
    (tmp_path / "a.pdf").mkdir()
    result = runner.invoke(app, ["book", "--db", sample_sqlite, "-o", str(tmp_path / "a.pdf")])
    assert (result.exit_code, result.stderr) == (1, f"catalogue: {tmp_path / 'a.pdf'}: is a directory, not a file\n")


def test_dash_is_standard_output(sample_sqlite):
    line = export(sample_sqlite).stdout
    assert export(sample_sqlite, "-o", "-").stdout == line
    pdf = subprocess.run([*CLI, "book", "--db", sample_sqlite, "-o", "-"], capture_output=True, check=True).stdout
    assert pdf.startswith(b"%PDF-")


def test_dev_stdout_appends_to_the_shells_file(sample_sqlite, tmp_path):
    """`catalogue export 0 -o /dev/stdout >> log`: the shell's file gets the text after what it held, the same
    file (inode), never replaced."""
    log = tmp_path / "log.txt"
    log.write_text("before\n")
    inode = log.stat().st_ino
    with open(log, "ab") as out:
        subprocess.run([*CLI, "export", "0", "--db", sample_sqlite, "--format", "line", "-o", "/dev/stdout"],
                       stdout=out, check=True)
    assert log.stat().st_ino == inode and log.read_text() == "before\n" + export(sample_sqlite).stdout


def test_output_kinds(tmp_path):
    (tmp_path / "f").write_text("x")
    assert [output_kind(p) for p in ("-", "/dev/null", tmp_path / "f", tmp_path / "new", "/dev/stdout")] == [
        "stdout", "stream", "file", "file", "stream"]
    write_atomic(tmp_path / "f", b"y")  # a regular file: replaced whole
    assert (tmp_path / "f").read_bytes() == b"y"
