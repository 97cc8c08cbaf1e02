"""`catalogue regrade` and ``Catalogue.regrade``: stale stored grades replaced by this version's, on SQLite and
PostgreSQL, checked against the step-by-step grader (an independent path); nothing else touched; a dry run writes
nothing; an interrupted regrade keeps the chunks it wrote."""
from __future__ import annotations

import functools
import json
import signal
import subprocess
import sys
import time

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.store import Catalogue
from catalogue.store.models import Board, Puzzle
from engine.formats import from_line
from engine.grade import grade
from engine.vocabulary import STEP_NAMES

runner = CliRunner()


def stored(url: str) -> dict[int, tuple]:
    """puzzle id -> (board number, board, level, score, hardest, techniques as data)."""
    with Catalogue.open(url, create=False) as cat, cat.engine.connect() as conn:
        rows = conn.execute(select(Puzzle.id, Board.number, Board.board, Puzzle.puzzle, Board.size, Puzzle.level,
                                   Puzzle.score, Puzzle.hardest, Puzzle.techniques)
                            .join(Board, Board.number == Puzzle.board_number)).all()
    return {r[0]: (r[1], r[2], r[3], r[4], r[5], r[6], r[7], json.loads(r[8]) if r[8] else None) for r in rows}


@functools.lru_cache(maxsize=None)
def expected(puzzle: str, size: int) -> tuple:
    """The grade columns the step path gives (not the compiled path regrade uses). Kept once worked out: one of the
    sample's puzzles takes the step path seconds, and every test here asks for each puzzle's grade again."""
    box = {4: 2, 9: 3, 16: 4, 25: 5}[size]
    g = grade(from_line(puzzle, box), box)
    return g.level, round(g.score, 1), g.hardest, g.steps_by_technique


def grades_of(row: tuple) -> tuple:
    return row[4], None if row[5] is None else round(row[5], 1), row[6], row[7]


def test_regrade_replaces_stale_grades_and_nothing_else(sample_url):
    before = stored(sample_url)
    wanted = {pid: expected(row[2], row[3]) for pid, row in before.items()}
    stale = {pid for pid, row in before.items() if grades_of(row) != wanted[pid]}
    assert stale  # the sample's grades are made up: most differ from the grader's

    with Catalogue.open(sample_url, create=False) as cat:
        dry = cat.regrade({}, write=False)
    assert (dry.matched, dry.graded, dry.changed) == (len(before), len(before), len(stale))
    assert stored(sample_url) == before  # a dry run writes nothing

    with Catalogue.open(sample_url, create=False) as cat:
        done = cat.regrade({})
    assert done.changed == len(stale) and sum(done.moves.values()) == len(stale)
    after = stored(sample_url)
    assert {pid: grades_of(row) for pid, row in after.items()} == wanted
    # boards, numbers and puzzles as they were
    assert {pid: row[:4] for pid, row in after.items()} == {pid: row[:4] for pid, row in before.items()}

    with Catalogue.open(sample_url, create=False) as cat:
        again = cat.regrade({})
    assert (again.graded, again.changed) == (len(before), 0)


def test_filters_choose_the_puzzles(sample_url):
    before = stored(sample_url)
    with Catalogue.open(sample_url, create=False) as cat:
        done = cat.regrade({"size": 4})
    assert done.matched == sum(row[3] == 4 for row in before.values())
    after = stored(sample_url)
    for pid, row in after.items():
        if row[3] == 4:
            assert grades_of(row) == expected(row[2], 4)
        else:
            assert row == before[pid]


def test_an_interrupted_regrade_keeps_what_it_wrote(sample_url):
    """Ctrl-C after the first chunk: that chunk's grades are stored, the rest are not; running again finishes."""
    before = stored(sample_url)
    order = sorted(before, key=lambda pid: (before[pid][0], pid))  # the order regrade walks: board, puzzle

    def stop(done: int, total: int) -> None:
        if done >= 2:
            raise KeyboardInterrupt

    with Catalogue.open(sample_url, create=False) as cat, pytest.raises(KeyboardInterrupt):
        cat.regrade({}, chunk=2, threads=1, progress=stop)
    after = stored(sample_url)
    for pid in order[:2]:
        assert grades_of(after[pid]) == expected(after[pid][2], after[pid][3])
    for pid in order[2:]:
        assert after[pid] == before[pid]
    with Catalogue.open(sample_url, create=False) as cat:
        cat.regrade({}, chunk=2)
    assert all(grades_of(row) == expected(row[2], row[3]) for row in stored(sample_url).values())


