"""Canonical keys against slow, obviously-correct twins in plain Python (tests/naive/keys.py).

Twins: every 4x4 board by brute force and its classes by BFS closure under the group generators; the 4x4 full
key as the minimum over all 2 x 8 x 8 = 128 images (x relabelling by first appearance); the d4 key on any size as
the minimum over the 8 images written out with row/column formulas. Larger full keys are checked by invariance under
random group members, by the witness transform (the key is in the class) and by two independent kernels agreeing.
"""
from __future__ import annotations

import itertools
import random
import threading
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import random_board
from naive.keys import all_4x4_boards, d4_twin, first_appearance, full_twin_4x4, orbits

from engine.formats import to_line
from engine.grid import Grid
from engine.keys import (
    EQUIVALENCES,
    KeySearchError,
    canonical_key,
    canonical_keys,
    canonical_transform,
    key_text,
    key_texts,
    same_class,
)
from engine.keys import transforms as sym
from engine.keys._board import board_key
from engine.keys._grid import OK, grid_key


# -- grids to test on ----------------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def board(b: int, seed: int) -> np.ndarray:
    """4x4 and 9x9 boards from the plain backtracker (naive.random_board); 16x16 and 25x25 from the engine's WFC
    generator (plain Python is too slow there). Cached: hypothesis draws the same few seeds again and again."""
    if b <= 3:
        out = np.array(random_board(b, random.Random(seed)), dtype=np.int8)
    else:
        from engine.generators import generate

        out = np.array(generate(b, "wfc", seed=seed).cells, dtype=np.int8)
    out.flags.writeable = False
    return out


