"""`catalogue fill` and `catalogue verify` through the CLI: options, exit codes, messages, concurrent processes."""
from __future__ import annotations

import json

import subprocess
import sys
from pathlib import Path

import pytest
from consistency import assert_consistent
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.pipeline.actor import FAIL_ENV

runner = CliRunner()
CLI = [sys.executable, "-c", "from catalogue.cli import main; main()"]


def where(tmp_path: Path, url: str | None = None) -> list[str]:
    return ["--db", url or str(tmp_path / "c.db"), "--out", str(tmp_path / "boards")]


def url_of(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'c.db'}"


@pytest.mark.parametrize("args, message", [
    ([], "Missing option '--count'"),
    (["--count", "0"], "--count"),
    (["--count", "5", "--size", "5"], "--size"),
    (["--count", "5", "--method", "magic"], "--method"),
    (["--count", "5", "--equivalence", "d8"], "--equivalence"),
    (["--count", "5", "--level", "impossible"], "--level"),
    (["--count", "5", "--checkers", "0"], "--checkers"),
    (["--count", "5", "--target-clues", "82"], "--target-clues must be between 0 and 81"),
    # allocated whole by the kernels: this one asked for 745 GiB mid-run; every worker is an OS thread
    (["--count", "5", "--batch", "99999999999"], "--batch must be at most 65,536, got 99,999,999,999"),
    (["--count", "5", "--generators", "30000"], "--generators"),
    (["--count", "5", "--checkers", "257"], "--checkers"),
])
def test_usage_errors_exit_2_with_one_line(tmp_path, args, message):
    result = runner.invoke(app, ["fill", *args, *where(tmp_path)])
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert not (tmp_path / "boards").exists()  # nothing was started


@pytest.mark.parametrize("out", ["file", "file/sub"])
def test_out_that_is_not_a_folder_stops_before_the_run(tmp_path, out):
    (tmp_path / "file").write_text("x")
    result = runner.invoke(app, ["fill", "--count", "2", "--db", str(tmp_path / "c.db"), "--out",
                                 str(tmp_path / out)])
    assert (result.exit_code, result.stdout) == (1, "")  # was: a run, then "writer failed: FileExistsError"
    assert result.stderr.startswith(f"catalogue: --out {tmp_path / out}: ") and result.stderr.count("\n") == 1
    assert not (tmp_path / "c.db").exists()  # no run recorded, no catalogue made
    verify = runner.invoke(app, ["verify", "--db", str(tmp_path / "c.db"), "--out", str(tmp_path / out)])
    assert verify.exit_code == 1 and "Traceback" not in verify.output


