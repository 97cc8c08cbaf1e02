"""Filling a catalogue with every shape: the published counts of classes, shapes side by side in one catalogue,
their files, the stored command that makes a run again, and the migration that gave every row its shape."""
from __future__ import annotations

import shlex

import pytest
from consistency import assert_consistent
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.pipeline.options import FillOptions
from catalogue.pipeline.run import fill
from catalogue.store import Catalogue
from catalogue.store.migrate import downgrade
from engine.formats import read_grids
from engine.shape import Shape

runner = CliRunner()


def _catalogue(tmp_path) -> tuple[Catalogue, str]:
    url = f"sqlite:///{tmp_path / 'c.db'}"
    return Catalogue.open(url, tmp_path / "boards"), url


def test_a_full_fill_of_6x6_stops_at_exactly_49_boards(tmp_path):
    # Pettersen; Russell and Jarvis: 49 essentially different 6x6 grids with 2x3 boxes
    catalogue, url = _catalogue(tmp_path)
    summary = fill(catalogue, 100, shape="2x3", equivalence="full", seed=1, generators=1, checkers=1)
    assert (summary.status, summary.accepted) == ("exhausted", 49)
    rows = assert_consistent(url, tmp_path / "boards")
    assert {r.shape for r in rows} == {"2x3"} and {r.size for r in rows} == {6}


@pytest.mark.parametrize("n, classes", [(4, 2), (5, 2), (6, 12)])
def test_a_full_fill_of_latin_squares_stops_at_the_main_classes(tmp_path, n, classes):
    # McKay, Meynert and Myrvold (2007): 2, 2 and 12 main classes of Latin squares of order 4, 5 and 6
    catalogue, url = _catalogue(tmp_path)
    summary = fill(catalogue, 50, shape=f"latin{n}", equivalence="full", seed=2, generators=1, checkers=1)
    assert (summary.status, summary.accepted) == ("exhausted", classes)
    rows = assert_consistent(url, tmp_path / "boards")
    assert {r.shape for r in rows} == {f"latin{n}"}


def test_shapes_side_by_side_in_one_catalogue(tmp_path):
    catalogue, url = _catalogue(tmp_path)
    for shape, count in (("3x3", 20), ("2x3", 20), ("3x2", 20), ("3x3+x", 5)):
        assert fill(catalogue, count, shape=shape, seed=3, generators=1, checkers=1).accepted == count
    rows = assert_consistent(url, tmp_path / "boards")
    assert [r.shape for r in rows] == ["3x3"] * 20 + ["2x3"] * 20 + ["3x2"] * 20 + ["3x3+x"] * 5
    # each board's file names its shape (square boxes as they always were), and reads back as that shape
    for r in rows:
        text_ = (tmp_path / "boards" / f"{r.number}.txt").read_text()
        assert text_.startswith("# shape ") == (r.shape != "3x3")
        (entry,), errors = read_grids(text_, f"{r.number}.txt")
        assert errors == []
        assert entry.grid.shape == Shape.parse(r.shape)
    # every board's puzzle is graded, the X boards' too
    engine = create_engine(url)
    with engine.connect() as conn:
        levels = dict(conn.execute(text("SELECT b.shape, count(p.level) FROM boards b JOIN puzzles p "
                                        "ON p.board_number = b.number GROUP BY b.shape")).all())
    engine.dispose()
    assert levels == {"3x3": 20, "2x3": 20, "3x2": 20, "3x3+x": 5}
    # the filters: a shape's name, its size
    assert catalogue.puzzles(shape="2x3").count() == 20
    assert catalogue.puzzles(size=6).count() == 40
    assert catalogue.puzzles(shape="3x3").count() == 20
    assert sorted(catalogue.shapes()) == ["2x3", "3x2", "3x3", "3x3+x"]
    verified = runner.invoke(app, ["verify", "--full", "--db", url])
    assert verified.exit_code == 0, verified.output


