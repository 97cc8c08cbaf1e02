"""Filling a catalogue with every shape: the published counts of classes, shapes side by side in one catalogue,
their files, the stored command that makes a run again, and the migration that gave every row its shape."""
from __future__ import annotations

import shlex

import numpy as np
import pytest
from consistency import assert_consistent
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.pipeline import run as run_module
from catalogue.pipeline.options import FillOptions
from catalogue.pipeline.run import fill
from catalogue.pipeline.stages import Kernels
from catalogue.store import Catalogue
from catalogue.store.migrate import downgrade
from engine.formats import from_line, read_grids
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


def _moved(rng, board: np.ndarray, shape: Shape) -> np.ndarray:
    """``board`` moved by a random move of ``shape`` and relabelled at random: the same class under full."""
    n = shape.size
    rb, cb = (shape.box_rows, shape.box_cols) if shape.kind == "boxes" else (n, n)

    def order(block):  # blocks of lines in a random order, the lines in each block too
        return np.concatenate([g * block + rng.permutation(block) for g in rng.permutation(n // block)])
    image = board.reshape(n, n)[order(rb)][:, order(cb)]
    image = rng.permutation(np.arange(1, n + 1)).astype(np.int8)[image - 1]
    if shape.kind == "latin":  # a conjugate too: the roles of (row, column, symbol) permuted
        roles = rng.permutation(3)
        conj = np.zeros((n, n), np.int8)
        for r in range(n):
            for c in range(n):
                t = (r, c, int(image[r, c]) - 1)
                conj[t[roles[0]], t[roles[1]]] = t[roles[2]] + 1
        image = conj
    return image.reshape(-1)


@pytest.mark.parametrize("spec", ["2x7", "latin12"])
def test_a_full_fill_of_a_large_shape_refuses_its_boards_moved_and_relabelled(tmp_path, monkeypatch, spec):
    # keys searched, not listed (engine/keys/rect_full.py, latin.py): 2x7 and Latin squares from 8 up were refused
    # or took minutes a board when every column order was tried
    catalogue, url = _catalogue(tmp_path)
    summary = fill(catalogue, 3, shape=spec, equivalence="full", seed=4, generators=1, checkers=1)
    assert (summary.status, summary.accepted) == ("completed", 3)
    shape = Shape.parse(spec)
    stored = np.stack([from_line(r.board, shape) for r in assert_consistent(url, tmp_path / "boards")])

    class Moved(Kernels):
        """The real kernels, but every board made is a stored one moved and relabelled."""

        def __init__(self, method):
            super().__init__(method)
            self.generate_array = self.moved

        @staticmethod
        def moved(box, count, seed):
            rng = np.random.default_rng(seed)
            boards = np.stack([_moved(rng, stored[rng.integers(len(stored))], shape) for _ in range(count)])
            return boards, np.arange(count, dtype=np.int64), np.zeros(count, dtype=np.int32)

    monkeypatch.setattr(run_module, "Kernels", Moved)
    again = fill(catalogue, 3, shape=spec, equivalence="full", seed=5, generators=1, checkers=1, batch=4,
                 give_up_after=20)
    assert (again.status, again.accepted) == ("exhausted", 0)
    assert again.duplicates >= 20
    assert len(assert_consistent(url, tmp_path / "boards")) == 3


def test_a_board_too_symmetric_to_key_stops_the_fill_in_one_line(tmp_path, monkeypatch):
    # random boards never come near the searches' limits; the Cayley table of Z_2^4 is far past them
    import engine.keys

    table = np.array([(r ^ c) + 1 for r in range(16) for c in range(16)], dtype=np.int8)
    real = engine.keys.key_texts
    calls = []

    def key_texts(boards, box, equivalence):  # the run's own boards after its warm-up call: the table instead
        if box == Shape.latin(16):
            calls.append(len(boards))
            if len(calls) > 1:
                boards = np.stack([table] * len(boards))
        return real(boards, box, equivalence)

    monkeypatch.setattr(engine.keys, "key_texts", key_texts)
    result = runner.invoke(app, ["fill", "-n", "3", "--shape", "latin", "--size", "16", "--equivalence", "full",
                                 "--db", str(tmp_path / "c.db"), "--out", str(tmp_path / "boards")])
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines() == [
        "catalogue: a board made cannot be keyed: grid 1 of 1 has no full key on shape latin16: its search would "
        "try more than 2,000,000 column orders (too symmetric); use d4 or none"]


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
    (["--shape", "latin", "--size", "16", "--diagonals", "--equivalence", "full"],
     "--equivalence full on shape latin16+x: the group of 16x16 with diagonals is too large to list"),
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
