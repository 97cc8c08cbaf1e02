"""The places table the grader fills once a step (engine.grade.kernels.state._places_table) is what scanning each
house for each digit gives (:func:`_places`, its slow twin), on any candidates of any size."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.geometry import geometry
from engine.grade.kernels.state import _places, _places_table


@settings(max_examples=60, deadline=None)
@given(box=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1), density=st.floats(0.0, 1.0))
def test_places_table_is_every_house_scanned(box, seed, density):
    g = geometry(box)
    n = g.size
    rng = np.random.default_rng(seed)
    # each candidate present with probability ``density``: empty cells and full ones included
    cands = (rng.random((n * n, n)) < density).astype(np.int64) @ (np.int64(1) << np.arange(n, dtype=np.int64))
    table = np.full((g.houses.shape[0], n), -1, np.int64)  # stale values must be overwritten
    _places_table(cands, g.houses, n, table)
    for h in range(g.houses.shape[0]):
        for d in range(1, n + 1):
            assert table[h, d - 1] == _places(cands, g.houses, h, np.int64(1) << (d - 1), n)
