"""Solving and checking have a budget: a puzzle whose search would not end (a 25x25 puzzle of 204 clues without a
solution) is reported in one line and the file's other puzzles are answered; ``--node-limit`` sets the budget
(0 for none), and the default one (catalogue.config.NODE_BUDGET) is what import uses. The real command's argv,
run through CliRunner from the file's folder (a process of its own added only its start-up)."""
from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.config import NODE_BUDGET
from paths import SAMPLES
from puzzles import NEVER_ENDS_25

NINE = [line for line in (SAMPLES / "puzzles_9x9.sdm").read_text().splitlines()
        if line.strip() and not line.startswith("#")][:2]


def _mixed(tmp_path: Path) -> Path:
    """Two 9x9 puzzles with one solution each, the endless 25x25 one between them."""
    path = tmp_path / "mixed.txt"
    path.write_text(f"{NINE[0]}\n{NEVER_ENDS_25}\n{NINE[1]}\n")
    return path


def _catalogue(*args, cwd: Path) -> SimpleNamespace:
    """``catalogue ARGS`` run from the folder ``cwd``: its exit code, stdout and stderr."""
    here = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, list(map(str, args)), prog_name="catalogue")
    finally:
        os.chdir(here)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return SimpleNamespace(returncode=result.exit_code, stdout=result.stdout, stderr=result.stderr)


def test_solve_reports_the_endless_puzzle_and_answers_the_others(tmp_path):
    result = _catalogue("solve", _mixed(tmp_path), "--node-limit", "200000", cwd=tmp_path)
    assert result.returncode == 1
    assert len(result.stdout.splitlines()) == 2  # the two 9x9 solutions, in file order
    (line,) = [text for text in result.stderr.splitlines() if "gave up" in text]
    assert line.startswith(f"catalogue: {tmp_path / 'mixed.txt'}:2: gave up after 2000") and \
        line.endswith("the budget is --node-limit 200000 (0 for none)")


def test_check_calls_the_endless_puzzle_undecided(tmp_path):
    result = _catalogue("check", _mixed(tmp_path), "--node-limit", "200000", cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert [line.split(": ", 1)[1].split(" ")[0] for line in lines] == ["valid", "undecided:", "valid"]
    assert "gave up after --node-limit 200000 nodes (0 for none): 25x25 puzzle with 204 clues" in lines[1]
    assert result.stderr.strip().splitlines()[-1] == "catalogue: 3 grids: 2 valid, 1 undecided within --node-limit"


def test_import_rejects_the_endless_puzzle_as_undecided_and_stores_the_others(tmp_path):
    result = _catalogue("import", _mixed(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "mixed.txt:2: undecided: the search for a second solution gave up after" in result.stderr
    assert f"(the budget is {NODE_BUDGET} nodes)" in result.stderr
    assert "added           2 puzzles" in result.stdout and "rejected        1 (undecided 1)" in result.stdout
