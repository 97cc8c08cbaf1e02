"""The progress display in a real terminal (tmux), and its absence in pipes and under -q.

The pty tests run `catalogue fill` in a private tmux server (its own socket, killed at the end), record the raw bytes
the program wrote to the terminal (pipe-pane) and the screen (capture-pane): mid-run the bar shows; after the end no
line of the bar is left above the summary; after Ctrl-C the last frame of the bar and the summary show the count the
database holds, and the exit code is 130.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from catalogue.kernels import COMMAND_JOBS, duration, jobs_for
from catalogue.progress import Display

CLI = [sys.executable, "-c", "from catalogue.cli import main; main()"]
BAR = "━"


def saved_boards(db: Path) -> int:
    engine = create_engine(f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            return conn.execute(text("select count(*) from boards")).scalar_one()
    finally:
        engine.dispose()


class Tmux:
    """One command in a detached session of a private tmux server, 120x40."""

    def __init__(self, tmp_path: Path, args: list[str], environ: dict | None = None):
        self.socket = f"catalogue-test-{os.getpid()}-{time.monotonic_ns()}"
        self.log, self.status = tmp_path / "tty.log", tmp_path / "status"
        environ = os.environ if environ is None else environ
        names = ("NUMBA_CACHE_DIR", "PATH", "HOME", "XDG_CACHE_HOME", "VIRTUAL_ENV")
        # the tmux server inherits this process's environment: a name the command must not have is unset
        env = " ".join([f"-u {k}" for k in names if k not in environ]
                       + [f"{k}={shlex.quote(v)}" for k, v in environ.items() if k in names])
        command = (f"env {env} TERM=xterm-256color {shlex.join(args)}; echo $? > {shlex.quote(str(self.status))}; "
                   f"sleep 60")
        self.tmux("new-session", "-d", "-x", "120", "-y", "40", "-s", "t", command)
        self.tmux("pipe-pane", "-o", "-t", "t", f"cat >> {shlex.quote(str(self.log))}")

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True,
                              check=True).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def raw(self) -> str:
        return self.log.read_bytes().decode("utf-8", "replace") if self.log.exists() else ""

    def wait(self, predicate, timeout: float, what: str):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = predicate()
            if found:
                return found
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}; screen:\n{self.screen()}")

    def exit_code(self, timeout: float = 120) -> int:
        self.wait(lambda: self.status.exists() and self.status.read_text().strip(), timeout, "the exit")
        time.sleep(0.3)  # let pipe-pane flush the last bytes
        return int(self.status.read_text())

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


@pytest.fixture
def tmux_run(tmp_path):
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    sessions = []

    def start(args, environ=None):
        session = Tmux(tmp_path, args, environ)
        sessions.append(session)
        return session
    yield start
    for session in sessions:
        session.close()


def frames(raw: str) -> list[tuple[int, int]]:
    """Every "completed/total" the bar drew, in order."""
    return [(int(a), int(b)) for a, b in re.findall(r"(\d+)/(\d+)", raw)]


@pytest.mark.slow
def test_fill_display_leaves_no_stale_line(tmp_path, tmux_run):
    db = tmp_path / "c.db"
    t = tmux_run([*CLI, "fill", "--count", "1000", "--seed", "5", "--db", str(db)])
    t.wait(lambda: BAR in t.screen(), 120, "the bar")
    assert t.exit_code() == 0
    screen = t.screen()
    lines = [line for line in screen.splitlines() if line.strip()]
    assert not any(BAR in line for line in lines), screen
    assert not any("compil" in line for line in lines), screen
    assert any("accepted        1,000 of 1,000" in line for line in lines), screen
    assert lines[0].startswith("status"), screen  # the summary is the first thing on the screen
    assert saved_boards(db) == 1000
    assert frames(t.raw())[-1] == (1000, 1000)


@pytest.mark.slow
def test_grade_ctrl_c_ends_with_the_count_written_and_no_bar(tmp_path, tmux_run):
    """A Ctrl-C in ``catalogue grade`` ends with its one line, counting the grades written, and no bar on the
    screen."""
    from paths import SAMPLES

    puzzles = [line for line in (SAMPLES / "puzzles_9x9.sdm").read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    (tmp_path / "p.txt").write_text("".join(f"{p}\n" for p in puzzles) * 20000)
    out = tmp_path / "out.txt"
    t = tmux_run(["sh", "-c", f"exec {shlex.join([*CLI, 'grade', str(tmp_path / 'p.txt'), '--format', 'line'])} > "
                              f"{shlex.quote(str(out))}"])
    t.wait(lambda: any(done > 0 for done, _ in frames(t.raw())), 120, "the bar moving")
    t.tmux("send-keys", "-t", "t", "C-c")
    assert t.exit_code() == 130
    screen = t.screen()
    lines = [line for line in screen.splitlines() if line.strip()]
    graded = int(re.search(r"interrupted: ([\d,]+) of ", screen)[1].replace(",", ""))
    assert lines[-1].startswith("catalogue: interrupted: ") and not any(BAR in line for line in lines), screen
    assert len(out.read_text().splitlines()) == graded > 0


@pytest.mark.slow
def test_fill_ctrl_c_shows_the_saved_count(tmp_path, tmux_run):
    db = tmp_path / "c.db"
    t = tmux_run([*CLI, "fill", "--count", "200000", "--seed", "6", "--db", str(db)])
    t.wait(lambda: any(done > 0 for done, _ in frames(t.raw())), 120, "the bar moving")
    t.tmux("send-keys", "-t", "t", "C-c")
    assert t.exit_code() == 130
    saved = saved_boards(db)
    assert 0 < saved < 200000
    assert frames(t.raw())[-1] == (saved, 200000)  # the last frame of the bar: the count saved, not an older one
    screen = t.screen()
    assert f"accepted        {saved:,} of 200,000" in screen, screen
    assert f"interrupted: {saved:,} boards saved" in screen, screen
    assert not any(BAR in line for line in screen.splitlines()), screen


def test_no_progress_bytes_when_stderr_is_a_pipe(tmp_path):
    result = subprocess.run([*CLI, "fill", "--count", "300", "--seed", "7", "--db", str(tmp_path / "c.db")],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert BAR not in result.stdout and "\x1b" not in result.stdout
    assert "accepted        300 of 300" in result.stdout


def test_quiet_prints_nothing_on_stderr(tmp_path):
    where = ["--db", str(tmp_path / "c.db"), "--out", str(tmp_path / "boards")]
    quiet = subprocess.run([*CLI, "-q", "fill", "--count", "20", "--seed", "10", *where], capture_output=True,
                           text=True)
    assert quiet.returncode == 0
    assert quiet.stderr == ""
    assert "accepted        20 of 20" in quiet.stdout  # the summary is data: it stays


def test_quiet_keeps_errors(tmp_path):
    result = subprocess.run([*CLI, "-q", "verify", "--db", str(tmp_path / "missing.db")], capture_output=True,
                            text=True)
    assert result.returncode == 1
    assert result.stderr.startswith("catalogue: ")


def test_verbose_logs_detail(tmp_path):
    result = subprocess.run([*CLI, "-v", "fill", "--count", "20", "--seed", "11", "--db", str(tmp_path / "c.db")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "kernel cache folder" in result.stderr
    assert "kernels ready in" in result.stderr


def test_each_command_names_the_jobs_it_compiles():
    from engine.warmup import jobs

    assert jobs_for("fill", [3]) == ["generate:wfc@3", "keys:d4@3", "carve@3", "grade@3"]
    assert jobs_for("fill", [2], method="pattern", equivalence="full", level="hard") == [
        "generate:pattern@2", "keys:full@2", "carve@2", "grade@2", "relax@2"]
    assert jobs_for("import", [4, 3]) == ["solve@3", "keys:d4@3", "grade@3", "minimal@3",
                                          "solve@4", "keys:d4@4", "grade@4", "minimal@4"]
    assert jobs_for("query", [3]) == []  # a command without kernels
    for command in COMMAND_JOBS:  # every job named is one the engine has
        for job in jobs_for(command, [2, 3, 4, 5], method="backtrack", equivalence="none"):
            jobs.parse_job_id(job)


def test_the_time_left_reads_as_seconds_then_minutes():
    assert [duration(s) for s in (0, 4.4, 59.6, 60, 95, 3600)] == ["0 s", "4 s", "1 min 00 s", "1 min 00 s",
                                                                  "1 min 35 s", "60 min 00 s"]


def test_a_rate_keeps_two_digits_below_ten_a_second():
    """The bar's rate and the summaries' (english.rate): whole items from 10 a second, else two significant digits,
    so that hard puzzles graded one or two a second do not read as 0 or 1 a second."""
    from catalogue.english import rate

    assert [rate(r, "grids") for r in (0, 0.036, 0.6, 1.73, 9.94, 9.96, 12.4, 2173.5)] == [
        "0 grids/s", "0.036 grids/s", "0.6 grids/s", "1.7 grids/s", "9.9 grids/s", "10 grids/s", "12 grids/s",
        "2,174 grids/s"]
    assert rate(1 / 36000, "grids") == "0.000028 grids/s"  # ten hours a grid: no exponent


def _cold_env(tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cold-cache")
    return env


@pytest.mark.slow
def test_a_first_compile_says_how_it_goes_in_log_lines(tmp_path):
    """stderr not a terminal: a line when the compile starts (how many kernels, on how many cores), and one when it
    ends; the command's own output says what it did. A second run compiles nothing and says so."""
    env = _cold_env(tmp_path)
    # key (the d4 keys): the smallest job to compile, so that the two compiles here cost seconds, not tens
    first = subprocess.run([*CLI, "compile", "key", "--size", "4"], env=env, capture_output=True, text=True,
                           timeout=600)
    assert first.returncode == 0, first.stderr
    lines = first.stderr.strip().splitlines()
    assert re.fullmatch(r"catalogue: compiling the kernels for key on \d+ cores?, once: \d+ to compile",
                        lines[0])
    assert re.fullmatch(r"catalogue: kernels compiled in [\d.]+ s \(once: later runs load them in about a "
                        r"second\)", lines[-1])
    assert all(re.fullmatch(r"catalogue: compiling the kernels for key: \d+ of \d+, about .* left", x)
               for x in lines[1:-1])
    total = int(lines[0].rsplit(":", 1)[1].split()[0])
    assert first.stdout.startswith(f"compiled {total} kernels for key (4x4) in ")
    again = subprocess.run([*CLI, "compile", "key", "--size", "4"], env=env, capture_output=True, text=True,
                           timeout=600)
    assert again.returncode == 0 and again.stderr == ""
    assert again.stdout.startswith("the kernels for key (4x4) were compiled already: loaded in ")
    # under -q a first compile says nothing (the same keys, from another empty cache); the keys are printed
    boards = tmp_path / "boards.txt"
    boards.write_text("1234341221434321\n2143341212344321\n")
    quiet = subprocess.run([*CLI, "-q", "key", str(boards)], env=_cold_env(tmp_path / "quiet"), capture_output=True,
                           text=True, timeout=600)
    assert quiet.returncode == 0 and quiet.stderr == "" and len(quiet.stdout.split()) == 2
    assert list((tmp_path / "quiet").rglob("*.nbi"))  # it did compile


