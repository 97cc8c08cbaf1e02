"""``import``: store the puzzles of files (any input format) that have exactly one solution, with their solutions.

Per batch of puzzles of one size (one kernel call per step, each releasing the GIL):

1. solve to 2 (``solve_results``, within ``config.NODE_BUDGET`` nodes each: a search out of budget is rejected as
   undecided): 0 solutions is rejected (conflicting clues, or no solution), 2 is rejected
   (several solutions), 1 gives the solution, which is the board;
2. key the solutions (the board's key under the equivalence) and the puzzles themselves (the puzzle's key);
3. drop the puzzles already stored (a read: their boards' stored puzzles, keyed) before the costly steps;
4. the fast solver's metrics (limit 1, as fill stores them), the grade (``grade_many``), minimality
   (``minimal_many``: each clue taken out alone) and the clue pattern's symmetry;
5. one write transaction (``Catalogue.store_imported``): a new board gets the next number, a known board gets the
   puzzle, a puzzle already stored adds nothing; then the new boards' ``N.txt`` files.

**The same puzzle.** Two puzzles are the same when their canonical keys under the catalogue's equivalence are
equal (``engine.keys`` keys partial grids as well as boards). For a puzzle with one solution, that is the same as
"same board, and the clue pattern maps onto a stored puzzle of that board by the move that maps the solutions":
a move of the group that maps one puzzle onto the other maps its only solution onto the other's only solution.
So a rotated or relabelled (``full``) copy of a stored puzzle adds nothing, and neither does a second import of
the same file.

Batches are computed by two worker threads, a batch ahead of the main thread, which stores them in file order
(numbers follow the files' order). The main thread only waits and stores, so Ctrl-C (or SIGTERM) is handled at
once: the first stops after the batches in hand are stored (exit 130), leaving those not stored within
:data:`~catalogue.pipeline.interrupts.STOP_SECONDS`; a second exits at once; committed batches stay.
"""
from __future__ import annotations

import functools
import time
from collections import Counter, deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional, Sequence

import numpy as np

from engine.vocabulary import IMPORTED

from .. import __version__
from ..config import NODE_BUDGET
from ..console import report
from ..kernels import jobs_for, sizes_of
from ..store.files import refuse_strangers
from ..store.records import grade_columns
from .interrupts import Interrupts

#: puzzles per batch: one kernel call per step, one transaction (a fraction of a second of work for 9x9:
#: docs/benchmarks.md, Importing)
DEFAULT_BATCH = {2: 4096, 3: 2048, 4: 64, 5: 4}
#: rejected lines reported one by one; past this, only counted (the summary has every count)
REPORT_LIMIT = 100
#: the reasons a line is rejected, in the order the summary lists them
REASONS = ("unreadable", "conflicting clues", "no solution", "several solutions", "undecided", "no key")


@dataclass
class Source:
    """One input: its entries (``Parsed`` or ``FormatError``) in file order, the name messages use (``label``),
    and the name stored in ``puzzles.source`` (``--source``, else the label).

    Inputs are held one at a time: with ``read``, ``entries`` may be None until the import comes to this input,
    which ``read`` then reads (again: ``count`` and ``boxes`` are what a first reading found), and they are let
    go once its batches are made."""

    label: str
    stored_as: str
    entries: Optional[Sequence]
    read: Optional[Callable[[], Sequence]] = None
    count: int = 0  # entries
    boxes: frozenset = frozenset()  # box sizes of its grids

    def __post_init__(self):
        if self.entries is not None:
            self.count, self.boxes = len(self.entries), frozenset(sizes_of(self.entries))


@dataclass
class ImportSummary:
    status: str = "completed"
    run_id: Optional[int] = None
    read: int = 0
    new_boards: int = 0
    on_known_boards: int = 0
    known: int = 0
    rejected: Counter = field(default_factory=Counter)
    first_number: Optional[int] = None
    last_number: Optional[int] = None
    elapsed: float = 0.0
    warm_seconds: float = 0.0
    sources: list = field(default_factory=list)
    unreported: int = 0

    @property
    def added(self) -> int:
        return self.new_boards + self.on_known_boards

    def as_dict(self) -> dict:
        return {"status": self.status, "run": self.run_id, "sources": self.sources, "read": self.read,
                "added": self.added, "new_boards": self.new_boards, "on_known_boards": self.on_known_boards,
                "already_known": self.known, "rejected": {r: self.rejected.get(r, 0) for r in REASONS
                                                          if self.rejected.get(r)},
                "first_number": self.first_number, "last_number": self.last_number,
                "elapsed_seconds": round(self.elapsed, 3)}