def test_many_chunks_in_threads_give_the_same_grades(sample_url):
    """Chunks of one puzzle in three threads: every grade the step path's."""
    with Catalogue.open(sample_url, create=False) as cat:
        done = cat.regrade({}, chunk=1, threads=3)
    rows = stored(sample_url)
    assert done.graded == len(rows)
    assert all(grades_of(row) == expected(row[2], row[3]) for row in rows.values())


def test_the_command(sample_sqlite):
    dry = runner.invoke(app, ["regrade", "--db", sample_sqlite, "--dry-run"])
    assert dry.exit_code == 0, dry.output
    assert "graded    5 puzzles" in dry.output and "would change (--dry-run: nothing written)" in dry.output
    assert "stored" in dry.output and "hard X-Wing" in dry.output  # the table of moves names the old grade
    result = runner.invoke(app, ["regrade", "--db", sample_sqlite])
    assert result.exit_code == 0 and "changed and written" in result.output
    again = runner.invoke(app, ["regrade", "--db", sample_sqlite])
    assert again.exit_code == 0 and "changed   0" in again.output and "stored" not in again.output
    none = runner.invoke(app, ["regrade", "--db", sample_sqlite, "--technique", "x-wing"])
    assert none.exit_code == 0 and "no puzzles match" in none.output


