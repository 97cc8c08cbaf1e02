"""The fill pipeline as a library: real threads, real SQLite files (and PostgreSQL), real board files.

Every test ends with :func:`assert_consistent`, a plain re-reading of the catalogue that shares no code with the
pipeline: numbers exactly 0..N-1, keys unique, one puzzle per board whose clues agree with it, and every file
holding exactly its board (written here with ``engine.formats.to_txt``, the formats helper's own writer).
"""
from __future__ import annotations

import threading
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from consistency import assert_accounted, assert_consistent, catalogue_rows
from sqlalchemy import create_engine, text

from catalogue.pipeline import actor as actor_mod
from catalogue.pipeline.actor import (
    Actor,
    Channel,
    InjectedFailure,
    Stopped,
    Supervisor,
)
from catalogue.pipeline.messages import BoardBatch, Counters
from catalogue.pipeline.options import FillOptions
from catalogue.pipeline.run import fill
from catalogue.pipeline.stages import (
    CheckerActor,
    Kernels,
    SeenKeys,
    batch_seed,
    carve_seeds,
)
from catalogue.pipeline.writer import batch_rows
from catalogue.store import Catalogue
from engine.formats import from_line, to_line


def settings_for(tmp_path: Path, url: str | None = None, name: str = "boards") -> Catalogue:
    return Catalogue.open(url or f"sqlite:///{tmp_path / 'catalogue.db'}", tmp_path / name)


# --- channels and actors -----------------------------------------------------------------------------------

def test_channel_close_reaches_every_consumer_and_stop_unblocks():
    channel, stop = Channel("c", 2), threading.Event()
    got: list = []

    class Consumer(Actor):
        def handle(self, message):
            got.append(message)

    supervisor = Supervisor()
    consumers = [Consumer(f"c{i}", supervisor, stop, inbox=channel, fail_at=0) for i in range(3)]
    for c in consumers:
        c.start()
    for item in range(10):
        channel.put(item, stop)
    channel.close(stop)  # one marker stops all three
    for c in consumers:
        c.join(5)
    assert not any(c.is_alive() for c in consumers)
    assert sorted(got) == list(range(10)) and supervisor.failure is None
    full = Channel("full", 1)
    full.put("x", stop)
    stop.set()
    started = time.monotonic()
    with pytest.raises(Stopped):  # a producer never hangs on a dead consumer once told to stop
        full.put("y", stop)
    assert time.monotonic() - started < 1


def test_failing_actor_reports_to_the_supervisor_and_stops():
    channel, stop, supervisor = Channel("c", 4), threading.Event(), Supervisor()

    class Fails(Actor):
        def handle(self, message):
            raise ValueError(f"bad message {message}")

    actor = Fails("fails", supervisor, stop, inbox=channel, fail_at=0)
    actor.start()
    channel.put(7, stop)
    assert supervisor.wake.wait(5)
    actor.join(5)
    name, exc = supervisor.failure
    assert name == "fails" and isinstance(exc, ValueError) and "bad message 7" in str(exc)
    assert not actor.is_alive() and not actor.daemon


def test_injected_failure_hook(monkeypatch):
    monkeypatch.setenv(actor_mod.FAIL_ENV, "check:3")
    assert actor_mod.injected_failure_for("check") == 3 and actor_mod.injected_failure_for("write") == 0
    a = Actor("x", Supervisor(), threading.Event(), fail_at=2)
    a.tick()
    with pytest.raises(InjectedFailure):
        a.tick()


# --- helpers and their plain twins -------------------------------------------------------------------------

def test_seeds_are_deterministic_and_distinct():
    assert batch_seed(5, 1, 1) == batch_seed(5, 1, 1)
    assert len({batch_seed(5, s, i) for s in range(1, 4) for i in range(1, 200)}) == 3 * 199
    seeds = np.arange(1000, dtype=np.int64)
    assert (carve_seeds(seeds, 0) == carve_seeds(seeds, 0)).all()
    assert len(set(carve_seeds(seeds, 0)) | set(carve_seeds(seeds, 1))) == 2000
    assert (carve_seeds(seeds, 0) >= 0).all()


# --- whole runs --------------------------------------------------------------------------------------------

