"""Bit tricks on candidate masks, as single machine instructions inside kernels.

A candidate mask has bit ``d - 1`` set when digit ``d`` is still possible (25 bits at most, 25x25 grids). Numba
has no popcount or count-trailing-zeros of its own, and the loop ``while x: x &= x - 1`` costs one iteration per
bit, so these intrinsics emit LLVM's ``ctpop``/``cttz`` (one instruction each with the host's POPCNT/TZCNT).
With ``NUMBA_DISABLE_JIT=1`` the kernels run as plain Python, where intrinsics cannot be called, so plain-Python
versions with the same results take their place.
"""
from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from .._jit import JIT_DISABLED


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
        """Number of set bits of ``x`` (digits left in a candidate mask)."""
        return bin(int(x)).count("1")

    def lowbit_index(x):
        """Index of the lowest set bit of ``x`` > 0 (digit - 1 of the smallest candidate)."""
        x = int(x)
        return (x & -x).bit_length() - 1

else:
    popcount = _ctpop
    lowbit_index = _cttz
