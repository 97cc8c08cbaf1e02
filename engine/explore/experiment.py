"""Seed 001's experiment: how does the number of random valid clues affect solvability and search effort?

For each clue count, ``trials`` random grids are built with seed 001's constructor (:func:`random_grid`) and each
is solved with a node limit: it has a solution, has none, or the solver gave up (a timeout). Per clue count and
solver the result reports those three tallies and the median nodes and time.

Determinism: grid number ``t`` of clue count ``k`` comes from ``numpy.random.default_rng([seed, box, k, t])``,
so the same seed gives the same grids whatever the other options, and every solver sees the same grids (which
makes solvers comparable, seed 001's first extension). Node counts are then exact; only times vary.
"""
from __future__ import annotations

import statistics
from dataclasses import asdict, dataclass
from typing import Callable, Optional, Sequence

import numpy as np

from ..geometry import geometry
from .plot import DASHES, PALETTE, Panel, Series, line_chart
from ..solvers import get_solver

DEFAULT_CLUES = (10, 20, 30, 40)
DEFAULT_NODE_LIMIT = 20_000


def random_grid(box: int, clues: int, rng: np.random.Generator) -> np.ndarray:
    """Seed 001's random board: ``clues`` random cells, each given a random digit valid at that moment.

    Cells are visited in a random order; a cell with no valid digit left is passed over and the next random cell
    is tried instead ("choose another cell"). Valid means no peer holds the digit yet, so the clues never
    conflict, but nothing looks ahead: many such grids have no solution, which is what the experiment measures.
    If every remaining cell is blocked before ``clues`` are placed (possible only for high counts), the grid
    keeps the clues it has; :func:`explore` reports the mean number actually placed.
    """
    geo = geometry(box)
    n = geo.size
    if not 0 <= clues <= geo.ncells:
        raise ValueError(f"a {n}x{n} grid takes 0..{geo.ncells} clues, got {clues}")
    cells = np.zeros(geo.ncells, dtype=np.int8)
    used = np.zeros((3 * n, n + 1), dtype=bool)  # used[house, digit]: a clue of that house holds that digit
    placed = 0
    for cell in rng.permutation(geo.ncells):
        if placed == clues:
            break
        houses = geo.cell_houses[cell]
        free = np.flatnonzero(~used[houses].any(axis=0)[1:]) + 1
        if free.size == 0:
            continue
        digit = int(rng.choice(free))
        cells[cell] = digit
        used[houses, digit] = True
        placed += 1
    return cells


@dataclass(frozen=True)
class Trial:
    """One grid solved by one solver."""

    solver: str
    clues: int  # asked for
    trial: int
    placed: int  # clues actually placed (see random_grid)
    outcome: str  # "solved", "none" or "timeout"
    nodes: int
    seconds: float


@dataclass(frozen=True)
class Row:
    """The tally of one solver on the grids of one clue count."""

    solver: str
    clues: int
    trials: int
    solved: int  # has a solution (found)
    none: int  # proved to have no solution within the node limit
    timeout: int  # gave up at the node limit: unknown
    median_nodes: float  # over all trials (a timeout counts the nodes it spent, i.e. the limit)
    median_ms: float  # wall time of the solve call, milliseconds
    mean_placed: float

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class Exploration:
    box: int
    seed: int
    node_limit: int
    trials: int
    rows: list[Row]
    runs: list[Trial]

    def as_dict(self) -> dict:
        return {"size": self.box * self.box, "seed": self.seed, "node_limit": self.node_limit,
                "trials": self.trials, "rows": [r.as_dict() for r in self.rows]}


def explore(clue_counts: Sequence[int] = DEFAULT_CLUES, trials: int = 100, solvers: Sequence[str] = ("stack",),
            node_limit: int = DEFAULT_NODE_LIMIT, box: int = 3, seed: int = 0,
            progress: Optional[Callable[[int, int], None]] = None) -> Exploration:
    """Run the experiment; ``progress(done, total)`` is called after each solve when given."""
    geo = geometry(box)
    if trials < 1:
        raise ValueError("trials must be at least 1")
    if node_limit < 1:
        raise ValueError("the experiment needs a node limit of at least 1 (some grids take ages)")
    if seed < 0:
        raise ValueError("seed must be 0 or more")
    bad = [k for k in clue_counts if not 0 <= k <= geo.ncells]
    if bad:
        raise ValueError(f"a {geo.size}x{geo.size} grid takes 0..{geo.ncells} clues, got {bad[0]}")
    solve_fns = {name: get_solver(name) for name in solvers}  # ValueError on an unknown name
    total, done = len(clue_counts) * trials * len(solvers), 0
    runs: list[Trial] = []
    for clues in clue_counts:
        for t in range(trials):
            grid = random_grid(box, clues, np.random.default_rng([seed, box, clues, t]))
            placed = int(np.count_nonzero(grid))
            for name, solve in solve_fns.items():
                r = solve(grid, box, 1, node_limit)
                outcome = "timeout" if r.gave_up else ("solved" if r.count else "none")
                runs.append(Trial(name, clues, t, placed, outcome, r.metrics.nodes, r.metrics.seconds))
                done += 1
                if progress is not None:
                    progress(done, total)
    rows = [_tally(name, clues, [r for r in runs if r.solver == name and r.clues == clues])
            for name in solve_fns for clues in clue_counts]
    return Exploration(box, seed, node_limit, trials, rows, runs)


def _tally(solver: str, clues: int, runs: list[Trial]) -> Row:
    return Row(solver=solver, clues=clues, trials=len(runs),
               solved=sum(r.outcome == "solved" for r in runs),
               none=sum(r.outcome == "none" for r in runs),
               timeout=sum(r.outcome == "timeout" for r in runs),
               median_nodes=float(statistics.median(r.nodes for r in runs)),
               median_ms=float(statistics.median(r.seconds for r in runs)) * 1000.0,
               mean_placed=statistics.fmean(r.placed for r in runs))


def plot_svg(result: Exploration) -> str:
    """Two panels over the clue counts: the fraction solved / no solution / timed out, and the median nodes."""
    clue_counts = sorted({r.clues for r in result.rows})
    solvers = list(dict.fromkeys(r.solver for r in result.rows))
    outcomes = (("solved", "has a solution", PALETTE[2]), ("none", "no solution", PALETTE[1]),
                ("timeout", "timed out", PALETTE[0]))
    fractions, effort = [], []
    for k, name in enumerate(solvers):
        rows = {r.clues: r for r in result.rows if r.solver == name}
        dash = DASHES[k % len(DASHES)]
        suffix = f" ({name})" if len(solvers) > 1 else ""
        for field_name, label, color in outcomes:
            ys = [getattr(rows[c], field_name) / rows[c].trials for c in clue_counts]
            fractions.append(Series(label + suffix, clue_counts, ys, color, dash))
        effort.append(Series(name, clue_counts, [rows[c].median_nodes for c in clue_counts],
                             PALETTE[3 + k % (len(PALETTE) - 3)], dash))
    n = result.box * result.box
    title = (f"{n}x{n}: {result.trials} random grids per clue count, node limit {result.node_limit}, "
             f"seed {result.seed}")
    return line_chart([Panel("Outcome", "fraction of grids", fractions, y_range=(0.0, 1.0)),
                       Panel("Search effort", "median nodes (log scale)", effort, log_y=True)],
                      x_label="clues (random valid givens)", x_ticks=clue_counts, title=title)
