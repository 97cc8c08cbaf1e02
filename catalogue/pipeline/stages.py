"""The CPU stages of fill: generator actors make boards, checker actors key, dedupe, carve and grade them.

Every kernel call covers a whole batch and releases the GIL (``nogil=True``), so two actors of a stage really run
on two cores. The Python work per board that is left (key and line text, result rows) is done with numpy in one
go per batch, because any per-cell Python loop here holds the GIL and serialises the threads again.
"""
from __future__ import annotations

import threading
import time

import numpy as np

from engine.formats.batch import lines
from engine.inputs import NEW_SEED_MASK
from engine.vocabulary import METRICS

from ..store.records import GRADE_COLUMNS, grade_columns
from .actor import POLL_SECONDS, Actor, Channel, Stopped, Supervisor
from .messages import BoardBatch, CheckedBatch, Counters
from .options import FillOptions

#: the solver metrics stored with every puzzle as whole numbers (all but ``seconds``, stored as solve_seconds)
METRIC_COLUMNS = METRICS[:-1]


def batch_seed(run_seed: int, stream: int, index: int) -> int:
    """The seed of batch ``index`` of generator ``stream``: independent streams from the one run seed."""
    state = np.random.SeedSequence([int(run_seed) & 0xFFFFFFFF, int(run_seed) >> 32, stream, index])
    return int(state.generate_state(1, dtype=np.uint64)[0] & np.uint64(NEW_SEED_MASK))  # 53 bits: JSON-safe


def carve_seeds(board_seeds: np.ndarray, attempt: int) -> np.ndarray:
    """The carving seed of each board for its ``attempt``-th carving, a function of the board's own seed.

    Deriving it from the board (not from the checker that happens to take the batch) keeps a run reproducible
    whatever the thread scheduling: the same board is always carved the same way. SplitMix64's mixer.
    """
    with np.errstate(over="ignore"):
        z = board_seeds.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(attempt + 1) * np.uint64(
            0xD1B54A32D192ED03)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z & np.uint64(NEW_SEED_MASK)).astype(np.int64)  # 53 bits: JSON-safe


class Kernels:
    """The engine functions fill calls, bound once per run (and importable before the actors start).

    Importing here rather than at module level keeps ``catalogue --help`` fast: numba and the kernels load
    only when a fill runs.
    """

    def __init__(self, method: str):
        from engine.generators import GENERATORS, get_generator

        if method not in GENERATORS:
            from ..errors import UsageError
            raise UsageError(f"--method: unknown method {method!r}; choose from {', '.join(GENERATORS)}")
        self.method = method
        self.generate_array = get_generator(method).generate_array

    def validate(self, plan: FillOptions) -> None:
        from engine.vocabulary import EQUIVALENCES, LEVELS, SYMMETRIES

        from ..errors import UsageError, unknown_choice
        for option, value, choices in (("--equivalence", plan.equivalence, EQUIVALENCES),
                                       ("--symmetry", plan.symmetry, SYMMETRIES)):
            if value not in choices:
                raise UsageError(unknown_choice(option, option[2:], value, choices))
        if plan.level is not None and plan.level not in LEVELS:
            raise UsageError(unknown_choice("--level", "level", plan.level, LEVELS))
        if plan.level_tries < 1:
            raise UsageError(f"--level-tries must be at least 1, got {plan.level_tries}")

    @staticmethod
    def key_texts(boards, box, equivalence) -> list[str]:
        """The stored key of each board: the line text of its canonical representative (one kernel call). A board
        whose ``full`` search gives up (a huge symmetry group: random boards never have one) stops the run with
        one line saying so, not as a bug."""
        from engine.keys import KeySearchError, key_texts

        from ..errors import UserError
        try:
            return key_texts(boards, box, equivalence)
        except KeySearchError as e:
            raise UserError(f"a board made cannot be keyed: {e}") from None

    @staticmethod
    def carve(boards, box, seeds, symmetry, target_clues, attempts):
        from engine.carve import carve_many
        return carve_many(boards, box, seeds, symmetry=symmetry, target_clues=target_clues, attempts=attempts)

    @staticmethod
    def relax(carvings, boards, box, level, seeds, grades):
        from engine.carve import relax_many
        return relax_many(carvings, boards, box, level, seeds, grades)

    @staticmethod
    def grade_many(puzzles, box):
        from engine.grade import grade_many
        return grade_many(puzzles, box)

    @staticmethod
    def level_rank(level: str) -> int:
        from engine.vocabulary import LEVELS
        return LEVELS.index(level)

    def warm(self, plan: FillOptions) -> None:
        """Run every kernel once on two boards in the calling (main) thread, with this run's options, before any
        worker starts: what the run calls is loaded here (compiled, if ``engine.warmup.prepare`` did not foresee
        it), instead of in several threads at once in the middle of the run."""
        boards, seeds, _ = self.generate_array(plan.box, 2, plan.seed)
        self.key_texts(boards, plan.box, plan.equivalence)
        results = self.carve(boards, plan.box, carve_seeds(np.asarray(seeds, dtype=np.int64), 0),
                             plan.symmetry, plan.target_clues, plan.carve_attempts)
        self.grade_many(np.stack([r.puzzle for r in results]), plan.box)