def test_fill_numbers_files_and_a_second_run_continues(tmp_path):
    settings = settings_for(tmp_path)
    first = fill(settings, 150, batch=32, seed=11, generators=2, checkers=2)
    assert first.status == "completed" and first.accepted == 150
    assert (first.first_number, first.last_number) == (0, 149)
    second = fill(settings, 70, batch=32, seed=12, generators=1, checkers=1)
    assert_accounted(first), assert_accounted(second)
    assert (second.first_number, second.last_number) == (150, 219)
    rows = assert_consistent(settings.url, settings.folder)
    assert len(rows) == 220 and {r.run_id for r in rows} == {first.run_id, second.run_id}
    assert set(first.stage_stats) == {"generate", "check", "write"}
    assert first.stage_stats["write"]["out"] == 150
    engine = create_engine(settings.url)
    with engine.connect() as conn:
        run = conn.execute(text("SELECT status, accepted, files_through, seed FROM runs WHERE id = :i"),
                           {"i": first.run_id}).one()
        minimality = conn.execute(text("SELECT minimal, undecided FROM puzzles")).all()
    engine.dispose()
    assert tuple(run) == ("completed", 150, 149, 11)
    # 9x9 carving has no node limit: every puzzle is proven minimal (SQLite gives the Boolean back as 1)
    assert len(minimality) == 220 and {(bool(m), u) for m, u in minimality} == {(True, 0)}


@pytest.mark.parametrize("size, count, batch, generators", [(9, 150, 64, 2), (9, 5, 256, 2), (16, 3, 1, 2)])
def test_a_fill_makes_at_most_a_batch_more_than_it_needs(tmp_path, size, count, batch, generators):
    """Generators start a batch only while the boards checked, written or queued fall short of the count."""
    summary = fill(settings_for(tmp_path), count, size=size, batch=batch, seed=21, generators=generators,
                   checkers=2)
    assert summary.status == "completed" and summary.accepted == count
    assert_accounted(summary)
    assert summary.generated <= count + summary.duplicates + batch - 1


def test_puzzles_are_unique_with_the_board_as_solution(tmp_path):
    from engine.grid import Grid
    from engine.solvers import solve

    settings = settings_for(tmp_path)
    fill(settings, 20, batch=8, seed=3, generators=1, checkers=1, symmetry="rot180")
    for r in catalogue_rows(settings.url):
        result = solve(Grid(from_line(r.puzzle)), limit=2)
        assert result.count == 1 and to_line(result.solution) == r.board


@pytest.mark.slow
def test_same_seed_same_catalogue(tmp_path):
    a = settings_for(tmp_path / "a")
    b = settings_for(tmp_path / "b")
    for s in (a, b):
        fill(s, 40, batch=16, seed=99, generators=1, checkers=1)
    assert [(r.board, r.puzzle) for r in catalogue_rows(a.url)] == \
           [(r.board, r.puzzle) for r in catalogue_rows(b.url)]


def test_duplicates_are_dropped_4x4(tmp_path):
    settings = settings_for(tmp_path)
    summary = fill(settings, 60, size=4, equivalence="none", batch=32, seed=5)
    assert summary.status == "completed" and summary.accepted == 60 and summary.duplicates > 0
    assert_accounted(summary)
    rows = assert_consistent(settings.url, settings.folder)
    assert len({r.board for r in rows}) == 60


def test_exhaustion_stops_cleanly_and_keeps_what_it_found(tmp_path):
    from engine.keys import canonical_keys

    settings = settings_for(tmp_path)
    started = time.monotonic()
    summary = fill(settings, 50, size=4, equivalence="full", batch=64, seed=1, give_up_after=500)
    assert time.monotonic() - started < 30
    assert summary.status == "exhausted" and summary.accepted == 2  # 4x4 has two classes under full
    assert "exhausted after" in summary.message and "only 2 new boards" in summary.message
    assert_accounted(summary)
    rows = assert_consistent(settings.url, settings.folder)
    boards = np.stack([from_line(r.board) for r in rows])
    assert len({k.tobytes() for k in canonical_keys(boards, 2, "full")}) == 2
    again = fill(settings, 5, size=4, equivalence="full", batch=64, seed=2, give_up_after=300)
    assert again.status == "exhausted" and again.accepted == 0 and again.first_number is None


