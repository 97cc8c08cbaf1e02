"""The readers' commands on a catalogue of several shapes: what they print reads back as the shape it is."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.pipeline.run import fill
from catalogue.store import Catalogue
from engine.formats import from_line, read_grids
from engine.shape import Shape

runner = CliRunner()


@pytest.fixture(scope="module")
def shaped(tmp_path_factory):
    """6 boards of 6x6 (2x3), 4 of 9x9 and 3 X-Sudoku, in that order."""
    folder = tmp_path_factory.mktemp("shaped")
    url = f"sqlite:///{folder / 'c.db'}"
    catalogue = Catalogue.open(url, folder / "boards")
    for shape, count in (("2x3", 6), ("3x3", 4), ("3x3+x", 3)):
        fill(catalogue, count, shape=shape, seed=9, generators=1, checkers=1)
    return url


def _records(url, *args):
    result = runner.invoke(app, ["query", "--format", "json", "--db", url, *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("fmt", ["block", "pretty", "txt", "rcv", "json"])
def test_query_prints_each_grid_in_its_shape_and_it_reads_back(shaped, fmt):
    records = _records(shaped, "--shape", "2x3")
    result = runner.invoke(app, ["query", "--shape", "2x3", "--format", fmt, "--db", shaped])
    assert result.exit_code == 0, result.output
    if fmt != "json":  # one `# shape` line names the stream's shape (json records carry their own field)
        assert result.stdout.count("# shape 2x3") == 1
        grids, errors = read_grids(result.stdout, "<query>", fmt)
        assert errors == [] and len(grids) == len(records) == 6
        for got, record in zip(grids, records):
            assert got.grid.shape == Shape.boxes(2, 3)
            assert (got.grid.cells == from_line(record["puzzle"], Shape.boxes(2, 3))).all()
    else:
        assert [r["shape"] for r in json.loads(result.stdout)] == ["2x3"] * 6


def test_export_writes_the_board_in_its_shape(shaped):
    for number, shape in ((0, Shape.boxes(2, 3)), (12, Shape.square(3, True))):
        record = json.loads(runner.invoke(app, ["export", str(number), "--format", "json", "--db", shaped]).stdout)
        assert record["shape"] == shape.spec and record["size"] == shape.size
        for fmt in ("txt", "pretty", "block"):
            result = runner.invoke(app, ["export", str(number), "--format", fmt, "--solution", "--db", shaped])
            assert result.exit_code == 0, result.output
            (got,), errors = read_grids(result.stdout, "<export>")
            assert errors == [] and got.grid.shape == shape
            assert (got.grid.cells == from_line(record["solution"], shape)).all()


def test_regrade_grades_what_the_grader_knows_and_leaves_the_rest(shaped):
    result = runner.invoke(app, ["regrade", "--dry-run", "--format", "json", "--db", shaped])
    assert result.exit_code == 0, result.output
    done = json.loads(result.stdout)
    assert (done["graded"], done["skipped"], done["changed"]) == (13, 0, 0)  # every shape, X-Sudoku too


def test_stats_count_each_shape(shaped):
    result = runner.invoke(app, ["stats", "--format", "json", "--db", shaped])
    rows = json.loads(result.stdout)["by_shape"]
    assert [(r["shape"], r["size"], r["boards"]) for r in rows] == [("2x3", 6, 6), ("3x3", 9, 4), ("3x3+x", 9, 3)]
    x = runner.invoke(app, ["query", "--shape", "3x3+x", "--format", "json", "--db", shaped]).stdout
    assert len(json.loads(x)) == 3 and None not in [r["level"] for r in json.loads(x)]