class GeneratorActor(Actor):
    """Makes batches of complete boards until stopped; each actor draws from its own seed stream."""

    stage = "generate"

    def __init__(self, name, supervisor: Supervisor, stop: threading.Event, out: Channel, plan: FillOptions,
                 counters: Counters, stream: int, generate_array, fail_at=None):
        super().__init__(name, supervisor, stop, fail_at=fail_at)
        self.out, self.plan, self.counters, self.stream = out, plan, counters, stream
        self.generate_array = generate_array

    def work(self) -> None:
        stats = self.counters.stage(self.stage)
        while not self.stop.is_set():
            if not self.counters.promise(self.plan.batch):
                # the boards being checked, written or queued cover the count: wait instead of making boards
                # nobody needs (slots come back when checkers meet duplicates or the writer finds some)
                self.stop.wait(POLL_SECONDS)
                continue
            self.tick()
            started = time.perf_counter()
            try:
                boards, seeds, restarts = self.generate_array(
                    self.plan.box, self.plan.batch, batch_seed(self.plan.seed, self.stream, self.units))
            except BaseException:
                self.counters.unpromise(self.plan.batch)
                raise
            if len(boards) != self.plan.batch:
                self.counters.unpromise(self.plan.batch - len(boards))
            seconds = time.perf_counter() - started
            self.busy_seconds += seconds
            batch = BoardBatch(self.name, self.units, boards, seeds.astype(np.int64), restarts.astype(np.int32),
                               seconds)
            with self.counters.lock:
                self.counters.generated += len(batch)
                self.counters.contradictions += int(batch.restarts.sum())
                stats.items_out += len(batch)
            try:
                self.out.put(batch, self.stop)
            except Stopped:
                with self.counters.lock:
                    self.counters.dropped += len(batch)
                    self.counters.pending -= len(batch)
                raise


class SeenKeys:
    """The keys met in this run, shared by the checkers: a repeat is dropped before anyone carves it."""

    def __init__(self):
        self._keys: set[str] = set()
        self._lock = threading.Lock()

    def claim(self, keys: tuple[str, ...]) -> np.ndarray:
        """A mask of the keys that are new to the run; they are recorded as seen."""
        fresh = np.zeros(len(keys), dtype=bool)
        with self._lock:
            for i, key in enumerate(keys):
                if key not in self._keys:
                    self._keys.add(key)
                    fresh[i] = True
        return fresh


