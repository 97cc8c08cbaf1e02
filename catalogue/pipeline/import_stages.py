"""What a worker does to one batch of ``import``: solve, key, drop what is stored, measure, grade, check minimality.

Steps 1 to 4 of :mod:`catalogue.pipeline.importer` (whose docstring says why each is there and what "the same
puzzle" means), on a :class:`~catalogue.pipeline.import_batches.Batch` of one size: one kernel call per step, each
releasing the GIL, so two worker threads compute while the main thread stores. Nothing here writes: the one
write is the run's (``Catalogue.store_imported``), which checks again under the write lock what
:func:`compute` read.
"""
from __future__ import annotations

import functools
import math
import time
from typing import Sequence

import numpy as np

from engine.shape import Shape
from engine.vocabulary import IMPORTED

from ..config import NODE_BUDGET
from ..kernels import ready_for_later
from ..shapes import spec_for_size
from ..store.fields import stand_ins
from ..store.records import grade_columns
from ..time_left import Ledger
from .import_batches import Batch


class Kernels:
    """The engine functions import calls; imported when a run starts, so ``catalogue --help`` stays fast."""

    def __init__(self):
        from engine.carve import minimal_many
        from engine.carve.carver import METRICS_NODE_LIMIT
        from engine.formats import conflict_errors
        from engine.grade import grade_many
        from engine.keys import KeySearchError, key_texts
        from engine.solvers.fast import metrics_many, solve_results

        # the metrics solve bounded as the carver's is (figures past the bound are lower bounds)
        self.metrics_many = functools.partial(metrics_many, node_limit=METRICS_NODE_LIMIT)
        # the uniqueness search bounded too: one line whose search would not end must not hold up the file
        self.solve_results = functools.partial(solve_results, node_limit=NODE_BUDGET)
        self.key_texts = key_texts
        self.minimal_many, self.conflict_errors = minimal_many, conflict_errors
        # a puzzle for the nested forcing chains as an engine.grade.Later, graded by compute on the clock
        self.grade_many = functools.partial(grade_many, later=True)
        self.KeySearchError = KeySearchError

    def key_of(self, lines: Sequence[str], shape: str, equivalence: str) -> list[str]:
        """The keys of stored puzzles (line texts) of a shape (its spec): what ``Catalogue.store_imported``
        compares with."""
        from engine.formats.base import decode_symbols

        from ..shapes import kernel_shape, shape_of

        size = shape_of(shape).size
        cells = decode_symbols("".join(lines)).reshape(len(lines), size * size).astype(np.int8)
        return self.keys_or_none(cells, kernel_shape(shape), equivalence)

    def orient(self, puzzle: dict, solution: str, board: str, shape: str, equivalence: str) -> dict:
        """``puzzle`` (a Puzzle row whose solution is ``solution``) turned by the move of the equivalence that maps
        ``solution`` onto the stored ``board``: the composition of the two canonical transforms (one to the shared
        key, then back). Its clue pattern's symmetry is named again; its metrics and grade are those measured on
        the puzzle as read."""
        from engine.formats import from_line, to_line
        from engine.keys import canonical_transform

        from ..shapes import kernel_shape, shape_of

        box, size = kernel_shape(shape), shape_of(shape).size
        cells, solved, stored = from_line(puzzle["puzzle"], box), from_line(solution, box), from_line(board, box)
        move = canonical_transform(solved, box, equivalence).then(
            canonical_transform(stored, box, equivalence).inverse())
        if not np.array_equal(move.apply(solved), stored):  # the keys are equal, so this cannot happen
            raise AssertionError(f"no {equivalence} move maps the solution onto board {board}")
        image = move.apply(cells).astype(np.int8)
        return {**puzzle, "puzzle": to_line(image), "symmetry": pattern_symmetry(image[None, :], size)[0]}

    def keys_or_none(self, grids: np.ndarray, box: int, equivalence: str) -> list:
        """Keys of a batch; under ``full`` a grid without a key (too symmetric a search) gets None."""
        try:
            return self.key_texts(grids, box, equivalence)
        except self.KeySearchError:
            out = []
            for g in grids:
                try:
                    out.append(self.key_texts(g[None, :], box, equivalence)[0])
                except self.KeySearchError:
                    out.append(None)
            return out


def pattern_symmetry(puzzles: np.ndarray, size: int) -> list[str]:
    """The symmetry of each clue pattern, in the carver's names: rot90, rot180, mirror, diagonal or none (the
    first that holds, in that order: a quarter-turn pattern is also a half-turn one)."""
    mask = (puzzles != 0).reshape(-1, size, size)
    checks = (("rot90", np.rot90(mask, 1, axes=(1, 2))), ("rot180", mask[:, ::-1, ::-1]),
              ("mirror", mask[:, :, ::-1]), ("diagonal", mask.transpose(0, 2, 1)))
    out = np.array(["none"] * len(mask), dtype=object)
    for name, image in reversed(checks):  # the first in the list wins: assign it last
        out[(image == mask).all(axis=(1, 2))] = name
    return list(out)