@pytest.mark.slow
def test_a_first_compile_shows_on_the_terminal_line(tmp_path, tmux_run):
    """On a terminal the compile is the display's line: the kernels done of all and the time left, then erased."""
    run = tmux_run([*CLI, "compile", "generate", "--size", "4"], _cold_env(tmp_path))
    line = run.wait(lambda: re.search(r"compiling the kernels for generate: (\d+) of (\d+), (about .* left|"
                                      r"measuring the time left)", run.screen()), 300, "the compile's line")
    assert int(line.group(1)) <= int(line.group(2))
    assert run.exit_code(600) == 0
    screen = run.screen()
    assert "compiled" in screen and "compiling the kernels for generate:" not in screen


def test_display_is_a_no_op_without_a_terminal():
    with Display("x", enabled=False) as display:
        with display.phase("compiling"):
            pass
        display.bar(10)(5, final=True)
    assert display.progress is None


@pytest.fixture(scope="module")
def filled(tmp_path_factory) -> Path:
    """A catalogue of 1,500 boards, filled once: the tests only read it (verify without --repair)."""
    db = tmp_path_factory.mktemp("filled") / "c.db"
    subprocess.run([*CLI, "fill", "--count", "1500", "--seed", "12", "--db", str(db)], capture_output=True,
                   check=True, timeout=300)
    return db


