"""engine/bits.py: the compiled bit helpers agree with plain Python on every mask they meet (25 bits at most)."""
from __future__ import annotations

import numba
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import bits
from engine.bits import digits_of, house_once_more, lowest_digit

masks = st.integers(1, (1 << 25) - 1)


# popcount and lowbit_index are LLVM intrinsics: callable from compiled code only (plain Python twins take their
# place under NUMBA_DISABLE_JIT=1, see test_fast_solver), so these wrappers call them the way kernels do.
@numba.njit
def popcount(x):
    return bits.popcount(x)


@numba.njit
def lowbit_index(x):
    return bits.lowbit_index(x)


@numba.njit
def digit_of(x):
    return bits.digit_of(x)


@numba.njit
def kth_bit(x, k):
    return bits.kth_bit(x, k)


@settings(deadline=None)  # the first example compiles the wrappers
@given(masks)
def test_counts_and_lowest_digit(mask):
    digits = [d for d in range(1, 26) if mask >> (d - 1) & 1]
    assert popcount(np.int64(mask)) == len(digits) == len(digits_of(mask))
    assert digits_of(mask) == digits
    assert lowbit_index(np.int64(mask)) + 1 == digit_of(np.int64(mask)) == lowest_digit(mask) == digits[0]


@settings(deadline=None)  # the first example compiles the wrappers
@given(masks, st.data())
def test_kth_bit_counts_from_the_lowest_digit(mask, data):
    digits = digits_of(mask)
    k = data.draw(st.integers(0, len(digits) - 1))
    assert kth_bit(np.int64(mask), k) + 1 == digits[k]


def test_empty_mask_has_no_lowest_digit():
    assert popcount(np.int64(0)) == 0 and digits_of(0) == [] and lowest_digit(0) == 0


@settings(deadline=None)  # the first example compiles the wrappers
@given(st.lists(st.integers(0, 15), min_size=4, max_size=4))
def test_house_scan_finds_digits_with_one_place(cell_masks):
    masks = np.array(cell_masks, dtype=np.int64)
    houses = np.arange(4, dtype=np.int64).reshape(1, 4)
    once, more = house_once_more(masks, houses, 0, 4)
    for d in range(1, 5):
        places = sum(1 for m in cell_masks if m >> (d - 1) & 1)
        assert bool(once >> (d - 1) & 1) == (places >= 1)
        assert bool(more >> (d - 1) & 1) == (places >= 2)
