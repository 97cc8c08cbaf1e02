"""catalogue compile: the kernels of the commands and sizes given, ahead of time (the compile itself, from an empty
cache, with its progress and Ctrl-C, is in tests/engine/test_warmup.py and test_progress.py)."""
from __future__ import annotations

import pytest
from typer.testing import CliRunner

from catalogue.cli import app
from engine import cache


def compile_(*argv: str):
    """``catalogue compile ARGV`` in this process (exit codes and output are what count here)."""
    result = CliRunner().invoke(app, ["compile", *argv], prog_name="catalogue")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return result


@pytest.mark.parametrize("argv, line", [
    (["nothing"], "catalogue: COMMAND: no command 'nothing'; one of: fill, import, grade, regrade, carve, solve, "
                  "check, key, generate"),
    (["query"], "catalogue: COMMAND: no command 'query'; one of: fill, import, grade, regrade, carve, solve, "
                "check, key, generate"),
    (["--all", "grade"], "catalogue: --all compiles every command for every size: give no COMMAND and no --size "
                         "with it"),
    (["--size", "7"], "catalogue: --size must be one of 4, 9, 16, 25 (rows of the grid), not 7"),
    (["--workers", "-1"], None),
])
def test_usage_errors_are_one_line_and_exit_2(argv, line):
    out = compile_(*argv)
    assert out.exit_code == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("catalogue: ")
    if line is not None:
        assert out.stderr.strip() == line


def test_what_is_compiled_already_is_loaded_and_said_so():
    """The suite's cache holds every job (tests/conftest.py): nothing to compile, nothing on stderr."""
    out = compile_("fill", "import", "--size", "9", "--size", "4")
    assert out.exit_code == 0 and out.stderr == ""
    lines = out.stdout.splitlines()
    assert lines[0].startswith("the kernels for fill, import (4x4, 9x9) were compiled already: loaded in ")
    assert lines[1] == f"kernel cache: {cache.enable()}"  # the one folder this process, and the CLI, use
