"""The file commands on every shape: generate, carve, check, solve, grade, key and import, each reading what the
one before wrote, the shape named once in a ``# shape`` line (or given with ``--shape``)."""
from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from catalogue.cli import app
from engine.formats import read_grids

runner = CliRunner()

SHAPES = [("2x3", ["--shape", "2x3"]), ("latin5", ["--shape", "latin", "--size", "5"]),
          ("3x3+x", ["--diagonals"]), ("jigsaw6", ["--shape", "jigsaw", "--regions", "random", "--size", "6"])]


def _run(*args, ok: bool = True):
    result = runner.invoke(app, [str(a) for a in args])
    if ok:
        assert result.exit_code == 0, result.output
    return result


@pytest.mark.parametrize("name, options", SHAPES, ids=[n for n, _ in SHAPES])
def test_a_shape_goes_through_every_file_command(tmp_path, name, options):
    boards = tmp_path / "boards.txt"
    boards.write_text(_run("generate", "--count", 3, "--seed", 11, *options).stdout)
    (shape,) = {g.grid.shape for g in read_grids(boards.read_text(), "boards")[0]}
    assert shape.name == name
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text(_run("carve", boards).stdout)
    text = puzzles.read_text()
    assert text.startswith(f"# shape {shape.spec}\n") and text.count("# shape") == 1
    carved, errors = read_grids(text, "puzzles")
    assert errors == [] and len(carved) == 3
    checked = _run("check", puzzles)
    assert "3 valid" in checked.stderr
    solved, errors = read_grids(_run("solve", puzzles).stdout, "solved")
    made = read_grids(boards.read_text(), "boards")[0]
    assert errors == [] and all(np.array_equal(s.grid.cells, b.grid.cells) for s, b in zip(solved, made))
    keys = _run("key", boards).stdout.split()
    assert len(keys) == 3 and all(len(k) == shape.ncells for k in keys)
    graded = _run("grade", puzzles, "--format", "json", ok=False)
    assert graded.exit_code == 0 and {g["level"] is not None for g in json.loads(graded.stdout)} == {True}
    db = tmp_path / "c.db"
    _run("import", puzzles, "--db", db)
    records = json.loads(_run("query", "--format", "json", "--db", db).stdout)
    assert [r["shape"] for r in records] == [shape.spec] * 3
    assert [r["puzzle"] for r in records] == [p for p in text.splitlines()[1:]]
    assert None not in {r["level"] for r in records}
    assert "all good" in _run("verify", "--full", "--db", db).stdout


def test_bare_lines_take_their_shape_from_the_option(tmp_path):
    boards = _run("generate", "--count", 2, "--seed", 3, "--shape", "2x3").stdout.splitlines()[1:]
    path = tmp_path / "bare.txt"
    path.write_text("\n".join(boards) + "\n")
    unread = _run("check", path, ok=False)
    assert "a 6x6 grid needs its shape named before it" in unread.stderr
    assert "2 valid" in _run("check", path, "--shape", "2x3").stderr
    other = _run("check", path, "--shape", "3x2", ok=False)  # read as the other orientation: no longer boards
    assert other.exit_code == 1 and "2 invalid" in other.stderr and "box conflict" in other.stdout
    wrong = _run("check", path, "--shape", "2x3", "--size", "9", ok=False)
    assert wrong.exit_code == 2 and wrong.stderr == "catalogue: --shape: shape 2x3 is 6x6, not 9x9\n"
    named = tmp_path / "named.txt"
    named.write_text("# shape 2x3\n" + "\n".join(boards) + "\n")
    clash = _run("check", named, "--shape", "3x2", ok=False)
    assert "the text says shape 2x3 but 3x2 was asked for" in clash.stderr
