"""Transformations as data: the groups, composition, inverses, and that every move keeps a valid grid valid."""
from __future__ import annotations

import itertools
import math

import naive
import naive.keys as naive_keys
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.keys import transforms as sym

BOXES = (2, 3, 4, 5)


def pattern_board(b: int) -> np.ndarray:
    """``naive.pattern_board`` as the int8 array the transforms take."""
    return np.array(naive.pattern_board(b), dtype=np.int8)


def test_d4_matches_numpy_rotations_and_flips():
    b = 3
    n = b * b
    cells = np.arange(n * n)
    m = cells.reshape(n, n)
    expected = [m, np.rot90(m, -1), np.rot90(m, 2), np.rot90(m, 1), m[::-1], m[:, ::-1], m.T, np.rot90(m, 2).T]
    for name, t, want in zip(sym.D4_NAMES, sym.d4_group(b), expected):
        assert np.array_equal(cells[t.perm].reshape(n, n), want), name


@pytest.mark.parametrize("b", BOXES)
def test_d4_is_a_group_of_eight(b):
    group = sym.d4_group(b)
    assert len(set(group)) == 8
    for x, y in itertools.product(group, repeat=2):
        assert x.then(y) in group
    rot = group[1]
    assert sym.compose(rot, rot, rot, rot) == sym.identity(b)
    assert sym.compose(rot, rot) == group[2]
    for t in group:
        assert t.then(t.inverse()) == sym.identity(b)


def test_generators_generate_d4():
    b = 2
    seen = {sym.identity(b)}
    frontier = [sym.identity(b)]
    while frontier:
        t = frontier.pop()
        for g in sym.generators(b, "d4"):
            u = t.then(g)
            if u not in seen:
                seen.add(u)
                frontier.append(u)
    assert seen == set(sym.d4_group(b))
    assert sym.generators(b, "none") == []


@pytest.mark.parametrize("b", BOXES)
def test_every_generator_and_d4_member_keeps_boards_valid(b):
    board = pattern_board(b)
    for t in [*sym.generators(b, "full"), *sym.d4_group(b)]:
        image = t.apply(board)
        assert image.dtype == np.int8
        assert naive.is_valid(image.tolist()) and image.min() > 0


def test_named_moves_do_what_they_say():
    b = 3
    n = 9
    m = np.arange(81).reshape(n, n)
    cells = m.ravel()
    assert np.array_equal(cells[sym.swap_bands(b, 0, 2).perm].reshape(n, n), np.vstack([m[6:], m[3:6], m[:3]]))
    assert np.array_equal(cells[sym.swap_stacks(b, 0, 1).perm].reshape(n, n), np.hstack([m[:, 3:6], m[:, :3], m[:, 6:]]))
    rows = list(range(9))
    rows[4], rows[5] = 5, 4
    assert np.array_equal(cells[sym.swap_rows(b, 1, 1, 2).perm].reshape(n, n), m[rows])
    assert np.array_equal(cells[sym.swap_columns(b, 1, 1, 2).perm].reshape(n, n), m[:, rows])
    assert np.array_equal(cells[sym.transpose(b).perm].reshape(n, n), m.T)
    t = sym.relabel(b, [2, 1, 3, 4, 5, 6, 7, 8, 9])
    assert list(t.apply(np.array([0, 1, 2, 3] + [0] * 77))[:4]) == [0, 2, 1, 3]


def test_from_lines_rejects_moves_that_break_bands_or_stacks():
    with pytest.raises(ValueError, match="band"):
        sym.from_lines(3, [0, 1, 3, 2, 4, 5, 6, 7, 8], range(9))
    with pytest.raises(ValueError, match="stack"):
        sym.from_lines(3, range(9), [0, 1, 2, 3, 4, 6, 5, 7, 8])
    with pytest.raises(ValueError, match="permutation"):
        sym.from_lines(3, [0] * 9, range(9))


def test_transform_rejects_bad_data():
    with pytest.raises(ValueError):
        sym.Transform(2, np.zeros(16), np.arange(5))
    with pytest.raises(ValueError):
        sym.Transform(2, np.arange(16), np.array([1, 0, 2, 3, 4]))  # blanks must stay blank


@pytest.mark.parametrize("b", (2, 3))
def test_all_line_orders_are_the_band_preserving_orders(b):
    orders = list(sym.all_line_orders(b))
    assert len(orders) == math.factorial(b) ** (b + 1) == len({tuple(o) for o in orders})
    assert {tuple(int(x) for x in o) for o in orders} == set(naive_keys.line_orders(b))
    for o in orders:
        sym.from_lines(b, o, range(b * b))  # raises if a band is split


def test_group_sizes():
    assert sym.group_size(3, "none") == 1
    assert sym.group_size(3, "d4") == 8
    assert sym.group_size(3, "full") == 2 * 6 ** 8 * math.factorial(9) == 1_218_998_108_160
    assert sym.group_size(2, "full") == 2 * 2 ** 6 * 24
    with pytest.raises(ValueError, match="unknown equivalence"):
        sym.group_size(3, "rotations")


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(BOXES), st.sampled_from(sym.EQUIVALENCES), st.integers(0, 2**32 - 1))
def test_random_transforms_keep_grids_valid_and_invert(b, equivalence, seed):
    rng = np.random.default_rng(seed)
    board = sym.random_transform(rng, b, "full").apply(pattern_board(b))
    puzzle = np.where(rng.random(board.size) < 0.5, board, 0).astype(np.int8)
    t = sym.random_transform(rng, b, equivalence)
    for grid in (board, puzzle):
        image = sym.apply(grid, t)
        assert naive.is_valid(image.tolist())
        assert np.array_equal(t.inverse().apply(image), grid)
        assert (image == 0).sum() == (grid == 0).sum()  # blanks stay blank


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(BOXES), st.integers(0, 2**32 - 1))
def test_then_is_associative_and_matches_applying_in_turn(b, seed):
    rng = np.random.default_rng(seed)
    x, y, z = (sym.random_transform(rng, b, "full") for _ in range(3))
    grid = sym.random_transform(rng, b, "full").apply(pattern_board(b))
    assert x.then(y).then(z) == x.then(y.then(z))
    assert np.array_equal(x.then(y).apply(grid), y.apply(x.apply(grid)))
    assert x.then(y).inverse() == y.inverse().then(x.inverse())
