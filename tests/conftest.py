"""Shared fixtures: real catalogue databases (a SQLite file, a fresh PostgreSQL schema) and sample rows.

``pg_url`` gives each test its own schema in the database ``test`` on 127.0.0.1:5432 (user postgres), selected
through the connection's ``search_path``, and drops it afterwards; it skips only when no server answers.
``catalogue_url`` runs a test on both.
"""
from __future__ import annotations

import contextlib
import datetime as dt
import os
import uuid
from pathlib import Path

import pytest

from engine import cache
from engine.vocabulary import TECHNIQUE_OF

# pytest-xdist's workers (execnet) put COLUMNS=80 and LINES=24 in their environment, which a plain run does not
# have: the tables would be fitted to 80 columns there and not here. Tests that want a width set it themselves.
if os.environ.get("PYTEST_XDIST_WORKER"):
    for _name in ("COLUMNS", "LINES"):
        os.environ.pop(_name, None)

# The folder the engine would choose by itself (engine._jit), chosen here before any test module imports a kernel,
# so that the CLI subprocesses the tests start inherit NUMBA_CACHE_DIR and share the same warm cache.
cache.enable()

# The guided step path fails rather than quietly falling back when the compiled grader names a technique whose
# Python finder finds no step (engine/grade/guided.py): in the tests, every such disagreement is a bug to see.
from engine.grade import guided  # noqa: E402

guided.STRICT = True

ROOT = Path(__file__).resolve().parents[1]

PG_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


#: the test files that take minutes (dozens of CLI processes, big catalogues, the grader's plain paths): run first,
#: so that each file going to one worker (`--dist loadfile`) does not leave one of them running alone at the end
#: (measured on a host twice as slow as the EPYC: the last tenth of the run took four minutes)
LONG_FILES = ("test_help_examples.py", "test_grade_chains.py", "test_location.py", "test_import_cli.py",
              "test_kills.py", "test_grade_fast.py", "test_docs.py", "test_grade_guided.py", "test_grade_unique.py",
              "test_grade_grader.py", "test_shape_grading.py", "test_progress.py", "test_grade_cli.py",
              "test_stop_signals.py", "test_page.py", "test_warmup.py", "test_fuzz_memory.py", "test_budgets.py",
              "test_grade_plus.py", "test_closed_folder.py")


def pytest_collection_modifyitems(session, config, items):
    """The long files first, each keeping its own order (a stable sort)."""
    rank = {name: k for k, name in enumerate(LONG_FILES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(LONG_FILES)))