def test_the_json_report(sample_sqlite):
    before = stored(sample_sqlite)
    result = runner.invoke(app, ["regrade", "--db", sample_sqlite, "--dry-run", "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    changed = sum(grades_of(row) != expected(row[2], row[3]) for row in before.values())
    assert (report["matched"], report["graded"], report["changed"], report["written"]) == (5, 5, changed, False)
    assert sum(m["puzzles"] for m in report["moves"]) == changed
    assert {"stored_level": "hard", "stored_hardest": "X-Wing"}.items() <= next(
        m for m in report["moves"] if m["stored_hardest"] == "X-Wing").items()
    assert stored(sample_sqlite) == before


def test_bad_input_is_one_line(tmp_path, sample_sqlite):
    missing = runner.invoke(app, ["regrade", "--db", str(tmp_path / "nope.db")])
    assert missing.exit_code == 1 and "no catalogue at" in missing.output
    assert not (tmp_path / "nope.db").exists()
    bad = runner.invoke(app, ["regrade", "--db", sample_sqlite, "--level", "bogus"])
    assert bad.exit_code == 2 and "--level" in bad.output and "Traceback" not in bad.output


def _slowest_hardest(count: int) -> list[str]:
    """The ``count`` puzzles of bench/hardest-sample.tsv that serate took longest on (nested forcing chains all)."""
    from paths import ROOT

    rows = [line.split("\t") for line in (ROOT / "bench" / "hardest-sample.tsv").read_text().splitlines()
            if line[:1] in ".123456789"]
    seconds = {row[0]: sum(float(x) * 60 ** k for k, x in enumerate(reversed(row[5].rstrip("s").split("m"))))
               for row in rows}
    return sorted(seconds, key=seconds.get, reverse=True)[:count]


@pytest.mark.slow
def test_ctrl_c_stops_at_once_and_writes_nothing_in_flight(sample_sqlite):
    """Every puzzle of the catalogue one of the slowest of the hardest (nested forcing chains; 13 s of grading in
    one thread on a quick host, where Golden Nugget alone, used before, took 4 s after the nested searches got
    faster): Ctrl-C a few seconds in stops the command at once with one line and exit 130, and its chunk, in
    flight, is not written."""
    with Catalogue.open(sample_sqlite, create=False) as cat, cat.engine.begin() as conn:
        numbers = sorted(conn.execute(select(Puzzle.board_number)).scalars())
        for number, puzzle in zip(numbers, _slowest_hardest(len(numbers)), strict=True):
            conn.execute(Puzzle.__table__.update().where(Puzzle.board_number == number).values(puzzle=puzzle))
    before = stored(sample_sqlite)
    # Ctrl-C from a terminal reaches a command whose SIGINT is the default one; a test run started as a script's
    # background job (``.ci/run &``) would pass on SIGINT ignored, and the command would rightly ignore it too
    proc = subprocess.Popen([sys.executable, "-m", "catalogue", "regrade", "--db", sample_sqlite, "--threads", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(6)  # started, kernels loaded, grading the chunk
    assert proc.poll() is None
    asked = time.monotonic()
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert time.monotonic() - asked < 5
    assert stderr.strip().splitlines() == [
        "catalogue: interrupted after 0 of 5 puzzles: 0 changed grades written; run the command again to go on"]
    assert stored(sample_sqlite) == before


def test_full_scale_rates_big_grid_puzzles_and_a_plain_regrade_keeps_them(tmp_path):
    """A 16x16 puzzle stored as needing guessing (a fill or import leaves the dynamic chains out on this size):
    `regrade --full-scale` rates it by them; a later plain regrade grades it with them again (its stored grade
    came from them) and so changes nothing, rather than undoing the rating."""
    from puzzles import NEEDS_DYNAMIC_16

    url = f"sqlite:///{tmp_path / 'big.db'}"
    source = tmp_path / "big.txt"
    source.write_text(NEEDS_DYNAMIC_16 + "\n")
    imported = runner.invoke(app, ["import", str(source), "--db", url])
    assert imported.exit_code == 0, imported.output
    (row,) = stored(url).values()
    assert grades_of(row)[:3] == ("extreme", 20.0, "guessing")
    plain = runner.invoke(app, ["regrade", "--db", url, "--format", "json"])
    assert json.loads(plain.stdout)["changed"] == 0
    full = runner.invoke(app, ["regrade", "--db", url, "--full-scale", "--format", "json"])
    assert full.exit_code == 0, full.output
    assert json.loads(full.stdout)["moves"] == [{"stored_level": "extreme", "stored_hardest": "guessing",
                                                 "level": "extreme", "hardest": "dynamic cell forcing chains",
                                                 "puzzles": 1}]
    (row,) = stored(url).values()
    assert grades_of(row)[:3] == ("extreme", 9.1, "dynamic cell forcing chains")
    assert row[-1] == grade(from_line(NEEDS_DYNAMIC_16, 4), 4, full_scale=True).steps_by_technique
    again = runner.invoke(app, ["regrade", "--db", url, "--format", "json"])
    assert json.loads(again.stdout)["changed"] == 0
    assert grades_of(next(iter(stored(url).values())))[:3] == ("extreme", 9.1, "dynamic cell forcing chains")


def test_which_puzzles_are_graded_with_the_dynamic_chains_and_how_chunks_are_cut():
    """A big-grid puzzle any of whose stored steps is a dynamic chain (not only its hardest: a long multiple chain
    can outrate one) keeps the full scale; 9x9 and 4x4 puzzles always run every row anyway. Chunks are cut by
    weight, so that a piece of big-grid puzzles graded at the full scale is one thread's work of seconds."""
    from catalogue.store.regrade import WEIGHT, _full, _pieces

    spec = {9: "3x3", 16: "4x4", 25: "5x5"}

    def row(size, technique, techniques):  # (id, shape, puzzle, *GRADE_COLUMNS)
        return (1, spec[size], "", "extreme", 8.6, STEP_NAMES[technique][-1], technique, json.dumps(techniques))

    multiple_first = row(16, "multiple-forcing-chains", {"multiple-forcing-chains": 2, "dynamic-forcing-chains": 1})
    assert _full(multiple_first, False) and _full(row(25, "dynamic-forcing-chains-plus", {}), False)
    assert not _full(row(16, "multiple-forcing-chains", {"multiple-forcing-chains": 2}), False)
    assert not _full(row(9, "dynamic-forcing-chains", {"dynamic-forcing-chains": 1}), False)
    assert not _full((1, "4x4", "", None, None, None, None, None), False)  # ungraded
    assert not _full((1, "4x4", "", "extreme", 20.0, "guessing", "guessing", "{"), False)  # steps that cannot be read
    assert _full((1, "4x4", "", "extreme", 20.0, "guessing", "guessing", "{"), True)
    small = row(9, "hidden-single", {"hidden-single": 50})
    assert [len(p) for p, _ in _pieces([small] * 3 + [multiple_first, small], 1000, False)] == [5]
    cut = list(_pieces([small] * 3 + [multiple_first, small], 4, False))
    assert [fulls for _, fulls in cut] == [[False] * 3, [True], [False]]
    assert [len(p) for p, _ in _pieces([row(16, "nishio", {})] * 70, 1000, True)] == [4] * 17 + [2]
    assert WEIGHT[(25, True)] == 1000
