"""The pruned ``full`` searches of rectangles (engine/keys/_rect.py) and Latin squares (engine/keys/_latin.py)
against the enumerations they replaced (tests/naive/key_enumerations.py), by invariance where no enumeration ends,
and the lemma the Latin search rests on, checked by brute force."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import shapes as plain
from naive.key_enumerations import rect_enumerated_keys

from engine.generators import backtrack, wfc
from engine.keys import KeySearchError, canonical_keys
from engine.keys.rect_full import oriented, rect_full_keys, rect_full_search
from engine.shape import Shape


def _units(shape: Shape):
    return plain.units(shape.size, shape.box_rows, shape.box_cols)


def pattern_board(r: int, c: int) -> np.ndarray:
    """The most regular board of boxes r x c (every row a shift of the first): many automorphisms, many ties."""
    n = r * c
    return np.array([(c * (row % r) + row // r + col) % n + 1 for row in range(n) for col in range(n)], dtype=np.int8)


def cyclic_square(n: int) -> np.ndarray:
    return np.array([(r + c) % n + 1 for r in range(n) for c in range(n)], dtype=np.int8)


def boolean_square(k: int) -> np.ndarray:
    """The Cayley table of Z_2^k: every two rows differ by 2^(k-1) 2-cycles (a huge symmetry group)."""
    n = 1 << k
    return np.array([(r ^ c) + 1 for r in range(n) for c in range(n)], dtype=np.int8)


def _enumerated(boards: np.ndarray, shape: Shape) -> np.ndarray:
    work, transpose, rb, cb = oriented(boards, shape)
    keys = rect_enumerated_keys(work, shape.size, rb, cb)
    n = shape.size
    return keys.reshape(-1, n, n).transpose(0, 2, 1).reshape(-1, n * n) if transpose else keys


# -- rectangles ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("r, c, count", [(2, 4, 40), (4, 2, 40), (2, 5, 20), (5, 2, 20), (3, 4, 6), (4, 3, 6),
                                         (2, 6, 4), (6, 2, 4)], ids=lambda v: str(v))
def test_rectangle_search_gives_the_enumerations_keys(r, c, count):
    shape = Shape.boxes(r, c)
    boards = np.concatenate([wfc.generate_array(shape, count, 11)[0], backtrack.generate_array(shape, 2, 3)[0],
                             pattern_board(r, c)[None]])
    assert np.array_equal(rect_full_keys(boards, shape), _enumerated(boards, shape))


@pytest.mark.parametrize("r, c", [(2, 3), (3, 2), (2, 4), (4, 2), (3, 4), (2, 7), (5, 3), (4, 6), (8, 3)])
def test_each_rectangle_key_is_its_board_moved_and_relabelled(r, c):
    shape = Shape.boxes(r, c)
    n = shape.size
    boards = wfc.generate_array(shape, 10, 4)[0]
    keys, perms = rect_full_search(boards, shape)
    for board, key, perm in zip(boards, keys, perms):
        rows, cols = perm.reshape(n, n)[:, 0] // n, perm.reshape(n, n)[0] % n
        assert np.array_equal(perm.reshape(n, n), rows[:, None] * n + cols[None, :])
        for order, block in ((rows, r), (cols, c)):  # whole bands (stacks), each in one block
            assert sorted(order.tolist()) == list(range(n))
            assert all(len({x // block for x in order[k:k + block]}) == 1 for k in range(0, n, block))
        assert len({(int(a), int(b)) for a, b in zip(board[perm], key)}) == n  # one label per digit


def _random_box_move(rng, n, r, c):
    """A random move of boxes r x c: bands and rows within them, stacks and columns within them."""
    def order(block):
        groups = rng.permutation(n // block)
        return np.concatenate([g * block + rng.permutation(block) for g in groups])
    return order(r), order(c)


@pytest.mark.parametrize("shape", [Shape.boxes(2, 7), Shape.boxes(7, 2), Shape.boxes(3, 5), Shape.boxes(2, 8),
                                   Shape.boxes(4, 5), Shape.boxes(3, 7), Shape.boxes(4, 6), Shape.boxes(12, 2)],
                         ids=str)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), pick=st.integers(0, 10**9))
def test_rectangle_keys_do_not_change_under_the_shapes_moves(shape, seed, pick):
    board = wfc.generate(shape, seed).cells
    n = shape.size
    rng = np.random.default_rng(pick)
    rows, cols = _random_box_move(rng, n, shape.box_rows, shape.box_cols)
    image = board.reshape(n, n)[rows][:, cols].ravel()
    image = rng.permutation(np.arange(1, n + 1)).astype(np.int8)[image - 1]
    assert plain.is_board(image.tolist(), _units(shape), n)
    key = canonical_keys(board[None], shape, "full")[0]
    assert np.array_equal(canonical_keys(image[None], shape, "full")[0], key)
    assert plain.is_board(key.tolist(), _units(shape), n)  # the key is a board of the class's shape


def test_a_rectangle_too_symmetric_to_search_is_refused_in_one_line():
    shape = Shape.boxes(4, 6)
    with pytest.raises(KeySearchError, match="^grid 2 of 2 has no full key on shape 4x6: its search kept more "
                                             "than 65,536 tied states \\(too symmetric\\); use d4 or none$"):
        canonical_keys(np.stack([wfc.generate(shape, 1).cells, pattern_board(4, 6)]), shape, "full")


def test_a_rectangle_that_is_no_board_is_refused():
    shape = Shape.boxes(2, 7)
    board = wfc.generate(shape, 1).cells.copy()
    board[[0, 1]] = board[[1, 0]]  # two digits swapped in row 0: each now twice in its column
    with pytest.raises(KeySearchError, match="shape 2x7: it has a conflict"):
        canonical_keys(board[None], shape, "full")
    board[0] = 0
    with pytest.raises(ValueError, match="are for complete boards; this grid has blanks"):
        canonical_keys(board[None], shape, "full")
