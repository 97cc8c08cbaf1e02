"""Shapes as data: the Shape value, its tables, jigsaw layouts, and grids of every shape."""
import numpy as np
import pytest
from naive import shapes as plain

from engine.geometry import DIAGONAL, REGION, geometry
from engine.grid import Conflict, Grid
from engine.regions import layout_text, random_layout, read_layout
from engine.shape import Shape

SHAPES = [Shape.boxes(2, 3), Shape.boxes(3, 2), Shape.boxes(2, 4), Shape.boxes(3, 4), Shape.boxes(2, 5),
          Shape.latin(3), Shape.latin(7), Shape.square(3, True), Shape.boxes(2, 3, True), Shape.latin(5, True),
          Shape.jigsaw("AABBCD" "AABBCD" "AABCCD" "EEBECD" "FEEECD" "FFFFFD")]


def _plain_units(shape):
    return plain.units(shape.size, shape.box_rows, shape.box_cols, shape.diagonals, shape.regions)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_tables_hold_the_units_the_rules_say(shape):
    geo = geometry(shape)
    units = _plain_units(shape)
    assert sorted(map(sorted, units)) == sorted(map(sorted, geo.houses.tolist()))
    for c in range(geo.ncells):
        own = {h for h in range(geo.nhouses) if c in geo.houses[h]}
        row = geo.cell_houses[c].tolist()
        assert set(row) == own and row[:geo.nunits[c]] == sorted(own)
        assert row[geo.nunits[c]:] == [row[0]] * (len(row) - geo.nunits[c])  # padding repeats the first
        peers = set().union(*(units[i] for i in range(len(units)) if c in units[i])) - {c}
        assert set(geo.peers[c].tolist()) == peers and geo.npeers_of[c] == len(peers)
    assert not geo.peers.flags.writeable and not geo.houses.flags.writeable


def test_square_boxes_are_todays_tables():
    for b in (2, 3, 4, 5):
        assert geometry(Shape.square(b)) is geometry(Shape.square(b))
        assert np.array_equal(geometry(Shape.square(b)).peers, geometry(b).peers)
        assert geometry(b).box == b and geometry(b).cell_houses.shape[1] == 3
    assert geometry(Shape.square(3, True)).box == 0  # diagonals: not the square kernels' shape


@pytest.mark.parametrize("spec, name, size", [("2x3", "2x3", 6), ("3x2", "3x2", 6), ("3x3", "3x3", 9),
                                              ("latin5", "latin5", 5), ("3x4+x", "3x4+x", 12)])
def test_parse_and_name_round_trip(spec, name, size):
    shape = Shape.parse(spec)
    assert shape.name == name and shape.size == size and Shape.parse(shape.name) == shape


def test_parse_words_of_the_cli():
    assert Shape.parse("latin", size=7) == Shape.latin(7)
    assert Shape.parse("2x3", diagonals=True) == Shape.boxes(2, 3, True)
    assert Shape.parse("jigsaw", layout="AABB" "AABB" "CCDD" "CCDD").kind == "jigsaw"


@pytest.mark.parametrize("spec, words", [
    ("5x5x", "unknown shape"), ("1x4", "do not tile"), ("6x5", "side from 4 to 25"), ("latin", "needs a size"),
    ("jigsaw", "needs a region layout"), ("latin2", "side from 3")])
def test_bad_shapes_say_what(spec, words):
    with pytest.raises(ValueError, match=words):
        Shape.parse(spec)


def test_bad_layouts_say_which_region():
    with pytest.raises(ValueError, match="region A is in pieces"):
        Shape.jigsaw("AABB" "ABBA" "CCDD" "CCDD")
    with pytest.raises(ValueError, match="region A has 5 cells; each of the 4 regions needs 4"):
        Shape.jigsaw("AAAA" "ABBB" "CCCC" "DDDD")
    with pytest.raises(ValueError, match="layout.txt: a region layout has n\\*n cells"):
        read_layout("AAB\nBB\n", "layout.txt")


