"""The random numbers every generator kernel shares (the bit tricks live in engine/bits.py).

Why our own generator instead of numba's ``np.random``: the state here is a one-element ``uint64`` array that
lives in the kernel call, so two threads can never touch each other's stream (numba's state is per thread, which
works too, but hides the state); and the stream is simple enough that the plain-Python twins in the tests replay
it exactly, so a compiled board and its twin's board can be compared cell for cell, not just for validity.

The generator is SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
one 64-bit add and a mixing function per number; it passes BigCrush, which is far more than choosing among at
most 25 digits needs. :func:`rand_below` draws an unbiased integer in ``[0, k)`` with Lemire's multiply-and-
reject method on the top 32 bits of a draw ("Fast random integer generation in an interval", 2019).

Rules both the kernels and the twins follow (so they consume the stream identically):

* a board's stream starts from ``seed_state(seed)`` with its 32-bit kernel seed (see ``_common.kernel_seed``);
* ``rand_below(1)`` returns 0 WITHOUT drawing: a choice among one option is no choice;
* the r-th candidate of a mask is counted from the lowest digit up (:func:`engine.bits.kth_bit`).
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
LOW32 = np.uint64(0xFFFFFFFF)
S30, S27, S31, S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
TWO32 = np.uint64(1 << 32)
SEED_SALT = np.uint64(0x5EED_C0FF_EE15_600D)  # any odd-looking constant: keeps seed 0 from starting at state 0


@kernel
def mix64(z):
    """SplitMix64's output function: a bijection of 64-bit words that spreads every input bit."""
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return z ^ (z >> S31)


@kernel
def seed_state(state, seed):
    """Start the stream of one board from its seed (0 .. 2**63 - 1).

    The seed is mixed, not used as the state: SplitMix64 steps its state by GOLDEN, so seeding with ``seed *
    GOLDEN`` would make seed s + 1's stream seed s's stream shifted by one draw. Mixing (a bijection) scatters
    the starting points over the 2**64 cycle, so different seeds give unrelated streams.
    """
    state[0] = mix64(np.uint64(seed) ^ SEED_SALT)


@kernel
def next_u64(state):
    """The next 64-bit number of the stream (SplitMix64)."""
    z = state[0] + GOLDEN
    state[0] = z
    return mix64(z)


@kernel
def rand_below(state, k):
    """An unbiased integer in ``[0, k)`` for ``1 <= k <= 2**32``; ``k == 1`` draws nothing."""
    if k <= 1:
        return 0
    kk = np.uint64(k)
    m = (next_u64(state) >> S32) * kk
    low = m & LOW32
    if low < kk:
        threshold = (TWO32 - kk) % kk  # 2**32 mod k: the draws that would make some results likelier
        while low < threshold:
            m = (next_u64(state) >> S32) * kk
            low = m & LOW32
    return np.int64(m >> S32)
