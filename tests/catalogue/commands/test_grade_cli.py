"""`catalogue grade`: the grade of each puzzle as a table, JSON or lines; --steps explains; bad grids go to stderr."""
from __future__ import annotations

import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from catalogue.cli import app
from puzzles import NEEDS_DYNAMIC_16
from paths import ROOT
from records import parse_records

NEEDS_POINTING = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SINGLES_ONLY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
# Easter Monster without its first clue: several solutions, so no technique finishes it (graded as guessing)
SEVERAL = "........2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
SMALL = "1...\n..2.\n.3..\n...4\n"
#: a minimal puzzle whose hardest step is a unique rectangle (type 1); without it a colouring is needed
NEEDS_UNIQUE_RECTANGLE = "..........84......1..3..58...72..1...39.1.8......6.35........6.42...57....1...4.3"


def run(*args, stdin=None):
    return CliRunner().invoke(app, ["grade", *args], input=stdin)


def write(tmp_path, text, name="puzzles.txt"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_table(tmp_path):
    result = run(write(tmp_path, f"{NEEDS_POINTING}\n{SINGLES_ONLY}\n{SEVERAL}\n"))
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "index  line  clues  level    score  hardest        step_count\n"
        + "─" * 61 + "\n"
        "    1     1     17  medium     2.6  pointing               69\n"
        "    2     2     32  easy       1.2  hidden single          49\n"
        "    3     3     20  extreme   20.0  guessing                0\n")
    assert result.stderr == ""


def test_line_format(tmp_path):
    result = run(write(tmp_path, f"{NEEDS_POINTING}\n{SINGLES_ONLY}\n{SEVERAL}\n"), "--format", "line")
    assert result.exit_code == 0
    assert result.stdout == "medium 2.6 pointing\neasy 1.2 hidden single\nextreme 20.0 guessing\n"


def test_json_format(tmp_path):
    result = run(write(tmp_path, f"{NEEDS_POINTING}\n{SEVERAL}\n"), "--format", "json")
    assert result.exit_code == 0
    got = json.loads(result.stdout)
    assert got == [
        {"index": 1, "source": str(tmp_path / "puzzles.txt"), "line": 1, "clues": 17, "level": "medium",
         "score": 2.6, "ep": 1.2, "ed": 1.2, "hardest": "pointing", "technique": "pointing", "step_count": 69,
         "steps": {"hidden-single": 60, "direct-hidden-pair": 2, "naked-single": 2, "pointing": 5},
         "needs_guessing": False},
        {"index": 2, "source": str(tmp_path / "puzzles.txt"), "line": 2, "clues": 20, "level": "extreme",
         "score": 20.0, "ep": 20.0, "ed": 20.0, "hardest": "guessing", "technique": "guessing", "step_count": 0, "steps": {},
         "needs_guessing": True},
    ]


def test_every_record_format_parses_and_names_the_same_columns(tmp_path):

    path = write(tmp_path, f"{NEEDS_POINTING}\n{SEVERAL}\n")
    by_format = {}
    for fmt in ("csv", "tsv", "json", "ndjson"):
        out = run(path, "--format", fmt).stdout
        by_format[fmt] = parse_records(fmt, out)
    names = [list(r) for r in by_format["json"]]
    assert all([list(r) for r in records] == names for records in by_format.values())
    csv_row = by_format["csv"][1]
    assert (csv_row["needs_guessing"], csv_row["score"], csv_row["steps"]) == ("1", "20.0", "{}")
    table_header = run(path).stdout.splitlines()[0].split()
    assert set(table_header) <= set(names[0])


def test_steps_in_a_table(tmp_path):
    result = run(write(tmp_path, SMALL), "--steps")
    assert result.exit_code == 0
    assert result.stdout == (
        "index  line  clues  level  score  hardest        step_count\n"
        + "─" * 59 + "\n"
        "    1     1      4  easy     1.2  hidden single          12\n"
        "\n"
        "#1 (line 1): easy, score 1.2, hardest hidden single\n"
        "  1. r1c2: hidden single 2 in box 1\n"
        "  2. r2c1: hidden single 3 in box 1\n"
        "  3. r2c2: full house 4 in box 1\n"
        "  4. r4c2: full house 1 in column 2\n"
        "  5. r2c4: full house 1 in row 2\n"
        "  6. r1c3: hidden single 4 in box 2\n"
        "  7. r1c4: full house 3 in box 2\n"
        "  8. r3c4: full house 2 in column 4\n"
        "  9. r4c1: hidden single 2 in box 3\n"
        "  10. r3c1: full house 4 in box 3\n"
        "  11. r3c3: full house 1 in row 3\n"
        "  12. r4c3: full house 3 in box 4\n")


