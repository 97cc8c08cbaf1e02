"""Every command that reads a file or stdin, on fuzzed input, in-process (CliRunner on ``catalogue.cli:app``):
the rules of fuzz_harness.problems, and the process's memory bounded across the run. A few cases go through the
real entry point (``python -m catalogue``) to show it behaves the same. Long run: ``python bench/fuzz.py``."""
from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz_harness import (COMMANDS, INPUT_FORMATS, RSS_GROWTH_BOUND, SIZES, Memory, Outcome, problems,
                          run_command)
from fuzz_inputs import inputs
from paths import ROOT

SHORT = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


@pytest.fixture(scope="module")
def memory(folder):
    m = Memory()
    m.warm(folder)
    return m


@pytest.mark.parametrize("command", COMMANDS)
def test_command_on_fuzzed_input(command, folder, memory):
    @SHORT
    @given(case=inputs(), via=st.sampled_from(["file", "stdin"]),
           input_format=st.sampled_from(("auto", "auto", "auto") + INPUT_FORMATS), size=st.sampled_from(SIZES))
    def one(case, via, input_format, size):
        family, data = case
        o = run_command(command, data, folder, via, input_format, size)
        found = problems(o)
        assert not found, f"{' '.join(o.args)} ({via}) on {family} input {data[:300]!r}: {found}\n{o.stderr[:500]}"
        grown = memory.sample() - memory.baseline
        assert grown < RSS_GROWTH_BOUND, f"resident size grew by {grown / 2**20:.0f} MiB"

    one()


#: (name, bytes): the inputs that gave tracebacks before the readers were bounded, and a file over the size limit
REAL = [
    ("nest.json", b"[" * 100_000 + b"\n"),
    ("huge.json", b"[" + b"9" * 5000 + b"]\n"),
    ("huge.txt", (b"1 2 3 4 5 6 7 8 " + b"9" * 5000 + b"\n") * 9),
    ("latin1.sdm", "caf\u00e9\n".encode("latin-1")),
]


@pytest.mark.slow
@pytest.mark.parametrize("name, data", REAL, ids=[n for n, _ in REAL])
def test_real_entry_point_behaves_the_same(name, data, tmp_path, folder):
    """``python -m catalogue check FILE`` (a new process, as a user runs it) against the in-process run."""
    path = tmp_path / name
    path.write_bytes(data)
    p = subprocess.run([sys.executable, "-m", "catalogue", "check", str(path)], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    o = Outcome("check", ["check", str(path)], "file", p.returncode, p.stdout, p.stderr, None, 0.0, str(path))
    assert not problems(o), (problems(o), p.stderr)
    assert p.returncode == 1 and p.stderr.startswith(f"catalogue: {path}:")
    inside = run_command("check", data, folder)
    assert inside.exit_code == p.returncode
    assert inside.stderr.replace(inside.source, "FILE") == p.stderr.replace(str(path), "FILE")


def test_the_real_entry_point_reads_stdin(tmp_path):
    p = subprocess.run([sys.executable, "-m", "catalogue", "key", "-"], input=b"[" * 100_000, capture_output=True,
                       cwd=ROOT, timeout=120)
    assert p.returncode == 1 and b"Traceback" not in p.stderr
    assert p.stderr.decode() == ("catalogue: <stdin>:1:65: arrays and objects nested more than 64 deep (a grid "
                                 "needs 2 or 3); reading stops here\n")