@pytest.mark.parametrize("stage", ["generate", "check", "write"])
@pytest.mark.slow
def test_failing_worker_stops_the_run_and_keeps_what_was_accepted(tmp_path, monkeypatch, stage):
    monkeypatch.setenv(actor_mod.FAIL_ENV, f"{stage}:3")
    settings = settings_for(tmp_path)
    started = time.monotonic()
    summary = fill(settings, 100_000, batch=16, seed=4, generators=1, checkers=1)
    assert time.monotonic() - started < 30  # never a hang
    assert summary.status == "failed" and "InjectedFailure" in summary.error
    assert summary.error.startswith({"generate": "generator-1", "check": "checker-1", "write": "writer"}[stage])
    assert "\n" not in summary.error
    rows = assert_consistent(settings.url, settings.folder)
    assert len(rows) == summary.accepted
    assert_accounted(summary)
    if stage == "write":
        assert summary.accepted == 32  # two batches committed before the third failed
    monkeypatch.delenv(actor_mod.FAIL_ENV)
    after = fill(settings, 10, batch=16, seed=5)  # the catalogue is usable afterwards
    assert after.first_number == summary.accepted


class CutOffFirstCarving(Kernels):
    """Real kernels, except that the first carving of each board runs with a node limit of one (so its removal
    tests are cut off: unique, not proven minimal) and is graded "hard", while every retry carves without a limit
    and is graded "easy": with ``--level easy`` the retry is the carving kept."""

    def __init__(self):
        super().__init__("backtrack")
        self.carvings = 0

    def carve(self, boards, box, seeds, symmetry, target_clues, attempts):
        from engine.carve import carve_many

        self.carvings += 1
        return carve_many(boards, box, seeds, symmetry=symmetry, target_clues=target_clues, attempts=attempts,
                          node_limit=1 if self.carvings == 1 else 0)

    def grade_many(self, puzzles, box):
        level = "hard" if self.carvings == 1 else "easy"
        return [SimpleNamespace(level=level, score=1.0, hardest="naked single", technique="naked-single",
                                steps_by_technique={})
                for _ in puzzles]


def checked_batch(level):
    """A CheckerActor's CheckedBatch for 6 boards under CutOffFirstCarving, and the plan it ran with."""
    from engine.generators import get_generator

    boards, seeds, restarts = get_generator("backtrack").generate_array(3, 6, 17)
    plan = FillOptions(size=9, method="backtrack", equivalence="d4", level=level, level_tries=3, seed=0)
    checker = CheckerActor("checker-1", Supervisor(), threading.Event(), Channel("in", 1), Channel("out", 1),
                           threading.Event(), plan, Counters(target=6), SeenKeys(), None, CutOffFirstCarving())
    batch = BoardBatch("generator-1", 1, boards, seeds.astype(np.int64), restarts.astype(np.int32), 0.1)
    keys = tuple(f"k{i}" for i in range(len(batch)))
    return checker.check(batch, np.arange(len(batch)), keys), plan, seeds


def test_checked_batch_and_rows_carry_each_carvings_minimality():
    checked, plan, _ = checked_batch(level=None)
    columns = checked.puzzle_columns
    assert not any(columns["minimal"])
    assert all(u > 0 for u in columns["undecided"])  # a limit of one node cuts off nearly every removal test
    _, puzzles = batch_rows(checked, plan, run_id=1)
    assert [(p["minimal"], p["undecided"]) for p in puzzles] == [(False, u) for u in columns["undecided"]]
    for p in puzzles:  # plain Python values, not numpy scalars, whatever the column
        assert all(v is None or type(v) in (bool, int, float, str) for v in p.values()), p


def test_level_retries_store_the_kept_carvings_minimality():
    checked, plan, seeds = checked_batch(level="easy")
    # the first carving missed the level; the retry that reached it is stored, with its own minimality
    columns = checked.puzzle_columns
    assert columns["level"] == ("easy",) * 6 and columns["attempts"] == (2,) * 6
    assert columns["carve_seed"] == tuple(carve_seeds(seeds.astype(np.int64), 1).tolist())
    assert all(columns["minimal"]) and columns["undecided"] == (0,) * 6
    _, puzzles = batch_rows(checked, plan, run_id=1)
    assert {(p["minimal"], p["undecided"]) for p in puzzles} == {(True, 0)}