@dataclass
class Batch:
    """Puzzles of one size from one source, in file order, and what the workers made of them."""

    source: Source
    box: int
    parsed: list
    rejected: list = field(default_factory=list)  # (parsed, reason, message)
    boards: list = field(default_factory=list)  # rows to store (computed), with ...
    puzzles: list = field(default_factory=list)
    puzzle_keys: list = field(default_factory=list)
    solutions: Optional[np.ndarray] = None  # ... the solution of each row, for the board files
    known: int = 0  # already stored (seen by the read before grading)


class Kernels:
    """The engine functions import calls; imported when a run starts, so ``catalogue --help`` stays fast."""

    def __init__(self):
        from engine.carve import minimal_many
        from engine.formats import conflict_errors
        from engine.grade import grade_many
        from engine.keys import KeySearchError, key_texts
        from engine.carve.carver import METRICS_NODE_LIMIT
        from engine.solvers.fast import metrics_many, solve_results

        # the metrics solve bounded as the carver's is (figures past the bound are lower bounds)
        self.metrics_many = functools.partial(metrics_many, node_limit=METRICS_NODE_LIMIT)
        # the uniqueness search bounded too: one line whose search would not end must not hold up the file
        self.solve_results = functools.partial(solve_results, node_limit=NODE_BUDGET)
        self.key_texts = key_texts
        self.grade_many, self.minimal_many, self.conflict_errors = grade_many, minimal_many, conflict_errors
        self.KeySearchError = KeySearchError

    def key_of(self, lines: Sequence[str], size: int, equivalence: str) -> list[str]:
        """The keys of stored puzzles (line texts): what ``Catalogue.store_imported`` compares with."""
        from engine.formats.base import decode_symbols
        from engine.geometry import box_for_size

        cells = decode_symbols("".join(lines)).reshape(len(lines), size * size).astype(np.int8)
        return self.keys_or_none(cells, box_for_size(size), equivalence)

    def orient(self, puzzle: dict, solution: str, board: str, size: int, equivalence: str) -> dict:
        """``puzzle`` (a Puzzle row whose solution is ``solution``) turned by the move of the equivalence that maps
        ``solution`` onto the stored ``board``: the composition of the two canonical transforms (one to the shared
        key, then back). Its clue pattern's symmetry is named again; its metrics and grade are those measured on
        the puzzle as read."""
        from engine.formats import from_line, to_line
        from engine.geometry import box_for_size
        from engine.keys import canonical_transform

        box = box_for_size(size)
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



def compute(batch: Batch, kernels: Kernels, equivalence: str, run_id: int, catalogue) -> Batch:
    """Everything but the write: solve, key, drop what is stored, measure, grade, check minimality (a worker)."""
    from engine.formats.batch import lines
    from engine.solvers._bitmask import CHECKS
    from engine.solvers.base import share_seconds
    from engine.vocabulary import METRICS

    box, size = batch.box, batch.box * batch.box
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
    probe = [{"size": size, "equivalence": equivalence, "key": board_keys[j]} for j in keep]
    stored = catalogue.known_puzzles(probe, [puzzle_keys[j] for j in keep], kernels.key_of)
    batch.known = sum(stored)
    keep = [j for j, s in zip(keep, stored) if not s]
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
    for k, j in enumerate(keep):
        batch.boards.append({"size": size, "equivalence": equivalence, "key": board_keys[j], "board": board_lines[k],
                             "method": IMPORTED, "seed": 0, "restarts": 0, "generate_seconds": 0.0,
                             "run_id": run_id})
        g = grades[k]
        batch.puzzles.append({
            "puzzle": puzzle_lines[k], "clues": int(clues[k]), "symmetry": symmetry[k], "target_clues": None,
            "carve_seed": 0, "carve_checks": int(checks[k]), "carve_seconds": float(check_seconds[k]),
            "attempts": 0, **{name: int(stats[k, n]) for n, name in enumerate(METRICS[:-1])},
            "solve_seconds": float(solve_seconds[k]), **grade_columns(g),
            "minimal": bool(minimal[k]), "undecided": int(undecided[k]),
            "source": batch.source.stored_as, "source_line": int(parsed[k].line)})
        batch.puzzle_keys.append(puzzle_keys[j])
    batch.solutions = solutions
    return batch