@pytest.mark.slow
def test_verify_shows_a_bar_on_a_terminal(tmp_path, tmux_run, filled):
    t = tmux_run([*CLI, "verify", "--full", "--db", str(filled)])
    assert t.exit_code() == 0
    raw = t.raw()
    assert BAR in raw and "keys" in raw and "files" in raw
    assert (1500, 1500) in frames(raw)  # the bars ended at the number of boards
    screen = t.screen()
    assert not any(BAR in line for line in screen.splitlines()), screen
    assert screen.splitlines()[0].startswith("boards        1,500"), screen
    assert "ok" in screen.splitlines()


def test_verify_checks_report_progress(filled):
    from catalogue.store import Catalogue

    calls: dict[str, list] = {"keys": [], "files": []}
    with Catalogue.open(str(filled), None, create=False) as catalogue:
        database = catalogue.check_database(full=True, progress=lambda d, t: calls["keys"].append((d, t)))
        files = catalogue.check_files(full=True, progress=lambda d, t: calls["files"].append((d, t)))
        assert catalogue.check_files(full=True).checked == files.checked  # the callback stays optional
    assert database.keys_checked == files.checked == 1500
    assert calls["keys"][0] == (0, 1500) and calls["keys"][-1] == (1500, 1500)
    assert calls["files"][-1] == (1500, 1500)
    assert [d for d, _ in calls["files"]] == sorted(d for d, _ in calls["files"])


