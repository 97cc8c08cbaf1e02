"""Memory bounded by design: the real commands on hostile files of half the input cap
(``catalogue.io.MAX_INPUT_BYTES``; the one-line file just under the cap), each in a process of its own, whose
peak resident size the kernel reports when it ends (GNU time's figure, a small process between: see
run_measured). None may pass :data:`PEAK_RSS_BOUND`, whatever the file: a reader holds one grid's lines at a
time, the commands hold the file's grids in a few bytes a cell and keep no per-grid object past its output, and
``import`` reads its files one after another (docs/reliability.md, "Memory"). Each case also keeps the fuzzer's
rules (fuzz_harness.problems: one line per error, no traceback).

The figures before the readers streamed (issue 49): ``check`` on 16 MiB of ``1 1 1`` lines reached 1.7 GB, a
16 MiB ``[{},{},...]`` 1.4 GB, 16 MiB of ``x`` lines 4.4 GB, ``grade`` on 200,000 puzzles 1.3 GB; ``import`` grew
with every file it was given (one file of 200,000 puzzles 382 MB, the same file four times 805 MB).

Why half the cap: these files hold millions of tiny entries (or 100,000 puzzles), each read, checked and reported,
which cost two minutes of CPU at the cap. The streaming readers' peaks hardly depend on the file's size (75 to 220
MB at half the cap, 99 to 232 MB at the cap: the kernels and the grids in hand), while a reader that held the
whole file would still go far past :data:`PEAK_RSS_BOUND` at half the cap (the figures above, halved: 0.65 to
2.2 GB). The file of one long line, cheap to read and the one whose peak grows with its length (the line is held
whole), stays at the cap.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from catalogue.io import MAX_INPUT_BYTES
from fuzz_harness import Outcome, problems
from paths import DATA, ROOT

#: the most a command may hold, in bytes. Why 500 MB: the kernels a command loads take about 100 MB, the text of
#: a file at the cap 16 to 64 MB (a str of 1 to 4 bytes a character) and its grids about as much again; the
#: cases below peak at 75 to 220 MB (import at about 290), where the worst of these files took 1.4 to 4.4 GB at
#: the cap (0.65 to 2.2 GB at half of it)
PEAK_RSS_BOUND = 500 * 2**20
#: bytes under the cap the files are cut to (a file is at most MAX_INPUT_BYTES)
MARGIN = 1024
#: the size of the files of many small entries (see the module's docstring)
HALF = MAX_INPUT_BYTES // 2


def _fill(unit: str, head: str = "", tail: str = "", size: int = MAX_INPUT_BYTES) -> bytes:
    """``head`` + as many ``unit`` as fit under ``size`` (the cap, less :data:`MARGIN`) + ``tail``."""
    count = (size - MARGIN - len(head) - len(tail)) // len(unit)
    return (head + unit * count + tail).encode()


def _puzzles() -> list[str]:
    """The minimal 9x9 puzzles of data/minimal-9x9.txt, one line each."""
    lines = (DATA / "minimal-9x9.txt").read_text().splitlines()
    return [line.split(":")[0] for line in lines if line and not line.startswith("#")]


def _rows_json() -> bytes:
    row = "[" + ",".join("0" if c == "." else c for c in _puzzles()[0]) + "]"
    return _fill(row + ",", "[", row + "]", size=HALF)


def _puzzle_lines(size: int = MAX_INPUT_BYTES) -> bytes:
    puzzles = _puzzles()
    count = (size - MARGIN) // 82
    return "".join(puzzles[k % len(puzzles)] + "\n" for k in range(count)).encode()


#: name -> the bytes of a hostile file of half the cap (giant.sdm: just under the cap; the last one: an eighth of it)
FILES = {
    "triples.rcv": lambda: _fill("1 1 1\n", size=HALF),  # 1.4 million triples in the group of one grid
    "objects.json": lambda: _fill("{},", "[", "{}]", size=HALF),  # 2.8 million objects in one list
    "rows.json": _rows_json,  # a list of 50,000 rows of 81 numbers
    "giant.sdm": lambda: _fill("1", "", "\n"),  # one line of 16 million symbols
    "letters.block": lambda: _fill("x\n", size=HALF),  # 4 million rows of one letter, with no blank line: one run
    "tiny.block": lambda: _fill("1\n\n", size=HALF),  # 2.8 million blocks of one row
    "puzzles.sdm": lambda: _puzzle_lines(HALF),  # 102,000 puzzles of 81 symbols: every one read, solved and counted
    "eighth.sdm": lambda: _puzzle_lines(MAX_INPUT_BYTES // 8),  # 25,500 of them
}

#: (command, file, options): each of the readers' worst files through one of the commands (they all read with
#: the same readers), and the file of many puzzles through a command's per-grid path
CASES = [
    ("check", "triples.rcv", []),
    ("key", "objects.json", []),
    ("grade", "rows.json", []),
    ("solve", "giant.sdm", []),
    ("carve", "letters.block", ["--input-format", "block"]),
    ("solve", "tiny.block", []),
    ("check", "puzzles.sdm", []),
]
#: how much more ``import`` may hold for a file given four times than for it given once (it grew by 100 MB for
#: four 4 MiB files when every file was read before the first was imported, so about 50 MB for four 2 MiB files;
#: the files are now read one after another, and it grows by a few MB: 4 MB for four 2 MiB files)
FILES_GROWTH_BOUND = 24 * 2**20


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("memory")


def _file(folder: Path, name: str) -> Path:
    path = folder / name
    if not path.exists():
        data = FILES[name]()
        assert len(data) <= MAX_INPUT_BYTES - MARGIN
        path.write_bytes(data)
    return path


#: GNU time (Debian's package "time"), which reports its child's peak resident size
TIME = shutil.which("time") or "/usr/bin/time"


def run_measured(args: list[str], folder: Path, timeout: float = 300) -> tuple[int, str, int, float]:
    """``python -m catalogue ARGS`` in a new process: its exit code, stderr, peak resident size in bytes and
    wall time. stdout is thrown away (a command may print 200,000 lines)."""
    err_path = folder / "stderr.txt"
    started = time.perf_counter()
    with open(err_path, "wb") as err:
        # through GNU time, a small process of its own: the kernel's ru_maxrss of a child starts from the address
        # space it was forked from, so a child of this (large) pytest worker reported the worker's size, not its own
        p = subprocess.Popen([TIME, "-f", "%M", "-o", str(folder / "maxrss.txt"), sys.executable, "-m", "catalogue",
                              *args], stdout=subprocess.DEVNULL, stderr=err, cwd=ROOT)
        watchdog = threading.Timer(timeout, p.kill)
        watchdog.start()
        try:
            _, status, usage = os.wait4(p.pid, 0)  # the peak of this process (and of any it waited for)
        finally:
            watchdog.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
    del usage  # GNU time's own figure is the command's
    peak = int((folder / "maxrss.txt").read_text().split()[-1]) * 1024
    return p.returncode, err_path.read_text(errors="replace"), peak, time.perf_counter() - started


def _checked_run(args: list[str], folder: Path, source: str) -> int:
    """The peak of ``catalogue ARGS``, after checking it kept the fuzzer's rules and stayed under the bound."""
    code, stderr, peak, seconds = run_measured(args, folder)
    assert peak < PEAK_RSS_BOUND, f"catalogue {' '.join(args)}: peak {peak / 2**20:.0f} MiB in {seconds:.0f} s"
    o = Outcome(args[0], args, "file", code, "", stderr, None, seconds, source)
    assert not problems(o), (problems(o), stderr[-500:])
    assert code in (0, 1), stderr[-500:]
    return peak


@pytest.mark.slow
@pytest.mark.parametrize("command, name, options", CASES, ids=[f"{c}-{n}" for c, n, _ in CASES])
def test_peak_memory_on_a_hostile_file(command, name, options, folder):
    path = str(_file(folder, name))
    _checked_run([command, path, *options], folder, path)


@pytest.mark.slow
def test_import_holds_one_file_at_a_time(folder, tmp_path):
    """``import`` of one file given four times holds about what it holds for the file given once."""
    path = str(_file(folder, "eighth.sdm"))
    once = _checked_run(["import", path, "--db", str(tmp_path / "once.db")], folder, path)
    four = _checked_run(["import", *[path] * 4, "--db", str(tmp_path / "four.db")], folder, path)
    assert four - once < FILES_GROWTH_BOUND, f"{once / 2**20:.0f} MiB for one file, {four / 2**20:.0f} for four"
