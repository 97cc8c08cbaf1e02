"""Keys on every shape: the group a shape keeps, known numbers of classes, and invariance."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import shapes as plain

from engine.generators import wfc
from engine.keys.canonical import canonical_key, canonical_keys
from engine.keys.latin import main_class_key
from engine.keys.shape_group import group_order, shape_group
from engine.regions import random_layout
from engine.shape import Shape


def _units(shape):
    return plain.units(shape.size, shape.box_rows, shape.box_cols, shape.diagonals, shape.regions)


def _first_row_boards(shape):
    cells = [0] * shape.ncells
    cells[:shape.size] = range(1, shape.size + 1)
    return np.array(plain.completions(cells, _units(shape), shape.size), dtype=np.int8)


def test_the_6x6_grid_has_49_essentially_different_boards():
    # every class has a member whose first row reads 1..6 (relabel it), so keying those finds every class
    shape = Shape.boxes(2, 3)
    boards = _first_row_boards(shape)
    assert len(boards) == 39_168
    assert group_order(shape) == 3_456 and len(shape_group(shape, "full")) == 3_456
    keys = canonical_keys(boards, shape, "full")
    assert len({k.tobytes() for k in keys}) == 49


def _reduced_latin(n):
    cells = [0] * (n * n)
    for i in range(n):
        cells[i] = cells[i * n] = i + 1
    return np.array(plain.completions(cells, plain.units(n), n), dtype=np.int8)


@pytest.mark.parametrize("n, reduced, classes", [(4, 4, 2), (5, 56, 2), (6, 9_408, 12)])
def test_main_classes_of_latin_squares(n, reduced, classes):
    # McKay, Meynert and Myrvold (2007): 2, 2 and 12 main classes of order 4, 5, 6; every class has a reduced member
    squares = _reduced_latin(n)
    assert len(squares) == reduced
    keys = canonical_keys(squares, Shape.latin(n), "full")
    assert len({k.tobytes() for k in keys}) == classes


def test_main_class_keys_match_the_plain_orbits_on_order_4():
    squares = [tuple(b) for b in plain.completions([0] * 16, plain.units(4), 4)]
    assert len(squares) == 576
    orbits = plain.latin_orbits(squares, 4)
    assert len(orbits) == 2
    for orbit in orbits:
        keys = {main_class_key(np.array(sq)).tobytes() for sq in orbit}
        assert len(keys) == 1
    assert main_class_key(np.array(next(iter(orbits[0])))).tobytes() != \
        main_class_key(np.array(next(iter(orbits[1])))).tobytes()


SHAPES = [Shape.boxes(2, 3), Shape.boxes(3, 2), Shape.square(2, True), Shape.boxes(2, 3, True),
          Shape.latin(5, True), random_layout(6, 3)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), pick=st.integers(0, 10**9))
def test_keys_do_not_change_under_the_shapes_moves(shape, seed, pick):
    board = wfc.generate(shape, seed).cells
    rng = np.random.default_rng(pick)
    for equivalence in ("d4", "full"):
        group = shape_group(shape, equivalence)
        image = board[group[rng.integers(len(group))]]
        if equivalence == "full":
            image = rng.permutation(np.arange(1, shape.size + 1)).astype(np.int8)[image - 1]
        assert np.array_equal(canonical_key(image, shape, equivalence), canonical_key(board, shape, equivalence))
        assert plain.is_board(image.tolist(), _units(shape), shape.size)  # a move keeps a board a board


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), pick=st.integers(0, 10**9), n=st.sampled_from([4, 5, 6, 7, 8, 10, 12, 16, 25]))
def test_main_class_keys_do_not_change_under_isotopy_and_conjugates(seed, pick, n):
    square = wfc.generate(Shape.latin(n), seed).cells.reshape(n, n)
    rng = np.random.default_rng(pick)
    image = square[rng.permutation(n)][:, rng.permutation(n)]
    image = rng.permutation(np.arange(1, n + 1))[image - 1]
    triples = [(r, c, int(image[r, c]) - 1) for r in range(n) for c in range(n)]
    roles = rng.permutation(3)
    conj = np.zeros((n, n), np.int8)
    for t in triples:
        conj[t[roles[0]], t[roles[1]]] = t[roles[2]] + 1
    key = main_class_key(square)
    assert np.array_equal(main_class_key(conj), key)
    assert plain.is_board(key.tolist(), plain.units(n), n)  # the key is a Latin square


def test_groups_that_are_too_big_to_list_say_so():
    with pytest.raises(ValueError, match="too large to list"):
        shape_group(Shape.boxes(3, 4), "full")
    assert group_order(Shape.boxes(3, 4)) == 24 * 6**4 * 6 * 24**3
    assert len(shape_group(Shape.boxes(3, 4), "d4")) == 4  # rectangles: no quarter turns, no diagonal mirrors


@pytest.mark.parametrize("shape", [Shape.square(2, True), Shape.boxes(2, 3, True), Shape.boxes(3, 2, True),
                                   Shape.latin(4, True), Shape.latin(5, True)], ids=str)
def test_the_diagonal_group_found_pair_by_pair_is_every_move_that_keeps_the_diagonals(shape):
    # the slow twin: every move of the shape without diagonals, kept when it maps every unit (diagonals too) to one
    plain_shape = Shape(shape.size, shape.box_rows, shape.box_cols)
    units = {frozenset(u) for u in _units(shape)}
    kept = {tuple(p) for p in shape_group(plain_shape, "full")
            if all(frozenset(p[list(u)].tolist()) in units for u in units)}
    assert {tuple(p) for p in shape_group(shape, "full")} == kept
    assert group_order(shape) == len(kept)


def test_x_sudoku_keys_under_full_on_9x9():
    # the 9x9 group is far too big to list, the X group is not (96 moves): keys stay the same under each move
    shape = Shape.square(3, True)
    assert group_order(shape) == 96
    board = wfc.generate(shape, 4).cells
    group = shape_group(shape, "full")
    key = canonical_key(board, shape, "full")
    for p in group[::7]:
        image = np.random.default_rng(int(p[0])).permutation(np.arange(1, 10)).astype(np.int8)[board[p] - 1]
        assert np.array_equal(canonical_key(image, shape, "full"), key)


def test_6x6_full_keys_are_the_listed_groups_smallest_images():
    # 2x3 and 3x2 boards are searched (engine/keys/rect_full.py) without being transposed: their keys are the very
    # images the listed group's minimum gives (brute_keys, which still keys 6x6 puzzles), as before the search
    from engine.keys.rect_full import rect_full_keys
    from engine.keys.shape_group import brute_keys

    for shape in (Shape.boxes(3, 2), Shape.boxes(2, 3)):
        boards = wfc.generate_array(shape, 150, 5)[0]
        listed = brute_keys(boards, shape_group(shape, "full"), True, np.empty_like(boards))
        assert np.array_equal(rect_full_keys(boards, shape), listed)
        assert np.array_equal(canonical_keys(boards, shape, "full"), listed)
        puzzles = np.where(np.random.default_rng(1).random(boards.shape) < 0.5, boards, 0).astype(np.int8)
        assert np.array_equal(canonical_keys(puzzles, shape, "full"),
                              brute_keys(puzzles, shape_group(shape, "full"), True, np.empty_like(puzzles)))


def test_every_rectangle_and_latin_size_has_full_keys():
    from engine.keys.shape_group import check_full

    for r in range(2, 13):
        for c in range(2, 13):
            if r != c and r * c <= 25:
                check_full(Shape.boxes(r, c))
    for n in range(3, 26):
        check_full(Shape.latin(n))
    with pytest.raises(ValueError, match="too large to list"):  # the diagonal shapes' groups are listed
        check_full(Shape.latin(16, True))