def pytest_sessionstart(session):
    """A cold kernel cache (a new machine, or changed engine sources): compile every kernel the tests use once,
    here, on every core (engine.warmup.prepare), before the test workers start. Otherwise both workers and the
    first CLI subprocesses compile the same kernels at the same moment. A warm cache costs a glance at the
    cache's marker files."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    _byte_compile()
    from engine.warmup import jobs_done, prepare
    from engine.warmup.jobs import all_job_ids

    jobs = all_job_ids()
    if len(jobs_done(jobs)) < len(jobs):
        prepare(jobs)


def _byte_compile() -> None:
    """Write the bytecode of the project's own modules once, here, before any CLI process starts.

    Why: an editable install leaves ``engine/`` and ``catalogue/`` uncompiled, and where PYTHONDONTWRITEBYTECODE is
    set (CI's environment has it) no process ever writes their ``.pyc``, so each of the suite's many CLI processes
    compiled about 150 modules from source again: 0.3 s of CPU each (``catalogue solve`` on one puzzle 2.2 s ->
    1.7 s). compileall writes them whatever that variable says; a module already compiled costs a stat."""
    import compileall

    for package in ("engine", "catalogue"):
        compileall.compile_dir(str(ROOT / package), quiet=1, workers=1)


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    """A SQLite catalogue file that does not exist yet (the first open creates and migrates it)."""
    return f"sqlite:///{tmp_path / 'catalogue.db'}"


def _pg_admin_engine():
    from sqlalchemy import create_engine

    return create_engine(PG_SERVER, connect_args={"connect_timeout": 3}, isolation_level="AUTOCOMMIT")


def _new_pg_schema():
    """A PostgreSQL URL whose default schema is new and empty, dropped when the generator is closed (or a skip when
    no server answers)."""
    from sqlalchemy import text
    from sqlalchemy.exc import OperationalError

    admin = _pg_admin_engine()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except OperationalError as e:
        admin.dispose()
        pytest.skip(f"no PostgreSQL server answers at 127.0.0.1:5432 ({str(e.orig).strip().splitlines()[0]})")
    try:
        # every connection made from this URL sees the new schema first: tables, alembic_version, all of it
        yield f"{PG_SERVER}?options=-csearch_path%3D{schema}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def pg_url():
    """A PostgreSQL URL whose default schema is new and empty; dropped after the test."""
    yield from _new_pg_schema()


@pytest.fixture(params=["sqlite", "postgresql"])
def catalogue_url(request) -> str:
    """The same test on a SQLite file and on PostgreSQL."""
    if request.param == "postgresql":
        request.applymarker(pytest.mark.postgres)
        return request.getfixturevalue("pg_url")
    return request.getfixturevalue("sqlite_url")


@pytest.fixture(scope="module")
def module_pg_url():
    """:func:`pg_url` for a whole module: for catalogues the module's tests only read (filled once, not per test)."""
    yield from _new_pg_schema()


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def module_catalogue_url(request, tmp_path_factory) -> str:
    """:func:`catalogue_url` for a whole module: a SQLite file that does not exist yet, and a new PostgreSQL schema;
    for catalogues the module's tests only read."""
    if request.param == "postgresql":
        return request.getfixturevalue("module_pg_url")
    return f"sqlite:///{tmp_path_factory.mktemp('catalogue') / 'catalogue.db'}"


# --- sample rows -----------------------------------------------------------------------------------------

def pattern_board(box: int, shift: int = 0) -> str:
    """A valid complete board in the line format: ``naive.pattern_board(box, shift=shift)`` as text.

    Cell (r, c) holds ((r mod box) * box + r div box + c) mod n, then digit d becomes (d + shift) mod n + 1.
    """
    from naive import pattern_board as cells

    from engine.formats import SYMBOLS

    return "".join(SYMBOLS[d] for d in cells(box, shift=shift))


def carve_line(board: str, keep_every: int, offset: int = 0) -> str:
    """Givens for the read-side tests: keep every k-th cell (not a unique puzzle; these tests only read)."""
    return "".join(ch if (i + offset) % keep_every == 0 else "." for i, ch in enumerate(board))


#: puzzles of the sample catalogue: (board number, box, clue step, nodes, guesses, level, score, hardest step)
#: minimality (migration 0003): board 4's carving hit the node limit 3 times; board 3's, like a puzzle stored
#: before 0003, was never recorded (NULL); the rest were proven minimal (see MINIMALITY)
SAMPLE = [
    (0, 3, 3, 120, 4, "easy", 1.5, "hidden single"),
    (1, 3, 4, 480, 30, "hard", 4.2, "X-Wing"),
    (2, 3, 2, 90, 0, "easy", 1.2, "naked single"),
    (3, 2, 2, 7, 0, None, None, None),
    (4, 3, 4, 480, 12, "expert", 6.1, "XY-Wing"),
]
#: board number -> (minimal, undecided) where it is not (True, 0)
MINIMALITY = {3: (None, None), 4: (False, 3)}
#: board number -> (source, source_line) of the sample's imported puzzles (the others were carved)
IMPORTED = {2: ("sample.sdm", 3)}


def sample_rows() -> list[dict]:
    """The sample puzzles as the query API returns them (before the database adds anything)."""
    rows = []
    for number, box, step, nodes, guesses, level, score, hardest in SAMPLE:
        board = pattern_board(box, shift=number)
        puzzle = carve_line(board, step, offset=number)
        minimal, undecided = MINIMALITY.get(number, (True, 0))
        rows.append({
            "number": number, "variant": 1, "size": box * box, "shape": f"{box}x{box}", "equivalence": "d4" if box == 3 else "none",
            "method": "wfc" if number % 2 == 0 else "backtrack",
            "clues": sum(ch != "." for ch in puzzle), "symmetry": "none",
            "nodes": nodes, "guesses": guesses, "backtracks": guesses // 2, "checks": nodes * 3,
            "max_depth": guesses // 3, "solve_seconds": nodes / 1e6, "carve_checks": 50 + number,
            "carve_seconds": 0.001 * (number + 1), "minimal": minimal, "undecided": undecided,
            "level": level, "score": score, "hardest": hardest, "technique": TECHNIQUE_OF.get(hardest),
            "source": IMPORTED.get(number, (None,))[0],
            "source_line": IMPORTED.get(number, (None, None))[1], "puzzle": puzzle, "solution": board,
        })
    return rows


def fill_sample(url: str) -> list[dict]:
    """Open (and migrate) the catalogue at ``url``, insert the sample through the models; return sample_rows()."""
    import json

    from sqlalchemy.orm import Session

    from catalogue.store import Catalogue
    from catalogue.store.models import Board, Puzzle, Run

    rows = sample_rows()
    engine = Catalogue.open(url).engine
    started = dt.datetime(2024, 6, 1, 12, 0, 0, tzinfo=dt.timezone.utc)
    with Session(engine) as session, session.begin():
        run = Run(started_at=started, finished_at=started + dt.timedelta(seconds=2), status="completed",
                  program_version="0.1.0", command="catalogue fill --count 5", size=9, shape="3x3", method="wfc",
                  equivalence="d4", symmetry="none", seed=42, generators=2, checkers=2, queue_size=64,
                  parameters="{}", generated=9, accepted=5, duplicates=3, contradictions=1,
                  elapsed_seconds=2.0, stage_stats=json.dumps({"generate": {"items": 9}}), files_through=4)
        session.add(run)
        session.flush()
        for row in rows:
            session.add(Board(number=row["number"], size=row["size"], shape=row["shape"], equivalence=row["equivalence"],
                              key=row["solution"], board=row["solution"], method=row["method"],
                              seed=1000 + row["number"], restarts=row["number"], generate_seconds=0.01,
                              run_id=run.id, created_at=started))
        session.flush()
        for row in rows:
            techniques = json.dumps({row["technique"]: 1}) if row["technique"] else None
            session.add(Puzzle(board_number=row["number"], puzzle=row["puzzle"], clues=row["clues"],
                               symmetry="none", target_clues=None, carve_seed=7, carve_checks=row["carve_checks"],
                               carve_seconds=row["carve_seconds"], attempts=1, minimal=row["minimal"],
                               undecided=row["undecided"], source=row["source"], source_line=row["source_line"],
                               **{k: row[k] for k in ("nodes", "guesses", "backtracks", "checks", "max_depth",
                                                      "solve_seconds", "level", "score", "hardest",
                                                      "technique")},
                               techniques=techniques))
    engine.dispose()
    return rows


#: the catalogue id fill_synthetic gives every catalogue, so that SQLite and PostgreSQL copies choose alike
SYNTHETIC_ID = "0123456789abcdef0123456789abcdef"
_LEVELS = ("easy", "medium", "hard", "expert", "extreme")


def fill_synthetic(url: str, n: int = 60) -> list[dict]:
    """A catalogue of ``n`` 9x9 boards with one puzzle each (levels, clues and scores vary with the number) and a
    fixed catalogue id; returns the rows the query gives, in board order."""
    from sqlalchemy import insert, text

    from catalogue.store import Catalogue
    from catalogue.store.models import Board, Puzzle, Run

    engine = Catalogue.open(url).engine
    now = dt.datetime(2025, 1, 1, tzinfo=dt.timezone.utc)
    with engine.begin() as conn:
        conn.execute(text("UPDATE catalogue SET id = :id"), {"id": SYNTHETIC_ID})
        run = conn.execute(insert(Run).values(
            started_at=now, status="completed", program_version="test", command="test", size=9, shape="3x3", method="wfc",
            equivalence="d4", symmetry="none", seed=1, generators=1, checkers=1, queue_size=1, parameters="{}",
            generated=n, accepted=n, duplicates=0, contradictions=0).returning(Run.id)).scalar_one()
        boards, puzzles = [], []
        for number in range(n):
            board = pattern_board(3, shift=number % 9)
            clues = 17 + number % 13
            puzzle = "".join(ch if (i * 7 + number) % 81 < clues else "." for i, ch in enumerate(board))
            level = _LEVELS[number % 5] if number % 11 else None  # every 11th ungraded
            boards.append(dict(number=number, size=9, shape="3x3", equivalence="d4", key=f"k{number}", board=board,
                               method="wfc" if number % 3 else "backtrack", seed=number, restarts=0,
                               generate_seconds=0.001, run_id=run, created_at=now))
            puzzles.append(dict(board_number=number, puzzle=puzzle, clues=sum(c != "." for c in puzzle),
                                symmetry="none", carve_seed=number, carve_checks=81, carve_seconds=0.001,
                                attempts=1, nodes=100 + number, guesses=number % 7, backtracks=number % 4,
                                checks=1000 + number, max_depth=number % 5, solve_seconds=1e-5 * (number + 1),
                                level=level, score=None if level is None else round(1 + (number * 37 % 80) / 10, 1),
                                hardest=None if level is None else "X-Wing",
                                technique=None if level is None else "x-wing", minimal=True, undecided=0))
        conn.execute(insert(Board), boards)
        conn.execute(insert(Puzzle), puzzles)
    engine.dispose()
    with Catalogue.open(url, create=False) as cat:
        return list(cat.puzzles().dicts())


@pytest.fixture
def sample_url(catalogue_url) -> str:
    """A catalogue (SQLite and PostgreSQL) holding the five sample puzzles."""
    fill_sample(catalogue_url)
    return catalogue_url


@pytest.fixture
def sample_sqlite(sqlite_url) -> str:
    """The sample catalogue on SQLite only (CLI tests, where the database does not change the output)."""
    fill_sample(sqlite_url)
    return sqlite_url


@pytest.fixture
def fill_catalogue():
    """``fill_sample`` as a fixture, for tests that insert the sample into a catalogue they prepared."""
    return fill_sample


@contextlib.contextmanager
def running_server(db: str):
    """The base URL of the web app on catalogue ``db``: a real uvicorn server in a daemon thread, on a port the OS
    picked; stopped on leaving."""
    import threading
    import time

    import uvicorn

    from catalogue.cli.commands.serve import listen
    from catalogue.web.app import make_app

    sock = listen("127.0.0.1", 0)
    config = uvicorn.Config(make_app(db), log_config=None, log_level="warning", access_log=False)
    srv = uvicorn.Server(config)
    srv.install_signal_handlers = lambda: None  # not the main thread
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        srv.should_exit = True
        thread.join(10)


def extra_puzzles(url: str, numbers, seed: int) -> str:
    """Other puzzles of the stored 9x9 boards ``numbers`` (their solutions carved again with other seeds), one a
    line: what `catalogue import` adds to those boards as their second, third... puzzles."""
    import numpy as np

    from catalogue.store import Catalogue
    from engine import formats
    from engine.carve import carve_many

    with Catalogue.open(url, create=False) as cat:
        solutions = [cat.board(n).board for n in numbers]
    boards = np.stack([formats.from_line(s, 3) for s in solutions])
    carved = carve_many(boards, 3, [seed + i for i in range(len(numbers))])
    return "".join(formats.to_line(c.puzzle) + "\n" for c in carved)
