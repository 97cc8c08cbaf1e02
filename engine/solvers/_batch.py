"""Kernels that loop over many puzzles in one call, so Python's per-call cost is paid once per batch."""
from __future__ import annotations

from .._jit import kernel
from ._bands import STATS, scratch9_kernel, solve9, solve9_batch
from ._bitmask import NSTATS
from ._bitmask import _solve_cells


@kernel
def _solve_batch(puzzles, n, cell_houses, peers, houses, limit, counts, solutions, stats_out, hmask, work, queue,
                 stack, branch, stats, trace, ntrace, shown):
    """Count the solutions of every row of ``puzzles`` up to ``limit``; the first solution of each goes to
    ``solutions[i]`` (left as is when there is none) and, when ``stats_out`` has rows, its metrics to
    ``stats_out[i]``."""
    keep_stats = stats_out.shape[0] > 0
    if n == 9:  # the band kernel (engine/solvers/_bands.py)
        solve9_batch(puzzles, limit, counts, solutions, stats_out, scratch9_kernel())
        return
    for i in range(puzzles.shape[0]):
        stats[:] = 0
        counts[i] = _solve_cells(puzzles[i], n, cell_houses, peers, houses, limit, 0, -1, 0, hmask, work, queue,
                                 stack, branch, solutions[i], stats, trace, ntrace, shown, False)
        if keep_stats:
            stats_out[i, :] = stats


@kernel
def _exists_without(cells, n, cell_houses, peers, houses, cell, digit, hmask, work, queue, stack, branch,
                    solution, stats, trace, ntrace, shown):
    """True when some solution of ``cells`` has a digit other than ``digit`` in ``cell`` (a blank cell).

    This is the carving test: removing clue ``digit`` at ``cell`` from a unique puzzle keeps it unique exactly
    when this is False. Looking for one solution is much cheaper than counting two, because most such searches
    end in a quick contradiction.
    """
    stats[:] = 0
    if n == 9:
        work = scratch9_kernel()
        found = solve9(cells, 1, 0, cell, digit, cells[:0], work, solution) > 0
        stats[:] = work[STATS, :NSTATS]
        return found
    return _solve_cells(cells, n, cell_houses, peers, houses, 1, 0, cell, 1 << (digit - 1), hmask, work, queue,
                        stack, branch, solution, stats, trace, ntrace, shown, False) > 0