def test_level_keeps_carving_until_the_level(tmp_path):
    settings = settings_for(tmp_path)
    summary = fill(settings, 12, batch=12, seed=8, generators=1, checkers=1, level="easy", level_tries=10)
    engine = create_engine(settings.url)
    with engine.connect() as conn:
        levels = conn.execute(text("SELECT level, attempts FROM puzzles")).all()
    engine.dispose()
    easy = sum(level == "easy" for level, _ in levels)
    assert easy == 12 - summary.off_level and easy >= 1
    assert all(attempts >= 1 for _, attempts in levels)


@pytest.mark.slow
def test_two_fills_at_once_never_share_a_number_or_a_key(tmp_path, catalogue_url):
    """Two runs in one process, separate engines (so separate connections), both on one catalogue."""
    settings = settings_for(tmp_path, catalogue_url)
    fill(settings, 1, size=4, equivalence="none", batch=4, seed=1)  # migrate once before the race
    results = {}

    def run(seed):
        results[seed] = fill(settings, 40, size=4, equivalence="none", batch=8, seed=seed, generators=1,
                             checkers=1)

    threads = [threading.Thread(target=run, args=(s,)) for s in (21, 22)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert all(r.status == "completed" and r.accepted == 40 for r in results.values())
    rows = assert_consistent(catalogue_url, settings.folder)
    assert len(rows) == 81


@pytest.mark.slow
def test_fill_on_postgresql(tmp_path, pg_url):
    settings = settings_for(tmp_path, pg_url)
    summary = fill(settings, 40, size=4, equivalence="none", batch=16, seed=3)
    assert summary.accepted == 40
    again = fill(settings, 30, batch=16, seed=3)  # 9x9 after 4x4: numbering is one sequence
    assert (again.first_number, again.last_number) == (40, 69)
    assert_consistent(pg_url, settings.folder)
    engine = create_engine(pg_url)
    with engine.connect() as conn:  # a real boolean on PostgreSQL
        minimality = conn.execute(text("SELECT DISTINCT minimal, undecided FROM puzzles")).all()
    engine.dispose()
    assert [tuple(r) for r in minimality] == [(True, 0)]


def test_ctrl_c_in_process_saves_everything_accepted(tmp_path):
    """SIGINT to this very process while fill runs in the main thread: the first level (orderly stop)."""
    import os
    import signal

    settings = settings_for(tmp_path)

    def interrupt_when_boards_exist():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if settings.folder.is_dir() and len(os.listdir(settings.folder)) >= 64:
                os.kill(os.getpid(), signal.SIGINT)
                return
            time.sleep(0.02)

    # a terminal's Ctrl-C: Python's own handler (pytest-xdist's workers, like a script's background job, start
    # with SIGINT ignored, which fill leaves alone: the next test)
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Thread(target=interrupt_when_boards_exist, daemon=True).start()
        summary = fill(settings, 10 ** 7, batch=32, seed=6)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # our handler is gone again
    finally:
        signal.signal(signal.SIGINT, inherited)
    assert summary.status == "interrupted" and summary.accepted >= 64
    assert_accounted(summary)
    assert len(assert_consistent(settings.url, settings.folder)) == summary.accepted


def test_signals_ignored_when_the_work_starts_stay_ignored():
    """A signal the process was started with ignored (a script's background job ignores SIGINT) is not taken over
    by fill's and import's orderly stop; a signal with a handler is, and gets it back afterwards."""
    import signal

    from catalogue.pipeline.interrupts import Interrupts

    inherited = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        with Interrupts("stopping", "boards") as interrupts:
            assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) == interrupts._handle
        assert signal.getsignal(signal.SIGTERM) is signal.default_int_handler
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        with Interrupts("stopping", "boards"):
            assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
    finally:
        for sig, handler in inherited.items():
            signal.signal(sig, handler)
