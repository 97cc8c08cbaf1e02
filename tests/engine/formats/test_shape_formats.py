"""Every text format carries every shape: the ``# shape`` line, JSON's "shape", pictures of regions, errors."""
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.formats import FormatError, parse, write
from engine.formats.pretty import _JUNCTION
from engine.formats.registry import conflict_errors, from_line, parse_entries, write_many
from engine.generators import generate
from engine.geometry import geometry
from engine.grid import Grid
from engine.regions import random_layout
from engine.shape import Shape

SHAPES = [Shape.boxes(2, 3), Shape.boxes(3, 2), Shape.boxes(2, 4), Shape.boxes(3, 4), Shape.latin(5),
          Shape.boxes(2, 3, True), Shape.square(3, True), random_layout(6, 2), random_layout(9, 1)]
TEXT_FORMATS = ["line", "block", "rcv", "pretty", "json", "txt"]


def _puzzle(shape: Shape, seed: int = 1) -> Grid:
    board = generate(shape, "wfc", seed=seed).cells
    keep = np.random.default_rng(seed).random(board.size) < 0.5
    return Grid.puzzle(np.where(keep, board, 0), shape)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("fmt", TEXT_FORMATS)
def test_every_format_reads_back_every_shape_as_written(shape, fmt):
    grids = [_puzzle(shape, 1), _puzzle(shape, 2)]
    text = write_many(grids, fmt)
    for read in (parse(text, "f.txt", fmt), parse(text, "f.txt"), list(parse_entries(text, "f.txt"))):
        assert [p.grid.box for p in read] == [shape, shape]
        assert all(np.array_equal(p.grid.cells, g.cells) for p, g in zip(read, grids))
    if fmt != "json":
        assert text.startswith(f"# shape {shape.spec}\n") and text.count("# shape") == 1
    else:
        assert f'"shape": "{shape.spec}"' in text


def test_square_boxes_are_written_as_before():
    grid = _puzzle(Shape.square(3))
    assert grid.box == 3 and "# shape" not in write(grid, "block") and '"box": 3' in write(grid, "json")
    assert parse("# shape 3x3\n" + write(grid, "line"), "f")[0].grid.box == 3  # the directive may name them


def test_the_line_format_stays_symbols_and_a_file_names_its_shape_once():
    grid = _puzzle(Shape.boxes(2, 3))
    assert write(grid, "line") == "".join(".123456"[d] for d in grid.cells)
    assert write_many([grid], "line").splitlines() == ["# shape 2x3", write(grid, "line")]
    # without the line, 36 symbols are no square grid: the error says what was expected
    error = parse(write(grid, "line"), "f.txt", "line")[0]
    assert isinstance(error, FormatError) and "a 6x6 grid needs its shape named before it" in str(error)


def test_a_jigsaw_layout_travels_in_its_spec():
    shape = random_layout(6, 3)
    text = write(_puzzle(shape), "txt")
    first = text.splitlines()[0]
    assert first == f"# shape jigsaw6:{shape.layout}" and Shape.parse(first.split()[-1]) == shape


@pytest.mark.parametrize("line, message", [
    ("# shape 1x4", "f.txt:1:9: # shape: boxes of 1x4 do not tile"),
    ("# shape jigsaw", "f.txt:1:9: # shape: shape jigsaw needs a region layout"),
    ("# shape hexagon", "f.txt:1:9: # shape: unknown shape 'hexagon'"),
    ("# shape jigsaw4:AABBAABBCCDDCDDC", "f.txt:1:9: # shape: region C is in pieces"),
])
def test_a_bad_shape_line_is_one_error_naming_it(line, message):
    got = parse(f"# a comment\n{line}\n" + "." * 36, "f.txt")
    assert len(got) == 1 and str(got[0]).replace(":2:", ":1:").startswith(message)


def test_the_shape_asked_for_and_the_shape_the_text_says_must_agree():
    text = write_many([_puzzle(Shape.boxes(2, 3))], "line")
    assert parse(text, "f", box=Shape.boxes(2, 3))[0].grid.box == Shape.boxes(2, 3)
    error = parse(text, "f", box=Shape.boxes(3, 2))[0]
    assert isinstance(error, FormatError) and "the text says shape 2x3 but 3x2 was asked for" in str(error)
    assert from_line("." * 36, Shape.boxes(3, 2)).size == 36


def test_wrong_counts_name_the_shape_they_expected():
    text = "# shape 2x4\n" + "1" * 63 + "\n"
    assert str(parse(text, "f.txt")[0]) == "f.txt:2:64: expected 64 symbols for a 8x8 grid of shape 2x4, got 63"
    error = parse("# shape 2x3\n123456\n123456\n", "f.txt", "block")[0]
    assert "expected 6 rows for a 6x6 grid, got 2" in str(error)
    error = parse('{"size": 9, "shape": "2x3", "grid": "' + "." * 36 + '"}', "f.json")[0]
    assert '"size" 9 does not agree with "shape"' in str(error)
    error = parse('{"shape": 23, "grid": []}', "f.json")[0]
    assert '"shape" must be a shape' in str(error)


