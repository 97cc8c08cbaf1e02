"""The compiled search for every shape: candidate masks over the shape's units, whatever they are.

The 9x9 band kernel and the square-box cell-mask kernel lean on boxes being b x b (bands, stacks, their
intersections). This one knows only the tables of :func:`engine.geometry.geometry`: units of n cells, each cell's
peers (``npeers_of`` says how many are real: the tables are padded). It is what rectangular boxes, Latin squares,
diagonals and jigsaw regions are solved with, and the tests hold it to the plain twin in tests/naive/shapes.py.

State: ``work[c]`` is the candidate mask of cell ``c`` (bit d - 1 for digit d). Propagation: naked singles (a
solved cell's digit leaves its peers; a FIFO queue so each solved cell is propagated once), hidden singles (a
digit with one place left in a unit, found with the once/twice trick; a unit missing a digit altogether is a
dead end) and, when both run dry, locked candidates between any two units that meet (:func:`_locked`): without
them a sparse jigsaw 12x12 puzzle's uniqueness test took seconds of search. When nothing more is forced the search branches on the unsolved cell with the fewest candidates,
saving the whole state (a row of ``stack``), so taking a guess back is one copy. No recursion, no allocation in
the loop, ``nogil``: threads run it in parallel.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..bits import digit_of, popcount
from ._stats import BACKTRACKS, CHECKS, GAVE_UP, GUESSES, MAX_DEPTH, NODES

_I = np.int64
#: nodes a search takes before locked candidates join the propagation (see count_units): their pass over every
#: unit and digit costs more than it saves on the searches of a carving, which are short, and bounds the rare long
#: one. From 200 to 3,000, carving X-Sudoku 9x9 and 12x12 (3x4) took about half the time and jigsaw 9x9 to 12x12
#: the same (docs/benchmarks.md, "Shapes")
LOCKED_AFTER = 3000


@kernel
def _propagate(work, queue, qtail, peers, npeers_of, houses, cell_houses, nunits, member, n, locked, stats):
    """Naked and hidden singles until neither finds anything; ``queue[:qtail]`` are solved cells not yet
    propagated. Returns ``(ok, number of cells solved)``; ok is False at a contradiction."""
    full = (_I(1) << n) - 1
    qhead = 0
    while True:
        while qhead < qtail:
            c = queue[qhead]
            qhead += 1
            bit = _I(work[c])
            stats[CHECKS] += npeers_of[c]
            for k in range(npeers_of[c]):
                p = peers[c, k]
                m = _I(work[p])
                if m & bit:
                    m ^= bit
                    if m == 0:
                        return False, 0
                    work[p] = m
                    if m & (m - 1) == 0:
                        queue[qtail] = p
                        qtail += 1
                        stats[NODES] += 1
        found = False
        for h in range(houses.shape[0]):
            once = _I(0)
            twice = _I(0)
            solved = _I(0)
            for j in range(n):
                m = _I(work[houses[h, j]])
                twice |= once & m
                once |= m
                if m & (m - 1) == 0:
                    solved |= m
            stats[CHECKS] += n
            if once != full:
                return False, 0  # a digit with no place left in this unit
            singles = once & ~twice & ~solved
            while singles != 0:
                bit = singles & -singles
                singles ^= bit
                for j in range(n):
                    c = houses[h, j]
                    if _I(work[c]) & bit:
                        work[c] = bit
                        queue[qtail] = c
                        qtail += 1
                        stats[NODES] += 1
                        found = True
                        break
        if not found and locked:
            ok, tail = _locked(work, queue, qtail, houses, cell_houses, nunits, member, n, stats)
            if not ok:
                return False, 0
            if tail < 0:
                break
            qtail = tail
            found = True
        if not found:
            break
    nsolved = 0
    for c in range(work.shape[0]):
        m = _I(work[c])
        if m & (m - 1) == 0:
            nsolved += 1
    return True, nsolved


@kernel
def _locked(work, queue, qtail, houses, cell_houses, nunits, member, n, stats):
    """Locked candidates between any two units: when a digit's places in unit h all lie in another unit v too,
    the digit leaves v's other cells (box-line on boxes; on jigsaw regions and diagonals, whatever meets).

    Returns ``(ok, qtail)``: qtail -1 when nothing was removed; cells left with one candidate are queued."""
    removed = False
    for h in range(houses.shape[0]):
        for d in range(n):
            bit = _I(1) << d
            first = -1
            count = 0
            for j in range(n):
                c = houses[h, j]
                m = _I(work[c])
                if m & bit:
                    if m == bit:
                        count = 0  # placed here already: nothing is locked
                        break
                    if first < 0:
                        first = c
                    count += 1
            if count < 2:
                continue
            stats[CHECKS] += n
            for k in range(nunits[first]):
                v = cell_houses[first, k]
                if v == h:
                    continue
                inside = True  # every place of d in h is in v too
                for j in range(n):
                    c = houses[h, j]
                    if _I(work[c]) & bit and member[v, c] == 0:
                        inside = False
                        break
                if not inside:
                    continue
                for j in range(n):
                    c = houses[v, j]
                    if member[h, c] == 0:
                        m = _I(work[c])
                        if m & bit:
                            m ^= bit
                            if m == 0:
                                return False, qtail
                            work[c] = m
                            removed = True
                            if m & (m - 1) == 0:
                                queue[qtail] = c
                                qtail += 1
                                stats[NODES] += 1
    return True, (qtail if removed else -1)


@kernel
def count_units(cells, n, peers, npeers_of, houses, cell_houses, nunits, member, limit, node_limit, locked_after,
                work, queue, stack, branch, solution, stats):
    """Count the solutions of ``cells`` up to ``limit`` (giving up after ``node_limit`` nodes, 0 = never); the
    first one goes to ``solution``. Locked candidates join once the search has taken ``locked_after`` nodes
    (:data:`LOCKED_AFTER`; 0: from the start). ``stack`` has ncells + 1 rows of ncells, ``branch`` 2 x (ncells +
    1)."""
    ncells = cells.shape[0]
    full = (_I(1) << n) - 1
    qtail = 0
    for c in range(ncells):
        if cells[c] != 0:
            work[c] = _I(1) << (cells[c] - 1)
            queue[qtail] = c
            qtail += 1
        else:
            work[c] = full
    # two clues of one unit sharing a digit: the first one's propagation empties the second (a contradiction)
    ok, nsolved = _propagate(work, queue, qtail, peers, npeers_of, houses, cell_houses, nunits, member, n, False,
                             stats)
    return search_units(work, ok, nsolved, n, peers, npeers_of, houses, cell_houses, nunits, member, limit,
                        node_limit, locked_after, cells[:0], queue, stack, branch, solution, stats)


@kernel
def search_units(work, ok, nsolved, n, peers, npeers_of, houses, cell_houses, nunits, member, limit, node_limit,
                 locked_after, prefer, queue, stack, branch, solution, stats):
    """The search of :func:`count_units` from a propagated state: ``work`` the candidate masks, ``ok`` and
    ``nsolved`` what its propagation returned. Counts up to ``limit``; the first solution goes to ``solution``.

    ``prefer``: empty, or a board whose digit each branch tries first when the cell still has it (else the lowest
    digit first). The carver's removal tests pass the board: a second solution usually differs from it in a few
    cells only, so trying its digits first finds one sooner (as the square carver does, engine/carve/_removal.py).
    """
    ncells = work.shape[0]
    count = 0
    depth = 0
    start = stats[NODES]
    while True:
        if ok and nsolved == ncells:
            count += 1
            if count == 1:
                for c in range(ncells):
                    solution[c] = digit_of(_I(work[c]))
            if count >= limit:
                break
            ok = False  # look for the next one: take the last guess back
        if node_limit > 0 and stats[NODES] >= node_limit:
            stats[GAVE_UP] = 1
            break
        if ok:
            best = -1
            fewest = n + 1
            for c in range(ncells):
                k = popcount(_I(work[c]))
                if 1 < k < fewest:
                    fewest = k
                    best = c
                    if k == 2:
                        break
            m = _I(work[best])
            bit = m & -m
            if prefer.shape[0]:
                want = _I(1) << (prefer[best] - 1)
                if m & want:
                    bit = want
            for c in range(ncells):
                stack[depth, c] = work[c]
            branch[0, depth] = best
            branch[1, depth] = m ^ bit
            depth += 1
            if depth > stats[MAX_DEPTH]:
                stats[MAX_DEPTH] = depth
        else:
            if depth == 0:
                break
            d = depth - 1
            stats[BACKTRACKS] += 1
            best = branch[0, d]
            rest = branch[1, d]
            bit = rest & -rest
            branch[1, d] = rest ^ bit
            for c in range(ncells):
                work[c] = stack[d, c]
            if branch[1, d] == 0:
                depth -= 1  # the last alternative here: its saved state is no longer needed
        stats[GUESSES] += 1
        stats[NODES] += 1
        work[best] = bit
        queue[0] = best
        # locked candidates once a search has run long, when it looks for one solution or a second (a uniqueness
        # test): their pass over every unit and digit costs more than it saves on the many short searches, and on
        # a count of many solutions it ran at every leaf (the 6x6 count took seven times longer)
        locked = limit <= 2 and stats[NODES] - start >= locked_after
        ok, nsolved = _propagate(work, queue, 1, peers, npeers_of, houses, cell_houses, nunits, member, n, locked,
                                 stats)
    return count
