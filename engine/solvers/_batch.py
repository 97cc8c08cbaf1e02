"""Kernels that loop over many puzzles in one call, so Python's per-call cost is paid once per batch."""
from __future__ import annotations

from .._jit import kernel
from ._bitmask import _solve_cells

# 9x9 grids go to the band kernel's own entry points (engine/solvers/_bands.py: solve9_batch, solve9); the
# choice is made in Python (engine/solvers/fast.py), so a 9x9 run never compiles this cell-mask path, nor the
# other way round: numba compiles every branch of a kernel, taken or not, and compiling is the first run's cost.


@kernel
def _solve_batch(puzzles, n, cell_houses, peers, houses, limit, node_limit, counts, solutions, stats_out, hmask,
                 work, queue, stack, branch, stats, trace, ntrace, shown):
    """Count the solutions of every row of ``puzzles`` up to ``limit``, each search stopping after ``node_limit``
    nodes (0: no limit; a search cut there says so in its stats, GAVE_UP); the first solution of each goes to ``solutions[i]`` (left as
    is when there is none) and, when ``stats_out`` has rows, its metrics to ``stats_out[i]``."""
    keep_stats = stats_out.shape[0] > 0
    for i in range(puzzles.shape[0]):
        stats[:] = 0  # (so node_limit, compared with the running count, is this puzzle's own)
        counts[i] = _solve_cells(puzzles[i], n, cell_houses, peers, houses, limit, node_limit, -1, 0, hmask, work,
                                 queue, stack, branch, solutions[i], stats, trace, ntrace, shown, False)
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
    return _solve_cells(cells, n, cell_houses, peers, houses, 1, 0, cell, 1 << (digit - 1), hmask, work, queue,
                        stack, branch, solution, stats, trace, ntrace, shown, False) > 0