def test_steps_in_lines_and_json(tmp_path):
    path = write(tmp_path, f"{NEEDS_POINTING}\n{SEVERAL}\n")
    lines = run(path, "--steps", "--format", "line").stdout.splitlines()
    assert lines[:5] == ["medium 2.6 pointing", "  1. r6c2: hidden single 4 in box 4",
                         "  2. r8c3: hidden single 3 in box 7", "  3. r8c6: hidden single 1 in box 8",
                         "  4. pointing 2 in box 5 (r5c6, r6c6) along column 6: removes 2 from r1c6, r2c6, r3c6"]
    assert lines[-2:] == ["extreme 20.0 guessing",
                          "  no technique makes progress now: the other 61 cells need guessing"]
    got = json.loads(run(path, "--steps", "--format", "json").stdout)
    assert len(got[0]["explanation"]) == 69 and got[0]["explanation"][6] == "r1c6: naked single 9"
    assert got[1]["explanation"] == ["no technique makes progress now: the other 61 cells need guessing"]
    # every step as data too: its technique, rating, sentence and what it changes
    data = got[0]["step_data"]
    assert len(data) == 69 and [d["explanation"] for d in data] == got[0]["explanation"]
    fourth = data[3]  # "pointing 2 in box 5 (r5c6, r6c6) along column 6: removes 2 from r1c6, r2c6, r3c6"
    assert (fourth["technique"], fourth["rating"], fourth["explanation"]) == ("pointing", 2.6, lines[4][5:])
    assert (fourth["placements"], fourth["eliminations"], sorted(fourth["cells"])) == (
        [], [[5, 2], [14, 2], [23, 2]], [41, 50])
    assert {d["technique"] for d in data} == set(got[0]["steps"])
    assert got[1]["step_data"] == []


def test_a_chain_step_as_data_names_every_link(tmp_path):
    """A forcing chain in json: each chain is a list of {cell, digit, on} from the assumption to the conclusion,
    and the sentence follows the same links."""
    path = write(tmp_path, NEEDS_UNIQUE_RECTANGLE + "\n")
    got = json.loads(run(path, "--steps", "--format", "json", "--no-uniqueness").stdout)[0]
    chain_steps = [d for d in got["step_data"] if d["technique"] == "chains-and-cycles"]
    assert chain_steps and got["score"] == 6.6
    step = chain_steps[0]
    chain = step["links"][0]
    assert chain[0]["on"] != chain[-1]["on"] and (chain[0]["cell"], chain[0]["digit"]) == \
        (chain[-1]["cell"], chain[-1]["digit"])  # a forcing chain ends on its own start, the other way round
    assert all(a["on"] != b["on"] for a, b in zip(chain, chain[1:]))  # links alternate on and off
    assert step["explanation"].count("->") == len(chain) - 1
    assert (got["ep"], got["ed"]) == (1.2, 1.2)


def test_bad_grids_get_one_line_each_and_exit_1(tmp_path):
    text = ("12..\n..3.\n..4.\n....\n\n"   # no solution: r1c3 can be neither 3 nor 4
            + SMALL + "\n"
            + "11..\n....\n....\n....\n\n"  # conflicting givens
            + "12x.\n")                     # unreadable
    result = run(write(tmp_path, text, "bad.txt"), "--format", "line", "--input-format", "block")
    assert result.exit_code == 1
    assert result.stdout == "easy 1.2 hidden single\n"
    source = str(tmp_path / "bad.txt")
    assert result.stderr.splitlines() == [
        f"catalogue: {source}:1: the puzzle has no solution (r1c3 has no candidate left)",
        f"catalogue: {source}:11: conflicting givens: r1c1 and r1c2 both hold 1 (row and box conflict)",
        f"catalogue: {source}:16:1: expected 4 rows for a 4x4 grid, got 1",
    ]


def test_stdin_and_empty_input(tmp_path):
    result = run("-", "--format", "line", stdin=SINGLES_ONLY + "\n")
    assert result.exit_code == 0 and result.stdout == "easy 1.2 hidden single\n"
    result = run(write(tmp_path, "\n\n", "empty.txt"))
    assert result.exit_code == 1 and "empty file" in result.stderr
    result = run(str(tmp_path / "missing.txt"))
    assert result.exit_code == 1 and result.stderr == f"catalogue: {tmp_path / 'missing.txt'}: no such file\n"


def test_help_names_the_levels():
    result = CliRunner().invoke(app, ["grade", "--help"])
    assert result.exit_code == 0
    assert "extreme" in result.stdout and "--steps" in result.stdout


def test_bad_format_is_one_line_with_the_valid_values():
    result = run("-", "--format", "xml", stdin="." * 81)
    assert (result.exit_code, result.stdout, result.stderr.count("\n")) == (2, "", 1)
    assert result.stderr.startswith("catalogue: --format: no format 'xml'; one of: ")


def test_no_uniqueness_grades_without_unique_rectangles(tmp_path):
    path = write(tmp_path, NEEDS_UNIQUE_RECTANGLE + "\n")
    for args in ((), ("--steps",)):  # the fast path and the explaining path
        with_ur = run(path, "--format", "line", *args)
        without = run(path, "--format", "line", "--no-uniqueness", *args)
        assert with_ur.exit_code == without.exit_code == 0, without.output
        assert with_ur.stdout.splitlines()[0] == "expert 4.5 unique rectangle type 1"
        assert without.stdout.splitlines()[0] == "expert 6.6 forcing X-chain"
        assert ("unique rectangle type 1 on" in with_ur.stdout) == bool(args)  # the step explained
        assert "unique" not in without.stdout
    assert "--no-uniqueness" in run("--help").stdout