def test_write_many_holds_one_shape():
    with pytest.raises(ValueError, match="one text holds grids of one shape: 2x3, then 3x2"):
        write_many([_puzzle(Shape.boxes(2, 3)), _puzzle(Shape.boxes(3, 2))], "block")


def _borders_from_picture(text: str, n: int):
    """Which cell borders the picture draws heavy, read back from its characters (the plain twin of the writer):
    a vertical border is the bar left of a cell in a row line, a horizontal one the rule above it."""
    lines = text.splitlines()[1:]  # after the # shape line
    heavy_v = np.zeros((n, n + 1), bool)
    heavy_h = np.zeros((n + 1, n), bool)
    for r in range(n):
        row = lines[2 * r + 1]
        for c in range(n + 1):
            heavy_v[r, c] = row[4 * c] == "┃"
    for r in range(n + 1):
        rule = lines[2 * r]
        for c in range(n):
            heavy_h[r, c] = rule[4 * c + 2] == "━"
    return heavy_v, heavy_h


@pytest.mark.parametrize("shape", [Shape.boxes(2, 3), Shape.latin(4), random_layout(6, 2), random_layout(8, 5)],
                         ids=str)
def test_a_picture_draws_heavy_lines_exactly_along_region_borders(shape):
    text = write(_puzzle(shape), "pretty")
    n = shape.size
    region = geometry(shape).box_of.reshape(n, n)
    heavy_v, heavy_h = _borders_from_picture(text, n)
    for r in range(n):
        for c in range(1, n):
            assert heavy_v[r, c] == (region[r, c] != region[r, c - 1])
            assert heavy_h[c, r] == (region[c, r] != region[c - 1, r])
    assert heavy_v[:, [0, n]].all() and heavy_h[[0, n], :].all()  # the frame


def test_every_crossing_of_a_picture_has_its_character():
    # four arms, each none, light or heavy, as a grid can need them (corners, edges, crossings): all 81 but the
    # ones with one arm only or none exist in Unicode's box drawing block, and the writer finds them by name
    needed = {(u, r, d, left) for u in range(3) for r in range(3) for d in range(3) for left in range(3)
              if sum(x > 0 for x in (u, r, d, left)) >= 2}
    assert needed <= set(_JUNCTION)
    assert _JUNCTION[(1, 1, 1, 1)] == "┼" and _JUNCTION[(2, 2, 2, 2)] == "╋" and _JUNCTION[(0, 2, 2, 0)] == "┏"


@pytest.mark.parametrize("shape", [Shape.boxes(2, 3, True), random_layout(6, 2), Shape.latin(4)], ids=str)
def test_svg_draws_region_borders_and_shades_diagonals(shape):
    svg = write(_puzzle(shape), "svg")
    n = shape.size
    region = geometry(shape).box_of.reshape(n, n)
    borders = int((region[:, 1:] != region[:, :-1]).sum() + (region[1:, :] != region[:-1, :]).sum())
    assert svg.count('class="box"') == borders
    assert svg.count('class="diagonal"') == (2 * n - n % 2 if shape.diagonals else 0)
    assert f"(shape {shape.name})" in svg


def test_conflicts_on_a_shape_name_its_units():
    shape = random_layout(6, 2)
    layout = shape.layout
    a = layout.index("A")
    b = layout.index("A", a + 1)
    cells = np.zeros(36, np.int8)
    cells[a] = cells[b] = 4
    text = "# shape " + shape.spec + "\n" + "".join(str(d) if d else "." for d in cells)
    message = conflict_errors(parse(text, "f")[0])[0].message
    assert re.search(r"both hold 4 \((row and )?region conflict\)", message)
    cells = np.zeros(81, np.int8)
    cells[0] = cells[80] = 7
    x = parse("# shape 3x3+x\n" + "".join(str(d) if d else "." for d in cells), "f")[0]
    assert conflict_errors(x)[0].message == "r1c1 and r9c9 both hold 7 (diagonal conflict)"


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SHAPES), st.sampled_from(TEXT_FORMATS), st.integers(0, 2**31))
def test_any_puzzle_of_any_shape_round_trips(shape, fmt, seed):
    grid = _puzzle(shape, seed % 50 + 1)
    (back,) = parse(write_many([grid], fmt), "f", fmt)
    assert back.grid.box == shape and np.array_equal(back.grid.cells, grid.cells)