@pytest.mark.parametrize("n", [6, 8, 9, 12])
def test_random_layouts_are_jigsaws_with_a_board_and_repeat_by_seed(n):
    a = random_layout(n, 11)
    assert a.kind == "jigsaw" and a.size == n
    assert random_layout(n, 11) == a
    assert read_layout(layout_text(a)) == a
    assert random_layout(n, 12) != a
    units = _plain_units(a)
    assert all(len(u) == n for u in units)


def test_layouts_are_numbered_by_first_cell():
    assert Shape.jigsaw("xxyy" "xxyy" "zzww" "zzww") == Shape.jigsaw("AABB" "AABB" "CCDD" "CCDD")
    assert Shape.jigsaw("AABB" "AABB" "CCDD" "CCDD").layout == "AABBAABBCCDDCCDD"


def test_grid_conflicts_name_the_diagonal_and_the_region():
    g = Grid.empty(Shape.boxes(2, 3, True))
    assert g.box is g.shape and g.size == 6 and g.shape.diagonals
    g.set(0, 0, 4)
    assert g.conflicts(5, 5, 4) == Conflict.DIAGONAL
    assert g.conflicts(1, 1, 4) == Conflict.BOX | Conflict.DIAGONAL
    assert (Conflict.BOX | Conflict.DIAGONAL).describe("region") == "region and diagonal conflict"
    g.set(5, 5, 4)
    assert [(r, c, why) for r, c, _, why in g.invalid_cells()] == [(0, 0, Conflict.DIAGONAL),
                                                                  (5, 5, Conflict.DIAGONAL)]
    assert Grid(g.cells, Shape.boxes(2, 3)).is_valid()  # the same digits without the diagonals


def test_grid_of_a_shape_checks_its_cells():
    with pytest.raises(ValueError, match="shape 2x3 .* has 36 cells, got 81"):
        Grid(np.zeros(81, np.int8), Shape.boxes(2, 3))
    with pytest.raises(ValueError, match="digits of shape latin5 are 0..5"):
        Grid([6] + [0] * 24, Shape.latin(5))
    assert Grid(np.zeros(81, np.int8), Shape.square(3)).box == 3  # square boxes stay a box size


def test_unit_names():
    geo = geometry(Shape.boxes(2, 3, True))
    kinds = geo.house_kind.tolist()
    assert [geo.unit_name(h) for h in (0, 6, 12, 17)] == ["row 1", "column 1", "box 1", "box 6"]
    assert kinds[-2:] == [DIAGONAL, DIAGONAL] and geo.unit_name(geo.nhouses - 1) == "diagonal 2"
    jig = geometry(SHAPES[-1])
    assert jig.house_kind[12] == REGION and jig.unit_name(12) == "region 1"


def test_parts_that_know_square_boxes_only_name_the_shape():
    from engine.formats import write
    from engine.generators import generate
    from engine.grade import grade
    from engine.keys.canonical import canonical_transform

    shape = Shape.boxes(2, 3)
    board = generate(shape, "wfc", seed=1).cells
    grid = Grid.puzzle(board, shape)
    assert grid.box is shape and repr(grid).endswith("shape='2x3')")
    for call in (lambda: generate(shape, "pattern", seed=1), lambda: canonical_transform(board, shape)):
        with pytest.raises(ValueError, match=r"shape 2x3 \(6x6 with boxes of 2x3\) is not square boxes"):
            call()
    grade(grid)  # the grader and the formats know every shape (test_shape_grading.py)
    assert write(grid, "line") == "".join(str(d) for d in board)
    # a Shape of square boxes is its box size everywhere
    assert generate(Shape.square(3), "backtrack", seed=1).cells.size == 81
    assert Grid(np.zeros(16, np.int8), Shape.square(2)).box == 2
