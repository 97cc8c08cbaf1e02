"""Trace events of the band kernel (see :func:`engine.solvers.fast.trace`): placements and take-backs, from the
unsolved masks before and after each step."""
from __future__ import annotations

from .._jit import kernel_with
from ..bits import lowbit_index
from ._band_state import _digit_at
from ._bitmask import _emit


@kernel_with(_nrt=False)
def _show(st, before0, before1, before2, first, trace, ntrace, shown):
    """Trace events for the cells solved since the unsolved masks were ``before*``: ``first`` (a guessed cell,
    or -1) first, then the others in cell order. False once the buffer is full."""
    if first >= 0 and shown[first] == 0:
        d = _digit_at(st, first)
        if d > 0:
            shown[first] = d
            if not _emit(trace, ntrace, first, d):
                return False
    for b in range(3):
        new = (before0 if b == 0 else (before1 if b == 1 else before2)) & ~st[27 + b]
        while new:
            pos = lowbit_index(new)
            new &= new - 1
            c = 27 * b + pos
            d = _digit_at(st, c)
            if d > 0 and shown[c] == 0:  # after a contradiction a solved cell may have lost its digit
                shown[c] = d
                if not _emit(trace, ntrace, c, d):
                    return False
    return True


@kernel_with(_nrt=False)
def _hide(saved, trace, ntrace, shown):
    """Take-back events for every shown cell that ``saved`` has unsolved."""
    for c in range(81):
        if shown[c] != 0 and (saved[27 + c // 27] >> (c % 27)) & 1:
            shown[c] = 0
            if not _emit(trace, ntrace, c, 0):
                return False
    return True
