"""Wave Function Collapse boards, exactly as seed 000 describes them.

The algorithm (seed 000, task 1): every cell starts with all n candidates. Repeat until every cell holds a
fact: pick a cell with the fewest candidates left (ties broken uniformly at random among ALL cells with that
fewest count), pick one of its candidates uniformly at random, make it the cell's digit, and remove that digit
from the candidates of the cell's row, column and box peers. "Should there ever exist a box with 0 possibilities,
then the grid is invalid. Display an error message and try again": a peer left with no candidate is a
contradiction; it is counted (``GeneratedBoard.restarts``), recorded (:func:`generate_traced` gives the cell for
the CLI's message), and the board starts again from an empty grid, its random stream going on where it was.

``propagate=True`` adds singles propagation after each collapse: cells left with one candidate are collapsed at
once (naked singles) and so is a digit left with one place in a house (hidden singles), repeated until nothing
is forced; a digit with no place left in a house is then a contradiction too. Forced moves draw no random
numbers, and the random choices are the same as above.

``locked=True`` (with propagation) adds locked candidates to it: a digit whose places in one unit all lie in a
second unit it shares cells with (a box or region and a row or column, a diagonal and anything it crosses) goes
from the second unit's other cells. It is on by default on jigsaw layouts: their regions cut the rows and columns
irregularly, and with singles alone a 9x9 jigsaw board restarts 30 to 50 times (a 12x12 one 1,600 times); with
locked candidates a few times (about 50 on 12x12): four times faster on 9x9, twelve on 12x12. On boxes and Latin
squares it restarts about as rarely as without and costs more than it saves (bench/bench_generate.py
``--shapes``).

Default on square boxes: plain WFC (the seed's algorithm) on 4x4, 9x9 and 16x16, propagation on 25x25; every
other shape propagates (:func:`default_propagate`). Plain WFC does
finish 25x25, but it meets contradictions by the thousand on every board and is far slower than with
propagation: too slow to fill a catalogue, fine for a demonstration (``propagate=False``). Measured with
bench/bench_generate.py (docs/benchmarks.md, Generating): on 4x4 and 9x9 plain WFC restarts rarely and is the
faster; from 16x16 on, propagation restarts far less and wins.

What it reaches and its bias: any board can come out (every board is a possible sequence of choices: at each
step its own digit is among the candidates), so WFC reaches all 6.67e21 9x9 boards. It is not uniform: the
probability of a board is a sum over the orders of choices that build it, corrected by the contradictions
discarded, and nothing makes those sums equal. For uniform boards one would need rejection or a Markov chain;
the catalogue only needs reach and reproducibility.

Every function is deterministic for a given seed; see :mod:`engine.generators._common` for why
``generate_many`` equals ``generate`` over :func:`~engine.generators.derive_seeds`.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..geometry import check_shape, geometry
from ..shape import Shape
from . import GeneratedBoard
from ..inputs import check_seed
from ._common import check_finished, make_boards, run_array, run_seeds, timed
from ._wfc_kernel import CELL_EMPTY, wfc_boards

METHOD = "wfc"
#: it makes boards of every shape (engine.shape), not only square boxes
EVERY_SHAPE = True
#: box sizes where propagation is on unless asked otherwise (plain WFC restarts by the thousand on a 25x25 board)
PROPAGATE_BY_DEFAULT = frozenset({5})
MAX_TRACE = 64  # contradictions recorded per board by generate_traced (all of them are counted)


def default_propagate(box) -> bool:
    """Whether propagation is on unless asked otherwise: on 25x25, and on every shape that is not square boxes
    (diagonals and jigsaw regions make plain WFC restart many times more often)."""
    box = check_shape(box)
    return not isinstance(box, int) or box in PROPAGATE_BY_DEFAULT


@dataclass(frozen=True)
class Contradiction:
    """One dead end of a WFC attempt: an empty cell, or (with propagation) a digit with no place in a house."""

    kind: int  # 0: cell ``where`` has no candidate left; 1: house ``where`` has no place left for ``digit``
    where: int  # a cell (0-based, row-major) or a house (rows 0..n-1, columns n..2n-1, boxes 2n..3n-1)
    digit: int  # kind 0: the digit whose removal emptied the cell; kind 1: the digit with no place
    filled: int  # cells collapsed when it happened
    box: "int | Shape"

    def describe(self) -> str:
        """``"contradiction at r4c7 (no candidates left) after 63 of 81 cells"`` style text (1-based)."""
        geo = geometry(self.box)
        n = geo.size
        if self.kind == CELL_EMPTY:
            r, c = divmod(self.where, n)
            what = f"at r{r + 1}c{c + 1} (no candidates left)"
        else:
            what = f"in {geo.unit_name(self.where)} (no place left for {self.digit})"
        return f"contradiction {what} after {self.filled} of {n * n} cells"


def default_locked(box) -> bool:
    """Whether propagation takes locked candidates too unless asked otherwise: on jigsaw layouts."""
    box = check_shape(box)
    return isinstance(box, Shape) and box.kind == "jigsaw"


@lru_cache(maxsize=64)
def meets(box) -> np.ndarray:
    """``(k, 3, n) int32``: for every two units sharing two cells or more, the shared cells, the first unit's
    others, the second's, each padded with -1 (the table :func:`~engine.generators._wfc_kernel._locked` reads)."""
    geo = geometry(box)
    units = [set(map(int, h)) for h in geo.houses]
    rows = [(units[a] & units[b], units[a] - units[b], units[b] - units[a])
            for a in range(len(units)) for b in range(a + 1, len(units)) if len(units[a] & units[b]) >= 2]
    out = np.full((len(rows), 3, geo.size), -1, np.int32)
    for k, row in enumerate(rows):
        for j, part in enumerate(row):
            out[k, j, :len(part)] = sorted(part)
    out.flags.writeable = False
    return out