def test_fill_prints_a_summary_and_verify_says_ok(tmp_path):
    result = runner.invoke(app, ["fill", "--count", "30", "--batch", "16", "--seed", "7", *where(tmp_path)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "status          completed (run 1)" in out
    assert "accepted        30 of 30 new boards (numbers 0..29)" in out
    assert "seed            7" in out
    for stage in ("generate", "check", "write"):
        assert stage in out
    assert result.stderr == ""  # no progress bar when stderr is not a terminal
    assert_consistent(url_of(tmp_path), tmp_path / "boards")
    engine = create_engine(url_of(tmp_path))
    with engine.connect() as conn:
        command, status, seed = conn.execute(text("SELECT command, status, seed FROM runs")).one()
    engine.dispose()
    assert (status, seed) == ("completed", 7)
    assert command == ("catalogue fill --count 30 --size 9 --method wfc --equivalence d4 --seed 7 --symmetry none "
                       "--batch 16")  # the stored command repeats the run
    result = runner.invoke(app, ["fill", "-n", "5", "--seed", "8", *where(tmp_path)])
    assert "(numbers 30..34)" in result.stdout
    result = runner.invoke(app, ["verify", *where(tmp_path)])
    assert result.exit_code == 0 and result.stdout.endswith("ok\n")
    assert "boards        35 (numbers 0..34)" in result.stdout


def test_fill_without_seed_picks_and_prints_one(tmp_path):
    result = runner.invoke(app, ["fill", "--count", "3", *where(tmp_path)])
    line = next(l for l in result.stdout.splitlines() if l.startswith("seed"))
    assert int(line.split()[1]) >= 0


def test_verify_reports_then_repairs(tmp_path):
    runner.invoke(app, ["fill", "--count", "20", "--seed", "1", *where(tmp_path)])
    (tmp_path / "boards" / "4.txt").unlink()
    (tmp_path / "boards" / "9.txt").write_text("12")
    (tmp_path / "boards" / "20.txt").write_text("stray")
    result = runner.invoke(app, ["verify", *where(tmp_path)])
    assert result.exit_code == 1
    assert (f"files         20 checked in {tmp_path / 'boards'}: 1 missing (4.txt), 1 torn (9.txt), 1 stray "
            f"(20.txt)") in result.stdout
    assert "catalogue: 2 problems found in the catalogue" in result.stderr
    result = runner.invoke(app, ["verify", "--repair", "--full", *where(tmp_path)])
    assert result.exit_code == 0 and "repaired      2 files rewritten" in result.stdout
    assert "1 stray files have no board (left in place): 20.txt" in result.stderr
    assert (tmp_path / "boards" / "20.txt").exists()
    assert_consistent(url_of(tmp_path), tmp_path / "boards")


@pytest.mark.slow
def test_exhaustion_exits_0_with_a_message(tmp_path):
    result = runner.invoke(app, ["fill", "--count", "20", "--size", "4", "--equivalence", "full",
                                 "--give-up-after", "300", *where(tmp_path)])
    assert result.exit_code == 0
    assert "status          exhausted" in result.stdout
    assert "catalogue: only 2 new boards found: the 4x4 full space looks exhausted after" in result.stderr


def test_failing_worker_exits_1_with_one_line(tmp_path):
    result = runner.invoke(app, ["fill", "--count", "100000", "--batch", "16", "--checkers", "1", *where(tmp_path)],
                           env={FAIL_ENV: "check:2"})
    assert result.exit_code == 1
    # an injected failure stands for a bug: the line says so, names the actor, and asks for a report
    [line] = result.stderr.splitlines()
    assert line.startswith("catalogue: checker-1 failed: internal error: InjectedFailure: injected failure in "
                           "checker-1 (unit 2) (a bug in catalogue: please report it")
    assert "status          failed" in result.stdout
    assert_consistent(url_of(tmp_path), tmp_path / "boards")


def _two_processes(tmp_path: Path, db: str, extra: list[str]) -> list[subprocess.CompletedProcess]:
    procs = [subprocess.Popen([*CLI, "fill", "--seed", str(seed), "--db", db, "--out", str(tmp_path / "boards"),
                               *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for seed in (1, 2)]
    return [subprocess.CompletedProcess(p.args, p.wait(timeout=120), *p.communicate()) for p in procs]


@pytest.mark.slow
def test_two_processes_on_one_sqlite_file(tmp_path):
    """4x4 boards without equivalence: the two runs meet the same boards often, and must not both keep one."""
    db = str(tmp_path / "c.db")
    runner.invoke(app, ["fill", "--count", "1", "--size", "4", "--equivalence", "none", *where(tmp_path)])
    done = _two_processes(tmp_path, db, ["--count", "60", "--size", "4", "--equivalence", "none", "--batch", "8"])
    assert [d.returncode for d in done] == [0, 0], [d.stderr for d in done]
    rows = assert_consistent(url_of(tmp_path), tmp_path / "boards")
    assert len(rows) == 121 and len({r.board for r in rows}) == 121


@pytest.mark.postgres
@pytest.mark.slow
def test_two_processes_on_postgresql(tmp_path, pg_url):
    runner.invoke(app, ["fill", "--count", "1", "--size", "4", "--equivalence", "none", *where(tmp_path, pg_url)])
    done = _two_processes(tmp_path, pg_url, ["--count", "60", "--size", "4", "--equivalence", "none",
                                             "--batch", "8"])
    assert [d.returncode for d in done] == [0, 0], [d.stderr for d in done]
    assert len(assert_consistent(pg_url, tmp_path / "boards")) == 121


def test_fill_and_verify_have_help():
    for command in ("fill", "verify"):
        result = runner.invoke(app, [command, "--help"])
        assert result.exit_code == 0 and "--db" in result.stdout and "--out" in result.stdout


def test_a_read_only_catalogue_is_one_line(tmp_path):
    # the run row's INSERT failed with a traceback; read-only here through SQLite's URI form, which root obeys too
    assert runner.invoke(app, ["fill", "--count", "2", "--seed", "1", *where(tmp_path)]).exit_code == 0
    url = f"sqlite:///file:{tmp_path / 'c.db'}?mode=ro&uri=true"
    result = runner.invoke(app, ["fill", "--count", "2", "--db", url, "--out", str(tmp_path / "boards")])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (f"catalogue: cannot write database {tmp_path / 'c.db'}: the database is read-only "
                             f"(attempt to write a readonly database): this command writes to it\n")
    lines = runner.invoke(app, ["query", "--db", url, "--format", "line"])  # reading it still works
    assert (lines.exit_code, lines.stdout.count("\n")) == (0, 2)


@pytest.mark.parametrize("args, line", [
    (["--method", "magic"], "--method: no method 'magic'; one of: wfc, backtrack, pattern"),
    (["--equivalence", "d8"], "--equivalence: no equivalence 'd8'; one of: d4, full, none"),
    (["--symmetry", "spiral"], "--symmetry: no symmetry 'spiral'; one of: none, rot180, rot90, mirror, diagonal"),
    (["--level", "trivial"], "--level: no level 'trivial'; one of: easy, medium, hard, expert, extreme"),
])
def test_bad_choice_is_one_line_with_the_valid_values(tmp_path, args, line):
    result = runner.invoke(app, ["fill", "--count", "1", *args, *where(tmp_path)])
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"catalogue: {line}\n")
    assert not (tmp_path / "c.db").exists()


ONE_THREAD = ["--seed", "1", "--generators", "1", "--checkers", "1"]


def stored_puzzles(tmp_path: Path) -> list[str]:
    result = runner.invoke(app, ["query", "--db", str(tmp_path / "c.db"), "--format", "line"])
    return result.stdout.splitlines()


def test_a_level_no_puzzle_reaches_exits_1_and_keeps_the_boards(tmp_path):
    """4x4 --level expert: no 4x4 puzzle needs more than singles. Before: "completed", exit 0."""
    result = runner.invoke(app, ["fill", "--count", "2", "--size", "4", "--level", "expert", "--level-tries", "2",
                                 *ONE_THREAD, *where(tmp_path)])
    assert result.exit_code == 1, result.output
    assert result.stderr == ("catalogue: --level expert: 2 of 2 stored puzzles missed it in 2 carvings each (kept as "
                             "easy: no 4x4 carving was that hard); more --level-tries or another level may help\n")
    assert "off level       2 of 2 puzzles" in result.stdout
    assert len(stored_puzzles(tmp_path)) == 2 and len(list((tmp_path / "boards").glob("*.txt"))) == 2


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_16x16_levels_are_reached_by_putting_clues_back(tmp_path, level):
    """Minimal 16x16 puzzles are all but always extreme: a carving gets clues of its board back until it grades at
    the level (engine.carve.toward). Before: no 16x16 puzzle below extreme, exit 1."""
    result = runner.invoke(app, ["fill", "--count", "3", "--size", "16", "--level", level, *ONE_THREAD,
                                 *where(tmp_path)])
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    rows = json.loads(runner.invoke(app, ["query", "--db", str(tmp_path / "c.db"), "--format", "json"]).stdout)
    assert [r["level"] for r in rows] == [level] * 3
    assert all(r["minimal"] is False and r["clues"] > 80 for r in rows)  # unique, with clues put back
    for r in rows:
        puzzle, board = r["puzzle"], r["solution"]
        assert all(p in (".", b) for p, b in zip(puzzle, board))
    verify = runner.invoke(app, ["verify", "--full", "--db", str(tmp_path / "c.db")])
    assert verify.exit_code == 0, verify.output


def test_a_partial_level_miss_also_exits_1(tmp_path):
    """Exit 0 means every stored puzzle has the level asked for; some off it is exit 1 (all are kept)."""
    result = runner.invoke(app, ["fill", "--count", "6", "--level", "medium", "--level-tries", "1",
                                 "--seed", "3", "--generators", "1", "--checkers", "1", *where(tmp_path)])
    assert result.exit_code == 1, result.output
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("catalogue: --level medium: 5 of 6 stored puzzles missed it in 1 carving each "
                                    "(kept as ")
    assert len(stored_puzzles(tmp_path)) == 6


def test_a_level_every_puzzle_reaches_exits_0(tmp_path):
    result = runner.invoke(app, ["fill", "--count", "3", "--size", "4", "--level", "easy", *ONE_THREAD,
                                 *where(tmp_path)])
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    assert "off level" not in result.stdout


@pytest.mark.parametrize("size, target, fewest", [("9", "16", 17), ("4", "3", 4)])
def test_a_clue_target_no_puzzle_can_reach_exits_1_before_the_run(tmp_path, size, target, fewest):
    result = runner.invoke(app, ["fill", "--count", "2", "--size", size, "--target-clues", target, *where(tmp_path)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (f"catalogue: --target-clues {target}: no {size}x{size} puzzle with one solution has "
                             f"fewer than {fewest} clues; use {fewest} or more\n")
    assert stored_puzzles(tmp_path) == []


def test_english_numbers():
    from catalogue.english import count, numbers

    assert [numbers(None, None), numbers(7, 7), numbers(7, 9), numbers(10, 5753, 9)] == [
        "no new numbers", "number 7", "numbers 7..9", "numbers 10..5753 in 9 runs, others' between"]
    assert [count(1, "puzzle"), count(0, "puzzle"), count(1024, "board")] == ["1 puzzle", "0 puzzles", "1,024 boards"]


@pytest.mark.slow
def test_two_fills_at_once_say_the_numbers_they_really_got(tmp_path):
    """Two fills into one catalogue at once take numbers in turns: each summary's first..last and its count of
    runs of numbers are what the database holds for its run (the runs counted from the boards' numbers)."""
    import re
    import sqlite3

    db = tmp_path / "c.db"
    assert subprocess.run([*CLI, "db", "upgrade", "--db", str(db)], capture_output=True).returncode == 0
    procs = [subprocess.Popen([*CLI, "fill", "--count", "400", "--batch", "8", "--seed", str(seed), "--db", str(db)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for seed in (1, 2)]
    outs = [p.communicate(timeout=600)[0] for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    conn = sqlite3.connect(db)
    for out in outs:
        run = int(re.search(r"\(run (\d+)\)", out).group(1))
        got = [n for (n,) in conn.execute("SELECT number FROM boards WHERE run_id = ? ORDER BY number", (run,))]
        runs = 1 + sum(1 for a, b in zip(got, got[1:]) if b != a + 1)
        said = re.search(r"accepted\s+400 of 400 new boards \(numbers (\d+)\.\.(\d+)( in (\d+) runs, others' "
                         r"between)?\)", out)
        assert said, out
        assert (int(said.group(1)), int(said.group(2))) == (got[0], got[-1]) and len(got) == 400
        assert (int(said.group(4)) if said.group(4) else 1) == runs
    conn.close()
