"""Boards from a randomized depth-first search on an empty grid (seeds 002 and 004).

Seed 002, step 1: "use the sudoku solver algorithm applied to an empty grid. Need to add a random element";
seed 004's solver: take the next empty cell in reading order, try the digits in order, keep the first valid one
and recurse, take it back on a dead end. Here the cells go in reading order, the digits of each cell in a random
order (seed 003's backtracker: "each square starts with 9 random numbers"), with an explicit stack in a compiled
kernel (:mod:`engine.generators._backtrack_kernel`).

Two additions, both needed only on the larger grids and both on by default only there (measured with
bench/bench_generate.py):

* ``node_limit``: after that many placements an attempt is abandoned and the search starts again from an empty
  grid (counted in ``GeneratedBoard.restarts``). Depth-first search in reading order has a heavy tail: on 16x16
  without a limit, a rare board took longer than all the others together; with restarts every 10,000 placements
  the same seeds' slowest board took about as long as a typical one (docs/benchmarks.md, Generating).
  Default 0 (no limit) on 4x4 and 9x9, 10,000 on 16x16, 200,000 on 25x25.
* ``lookahead``: a digit is refused when it leaves a later peer of its cell with no valid digit (forward
  checking). Without it not one 25x25 board came out in two minutes (node limit 2,000): the search wanders
  under a cell that died many rows above the cursor. With it a 25x25 board takes about a second. Default on
  for 25x25 only.

Every shape (:mod:`engine.shape`): the valid digits of a cell are those none of its units holds (rows, columns,
regions, diagonals: :mod:`engine.geometry`), so the same search fills 6x6 boxes, Latin squares, X-Sudoku and
jigsaw layouts, with the options' defaults by the grid's side. A jigsaw layout can have no board at all: an
attempt that tries every digit of the first cell has searched the whole tree and proves it, and raises
:class:`~engine.generators.GenerationError` rather than restarting forever.

What it reaches and its bias: every board (the search can choose any board's digits in order, none of them is
ever invalid), so all 6.67e21 9x9 boards. It is not uniform: a board's probability is the product of 1/(valid
digits) along its cells in reading order, corrected by dead ends, and boards whose early rows leave many
options later are favoured. Restarts do not change the set reached, only which boards the tail produces.
"""
from __future__ import annotations

import numpy as np

from ..geometry import check_shape, geometry
from ..inputs import check_seed
from ..shape import Shape
from . import GeneratedBoard, GenerationError
from ._backtrack_kernel import backtrack_boards
from ._common import make_boards, run_array, run_seeds, timed

METHOD = "backtrack"
#: it makes boards of every shape (engine.shape), not only square boxes
EVERY_SHAPE = True
#: per box size of square boxes: (node_limit, lookahead) used when not asked otherwise
DEFAULTS = {2: (0, False), 3: (0, False), 4: (10_000, False), 5: (200_000, True)}
#: the same for every other shape, per side up to: its units other than rows and columns (regions that are not
#: boxes, diagonals) leave the search in reading order dead ends far above the cursor, so from 7 cells a side it
#: looks ahead and restarts, as 25x25 boxes do (bench/bench_shapes.py: a 9x9 jigsaw ran for minutes without)
SHAPE_DEFAULTS = ((6, 0, False), (10, 2_000, True), (25, 20_000, True))


def default_options(box: "int | Shape") -> dict:
    box = check_shape(box)
    if isinstance(box, int):
        node_limit, lookahead = DEFAULTS[box]
    else:
        node_limit, lookahead = next((limit, ahead) for side, limit, ahead in SHAPE_DEFAULTS if box.size <= side)
    return {"node_limit": node_limit, "lookahead": lookahead}


def _options(box: "int | Shape", node_limit, lookahead) -> tuple[int, bool]:
    defaults = default_options(box)
    node_limit = defaults["node_limit"] if node_limit is None else node_limit
    if isinstance(node_limit, bool) or not isinstance(node_limit, (int, np.integer)) or node_limit < 0:
        raise ValueError(f"node_limit must be 0 (no limit) or a positive integer, got {node_limit!r}")
    if 0 < node_limit < geometry(box).ncells:  # an attempt places every cell at least once: it could never end
        raise ValueError(f"node_limit must be 0 or at least the {geometry(box).ncells} cells of the grid")
    lookahead = defaults["lookahead"] if lookahead is None else bool(lookahead)
    return int(node_limit), lookahead


def _runner(node_limit: int, lookahead: bool):
    def run(box: "int | Shape", seeds: np.ndarray, boards: np.ndarray, restarts: np.ndarray) -> None:
        geo = geometry(box)
        backtrack_boards(geo.size, seeds, node_limit, lookahead, geo.peers, geo.cell_houses, geo.nhouses, boards,
                         restarts)
        if (restarts < 0).any():  # a search that tried every digit of the first cell: proven, not given up
            raise GenerationError(f"{METHOD}: the shape {geo.shape.name} has no board (the search tried every digit of the "
                                  "first cell)")
    return run


def generate_seeds(box: int, seeds, *, node_limit: int | None = None, lookahead: bool | None = None,
                   threads: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Boards ``(m, ncells) int8`` and restarts ``(m,) int32``, one per seed (one kernel call per thread)."""
    return run_seeds(_runner(*_options(box, node_limit, lookahead)), box, seeds, threads)


def generate_array(box: int, count: int, seed: int, *, node_limit: int | None = None,
                   lookahead: bool | None = None, threads: int = 1):
    """``(boards (count, ncells) int8, seeds (count,) int64, restarts (count,) int32)`` in one kernel call
    per thread; row k is ``generate(box, seeds[k])``."""
    return run_array(_runner(*_options(box, node_limit, lookahead)), box, count, seed, threads)


def generate_many(box: int, count: int, seed: int, *, node_limit: int | None = None,
                  lookahead: bool | None = None, threads: int = 1) -> list[GeneratedBoard]:
    """``count`` boards; board k is ``generate(box, derive_seeds(seed, count)[k])``."""
    (boards, seeds, restarts), seconds = timed(generate_array, box, count, seed, node_limit=node_limit,
                                               lookahead=lookahead, threads=threads)
    return make_boards(METHOD, box, boards, seeds, restarts, seconds)


def generate(box: int, seed: int, *, node_limit: int | None = None, lookahead: bool | None = None
             ) -> GeneratedBoard:
    """The board of ``seed`` (0 .. 2**63 - 1); options default per size (:func:`default_options`)."""
    seed = check_seed(seed)
    (boards, restarts), seconds = timed(generate_seeds, box, np.array([seed], dtype=np.int64),
                                        node_limit=node_limit, lookahead=lookahead)
    return make_boards(METHOD, box, boards, np.array([seed]), restarts, seconds)[0]