def compute(batch: Batch, kernels: Kernels, equivalence: str, run_id: int, catalogue,
            seconds: float = math.inf, ledger: Ledger | None = None) -> Batch:
    """Everything but the write: solve, key, drop what is stored, measure, grade, check minimality (a worker).

    The puzzles that need the nested forcing chains (seconds to minutes each, where the rest of a batch takes
    milliseconds) are graded one at a time, in file order, while the batch has had less than ``seconds``
    (:func:`finish`); the rows from the first one left on become ``batch.rest``, which the import grades next, in
    pieces on every worker, and stores next. So a clump of the hardest puzzles is stored, counted on the bar and
    kept by a Ctrl-C a few at a time, and both workers take part in it. ``ledger`` (catalogue.time_left) is told
    what the batch's first pass found and what each of those puzzles took, for the bar's time left."""
    from engine.formats.batch import lines
    from engine.grade import Later
    from engine.solvers._bitmask import CHECKS
    from engine.solvers.base import share_seconds
    from engine.vocabulary import METRICS

    begun = time.perf_counter()
    box = batch.box  # a box size (square boxes), or the Shape the file named
    size, shape = (box.size, box.spec) if isinstance(box, Shape) else (box * box, spec_for_size(box * box))
    cells = np.stack([p.grid.cells for p in batch.parsed]).astype(np.int8)
    results = kernels.solve_results(cells, box, 2)
    counts = [r.count for r in results]
    unique = []
    for i, p in enumerate(batch.parsed):
        if results[i].gave_up:  # (conflicting clues end a search at once: this one has none)
            batch.rejected.append((p, "undecided", f"undecided: the search for a second solution gave up after "
                                                   f"{results[i].metrics.nodes} nodes (the budget is "
                                                   f"{NODE_BUDGET} nodes)"))
        elif counts[i] == 1:
            unique.append(i)
        elif counts[i] >= 2:
            batch.rejected.append((p, "several solutions", "several solutions"))
        else:
            clashes = kernels.conflict_errors(p)
            if clashes:
                batch.rejected.append((p, "conflicting clues", f"conflicting clues: {clashes[0].message}"))
            else:
                batch.rejected.append((p, "no solution", "no solution"))
    if not unique:
        return batch
    idx = np.array(unique)
    cells, solutions = cells[idx], np.stack([results[i].solution for i in unique]).astype(np.int8)
    board_keys = kernels.keys_or_none(solutions, box, equivalence)
    puzzle_keys = kernels.keys_or_none(cells, box, equivalence)
    keep = [j for j in range(len(idx)) if board_keys[j] is not None and puzzle_keys[j] is not None]
    for j in range(len(idx)):
        if board_keys[j] is None or puzzle_keys[j] is None:
            batch.rejected.append((batch.parsed[idx[j]], "no key",
                                   f"no {equivalence} key (its key search kept too many tied states)"))
    # what the catalogue holds already is not graded (a read; the write checks again under the lock)
    probe = [{"size": size, "shape": shape, "equivalence": equivalence, "key": board_keys[j]} for j in keep]
    stored = catalogue.known_puzzles(probe, [puzzle_keys[j] for j in keep], kernels.key_of)
    # nor is a copy of a puzzle earlier in the batch (the same key: an exact copy, or a rotation or relabelling
    # as the equivalence has it), which the write would find known: a hard collection's copies cost a grade each
    firsts: set = set()
    fresh = []
    for j, s in zip(keep, stored):
        if not s and puzzle_keys[j] not in firsts:
            firsts.add(puzzle_keys[j])
            fresh.append(j)
    batch.known = len(keep) - len(fresh)
    keep = fresh
    if not keep:
        return batch
    sel = np.array(keep)
    cells, solutions = np.ascontiguousarray(cells[sel]), np.ascontiguousarray(solutions[sel])
    parsed = [batch.parsed[idx[j]] for j in keep]
    started = time.perf_counter()
    _, stats = kernels.metrics_many(cells, box, 1)
    solve_seconds = share_seconds(time.perf_counter() - started, stats[:, CHECKS])
    grades = kernels.grade_many(cells, box)
    started = time.perf_counter()
    minimal, checks, undecided = kernels.minimal_many(cells, solutions, box)
    check_seconds = share_seconds(time.perf_counter() - started, checks)
    symmetry = pattern_symmetry(cells, size)
    puzzle_lines = lines(cells)  # one numpy gather per batch, not a Python loop per cell
    board_lines = lines(solutions)
    clues = (cells != 0).sum(axis=1)
    board_rest = puzzle_rest = None  # what the import does not make (a generator's seed, a carving's), per batch
    for k, j in enumerate(keep):
        board = {"size": size, "shape": shape, "equivalence": equivalence, "key": board_keys[j],
                 "board": board_lines[k], "method": IMPORTED, "run_id": run_id}
        puzzle = {
            "puzzle": puzzle_lines[k], "clues": int(clues[k]), "symmetry": symmetry[k],
            "carve_checks": int(checks[k]), "carve_seconds": float(check_seconds[k]),
            **{name: int(stats[k, n]) for n, name in enumerate(METRICS[:-1])},
            "solve_seconds": float(solve_seconds[k]),
            **grade_columns(None if isinstance(grades[k], Later) else grades[k]),
            "minimal": bool(minimal[k]), "undecided": int(undecided[k]),
            "source": batch.source.stored_as, "source_line": int(parsed[k].line)}
        if board_rest is None:
            board_rest = stand_ins("boards", board, imported=True)
            puzzle_rest = stand_ins("puzzles", puzzle, imported=True)
        batch.boards.append({**board, **board_rest})
        batch.puzzles.append({**puzzle, **puzzle_rest})
        batch.puzzle_keys.append(puzzle_keys[j])
        batch.entries.append(parsed[k])
    batch.solutions = solutions
    batch.later = {k: g for k, g in enumerate(grades) if isinstance(g, Later)}
    if ledger is not None:
        ledger.seen(len(batch.parsed), len(batch.later), time.perf_counter() - begun)
    return finish(batch, seconds, begun, ledger)