class CheckerActor(Actor):
    """Keys a batch, drops repeats (in the run and in the catalogue), carves and grades what is new."""

    stage = "check"

    def __init__(self, name, supervisor: Supervisor, stop: threading.Event, inbox: Channel, out: Channel,
                 out_stop: threading.Event, plan: FillOptions, counters: Counters, seen: SeenKeys, catalogue, kernels,
                 fail_at=None):
        super().__init__(name, supervisor, stop, inbox=inbox, fail_at=fail_at)
        self.out, self.out_stop, self.plan, self.counters, self.seen = out, out_stop, plan, counters, seen
        self.catalogue = catalogue  # a Catalogue: the checkers only read it
        self.kernels = kernels  # Kernels: key_texts, carve, grade_many
        self.counted: BoardBatch | None = None  # the batch whose duplicates and surplus are counted ...
        self.unaccounted = 0  # ... and how many of its boards are not (yet in the writer's hands)
        self.handoff = threading.Lock()  # a batch is handed to the writer, or the checker let go, not both
        self.gone = False  # let go by a stop that no longer waits for it (let_go)

    def on_failure(self, exc: BaseException) -> None:
        if self.current is not None:  # the batch in hand will never be stored: count it, do not lose it quietly
            unaccounted = self.unaccounted if self.counted is self.current else len(self.current)
            with self.counters.lock:
                self.counters.dropped += unaccounted
        super().on_failure(exc)

    # -- one batch ----------------------------------------------------------------------------------------------
    def handle(self, batch: BoardBatch) -> None:
        counters = self.counters
        stats = counters.stage(self.stage)
        try:
            keys, new = self.new_boards(batch, stats)
        finally:
            # the batch's promise ends once reserve() has claimed what it needs: ending it earlier would let a
            # generator start a batch in between, one board too many (seen with --batch 1)
            counters.unpromise(len(batch))
        self.counted, self.unaccounted = batch, len(new)  # duplicates and surplus are counted already
        if not len(new):
            return
        checked = self.check(batch, new, keys)
        with self.handoff:
            if self.gone:  # the run stopped waiting for this batch and counted it in flight: never stored
                raise Stopped(self.name)
            with counters.lock:
                stats.items_out += len(checked)
            try:
                self.out.put(checked, self.out_stop)
            except Stopped:  # the writer is gone (failed): this batch will never be stored
                counters.release(len(checked))
                with counters.lock:
                    counters.dropped += len(checked)
                raise
            self.unaccounted = 0  # the writer has them now

    def let_go(self) -> int:
        """Stop waiting for this checker (a stop signal's deadline passed while it carves or grades): whatever it
        checks from now on is never handed to the writer. Returns how many boards of the batch in hand that
        leaves unstored and not yet counted (the run counts them in flight)."""
        with self.handoff:
            self.gone = True
            current = self.current
            if current is None:
                return 0
            return self.unaccounted if self.counted is current else len(current)

    def new_boards(self, batch: BoardBatch, stats) -> tuple[tuple[str, ...], np.ndarray]:
        """The batch's keys, and the indexes of its boards that are new and still needed (slots reserved)."""
        plan, counters = self.plan, self.counters
        keys = tuple(self.kernels.key_texts(batch.boards, plan.box, plan.equivalence))
        fresh = self.seen.claim(keys)
        if fresh.any():
            # A read (never blocks the writer in WAL mode): keys an earlier run stored are dropped before carving.
            # The writer checks again under the write lock; this only saves work, it guarantees nothing.
            candidates = [keys[i] for i in np.flatnonzero(fresh)]
            stored = self.catalogue.known_keys(plan.shape, plan.equivalence, candidates)
            if stored:
                fresh &= np.array([k not in stored for k in keys])
        new = np.flatnonzero(fresh)
        with counters.lock:
            for is_new in fresh:  # the streak of duplicates since the last new key, in the batch's order
                counters.streak = 0 if is_new else counters.streak + 1
            counters.duplicates += len(keys) - len(new)
            streak = counters.streak
            stats.items_in += len(keys)
        if streak >= plan.give_up_after:
            self.supervisor.finish("exhausted")
        granted = counters.reserve(len(new))
        if granted < len(new):
            with counters.lock:
                counters.surplus += len(new) - granted
            new = new[:granted]
        return keys, new

    def check(self, batch: BoardBatch, new: np.ndarray, keys: tuple[str, ...]) -> CheckedBatch:
        boards = np.ascontiguousarray(batch.boards[new])
        seeds = batch.seeds[new]
        results, grades, tries, carve_seeds_kept = self.carve_and_grade(boards, seeds)
        m = len(new)
        puzzles = np.stack([r.puzzle for r in results]).astype(np.int8)
        metrics = [r.metrics for r in results]
        graded = [grade_columns(g) for g in grades]
        # named as the database names them: the writer builds its rows from these and the plan, nothing else
        board_columns = {
            "board": lines(boards),
            "seed": tuple(seeds.tolist()),
            "restarts": tuple(batch.restarts[new].tolist()),
            "generate_seconds": (batch.seconds / max(1, len(batch)),) * m,  # the batch's kernel time, shared
        }
        puzzle_columns = {
            "puzzle": lines(puzzles),
            "clues": tuple(int(r.clues) for r in results),
            "carve_seed": tuple(carve_seeds_kept.tolist()),
            "carve_checks": tuple(int(r.checks) for r in results),
            "carve_seconds": tuple(float(r.seconds) for r in results),
            "attempts": tuple(tries.tolist()),
            # of the kept carving: with --level, results[i] is the carving whose puzzle is stored
            "minimal": tuple(bool(r.minimal) for r in results),
            "undecided": tuple(int(r.undecided) for r in results),
            **{name: tuple(int(getattr(x, name)) for x in metrics) for name in METRIC_COLUMNS},
            "solve_seconds": tuple(float(x.seconds) for x in metrics),
            **{name: tuple(row[name] for row in graded) for name in GRADE_COLUMNS},
        }
        return CheckedBatch(origin=self.name, boards=boards, keys=tuple(keys[i] for i in new),
                            board_columns=board_columns, puzzle_columns=puzzle_columns)

    def carve_and_grade(self, boards: np.ndarray, seeds: np.ndarray):
        """Carve and grade every board once; with ``--level``, carve the misses again (new seeds), up to
        ``level_tries`` carvings in all, and put clues back into a carving harder than the level
        (engine.carve.toward): on 16x16 and 25x25 into every carving, since their minimal puzzles are all but never
        below extreme; on smaller grids only into the closest carving of a board whose tries all missed, so that
        minimal puzzles come first. A board whose puzzle never reaches the level keeps the carving whose level came
        closest (the writer counts those it stores as off level).

        Returns (carve results, grades, removal orders tried per board, carve seed of each kept puzzle).
        """
        plan, k = self.plan, self.kernels
        kept_seeds = carve_seeds(seeds, 0)
        results = k.carve(boards, plan.box, kept_seeds, plan.symmetry, plan.target_clues, plan.carve_attempts)
        grades = k.grade_many(np.stack([r.puzzle for r in results]), plan.box)
        tries = np.array([r.attempts_used for r in results], dtype=np.int64)
        if plan.level is None:
            return results, grades, tries, kept_seeds
        want = k.level_rank(plan.level)
        relax_each = plan.size >= 16
        if relax_each:
            results, grades = k.relax(results, boards, plan.box, plan.level, kept_seeds, grades)
        distance = np.array([abs(k.level_rank(g.level) - want) for g in grades])
        for attempt in range(1, plan.level_tries):
            miss = np.flatnonzero(distance > 0)
            if not len(miss) or self.stop_now():
                break
            seeds_now = carve_seeds(seeds[miss], attempt)
            again = k.carve(boards[miss], plan.box, seeds_now, plan.symmetry, plan.target_clues,
                            plan.carve_attempts)
            regrades = k.grade_many(np.stack([r.puzzle for r in again]), plan.box)
            if relax_each:
                again, regrades = k.relax(again, boards[miss], plan.box, plan.level, seeds_now, regrades)
            for j, i in enumerate(miss):
                tries[i] += again[j].attempts_used
                d = abs(k.level_rank(regrades[j].level) - want)
                if d < distance[i]:
                    results[i], grades[i], distance[i], kept_seeds[i] = again[j], regrades[j], d, seeds_now[j]
        hard = [i for i, g in enumerate(grades) if k.level_rank(g.level) > want]
        if hard and not relax_each and not self.stop_now():
            again, regrades = k.relax([results[i] for i in hard], boards[hard], plan.box, plan.level,
                                      kept_seeds[hard], [grades[i] for i in hard])
            for j, i in enumerate(hard):
                d = abs(k.level_rank(regrades[j].level) - want)
                if d < distance[i]:
                    results[i], grades[i], distance[i] = again[j], regrades[j], d
        return results, grades, tries, kept_seeds

    def stop_now(self) -> bool:
        """Level retries stop early on a shutdown: the puzzles in hand are stored as they are."""
        return self.stop.is_set()