def test_full_scale_rates_big_grids_with_the_dynamic_chains(tmp_path):
    """16x16: without --full-scale a position that needs a dynamic forcing chain needs guessing, and the
    explanation says what was left out and how to ask for it; with it, the dynamic chain's rating (both paths)."""
    path = write(tmp_path, NEEDS_DYNAMIC_16 + "\n")
    default = run(path, "--format", "line", "--steps")
    assert default.exit_code == 0, default.output
    assert default.stdout.splitlines()[0] == "extreme 20.0 guessing"
    assert default.stdout.splitlines()[-1].endswith(
        "need guessing (the dynamic forcing chains were not tried on this size: --full-scale tries them)")
    for args in ((), ("--steps",)):
        full = run(path, "--format", "line", "--full-scale", *args)
        assert full.exit_code == 0, full.output
        assert full.stdout.splitlines()[0] == "extreme 9.1 dynamic cell forcing chains"
        assert ("dynamic forcing chain" in full.stdout.lower()) == bool(args) and "guessing" not in full.stdout
    # on 9x9 the dynamic chains always run, and the stuck note has nothing to add
    several = run(write(tmp_path, SEVERAL + "\n", "several.txt"), "--format", "line", "--steps", "--full-scale")
    assert several.stdout.splitlines()[-1].endswith("cells need guessing")
    assert "--full-scale" in run("--help").stdout


def test_the_first_puzzle_for_the_nested_chains_makes_their_kernels_ready_first(tmp_path):
    """No command's jobs hold the nested forcing chains (catalogue.kernels): the first puzzle that needs them makes
    their job ready before it is graded (compiled on every core where the cache lacks them, with the compile's
    progress; here the suite compiled them, and they load): the job's marker in the cache says it ran."""
    from engine import cache, warmup
    from engine.warmup.jobs import NESTED_JOB

    marker = warmup._marker(Path(cache.enable()), NESTED_JOB)
    marker.unlink(missing_ok=True)
    hardest = (ROOT / "bench" / "hardest.txt").read_text().split()[0]
    proc = subprocess.run([sys.executable, "-c", "from catalogue.cli import main; main()", "grade",
                           write(tmp_path, hardest + "\n"), "--format", "line"], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "extreme 10.5 nested contradiction forcing chains\n" and proc.stderr == ""
    assert marker.exists()


@pytest.mark.slow
def test_ctrl_c_writes_the_grades_so_far(tmp_path):
    """Ordinary puzzles, then the hardest (nested forcing chains: seconds each): a Ctrl-C while those are graded
    writes the records of every puzzle graded before it, in file order, and says how many."""
    from engine.carve import carve_many
    from engine.formats import from_line, to_line
    from engine.generators import get_generator

    boards, seeds, _ = get_generator("backtrack").generate_array(3, 300, 11)
    easy = [to_line(r.puzzle) for r in carve_many(boards, 3, np.asarray(seeds, dtype=np.int64))]
    hardest = [line.split()[0] for line in (ROOT / "bench" / "hardest.txt").read_text().splitlines()]
    path = write(tmp_path, "\n".join(easy + hardest * 4) + "\n")
    # Ctrl-C as a terminal gives it: a suite started as a script's background job (`pytest &`) passes SIGINT on
    # ignored, and grade then rightly ignores it too (as Python does). faulthandler: a process that does not stop
    # is made to say where each of its threads is, below.
    proc = subprocess.Popen([sys.executable, "-c", "from catalogue.cli import main; main()", "grade", path,
                             "--format", "csv"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONFAULTHANDLER": "1"},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # past the kernels' loading (about a second of CPU) the ordinary puzzles take milliseconds: at 4 s of CPU the
    # grader is deep in the hardest
    deadline = time.monotonic() + 120
    while cpu_seconds(proc.pid) < 4 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    try:
        stdout, stderr = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        stdout, stderr = proc.communicate(timeout=30)
        pytest.fail(f"still running 60 s after Ctrl-C; its threads then:\n{stderr[-6000:]}")
    assert proc.returncode == 130, stderr
    found = re.fullmatch(r"catalogue: interrupted: ([\d,]+) of ([\d,]+) puzzles graded, written above\n", stderr)
    assert found, stderr
    graded, total = (int(g.replace(",", "")) for g in found.groups())
    records = list(csv.DictReader(io.StringIO(stdout)))
    # (a chunk in a thread's hands is not written: the one that meets the hardest may hold a few ordinary ones)
    assert total == len(easy) + 4 * len(hardest) and 0 < graded == len(records) < total
    assert [int(r["index"]) for r in records] == list(range(1, graded + 1))
    assert [r["line"] for r in records] == [str(i) for i in range(1, graded + 1)]
    from engine.grade import grade_many

    expected = grade_many(np.stack([from_line(p, 3) for p in (easy + hardest * 4)[:graded]]), 3)
    assert [(r["level"], float(r["score"])) for r in records] == [(g.level, g.score) for g in expected]


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far, from /proc (0 once it has gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