def puzzle(b: int, seed: int, density: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.where(rng.random(b ** 4) < density, board(b, seed % 7), 0).astype(np.int8)


BOXES = (2, 3, 4, 5)
grids_strategy = st.tuples(st.sampled_from(BOXES), st.integers(0, 10**6), st.sampled_from([1.0, 0.9, 0.6, 0.35, 0.1]))


def make_grid(spec) -> tuple[np.ndarray, int]:
    b, seed, density = spec
    return (board(b, seed % 7) if density == 1.0 else puzzle(b, seed, density)), b


# -- 4x4: exhaustive -----------------------------------------------------------------------------------------------
BOARDS_4X4 = all_4x4_boards()


def test_there_are_288_boards_of_4x4():
    assert len(BOARDS_4X4) == len(set(BOARDS_4X4)) == 288


@pytest.mark.parametrize("equivalence", EQUIVALENCES)
def test_4x4_keys_match_bfs_orbits(equivalence):
    generators = [(t.perm.tolist(), t.relabel.tolist()) for t in sym.generators(2, equivalence)]
    classes = orbits(BOARDS_4X4, generators)
    keys = canonical_keys(np.array(BOARDS_4X4), 2, equivalence)
    key_of = {bd: tuple(k) for bd, k in zip(BOARDS_4X4, keys.tolist())}
    assert len({key_of[bd] for bd in BOARDS_4X4}) == len(classes)
    for cls in classes:
        assert {key_of[bd] for bd in cls} == {min(cls)}  # one key per class: its smallest member
    assert len(classes) == {"none": 288, "full": 2}.get(equivalence, len(classes))


def test_4x4_puzzles_match_the_brute_force_minimum():
    rng = random.Random(4)
    for _ in range(150):
        bd = rng.choice(BOARDS_4X4)
        density = rng.random()
        cells = np.array([d if rng.random() < density else 0 for d in bd], dtype=np.int8)
        assert tuple(canonical_key(cells, 2, "full")) == full_twin_4x4(cells), cells
        assert tuple(canonical_key(cells, 2, "d4")) == d4_twin(cells, 2), cells


# -- every size --------------------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(grids_strategy)
def test_d4_key_is_the_smallest_of_the_eight_images(spec):
    cells, b = make_grid(spec)
    assert tuple(canonical_key(cells, b, "d4")) == d4_twin(cells, b)
    assert np.array_equal(canonical_key(cells, b, "none"), cells)


@settings(max_examples=60, deadline=None)
@given(grids_strategy, st.sampled_from(["d4", "full"]), st.integers(0, 2**32 - 1))
def test_key_does_not_change_under_the_group(spec, equivalence, seed):
    cells, b = make_grid(spec)
    t = sym.random_transform(np.random.default_rng(seed), b, equivalence)
    key = canonical_key(cells, b, equivalence)
    assert np.array_equal(canonical_key(t.apply(cells), b, equivalence), key)
    assert np.array_equal(canonical_transform(cells, b, equivalence).apply(cells), key)  # the key is in the class
    assert np.array_equal(canonical_key(key, b, equivalence), key)  # the key of a key is itself
    if equivalence == "full":
        assert first_appearance(key) == tuple(key)  # digits named in order of first appearance, blanks kept
        assert (key == 0).sum() == (cells == 0).sum()
        if b > 2:  # d4 images are full images too, so full keys are never larger
            assert tuple(key) <= tuple(canonical_key(cells, b, "d4"))


@pytest.mark.parametrize("b,seeds", [(3, range(12)), (4, range(3))])
def test_board_and_puzzle_kernels_agree_on_boards(b, seeds):
    for seed in seeds:
        cells = board(b, seed)
        k1, p1 = np.zeros_like(cells), np.zeros(cells.size, dtype=np.int32)
        k2, p2 = np.zeros_like(cells), np.zeros(cells.size, dtype=np.int32)
        board_key(cells, b, k1, p1)
        assert grid_key(cells, b, k2, p2, 1 << 17) == OK
        assert np.array_equal(k1, k2), seed
        assert k1[:b * b].tolist() == list(range(1, b * b + 1))  # row 0 of a board's full key is 1..n


def test_different_classes_get_different_keys():
    boards9 = [board(3, s) for s in range(7)]
    keys = key_texts(np.stack(boards9), 3, "full")
    # two keys are equal exactly when one board's witness maps onto the other's
    for (a, ka), (c, kc) in itertools.combinations(zip(boards9, keys), 2):
        witness = canonical_transform(a, 3, "full").then(canonical_transform(c, 3, "full").inverse())
        assert (ka == kc) == np.array_equal(witness.apply(a), c)
    # grids with different clue counts are never the same, under any equivalence
    p = puzzle(3, 1, 0.4)
    q = p.copy()
    q[np.flatnonzero(q == 0)[0]] = board(3, 1)[np.flatnonzero(q == 0)[0]]
    for equivalence in EQUIVALENCES:
        assert not same_class(p, q, 3, equivalence)


def test_rotation_is_the_same_under_d4_and_full_but_not_none():
    cells = board(3, 2)
    turned = sym.d4_group(3)[1].apply(cells)
    assert same_class(cells, turned, 3, "d4") and same_class(cells, turned, 3, "full")
    assert not same_class(cells, turned, 3, "none")
    relabelled = sym.relabel(3, [9, 8, 7, 6, 5, 4, 3, 2, 1]).apply(cells)
    assert same_class(cells, relabelled, 3, "full") and not same_class(cells, relabelled, 3, "d4")


def test_blanks_are_smallest():
    cells = np.zeros(81, dtype=np.int8)
    cells[0] = 5  # a clue in a corner: the smallest image puts it in the last cell
    assert key_text(cells, 3, "d4") == "." * 80 + "5"
    assert key_text(cells, 3, "full") == "." * 80 + "1"
    assert key_text(np.zeros(625, dtype=np.int8), 5, "full") == "." * 625


def test_key_text_order_is_the_array_order():
    grids = np.stack([board(3, s) for s in range(5)] + [puzzle(3, s, 0.5) for s in range(5)])
    keys = canonical_keys(grids, 3, "d4")
    texts = key_texts(grids, 3, "d4")
    assert texts == [to_line(k) for k in keys] == [key_text(g, 3) for g in grids]
    assert sorted(range(10), key=lambda k: texts[k]) == sorted(range(10), key=lambda k: tuple(keys[k]))
    big = board(5, 1)
    assert key_text(big, 5, "full") == to_line(canonical_key(big, 5, "full")) == key_texts(big[None], 5, "full")[0]


@pytest.mark.parametrize("equivalence", EQUIVALENCES)
def test_batch_equals_one_by_one_and_threads_agree(equivalence):
    grids = np.stack([board(3, s) for s in range(6)] + [puzzle(3, s, 0.3) for s in range(6)])
    one_by_one = np.stack([canonical_key(g, 3, equivalence) for g in grids])
    assert np.array_equal(canonical_keys(grids, 3, equivalence), one_by_one)
    results = [None] * 4

    def work(k):
        results[k] = canonical_keys(np.tile(grids, (20, 1)), 3, equivalence)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        assert np.array_equal(r, np.tile(one_by_one, (20, 1)))


def test_grid_objects_and_box_inference():
    cells = board(3, 3)
    assert np.array_equal(canonical_key(Grid(cells)), canonical_key(cells, 3))
    assert key_text(cells) == key_text(cells.reshape(9, 9), 3, "d4")
    assert canonical_keys(np.zeros((0, 81), dtype=np.int8), 3, "full").shape == (0, 81)


def test_bad_input_is_refused_clearly():
    with pytest.raises(ValueError, match="unknown equivalence"):
        canonical_key(board(3, 0), 3, "rotations")
    with pytest.raises(ValueError, match="81 cells"):
        canonical_keys(np.zeros((2, 80), dtype=np.int8), 3)
    with pytest.raises(ValueError, match="0..9"):
        canonical_key(np.full(81, 10), 3)
    clash = board(3, 0).copy()
    clash[1] = clash[0]
    assert len(canonical_key(clash, 3, "d4")) == 81  # d4 and none need no validity
    with pytest.raises(KeySearchError, match="conflict"):
        canonical_key(clash, 3, "full")


def test_a_search_that_outgrows_its_budget_is_refused(monkeypatch):
    import engine.keys.canonical as canonical

    cells = np.zeros(81, dtype=np.int8)
    cells[::10] = np.arange(1, 10)  # the main diagonal: a huge symmetry group, so many tied states
    monkeypatch.setattr(canonical, "MAX_STATES", 8)
    with pytest.raises(KeySearchError, match="too symmetric"):
        canonical_key(cells, 3, "full")
    monkeypatch.undo()
    assert key_text(cells, 3, "full") == key_text(sym.swap_bands(3, 0, 1).apply(cells), 3, "full")
