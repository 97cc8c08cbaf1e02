"""The set of grids the compiled nested runs read (engine.grade.kernels.chains.grid_set), against a dict."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grade.kernels.chains.grid_set import FOUND_HERE, NOTHING_HERE, _mark_of, _note, grid_set

_GRIDS = st.lists(st.integers(0, 3), min_size=6, max_size=6).map(tuple)  # few values: many near-equal grids


@settings(max_examples=200, deadline=None)
@given(notes=st.lists(st.tuples(_GRIDS, st.sampled_from([NOTHING_HERE, FOUND_HERE])), max_size=80),
       capacity=st.sampled_from([16, 64, 1024]))
def test_its_marks_are_those_a_dict_keeps_and_it_starts_again_when_three_quarters_full(notes, capacity):
    """Each grid's mark is the last one noted, 0 for a grid never noted (grids that differ in one cell are apart:
    a hit is an equal grid, whatever the hashes); a note that would fill it past three quarters empties it first.
    Small sets make the probing wrap round."""
    marks, grids, count = grid_set(6, capacity)
    twin: dict[tuple, int] = {}
    for grid, mark in notes:
        if 4 * (count[0] + 1) > 3 * capacity:
            twin.clear()
        _note(marks, grids, count, np.array(grid, np.int64), mark)
        twin[grid] = mark
        assert count[0] == len(twin)
        for seen, _ in notes:
            assert _mark_of(marks, grids, np.array(seen, np.int64)) == twin.get(seen, 0)


def test_a_store_keeps_one_set_a_shape_of_about_16_mb():
    """The thread's store of searches inside makes one set for each shape, when first asked: 16,384 grids of 9x9,
    8,192 of 16x16 (about 10 and 16 MB)."""
    from engine.grade.finders.chains.searches_inside import fresh_store

    store = fresh_store()
    nine, sixteen = store.grid_set(b"9x9", 81), store.grid_set(b"16x16", 256)
    assert store.grid_set(b"9x9", 81) is nine
    assert nine[1].shape == (1 << 14, 81) and sixteen[1].shape == (1 << 13, 256) and nine[2].tolist() == [0]