#: batches made but not yet taken while the first of them waits for grids of its size; past this it is taken as
#: it is (a 25x25 grid followed by a million 4x4 ones kept every 4x4 batch until the file ended)
WAITING_BATCHES = 16


def batches(sources: Sequence[Source]) -> Iterator[Batch]:
    """The inputs cut into batches of one size each, in file order, made as they are taken; unreadable entries
    are batches' rejects: of the batch still open around them when there is one, so that they are reported among
    the lines around them. A source's entries are read when it is come to (``Source.read``) and let go after."""
    for source in sources:
        entries = source.entries if source.entries is not None else source.read()
        made: deque[Batch] = deque()  # in the order made, not yet taken
        pending: dict[int, Batch] = {}  # the open batch of each size
        for entry in entries:
            if not hasattr(entry, "grid"):  # a FormatError
                reject = (entry, "unreadable", entry.message)
                if made and any(made[-1] is b for b in pending.values()):  # (is: batches compare by value)
                    made[-1].rejected.append(reject)
                else:
                    made.append(Batch(source, 0, [], rejected=[reject]))
            else:
                box = entry.grid.box
                b = pending.get(box)
                if b is None:
                    b = pending[box] = Batch(source, box, [])
                    made.append(b)
                b.parsed.append(entry)
                if len(b.parsed) >= DEFAULT_BATCH.get(box, 1):
                    del pending[box]
            if len(made) > WAITING_BATCHES and pending.get(made[0].box) is made[0]:
                del pending[made[0].box]
            while made and pending.get(made[0].box) is not made[0]:
                yield made.popleft()
        del entries
        source.entries = None  # (read again, if ever, by source.read)
        yield from made


