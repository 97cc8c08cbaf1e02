"""The pruned ``full`` searches of rectangles (engine/keys/_rect.py) and Latin squares (engine/keys/_latin.py)
against the enumerations they replaced (tests/naive/key_enumerations.py), by invariance where no enumeration ends,
and the lemma the Latin search rests on, checked by brute force."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import shapes as plain
from naive.key_enumerations import latin_enumerated_keys, rect_enumerated_keys

from engine.generators import backtrack, wfc
from engine.keys import KeySearchError, canonical_keys
from engine.keys.latin import latin_keys
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
    with pytest.raises(KeySearchError, match="^grid 1 of 1 has no full key on shape 2x7: it has blanks, and the "
                                             "full keys of this shape are for complete boards$"):
        canonical_keys(board[None], shape, "full")


# -- Latin squares -------------------------------------------------------------------------------------------------
def smallest_conjugate_plainly(perm: tuple[int, ...]) -> tuple[int, ...]:
    """The smallest q^-1 perm q over every q, by listing them."""
    n = len(perm)
    return min(tuple(inv[perm[q[j]]] for j in range(n))
               for q in itertools.permutations(range(n)) for inv in [{x: i for i, x in enumerate(q)}])


def laid_out(lengths: list[int]) -> tuple[int, ...]:
    """The search's canonical form: cycles one after another in ascending length, p -> p+1 -> .. -> p."""
    out, p = [], 0
    for length in sorted(lengths):
        out += [p + (u + 1) % length for u in range(length)]
        p += length
    return tuple(out)


def cycle_lengths(perm) -> list[int]:
    seen, out = set(), []
    for c in range(len(perm)):
        length, x = 0, c
        while x not in seen:
            seen.add(x)
            x, length = perm[x], length + 1
        if length:
            out.append(length)
    return out


def test_the_smallest_conjugate_of_a_derangement_lays_its_cycles_out_in_ascending_length():
    # the lemma of engine/keys/latin.py, and that cycle types compare as their ascending length lists
    for n in range(2, 7):
        forms = {}
        for perm in itertools.permutations(range(n)):
            if any(perm[c] == c for c in range(n)):
                continue
            lengths = tuple(sorted(cycle_lengths(perm)))
            if lengths not in forms:
                forms[lengths] = smallest_conjugate_plainly(perm)
                assert forms[lengths] == laid_out(list(lengths))
        assert sorted(forms) == sorted(forms, key=lambda t: forms[t])


def _reduced_latin(n):
    cells = [0] * (n * n)
    for i in range(n):
        cells[i] = cells[i * n] = i + 1
    return np.array(plain.completions(cells, plain.units(n), n), dtype=np.int8)


@pytest.mark.parametrize("n", [4, 5])
def test_latin_search_gives_the_enumerations_keys_on_every_reduced_square(n):
    squares = _reduced_latin(n)
    assert np.array_equal(latin_keys(squares), latin_enumerated_keys(squares, n))


@pytest.mark.parametrize("n, count", [(3, 5), (4, 30), (5, 30), (6, 30), (7, 20)])
def test_latin_search_gives_the_enumerations_keys_on_random_and_regular_squares(n, count):
    squares = np.concatenate([wfc.generate_array(Shape.latin(n), count, 7)[0], cyclic_square(n)[None]])
    if n == 4:
        squares = np.concatenate([squares, boolean_square(2)[None]])
    assert np.array_equal(latin_keys(squares), latin_enumerated_keys(squares, n))


def test_the_cayley_table_of_z2_to_the_3_is_keyed_as_the_enumeration_keys_it():
    square = boolean_square(3)[None]  # every pi four 2-cycles: 384 orders for each of 336 pairs
    assert np.array_equal(latin_keys(square), latin_enumerated_keys(square, 8))


def test_a_latin_square_too_symmetric_to_search_is_refused_in_one_line():
    with pytest.raises(KeySearchError, match="^grid 1 of 1 has no full key on shape latin16: its search would try "
                                             "more than 2,000,000 column orders \\(too symmetric\\); use d4 or "
                                             "none$"):
        canonical_keys(boolean_square(4)[None], Shape.latin(16), "full")


def test_a_grid_that_is_no_latin_square_is_refused():
    square = cyclic_square(9)
    square[0] = square[1]
    with pytest.raises(KeySearchError, match="shape latin9: it has a conflict"):
        canonical_keys(square[None], Shape.latin(9), "full")