def advance(batch: Batch, kernels: Kernels, equivalence: str, run_id: int, catalogue, seconds: float = math.inf,
            ledger: Ledger | None = None) -> Batch:
    """A worker's turn on ``batch``: :func:`compute` a batch just cut; :func:`finish` the rows a batch gave back
    (computed already: a piece of them may hold no grade still to make, and is then ready as it is)."""
    if batch.entries:
        return finish(batch, seconds, ledger=ledger)
    return compute(batch, kernels, equivalence, run_id, catalogue, seconds, ledger)


def finish(batch: Batch, seconds: float = math.inf, begun: float | None = None,
           ledger: Ledger | None = None) -> Batch:
    """Grade the rows of ``batch`` left to the nested forcing chains (``batch.later``), in file order, while the
    batch has had less than ``seconds`` since ``begun`` (now if None), at least one; from the first row left on,
    the rows go to ``batch.rest``, a batch of their own (its rows graded, if any, by ``finish`` again)."""
    begun = time.perf_counter() if begun is None else begun
    for n, k in enumerate(sorted(batch.later)):
        if n and time.perf_counter() - begun > seconds:
            batch.rest = _split(batch, k)
            break
        later = batch.later.pop(k)
        ready_for_later(later=later)  # (once: the solver's and nested chains' kernels, on every core the first time)
        started = time.perf_counter()
        batch.puzzles[k].update(grade_columns(later()))
        if ledger is not None:
            ledger.took(time.perf_counter() - started)
    return batch


def _split(batch: Batch, k: int) -> Batch:
    """The rows of ``batch`` from row ``k`` on, as a batch of their own (cut from ``batch``): their puzzles are
    counted there. What the batch rejected or found stored stays with it, all decided."""
    rest = Batch(batch.source, batch.box, batch.entries[k:], boards=batch.boards[k:], puzzles=batch.puzzles[k:],
                 puzzle_keys=batch.puzzle_keys[k:], solutions=batch.solutions[k:], entries=batch.entries[k:],
                 later={i - k: g for i, g in batch.later.items() if i >= k})
    moved = {id(p) for p in rest.entries}
    batch.parsed = [p for p in batch.parsed if id(p) not in moved]
    del batch.boards[k:], batch.puzzles[k:], batch.puzzle_keys[k:], batch.entries[k:]
    batch.solutions = batch.solutions[:k]
    batch.later = {i: g for i, g in batch.later.items() if i < k}
    return rest


def pieces(batch: Batch, rows: int) -> list[Batch]:
    """``batch`` cut into batches, in order, for the workers to :func:`finish` side by side: each of at most
    ``rows`` rows, and holding at most one row still to grade with the nested forcing chains.

    Why one: those take seconds to minutes each, and a piece is stored, counted on the bar and kept by a Ctrl-C
    only when all of it is done. Cut by ``rows`` alone (the pace of the ordinary puzzles before them: hundreds),
    44 of the hardest went in one or two pieces: the bar stood at 1 of 44 for a minute, then jumped to the end."""
    out = [batch]
    while True:
        last = out[-1]
        hard = sorted(last.later)
        cut = min(len(last.boards), max(1, rows), hard[1] if len(hard) > 1 else len(last.boards))
        if cut >= len(last.boards):
            return out
        out.append(_split(last, cut))

