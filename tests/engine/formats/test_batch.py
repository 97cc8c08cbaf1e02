"""The batch writers against their plain twins: every grid, every size, byte for byte."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from engine.formats import to_line, to_txt
from engine.formats.batch import lines, txt_files


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([2, 3, 4, 5]), st.integers(1, 6), st.integers(0, 2 ** 32 - 1), st.booleans())
def test_batch_writers_equal_the_plain_ones(box, m, seed, blanks):
    n = box * box
    rng = np.random.default_rng(seed)
    grids = rng.integers(0 if blanks else 1, n + 1, size=(m, n * n)).astype(np.int8)
    assert lines(grids) == tuple(to_line(g) for g in grids)
    assert txt_files(grids, box) == [(to_txt(g, box) + "\n").encode("ascii") for g in grids]


def test_an_empty_batch_is_empty():
    empty = np.zeros((0, 81), dtype=np.int8)
    assert lines(empty) == () and txt_files(empty, 3) == []