def import_sources(catalogue, sources: Sequence[Source], *, equivalence: str = "d4", command: str = "",
                   workers: int = 2, progress: Optional[Callable[[int, int], None]] = None,
                   prepare: Optional[Callable[[list[str]], object]] = None) -> ImportSummary:
    """Import every puzzle of ``sources`` into ``catalogue``; rejected lines are reported on stderr (the first
    :data:`REPORT_LIMIT`) and counted. Returns the summary; the run row records it."""
    summary = ImportSummary(sources=[s.stored_as for s in sources])
    started = time.perf_counter()
    catalogue.claim_folder()
    refuse_strangers(catalogue.folder, catalogue.recover())
    # the kernels of the sizes in the files and of this equivalence, loaded here before the workers start (compiled
    # on every core the first time: Ctrl-C then raises KeyboardInterrupt, before anything is stored)
    if prepare is None:
        from engine.warmup import prepare
    prepare(jobs_for("import", {box for s in sources for box in s.boxes}, equivalence=equivalence))
    kernels = Kernels()
    summary.warm_seconds = time.perf_counter() - started
    started = time.perf_counter()  # elapsed (and the rate) is the import's own time, as fill's
    work = batches(sources)
    total = sum(s.count for s in sources)
    sizes = sorted({box * box for s in sources for box in s.boxes})
    run_id = catalogue.start_run(program_version=__version__, command=command, size=sizes[0] if sizes else 0,
                                 method=IMPORTED, equivalence=equivalence, symmetry="none", seed=0,
                                 generators=0, checkers=workers, queue_size=0,
                                 parameters={"sources": summary.sources, "sizes": sizes})
    summary.run_id = run_id
    files_through: Optional[int] = None
    recorded: Optional[int] = None
    done = 0
    store_seconds = 0.0
    failure: Optional[BaseException] = None
    reported = 0
    left = False  # a stop signal's deadline passed while a batch was computed: it and those after it are left
    with Interrupts("storing the puzzles in hand", "puzzles") as interrupts:
        pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="import")
        pending: list[tuple[Batch, Future]] = []
        queue_iter = iter(work)

        def submit() -> None:
            while len(pending) < workers + 1 and not interrupts.stop.is_set():
                nxt = next(queue_iter, None)
                if nxt is None:
                    return
                if not nxt.parsed:
                    f: Future = Future()
                    f.set_result(nxt)
                else:
                    f = pool.submit(compute, nxt, kernels, equivalence, run_id, catalogue)
                pending.append((nxt, f))

        try:
            submit()
            while pending:
                batch, future = pending[0]
                while True:  # wait in slices: the main thread stays free for Ctrl-C
                    # after a stop signal, a batch not stored by the deadline is left (still computed: 25x25
                    # puzzles, a search that runs to its node budget take seconds; or computed while the one
                    # before was stored): nor are the batches after it stored, and importing the file again adds
                    # them. The batch being stored when the deadline passes is stored whole.
                    deadline = interrupts.deadline()
                    if deadline is not None and time.monotonic() >= deadline:
                        left = True
                        break
                    try:
                        batch = future.result(timeout=0.1)
                        break
                    except TimeoutError:
                        continue
                if left:
                    break
                pending.pop(0)
                if not interrupts.stop.is_set():
                    submit()
                for entry, reason, message in sorted(batch.rejected, key=lambda r: r[0].line):  # file order
                    summary.rejected[reason] += 1
                    if reported < REPORT_LIMIT:
                        report(f"{entry.source}:{entry.line}: {message}" if reason != "unreadable" else str(entry))
                        reported += 1
                    else:
                        summary.unreported += 1
                summary.known += batch.known
                t0 = time.perf_counter()
                if batch.boards:
                    outcomes = catalogue.store_imported(
                        batch.boards, batch.puzzles, batch.puzzle_keys, kernels.key_of, kernels.orient,
                        run_id=run_id, files_through=files_through if files_through != recorded else None)
                    recorded = files_through
                    new = [i for i, (what, _) in enumerate(outcomes) if what == "board"]
                    summary.new_boards += len(new)
                    summary.on_known_boards += sum(1 for what, _ in outcomes if what == "puzzle")
                    summary.known += sum(1 for what, _ in outcomes if what == "known")
                    if new:
                        numbers = [outcomes[i][1] for i in new]
                        catalogue.write_board_files(numbers, batch.solutions[new], batch.box)
                        files_through = numbers[-1]
                        if summary.first_number is None:
                            summary.first_number = numbers[0]
                        summary.last_number = numbers[-1]
                store_seconds += time.perf_counter() - t0
                done += len(batch.parsed) + sum(1 for _, r, _ in batch.rejected if r == "unreadable")
                summary.read = done
                if progress is not None:
                    progress(done, total)
        except BaseException as e:  # noqa: BLE001 - the run row says how it ended, then the error goes on
            failure = e
        finally:
            # a batch left in flight is not waited for: its thread ends when its kernel returns, or with the
            # process (the CLI leaves without joining it: catalogue.cli._leave)
            pool.shutdown(wait=not left, cancel_futures=True)
        interrupted = interrupts.stop.is_set() and done < total
    summary.elapsed = time.perf_counter() - started
    summary.status = ("failed" if failure is not None else "interrupted" if interrupted else "completed")
    try:
        catalogue.finish_run(run_id, status=summary.status, generated=summary.read, accepted=summary.added,
                             duplicates=summary.known, contradictions=0, elapsed_seconds=summary.elapsed,
                             files_through=files_through,
                             stage_stats={"import": {"actors": workers, "in": summary.read, "out": summary.added,
                                                     "per_second": round(summary.read / summary.elapsed, 1)
                                                     if summary.elapsed > 0 else 0.0,
                                                     "store_seconds": round(store_seconds, 3),
                                                     "rejected": dict(summary.rejected),
                                                     "new_boards": summary.new_boards,
                                                     "on_known_boards": summary.on_known_boards}})
    except Exception:
        if failure is None:
            raise
    if failure is not None:
        raise failure
    return summary
