"""The 9x9 kernel of the fast solver: one candidate mask per digit and band, with triad reasoning.

Why a second kernel: on 9x9 the cell-mask search (:mod:`engine.solvers._bitmask`) propagates only singles, and
on hard puzzles it guesses far more often than the best solvers (tdoku, on top1465: docs/benchmarks.md, Against
tdoku). Locked candidates in the cell layout cut the guesses but cost more than they save on ordinary puzzles.
Here the state is laid out so that the stronger reasoning is a few table lookups.

State (``st``, 30 int64): ``st[3 * (d - 1) + b]`` is the set of cells of band ``b`` (rows 3b..3b+2; bit
``9 * (row % 3) + col``) where digit ``d`` may still go: 27 bits. ``st[27 + b]`` holds the band's unsolved cells.
A solved cell keeps its digit's bit, so every digit mask always shows where the digit is or may be.

Propagation, for each digit whose masks changed:

* triads across (rows x boxes of a band): in one band a digit is once in each of its 3 rows and once in each of
  its 3 boxes, so the row-box segments ("triads") it occupies form a permutation of the 3x3 triad matrix. A
  table gives, for every 9-bit pattern of triads still possible, the triads that lie on some permutation inside
  it: the others are emptied. This is pointing and claiming (and a little more) in one lookup;
* triads down (columns x boxes of a stack): the same in the other direction, on which columns of each band the
  digit may use;
* hidden singles: a row, box or column of the digit left with one cell.

Then naked singles: cells left with one digit, from bit-sliced counts over the 9 digit masks of a band. When
nothing more follows the search branches on a digit with two ways left across a band (else on a cell with two
candidates, else the fewest), saving the 30 words of state per guess. The slow, obviously-correct twin is the
cell-mask kernel: the tests check both agree.

This module holds the search and its entry points; the state's layout, tables and primitives are in
:mod:`engine.solvers._band_state`, the triad reasoning in :mod:`engine.solvers._band_triads`, where to branch in
:mod:`engine.solvers._band_branch` and the trace events in :mod:`engine.solvers._band_trace`.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel, kernel_with
from ..bits import lowbit_index
from ._band_branch import _band_branch, _branch_cell
from ._band_state import NWORDS, _load, _nsolved, _place, _solved, _write_solution
from ._band_trace import _hide, _show
from ._band_triads import _digit_step, _triad_digits
from ._stats import BACKTRACKS, CHECKS, GAVE_UP, GUESSES, MAX_DEPTH, NODES, NSTATS

_I = np.int64
# rows of the scratch array (113, 33): 0..107 saved states with their branch records, then triad scratch, the
# state, the stats, and the load's two rows of scratch. At most 107 guesses are ever outstanding: 80 on cells
# (each solves a cell, and the last cell is always forced) and 27 on a digit's ways across a band (each leaves
# that digit one way there, so a word is branched on once in a line of guesses)
TRIADS_ROW, STATE, STATS, LOAD = 108, 109, 110, 111
TRIADS_AFTER = 8  # guesses in a search before the digit-level triad step runs (see _propagate)


@kernel_with(_nrt=False)
def _propagate(st, dirty, pats, tp, guesses):
    """Digit steps for every changed digit, then naked singles, until nothing changes.

    A round steps, in order, the digits changed before it began; a change a step makes to a digit the round has
    already stepped, or does not hold, waits for the next round (after the naked singles) instead of being
    stepped at once, so that digit's next step sees the whole round's changes together. Measured side by side on
    one host (AVX-512 Xeon): a tenth less time on random minimal puzzles, top1465 and carving than stepping a
    digit again as soon as it changed.

    Returns ``(ok, nodes, checks)``: False on a contradiction, and the metrics' increments. The caller keeps the
    metrics in locals and stores them once at the end: a store into ``stats`` inside a loop would make the compiler
    reload ``st`` after it (both are int64 arrays, so they may alias), which cost a fifth of the time here.
    ``guesses`` so far decides whether the digit-level triad step runs."""
    before = _nsolved(st)
    steps = 0
    rounds = 0
    ok = True
    while ok:
        rounds += 1
        todo = dirty  # this round's digits; the changes their steps make go to ``dirty``
        dirty = _I(0)
        while todo:
            d = lowbit_index(todo)
            todo &= todo - 1
            dirty &= ~(_I(1) << d)  # changed by an earlier step of the round: this step sees that change
            steps += 1
            ch = _digit_step(st, d)
            if ch < 0:
                ok = False
                break
            dirty |= ch
        if not ok:
            break
        for b in range(3):
            one = _I(0)
            two = _I(0)
            # the digit of a cell with one candidate, bit-sliced (digit d sets bit i of ``d`` in ``digit[i]``):
            # asking each digit in turn is a branch the predictor misses
            digit0 = digit1 = digit2 = digit3 = _I(0)
            for d in range(9):
                x = st[3 * d + b]
                two |= one & x
                one |= x
                digit0 |= x & -(d & 1)
                digit1 |= x & -((d >> 1) & 1)
                digit2 |= x & -((d >> 2) & 1)
                digit3 |= x & -(d >> 3)
            unsolved = st[27 + b]
            if unsolved & ~one:
                ok = False
                break
            singles = unsolved & ~two
            while singles:
                pos = lowbit_index(singles)
                singles &= singles - 1
                # a single an earlier placement here emptied is a contradiction: _place finds the stale digit gone
                d = (((digit0 >> pos) & 1) | (((digit1 >> pos) & 1) << 1) | (((digit2 >> pos) & 1) << 2)
                     | (((digit3 >> pos) & 1) << 3))
                ch = _place(st, d, b, pos)
                if ch < 0:
                    ok = False
                    break
                dirty |= ch
            if not ok:
                break
        if dirty == 0:
            # The digit-level triad step pays only on hard puzzles: measured, running it from the start slowed
            # random minimal puzzles and carving and saved nothing on top1465 against starting after 16 guesses
            if guesses < TRIADS_AFTER:
                break
            dirty = _triad_digits(st, pats, tp)
            if dirty < 0:
                ok = False
            elif dirty == 0:
                break
    return ok, _nsolved(st) - before, 12 * steps + 27 * rounds


@kernel_with(_nrt=False)
def _search9(st, limit, node_limit, prefer, stack, solution, stats, trace, ntrace, shown):
    """Count the solutions of the loaded state ``st`` up to ``limit`` (first one to ``solution``).

    ``stack`` rows 0..107 hold the saved state of each outstanding guess (columns 0..29) and its branch record:
    the cell (30), the digits left to try there (31, a mask) and the cells solved before the guess (32). A branch
    on a digit's two ways across a band (:mod:`engine.solvers._band_branch`) records ``-1 - k`` for the state's
    word ``k`` (30) and the other way's cells (31). Given a board to ``prefer`` (or no cells), the search
    branches on cells only and tries the board's digit first. ``node_limit`` > 0 stops the search once
    ``stats[NODES]`` reaches it (``stats[GAVE_UP]`` set). When ``trace`` has rows, placements and take-backs are
    recorded there (as :func:`engine.solvers.fast.trace` describes) and the search stops at the first solution or
    a full buffer.
    """
    tracing = trace.shape[0] > 0
    count = 0
    depth = 0
    pats = stack[TRIADS_ROW, :9]
    tp = stack[TRIADS_ROW, 9:18]
    # the metrics live in locals and go to ``stats`` once, at the end (see _propagate)
    nodes = stats[NODES]
    guesses = stats[GUESSES]
    backtracks = stats[BACKTRACKS]
    max_depth = stats[MAX_DEPTH]
    way = first_way = other_way = _I(0)
    u0, u1, u2 = st[27], st[28], st[29]
    ok, nodes_added, checks = _propagate(st, _I(511), pats, tp, guesses)
    nodes += nodes_added
    if tracing and not _show(st, u0, u1, u2, -1, trace, ntrace, shown):
        stats[NODES] = nodes
        stats[CHECKS] += checks
        return count
    while True:
        if ok and _solved(st):
            count += 1
            if count == 1:
                _write_solution(st, solution)
            if count >= limit or tracing:
                break
            ok = False
        if node_limit > 0 and nodes >= node_limit:
            stats[GAVE_UP] = 1
            break
        k = -1
        if ok:
            # a digit's two ways across a band, else a cell (the board's digit first when one is preferred)
            if prefer.shape[0] == 0:
                k, first_way, other_way = _band_branch(st)
            for w in range(NWORDS):  # a loop: a slice copy needs the runtime (see _carve_order)
                stack[depth, w] = st[w]
            stack[depth, 32] = _nsolved(st)
            if k >= 0:
                stack[depth, 30] = -1 - k
                stack[depth, 31] = other_way
                way = first_way
            else:
                b, pos = _branch_cell(st)
                bit = _I(1) << pos
                digits = _I(0)
                for d in range(9):
                    if st[3 * d + b] & bit:
                        digits |= _I(1) << d
                first = lowbit_index(digits)
                if prefer.shape[0] > 0 and digits & (_I(1) << (prefer[27 * b + pos] - 1)):
                    first = prefer[27 * b + pos] - 1
                stack[depth, 30] = 27 * b + pos
                stack[depth, 31] = digits & ~(_I(1) << first)
                d = first
            depth += 1
            if depth > max_depth:
                max_depth = depth
        else:
            if depth == 0:
                break
            top = depth - 1
            # every placement since this branch point is taken back: the guess and what it forced (the
            # definition of engine/solvers/base.py, shared by every solver); a way across a band placed nothing
            # itself
            taken = _nsolved(st) - stack[top, 32]
            if tracing and not _hide(stack[top], trace, ntrace, shown):
                break
            for w in range(NWORDS):
                st[w] = stack[top, w]
            cell = stack[top, 30]
            if cell < 0:
                backtracks += taken
                k = -1 - cell
                way = stack[top, 31]
                depth -= 1
            else:
                backtracks += max(1, taken)
                b = cell // 27
                pos = cell % 27
                rest = stack[top, 31]
                d = lowbit_index(rest)
                stack[top, 31] = rest & (rest - 1)
                if stack[top, 31] == 0:
                    depth -= 1
        guesses += 1
        u0, u1, u2 = st[27], st[28], st[29]
        if k >= 0:
            st[k] &= way
            ch = _I(1) << (k // 3)
            shown_cell = -1
        else:
            nodes += 1
            ch = _place(st, d, b, pos)
            shown_cell = 27 * b + pos
        ok = ch >= 0
        if ok:
            ok, nodes_added, checks_added = _propagate(st, ch, pats, tp, guesses)
            nodes += nodes_added
            checks += checks_added
        if tracing and not _show(st, u0, u1, u2, shown_cell, trace, ntrace, shown):
            break
    stats[NODES] = nodes
    stats[GUESSES] = guesses
    stats[BACKTRACKS] = backtracks
    stats[CHECKS] += checks
    stats[MAX_DEPTH] = max_depth
    return count


@kernel_with(_nrt=False)
def solve9(cells, limit, node_limit, forbid_cell, forbid_digit, prefer, work, solution):
    """Count the solutions of the 81-cell grid ``cells`` up to ``limit``, with ``forbid_digit`` ruled out at
    ``forbid_cell`` (-1: none); the first solution goes to ``solution``, the metrics to ``work[STATS]``.

    ``work`` is the one scratch array (:func:`scratch9`): one argument instead of four, since each argument of a
    compiled call adds to its dispatch, a real share of a single call (docs/benchmarks.md, "Single calls and the
    first run").
    """
    st = work[STATE]
    stats = work[STATS]
    stats[:NSTATS] = 0
    ok, _ = _load(cells, st, work[LOAD], work[LOAD + 1], forbid_cell, forbid_digit)
    if not ok:
        return 0
    return _search9(st, limit, node_limit, prefer, work, solution, stats, work[:0], stats[:0], cells[:0])


@kernel
def solve9_checked(cells, limit, node_limit, work, solution):
    """:func:`solve9` for a single call: -1 when a cell holds anything but 0..9 (so the caller need not check)."""
    for c in range(81):
        if cells[c] < 0 or cells[c] > 9:
            return -1
    return solve9(cells, limit, node_limit, np.int64(-1), np.int64(0), cells[:0], work, solution)


@kernel_with(_nrt=False)
def solve9_exists(cells, forbid_cell, forbid_digit, node_limit, prefer, work, solution):
    """Whether ``cells`` has a solution without ``forbid_digit`` at ``forbid_cell`` (the carving test).

    The constants go in as int64 values, not literals: numba compiles a separate copy of a callee for each
    literal argument it is given, and every entry point here calls solve9 with the same types so that it is
    compiled once (compiling is most of a first run's cost)."""
    return solve9(cells, np.int64(1), node_limit, forbid_cell, forbid_digit, prefer, work, solution) > 0


@kernel
def trace9(cells, work, solution, trace, ntrace, shown):
    """:func:`solve9` with the moves recorded in ``trace`` (rows ``(cell, digit)``, digit 0 = taken back; ``shown``
    (81,) zeros on entry); stops at the first solution or when the buffer is full."""
    st = work[STATE]
    stats = work[STATS]
    stats[:NSTATS] = 0
    ok, _ = _load(cells, st, work[LOAD], work[LOAD + 1], -1, 0)
    if not ok:
        return 0
    return _search9(st, 1, 0, cells[:0], work, solution, stats, trace, ntrace, shown)


def scratch9() -> np.ndarray:
    """The working array of :func:`solve9` for one thread (see :data:`STATE`)."""
    return np.zeros((LOAD + 2, NWORDS + 3), dtype=np.int64)


@kernel
def solve9_batch(puzzles, limit, counts, solutions, stats_out, work):
    """:func:`solve9` on every row of ``puzzles``; per-puzzle metrics to ``stats_out`` when it has rows."""
    keep_stats = stats_out.shape[0] > 0
    none = np.int64(-1)  # typed int64, not a literal: see solve9_exists
    zero = np.int64(0)
    for i in range(puzzles.shape[0]):
        counts[i] = solve9(puzzles[i], limit, zero, none, zero, puzzles[i, :0], work, solutions[i])
        if keep_stats:
            stats_out[i, :] = work[STATS, :NSTATS]


@kernel
def scratch9_kernel():
    """:func:`scratch9` inside compiled code (batches allocate it once)."""
    return np.zeros((LOAD + 2, NWORDS + 3), dtype=np.int64)