def _options(box: int, propagate, max_restarts, locked=None) -> tuple[bool, int, bool]:
    if propagate is None:  # locked candidates asked for: propagation with them, whatever the shape's default
        propagate = True if locked else default_propagate(box)
    propagate = bool(propagate)
    if isinstance(max_restarts, bool) or not isinstance(max_restarts, (int, np.integer)) or max_restarts < 0:
        raise ValueError(f"max_restarts must be 0 (no limit) or a positive integer, got {max_restarts!r}")
    if locked and not propagate:
        raise ValueError("locked candidates are a part of propagation: locked=True needs propagate=True")
    locked = propagate and (default_locked(box) if locked is None else bool(locked))
    return propagate, int(max_restarts), locked


def _runner(propagate: bool, max_restarts: int, locked: bool, trace: np.ndarray | None = None):
    def run(box: int, seeds: np.ndarray, boards: np.ndarray, restarts: np.ndarray) -> None:
        geo = geometry(box)
        events = trace if trace is not None else np.zeros((seeds.size, 0, 4), dtype=np.int32)
        table = meets(box) if locked else _no_meets(geo.size)
        wfc_boards(geo.size, seeds, propagate, max_restarts, geo.peers, geo.houses, table, boards, restarts, events)
    return run


@lru_cache(maxsize=None)
def _no_meets(n: int) -> np.ndarray:
    """An empty ``meets`` table: no locked candidates (read-only, as the real ones are: one kernel signature)."""
    table = np.full((0, 3, n), -1, np.int32)
    table.flags.writeable = False
    return table


def generate_seeds(box: int, seeds, *, propagate: bool | None = None, max_restarts: int = 0, threads: int = 1,
                   locked: bool | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Boards ``(m, ncells) int8`` and restarts ``(m,) int32``, one per seed (one kernel call per thread)."""
    options = _options(box, propagate, max_restarts, locked)
    boards, restarts = run_seeds(_runner(*options), box, seeds, threads)
    check_finished(METHOD, boards, np.asarray(seeds).reshape(-1), restarts)
    return boards, restarts


def generate_array(box: int, count: int, seed: int, *, propagate: bool | None = None, max_restarts: int = 0,
                   threads: int = 1, locked: bool | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(boards (count, ncells) int8, seeds (count,) int64, restarts (count,) int32)`` in one kernel call
    per thread; row k is ``generate(box, seeds[k])``."""
    options = _options(box, propagate, max_restarts, locked)
    boards, seeds, restarts = run_array(_runner(*options), box, count, seed, threads)
    check_finished(METHOD, boards, seeds, restarts)
    return boards, seeds, restarts


def generate_many(box: int, count: int, seed: int, *, propagate: bool | None = None, max_restarts: int = 0,
                  threads: int = 1, locked: bool | None = None) -> list[GeneratedBoard]:
    """``count`` boards; board k is ``generate(box, derive_seeds(seed, count)[k])``."""
    (boards, seeds, restarts), seconds = timed(generate_array, box, count, seed, propagate=propagate,
                                               max_restarts=max_restarts, threads=threads, locked=locked)
    return make_boards(METHOD, box, boards, seeds, restarts, seconds)


def generate_traced(box: int, seed: int, *, propagate: bool | None = None, max_restarts: int = 0,
                    locked: bool | None = None) -> tuple[GeneratedBoard, list[Contradiction]]:
    """The board of ``seed`` and its first :data:`MAX_TRACE` contradictions, in the order they happened.

    ``board.restarts`` counts all of them. Raises :class:`~engine.generators.GenerationError` when
    ``max_restarts`` stops it.
    """
    seed = check_seed(seed)
    options = _options(box, propagate, max_restarts, locked)
    seeds = np.array([seed], dtype=np.int64)
    trace = np.zeros((1, MAX_TRACE, 4), dtype=np.int32)
    (boards, restarts), seconds = timed(run_seeds, _runner(*options, trace), box, seeds)
    check_finished(METHOD, boards, seeds, restarts)
    board = make_boards(METHOD, box, boards, seeds, restarts, seconds)[0]
    events = [Contradiction(int(k), int(w), int(d), int(f), box)
              for k, w, d, f in trace[0, :min(int(restarts[0]), MAX_TRACE)]]
    return board, events


def generate(box: int, seed: int, *, propagate: bool | None = None, max_restarts: int = 0,
             locked: bool | None = None) -> GeneratedBoard:
    """The WFC board of ``seed`` (0 .. 2**63 - 1); ``propagate=None`` means :func:`default_propagate` (on with
    ``locked=True``), ``locked=None`` :func:`default_locked` (when propagating)."""
    seed = check_seed(seed)
    (boards, restarts), seconds = timed(generate_seeds, box, np.array([seed], dtype=np.int64),
                                        propagate=propagate, max_restarts=max_restarts, locked=locked)
    return make_boards(METHOD, box, boards, np.array([seed]), restarts, seconds)[0]
