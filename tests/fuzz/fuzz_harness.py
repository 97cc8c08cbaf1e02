"""Runs one fuzzed file through a reader or a command, in-process, and says what it broke (nothing, we hope).

The rules every input must keep (``problems`` returns the ones an outcome broke):

- the exit code is 0, 1 or 2;
- no uncaught exception: CliRunner's ``result.exception`` is None or SystemExit, and no "Traceback" in the output;
- every stderr line starts with ``catalogue: `` and is one line;
- a failure names the input: exit 1 has the file's name (or ``<stdin>``) in stderr or in the report on stdout, and
  a stderr line about the input is ``catalogue: <file>: ...`` or ``catalogue: <file>:<line>...``;
- for the readers: :func:`engine.formats.parse` returns Parsed and FormatError entries only, each FormatError
  with a line >= 1, a column >= 1 or None, and a one-line message.

Memory is watched by :class:`Memory`: the process's resident size after each case, against the size after a
warm-up that loads every command's kernels.
"""
from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from typer.testing import CliRunner

from catalogue.cli import app
from engine.formats import FORMATS, FormatError, Parsed, parse

#: every command that reads a puzzle file or stdin, as fuzzed (``catalogue --help``: the other commands read a
#: catalogue, not a file of grids)
COMMANDS = {
    "check": ["check"],
    "solve": ["solve"],
    "solve --count-solutions": ["solve", "--count-solutions", "--max-solutions", "2"],
    "key": ["key"],
    "key -e full": ["key", "-e", "full"],
    "carve": ["carve"],
    "grade": ["grade"],
    # import reads a file like the others and writes what it accepts into a catalogue of the run's folder
    "import": ["import"],
}
INPUT_FORMATS = ("auto", *FORMATS)
SIZES = (None, 4, 9, 16, 25)

#: how far the resident size may grow above the warm baseline over a whole run. Why 256 MB: the largest fuzzed
#: file is under 1 MB and a command holds about 1 KB per grid and a few copies of its text, so a correct run stays
#: within tens of MB; 256 MB leaves room for the allocator's fragmentation while catching a reader that grows
#: with its input (a fuzz run reached 758 MB before the readers were bounded)
RSS_GROWTH_BOUND = 256 * 2**20

_runner = CliRunner()
_POSITION = re.compile(r"^catalogue: (?P<src>.+?):(?P<line>\d+)(?::(?P<column>\d+))?: ")


@dataclass
class Outcome:
    command: str
    args: list[str]
    via: str  # "file" or "stdin"
    exit_code: int
    stdout: str
    stderr: str
    exception: BaseException | None
    seconds: float
    source: str


def run_command(command: str, data: bytes, tmp: Path, via: str = "file", input_format: str = "auto",
                size: int | None = None) -> Outcome:
    """``catalogue <command>`` on ``data`` given as a file in ``tmp`` or on stdin, in this process."""
    args = list(COMMANDS[command])
    if command == "import":
        args += ["--db", str(tmp / "fuzz-import.db")]
    if input_format != "auto":
        args += ["--input-format", input_format]
    if size is not None:
        args += ["--size", str(size)]
    if via == "file":
        path = tmp / "input.txt"
        path.write_bytes(data)
        args.append(str(path))
        source, stdin = str(path), None
    else:
        args.append("-")
        source, stdin = "<stdin>", data
    started = time.perf_counter()
    result = _runner.invoke(app, args, input=stdin)
    return Outcome(command, args, via, result.exit_code, result.stdout, result.stderr, result.exception,
                   time.perf_counter() - started, source)


def problems(o: Outcome) -> list[str]:
    """The rules ``o`` broke (module docstring), each as one line; empty when it kept them all."""
    out = []
    if o.exit_code not in (0, 1, 2):
        out.append(f"exit code {o.exit_code}")
    if o.exception is not None and not isinstance(o.exception, SystemExit):
        out.append(f"uncaught {type(o.exception).__name__}: {o.exception}"[:300])
    if "Traceback" in o.stdout or "Traceback" in o.stderr:
        out.append("a traceback in the output")
    for line in o.stderr.splitlines():
        if not line.startswith("catalogue: "):
            out.append(f"stderr line without 'catalogue: ': {line[:120]!r}")
            break
        m = _POSITION.match(line)
        if m and m["src"] != o.source and o.source in line:
            out.append(f"position not after the file's name: {line[:120]!r}")
    if o.exit_code == 1 and o.source not in o.stderr and o.source not in o.stdout:
        out.append(f"exit 1 without naming {o.source}: {o.stderr[:200]!r}")
    return out


def reader_problems(text: str, fmt: str | None, box: int | None) -> list[str]:
    """The rules :func:`engine.formats.parse` broke on ``text``."""
    try:
        entries = parse(text, "fuzz.txt", fmt, box)
    except Exception as e:  # noqa: BLE001 - any exception is what is being looked for
        return [f"parse(fmt={fmt}, box={box}) raised {type(e).__name__}: {e}"[:300]]
    out = []
    for e in entries:
        if isinstance(e, FormatError):
            if e.line < 1 or (e.column is not None and e.column < 1) or "\n" in e.message or e.source != "fuzz.txt":
                out.append(f"bad FormatError {e.line}:{e.column}: {e.message[:100]!r}")
        elif not isinstance(e, Parsed):
            out.append(f"parse returned a {type(e).__name__}")
    return out


def rss() -> int:
    """The resident size of this process now, in bytes (Linux: /proc/self/statm)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@dataclass
class Memory:
    """The resident size after a warm-up (every command once on every sample), and the most seen since."""

    baseline: int = 0
    peak: int = 0
    samples: int = 0

    def warm(self, tmp: Path) -> None:
        from paths import SAMPLES

        for sample in sorted(SAMPLES.iterdir()):
            for command in COMMANDS:
                run_command(command, sample.read_bytes(), tmp)
        self.baseline = self.peak = rss()

    def sample(self) -> int:
        now = rss()
        self.peak = max(self.peak, now)
        self.samples += 1
        return now

    @property
    def growth(self) -> int:
        return self.peak - self.baseline


@dataclass
class Tally:
    """What a run saw: cases per command, exit codes, problems (the first few of each kind, with the input)."""

    cases: dict = field(default_factory=dict)
    exits: dict = field(default_factory=dict)
    families: dict = field(default_factory=dict)
    failures: list = field(default_factory=list)
    tracebacks: int = 0
    slowest: tuple = (0.0, "")

    def add(self, o: Outcome, family: str, data: bytes) -> list[str]:
        self.cases[o.command] = self.cases.get(o.command, 0) + 1
        self.exits[o.exit_code] = self.exits.get(o.exit_code, 0) + 1
        self.families[family] = self.families.get(family, 0) + 1
        if o.seconds > self.slowest[0]:
            self.slowest = (o.seconds, f"{' '.join(o.args[:-1])} on a {family} input of {len(data)} bytes")
        found = problems(o)
        if found:
            if any("Traceback" in p or "uncaught" in p for p in found):
                self.tracebacks += 1
            self.failures.append((o.args, o.via, family, data[:300], found))
        return found