def test_verify_in_a_pipe_prints_no_progress(filled):
    result = subprocess.run([*CLI, "verify", "--full", "--db", str(filled)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "" and "\x1b" not in result.stdout


@pytest.mark.slow
def test_quiet_draws_nothing_on_a_terminal(tmp_path, tmux_run):
    t = tmux_run([*CLI, "-q", "fill", "--count", "200", "--seed", "13", "--db", str(tmp_path / "c.db")])
    assert t.exit_code() == 0
    raw = t.raw()
    assert BAR not in raw and "kernels" not in raw.split("status", 1)[0] and "catalogue:" not in raw
    assert t.screen().splitlines()[0].startswith("status          completed"), t.screen()


# --- the file commands: a bar over the grids of a big input ------------------------------------------------------

@pytest.fixture(scope="module")
def many_files(tmp_path_factory) -> tuple[Path, Path, int]:
    """Boards and their carved puzzles, enough for a bar (more than progress.BIG_INPUT), one per line."""
    from catalogue.progress import BIG_INPUT

    folder = tmp_path_factory.mktemp("many")
    count = BIG_INPUT + BIG_INPUT // 4
    boards = folder / "boards.txt"
    with boards.open("w") as out:
        subprocess.run([*CLI, "generate", "--count", str(count), "--seed", "3"], stdout=out, check=True)
    puzzles = folder / "puzzles.txt"
    with puzzles.open("w") as out:
        subprocess.run([*CLI, "carve", str(boards), "--seed", "3"], stdout=out, check=True)
    return boards, puzzles, count


@pytest.mark.slow
@pytest.mark.parametrize("command, label", [("grade", "grading"), ("solve", "solving"), ("key", "keying"),
                                            ("check", "checking"), ("carve", "carving"),
                                            ("generate", "generating")])
def test_file_commands_show_a_bar_and_keep_stdout_whole(tmp_path, tmux_run, many_files, command, label):
    """`catalogue grade many.txt > out.txt` on a terminal: the bar is drawn on stderr and erased at the end; every
    record reaches the file, none of the bar does."""
    boards, puzzles, count = many_files
    source = boards if command == "carve" else puzzles
    out = tmp_path / "out.txt"
    args = ([*CLI, command, "--count", str(count), "--seed", "4"] if command == "generate"
            else [*CLI, command, str(source)])
    t = tmux_run(["bash", "-c", f"{shlex.join(args)} > {shlex.quote(str(out))}"])
    assert t.exit_code() == 0
    raw = t.raw()
    assert label in raw and any(total == count for _, total in frames(raw)), raw[-2000:]
    assert not any(BAR in line for line in t.screen().splitlines())
    text = out.read_text()
    assert BAR not in text and label not in text
    assert len([line for line in text.splitlines() if line.strip()]) >= count  # a record per grid, at least


@pytest.mark.slow
def test_records_on_the_terminal_go_above_the_bar_and_leave_no_frame(tmp_path, tmux_run, many_files):
    """`catalogue grade many.txt --format line` with stdout on the terminal too: each record is printed above the
    bar, whole, and no frame of the bar is left in the scrollback (typer.echo wrote past rich's stand-in for
    stdout, onto the bar's line: catalogue.progress._say_the_encoding)."""
    _, puzzles, count = many_files
    t = tmux_run([*CLI, "grade", str(puzzles), "--format", "line"])
    assert t.exit_code() == 0
    assert any(total == count for _, total in frames(t.raw())), t.raw()[-2000:]
    history = t.tmux("capture-pane", "-p", "-S", "-", "-t", "t")
    from engine.vocabulary import LEVELS

    records = [line for line in history.splitlines() if line.split(" ")[0] in LEVELS]
    assert not any(BAR in line for line in history.splitlines()), history[-3000:]
    assert len(records) == count, history[-3000:]


def test_file_commands_draw_nothing_in_a_pipe_or_below_the_threshold(tmp_path, many_files):
    boards, puzzles, _ = many_files
    piped = subprocess.run([*CLI, "grade", str(puzzles)], capture_output=True, text=True)
    assert piped.returncode == 0 and BAR not in piped.stderr and "grading" not in piped.stderr
    few = tmp_path / "few.txt"
    few.write_text("\n".join(puzzles.read_text().splitlines()[:10]) + "\n")
    from catalogue.progress import item_bar

    with item_bar("grading", 10) as step:  # below the threshold, and done at once: nothing drawn
        step(5)


def test_a_deferred_display_shows_the_bar_made_meanwhile_once_due_and_nothing_before():
    """Display(after=...): a command done sooner draws nothing; one still running when it is due shows the bar it
    made meanwhile, with its count: from a timer when stdout is not the terminal, else at the bar's next move.
    And a timer firing while the bar is being made (after=0.001, many times) never loses the bar's total."""
    from catalogue.progress import Display

    for redirect in (False, True):
        began = time.monotonic()
        with Display("grading", unit="puzzles", enabled=True, redirect_stdout=redirect, after=1.0) as display:
            update = display.bar(5)
            update(2)
            if time.monotonic() - began < 0.9:  # (a stalled host may be past it already)
                assert display.progress is None  # not due yet: nothing drawn
            deadline = time.monotonic() + 10
            while display.progress is None and time.monotonic() < deadline:
                time.sleep(0.05)
                if redirect:
                    update(3)  # the bar's own way: its next move after the time
            assert display.progress is not None
            task = display.progress.tasks[0]
            assert task.total == 5 and task.completed in (2, 3)
            update(5, final=True)
            assert display.progress.tasks[0].completed == 5
        assert display.progress is None  # stopped and erased
        with Display("grading", enabled=True, redirect_stdout=redirect, after=5.0) as quick:
            quick.bar(5)(5, final=True)
            time.sleep(0.1)
        assert quick.progress is None and quick._closed  # done before it was due: never drawn
    for _ in range(40):
        with Display("grading", enabled=True, redirect_stdout=False, after=0.001) as racing:
            update = racing.bar(5)
            update(2)
            deadline = time.monotonic() + 10
            while racing.progress is None and time.monotonic() < deadline:
                time.sleep(0.001)
            assert racing.progress.tasks[0].total == 5


def test_an_estimate_run_out_with_items_left_gives_way_to_the_bars_pace():
    """The caller's time left counts down between updates; once it has run out and items are left (a hard puzzle
    slower than the ones before it), the bar shows its own pace's time left, not 0:00:00."""
    from catalogue.progress import Display
    from catalogue.time_left import clock, time_left

    with Display("grading", unit="puzzles", enabled=True, redirect_stdout=False) as display:
        update = display.bar(10)
        time.sleep(0.05)
        left = next(c.column for c in display.progress.columns if type(getattr(c, "column", None)).__name__ == "Left")
        update(4, left=30.0, left_at=time.perf_counter())
        task = display.progress.tasks[0]
        assert 29.0 <= _seconds(left.render(task).plain) <= 30.0  # counting down from the caller's estimate
        update(4, left=1.0, left_at=time.perf_counter() - 5.0)  # run out 4 s ago, six items left
        task = display.progress.tasks[0]
        pace = time_left(task.completed, task.total, task.elapsed)
        assert left.render(task).plain == ("-:--:--" if pace is None else clock(pace))
        update(10, left=1.0, left_at=time.perf_counter() - 5.0, final=True)  # all done: 0
        assert left.render(display.progress.tasks[0]).plain == "0:00:00"


def _seconds(text: str) -> int:
    h, m, s = map(int, text.split(":"))
    return 3600 * h + 60 * m + s


@pytest.mark.slow
def test_a_few_hard_puzzles_show_the_bar_once_the_grade_has_run_a_second(tmp_path, tmux_run):
    """`catalogue grade few-hard.txt > out.txt` on a terminal: three of the hardest list take seconds, below
    progress.BIG_INPUT, and the bar shows all the same (then is erased)."""
    from paths import ROOT

    rows = [line.split("\t") for line in (ROOT / "bench" / "hardest-sample.tsv").read_text().splitlines()
            if line[:1] in ".123456789"]
    hard = [row[0] for row in rows if row[4].startswith(("AI Escargot", "Platinum Blonde", "Cheese"))]
    assert len(hard) == 3
    (tmp_path / "hard.txt").write_text("".join(p + "\n" for p in hard))
    out = tmp_path / "out.txt"
    t = tmux_run(["bash", "-c", f"{shlex.join([*CLI, 'grade', str(tmp_path / 'hard.txt')])} > {shlex.quote(str(out))}"])
    assert t.exit_code() == 0
    raw = t.raw()
    assert "grading" in raw and any(total == 3 for _, total in frames(raw)), raw[-2000:]
    assert re.search(r"\d\.\d+ grids/s", raw), raw[-2000:]  # a puzzle or two a second, not "0 grids/s"
    assert not any(BAR in line for line in t.screen().splitlines())
    assert len([line for line in out.read_text().splitlines() if line.strip()]) >= 4  # the header and 3 rows


@pytest.mark.slow
def test_explore_shows_its_solves_on_the_one_display(tmp_path, tmux_run):
    out = tmp_path / "out.txt"
    # 2 x 25 solves: about a second of solving (200 trials took 15 s), with a bar drawn and erased
    args = [*CLI, "explore", "--clues", "20,30", "--trials", "25", "--seed", "1"]
    t = tmux_run(["bash", "-c", f"{shlex.join(args)} > {shlex.quote(str(out))}"])
    assert t.exit_code() == 0
    raw = t.raw()
    assert "solving" in raw and any(total == 50 for _, total in frames(raw)), raw[-2000:]
    assert not any(BAR in line for line in t.screen().splitlines())
    assert BAR not in out.read_text() and "clues" in out.read_text()


@pytest.mark.slow
def test_a_cold_first_run_says_it_compiles_even_for_one_grid(tmp_path, tmux_run, many_files):
    """On a new machine (numba's cache empty) `catalogue key` on two boards says it is compiling its kernels, and
    how many, instead of sitting silent; the line is gone when the keys are printed."""
    boards, _, _ = many_files
    two = tmp_path / "two.txt"
    two.write_text("\n".join(boards.read_text().splitlines()[:2]) + "\n")
    out = tmp_path / "keys.txt"
    cold = tmp_path / "cold-cache"
    args = ["env", "-u", "NUMBA_CACHE_DIR", f"XDG_CACHE_HOME={cold}", *CLI, "key", str(two)]
    t = tmux_run(["bash", "-c", f"{shlex.join(args)} > {shlex.quote(str(out))}"])
    assert t.exit_code() == 0
    assert re.search(r"compiling the kernels for key: \d+ of \d+", t.raw()), t.raw()[-2000:]
    assert len(out.read_text().splitlines()) == 2 and "compiling" not in out.read_text()
