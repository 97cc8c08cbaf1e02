"""Bit tricks on candidate masks: the one copy every kernel (solvers, generators, carver, grader) calls.

A candidate mask has bit ``d - 1`` set when digit ``d`` is still possible (25 bits at most, 25x25 grids). Numba
has no popcount or count-trailing-zeros of its own, and the loop ``while x: x &= x - 1`` costs one iteration per
bit, so :func:`popcount` and :func:`lowbit_index` emit LLVM's ``ctpop``/``cttz`` (one instruction each with the
host's POPCNT/TZCNT). The other helpers are small ``@kernel`` functions: numba compiles a kernel called from a
kernel into its caller's module and LLVM inlines it, so calling them costs nothing over writing them out.

With ``NUMBA_DISABLE_JIT=1`` the kernels run as plain Python, where intrinsics cannot be called, so plain-Python
versions with the same results take their place. The plain-Python helpers at the end (:func:`digits_of`,
:func:`lowest_digit`) serve the explaining (slow) paths, which work on Python ints.
"""
from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from ._jit import JIT_DISABLED, kernel, kernel_with


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def _cttz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        # the flag says "zero input is undefined": callers never pass 0, and it lets LLVM emit plain TZCNT/BSF
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return x(x), codegen


if JIT_DISABLED:

    def popcount(x):
        """Number of set bits of ``x`` >= 0 (digits left in a candidate mask)."""
        return bin(int(x)).count("1")

    def lowbit_index(x):
        """Index of the lowest set bit of ``x`` > 0 (digit - 1 of the smallest candidate)."""
        x = int(x)
        return (x & -x).bit_length() - 1

else:
    popcount = _ctpop
    lowbit_index = _cttz


@kernel_with(_nrt=False)
def digit_of(mask):
    """The smallest digit of a mask > 0; for a one-bit mask, its digit."""
    return lowbit_index(mask) + 1


@kernel
def kth_bit(mask, k):
    """The index of the k-th (0-based) set bit of ``mask``, counting from the lowest bit (``k < popcount(mask)``)."""
    for _ in range(k):
        mask &= mask - 1  # drop the lowest set bit k times
    return lowbit_index(mask)


@kernel
def house_once_more(masks, houses, h, n):
    """The hidden-single scan of house ``h``: ``(once, more)``, the digits that are candidates of at least one and
    of at least two of its cells (``masks[houses[h, i]]``). Digits in ``once & ~more`` have one place left.
    """
    once = masks[houses[h, 0]] & 0  # zero of the masks' own type: mixing uint and int64 would give float64
    more = once
    for i in range(n):
        m = masks[houses[h, i]]
        more |= once & m
        once |= m
    return once, more


def digits_of(mask: int) -> list[int]:
    """The digits whose bits are set in ``mask``, ascending (plain Python)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out


def lowest_digit(mask: int) -> int:
    """The smallest digit of a mask > 0 (plain Python); 0 for an empty mask."""
    return (mask & -mask).bit_length()