def test_the_stored_command_makes_the_same_jigsaw_boards_again(tmp_path):
    first, url = _catalogue(tmp_path)
    result = runner.invoke(app, ["fill", "-n", "3", "--shape", "jigsaw", "--regions", "random", "--size", "6",
                                 "--db", url, "--out", str(tmp_path / "boards")])
    assert result.exit_code == 0, result.output
    engine = create_engine(url)
    with engine.connect() as conn:
        command, shape = conn.execute(text("SELECT command, shape FROM runs")).one()
        boards = conn.execute(text("SELECT board FROM boards ORDER BY number")).scalars().all()
    engine.dispose()
    assert shape.startswith("jigsaw6:") and f"--shape {shape}" in command  # the layout drawn is in the command
    words = ["fill", *shlex.split(command)[2:]]
    again_url = f"sqlite:///{tmp_path / 'again.db'}"
    result = runner.invoke(app, [*words, "--db", again_url, "--out", str(tmp_path / "again")])
    assert result.exit_code == 0, result.output
    engine = create_engine(again_url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT board FROM boards ORDER BY number")).scalars().all() == boards
    engine.dispose()
    assert_consistent(url, tmp_path / "boards")


@pytest.mark.parametrize("args, words", [
    (["--shape", "2x3", "--size", "9"], "shape 2x3 is 6x6, not 9x9"),
    (["--shape", "2x3", "--method", "pattern"], "--method pattern makes square boxes only; shape 2x3 takes --method "
                                               "wfc or backtrack"),
    (["--shape", "2x7", "--equivalence", "full"], "--equivalence full on shape 2x7: full keys of shape 2x7 would "
                                                  "try 9,031,680 images a board"),
    (["--shape", "hexagon"], "unknown shape 'hexagon'"),
    (["--regions", "random", "--shape", "2x3"], "--regions makes a jigsaw: it does not go with --shape 2x3"),
])
def test_options_that_make_no_fill_are_one_usage_line(tmp_path, args, words):
    result = runner.invoke(app, ["fill", "-n", "1", *args, "--db", str(tmp_path / "c.db")])
    assert result.exit_code == 2, result.output
    assert len(result.stderr.splitlines()) == 1 and words in result.stderr
    assert not (tmp_path / "c-boards").exists()  # nothing written


def test_fill_options_say_square_boxes_by_their_size_and_other_shapes_by_their_spec():
    assert "--size 9" in FillOptions(count=1, seed=1).command()
    assert "--shape" not in FillOptions(count=1, seed=1, size=16).command()
    spec = FillOptions(count=1, seed=1, shape="latin", size=5)
    assert (spec.shape, spec.size, spec.box) == ("latin5", 5, Shape.latin(5))
    assert "--shape latin5" in spec.command() and "--size" not in spec.command()
    assert FillOptions(count=1, seed=1, shape="3x3").box == 3  # square boxes: the kernels they always took
    assert FillOptions(count=1, seed=1, shape="2x3").batch == 256


def test_migration_0009_names_every_old_row_by_its_size_and_goes_back_while_all_are_square(tmp_path):
    catalogue, url = _catalogue(tmp_path)
    fill(catalogue, 4, size=4, seed=5, generators=1, checkers=1)
    fill(catalogue, 3, size=9, seed=5, generators=1, checkers=1)
    engine = create_engine(url)
    downgrade(engine, url, "0008")
    with engine.connect() as conn:
        assert "shape" not in {row[1] for row in conn.execute(text("PRAGMA table_info(boards)"))}
    engine.dispose()
    catalogue, _ = _catalogue(tmp_path)  # opening it upgrades it in place
    rows = assert_consistent(url, tmp_path / "boards")
    assert [r.shape for r in rows] == ["2x2"] * 4 + ["3x3"] * 3
    fill(catalogue, 2, shape="2x3", seed=5, generators=1, checkers=1)
    engine = create_engine(url)
    with pytest.raises(RuntimeError, match="2 boards are not square boxes"):
        downgrade(engine, url, "0008")
    engine.dispose()
