"""`catalogue solve` end to end through typer's CliRunner: exact stdout, one stderr line per problem, exit codes."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest
from typer.testing import CliRunner

import naive
from catalogue.cli import app
from records import parse_records
from engine.formats import from_line, to_block, to_line
from engine.solvers import SOLVERS

runner = CliRunner()

UNIQUE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
EMPTY_4X4 = "." * 16
CLASH = "55" + UNIQUE[2:]


def no_solution_puzzle() -> str:
    """UNIQUE with one clue changed to a digit its peers allow but the solution does not: no solution."""
    cells = from_line(UNIQUE).tolist()
    for cell, digit in enumerate(cells):
        if digit:
            for other in sorted(naive.candidates(cells, cell) - {digit}):
                trial = list(cells)
                trial[cell] = other
                if naive.count_solutions(trial, 1)[0] == 0:
                    return to_line(trial)
    raise AssertionError("no such puzzle")


NO_SOLUTION = no_solution_puzzle()


def run(args, input=None):
    return runner.invoke(app, args, input=input)


@pytest.fixture
def puzzles(tmp_path):
    def write(*lines: str, name: str = "p.txt") -> str:
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n")
        return str(path)
    return write


def test_help():
    r = run(["solve", "--help"])
    assert r.exit_code == 0
    for option in ("--solver", "--count-solutions", "--max-solutions", "--node-limit", "--metrics", "--format",
                   "--input-format", "--watch", "--delay"):
        assert option in r.stdout


@pytest.mark.parametrize("solver", sorted(SOLVERS))
def test_line_output_is_one_solution_per_puzzle(puzzles, solver):
    path = puzzles(UNIQUE, "# a comment", UNIQUE.replace(".", "0"))
    r = run(["solve", path, "--solver", solver])
    assert r.exit_code == 0, r.output
    assert r.stdout == f"{SOLUTION}\n{SOLUTION}\n"
    assert r.stderr == ""


def test_stdin():
    r = run(["solve", "-", "--solver", "mrv"], input=UNIQUE + "\n")
    assert r.exit_code == 0 and r.stdout == SOLUTION + "\n"


def test_stdin_is_decoded_like_a_file():
    # a BOM was dropped from files but not from stdin ("'\ufeff' is not a symbol"); bad bytes are named the same way
    r = runner.invoke(app, ["solve", "-"], input=b"\xef\xbb\xbf" + UNIQUE.encode() + b"\r\n")
    assert r.exit_code == 0 and r.stdout == SOLUTION + "\n", r.output
    r = runner.invoke(app, ["solve", "-"], input=b"\xff\xfe" + UNIQUE.encode())
    assert r.exit_code == 1 and r.stderr == "catalogue: <stdin>:1:1: not UTF-8 text (byte 1)\n"


def test_4x4_and_a_multi_solution_puzzle_prints_a_valid_solution(puzzles):
    r = run(["solve", puzzles(EMPTY_4X4), "--solver", "stack"])
    assert r.exit_code == 0
    assert naive.is_board(from_line(r.stdout.strip()).tolist())


def test_count(puzzles):
    path = puzzles(UNIQUE, EMPTY_4X4, NO_SOLUTION)
    r = run(["solve", path, "--count-solutions"])
    assert r.exit_code == 0, r.output
    assert r.stdout == "1\n2\n0\n"
    r = run(["solve", path, "--count-solutions", "--max-solutions", "5", "--solver", "backtrack"])
    assert r.stdout == "1\n5\n0\n"


def test_the_old_names_of_count_and_limit_still_work_hidden(puzzles):
    # --count is how many to make and --limit how many to show elsewhere: solve's were renamed, the old names kept
    path = puzzles(UNIQUE, EMPTY_4X4, NO_SOLUTION)
    r = run(["solve", path, "--count", "--limit", "5", "--solver", "backtrack"])
    assert r.exit_code == 0 and r.stdout == "1\n5\n0\n", r.output
    assert run(["solve", path, "--limit", "3"]).exit_code == 2
    shown = run(["solve", "--help"]).stdout
    options = shown.split("Options:", 1)[1]
    assert "--count " not in options and "--limit" not in options


def test_no_solution_is_reported_and_the_rest_still_solved(puzzles):
    path = puzzles(NO_SOLUTION, UNIQUE)
    r = run(["solve", path, "--solver", "stack"])
    assert r.exit_code == 1
    assert r.stdout == SOLUTION + "\n"
    assert r.stderr == f"catalogue: {path}:1: no solution\n"


def test_conflicting_givens_name_the_cells(puzzles):
    path = puzzles(UNIQUE, CLASH)
    r = run(["solve", path])
    assert r.exit_code == 1
    assert r.stdout == SOLUTION + "\n"
    assert r.stderr == (f"catalogue: {path}:2: conflicting givens: r1c1 and r1c2 both hold 5 "
                        f"(row and box conflict)\n")


def test_node_limit(puzzles):
    path = puzzles(UNIQUE)
    r = run(["solve", path, "--solver", "stack", "--node-limit", "100"])
    assert r.exit_code == 1
    assert r.stdout == ""
    assert r.stderr == (f"catalogue: {path}:1: gave up after 100 nodes: the budget is --node-limit 100 "
                        f"(0 for none)\n")


def test_missing_and_bad_files_give_one_line(tmp_path, puzzles):
    r = run(["solve", str(tmp_path / "nope.txt")])
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "nope.txt: no such file" in r.stderr
    bad = puzzles("this is not a puzzle", "nor is this", name="bad.txt")
    r = run(["solve", bad])
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(f"catalogue: {bad}:1:")


def test_a_bad_line_among_good_ones(puzzles):
    path = puzzles(UNIQUE, UNIQUE[:-1] + "x", UNIQUE)
    r = run(["solve", path])
    assert r.exit_code == 1
    assert r.stdout == f"{SOLUTION}\n{SOLUTION}\n"
    assert re.fullmatch(rf"catalogue: {re.escape(path)}:2:81: .*\n", r.stderr)


def test_block_and_pretty_formats(puzzles):
    path = puzzles(UNIQUE, UNIQUE)
    r = run(["solve", path, "--format", "block"])
    block = to_block(from_line(SOLUTION), 3)
    assert r.exit_code == 0 and r.stdout == f"{block}\n\n{block}\n"
    r = run(["solve", path, "--format", "pretty"])
    assert r.exit_code == 0 and r.stdout.count("╔") == 2


def test_metrics_go_to_stderr_with_line_output_and_stdout_otherwise(puzzles):
    path = puzzles(UNIQUE, CLASH)
    r = run(["solve", path, "--metrics", "--solver", "stack"])
    assert r.stdout == SOLUTION + "\n"
    assert "nodes" in r.stderr and "guesses" in r.stderr and "conflicting givens" in r.stderr
    assert "4,208" in r.stderr  # stack's nodes on this puzzle (limit 1)
    r = run(["solve", path, "--metrics", "--format", "block", "--solver", "stack"])
    head, table = r.stdout.split("\n\n")
    assert head == to_block(from_line(SOLUTION), 3)
    assert table.splitlines()[0].split()[:5] == ["source", "line", "solver", "status", "count"]
    r = run(["solve", path, "--metrics", "--count-solutions", "--solver", "mrv"])
    assert r.stdout == "1\n"
    assert "counted" in r.stderr


def test_json(puzzles):
    path = puzzles(UNIQUE, CLASH, NO_SOLUTION)
    r = run(["solve", path, "--format", "json", "--metrics", "--solver", "backtrack"])
    assert r.exit_code == 1
    records = json.loads(r.stdout)
    assert [rec["status"] for rec in records] == ["solved", "conflicting givens", "no solution"]
    assert records[0]["solution"] == SOLUTION and records[0]["nodes"] == 4208
    assert records[1]["solution"] is None and "r1c1 and r1c2" in records[1]["message"]
    assert [rec["line"] for rec in records] == [1, 2, 3]


@pytest.mark.parametrize("fmt", ["csv", "tsv", "json", "ndjson"])
def test_record_formats_parse_and_name_the_same_columns(puzzles, fmt):

    from catalogue.cli.commands.solve import RECORD_FIELDS

    r = run(["solve", puzzles(UNIQUE, CLASH), "--format", fmt, "--solver", "stack"])
    records = parse_records(fmt, r.stdout)
    assert [list(rec) for rec in records] == [list(RECORD_FIELDS)] * 2
    assert records[0]["solution"] == SOLUTION and str(records[0]["nodes"]) == "4208"
    if fmt == "csv":
        assert records[1]["nodes"] == "" and records[1]["solution"] == ""


def test_usage_errors(puzzles):
    path = puzzles(UNIQUE)
    assert run(["solve", path, "--max-solutions", "3"]).exit_code == 2
    assert run(["solve", path, "--watch", "--count-solutions"]).exit_code == 2
    assert run(["solve", path, "--solver", "magic"]).exit_code == 2
    assert run(["solve", path, "--count-solutions", "--max-solutions", "0"]).exit_code == 2


# -- watch ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("solver", ["stack", "fast"])
def test_watch_without_a_terminal_prints_each_band_as_it_completes(puzzles, solver):
    r = run(["solve", puzzles(UNIQUE), "--watch", "--solver", solver])
    assert r.exit_code == 0, r.output
    out = r.stdout
    heads = re.findall(r"band (\d) complete \(rows (\d)-(\d)\) after (\d+) nodes:", out)
    assert sorted(b for b, _, _, _ in heads) == ["1", "2", "3"]  # each band once, in the order it completed
    assert all((int(lo), int(hi)) == (3 * int(b) - 2, 3 * int(b)) for b, lo, hi, _ in heads)
    snapshots = re.findall(r"nodes:\n((?:.*\n){11})", out)
    assert len(snapshots) == 3
    for snap, (band, _, _, _) in zip(snapshots, heads):  # the band just completed is full in its snapshot
        rows = [line for line in snap.splitlines() if "+" not in line]
        b = int(band) - 1
        assert all("." not in line for line in rows[3 * b:3 * b + 3])
    assert out.rstrip().endswith(to_block(from_line(SOLUTION), 3))
    assert "Solved!" in out


def test_watch_stack_bands_complete_in_order_with_its_node_counts(puzzles):
    r = run(["solve", puzzles(UNIQUE), "--watch", "--solver", "stack"])
    nodes = [int(n) for n in re.findall(r"after (\d+) nodes", r.stdout)]
    assert nodes == sorted(nodes) and nodes[-1] == 4208
    assert "Solved! (4208 nodes" in r.stdout


def test_watch_no_solution(puzzles):
    r = run(["solve", puzzles(NO_SOLUTION), "--watch", "--solver", "mrv"])
    assert r.exit_code == 1
    assert "No solution!" in r.stdout


def test_watch_conflicting_givens(puzzles):
    path = puzzles(CLASH)
    r = run(["solve", path, "--watch"])
    assert r.exit_code == 1 and "conflicting givens" in r.stderr


def test_watch_terminal_view_draws_and_ends_with_the_verdict():
    """The live (terminal) view, driven directly with a forced terminal console writing into a buffer."""
    import io

    from catalogue.watch import watch

    buf = io.StringIO()
    outcome = watch(from_line(UNIQUE), 3, "backtrack", 0, 0, out=buf, terminal=True, title="t")
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", buf.getvalue())
    assert outcome.result.count == 1 and outcome.events == 4208 + 4157
    assert "Solved!" in text and to_block(from_line(SOLUTION), 3).splitlines()[0] in text
    assert np.array_equal(outcome.result.solution, from_line(SOLUTION))


def test_background_map_keeps_order_and_raises_in_the_caller():
    from catalogue.background import background_map

    assert list(background_map(lambda x: x * x, range(50), ahead=2)) == [x * x for x in range(50)]

    def boom(x):
        if x == 3:
            raise ValueError("bad 3")
        return x
    got = []
    with pytest.raises(ValueError, match="bad 3"):
        for v in background_map(boom, range(10)):
            got.append(v)
    assert got == [0, 1, 2]


def test_background_map_in_several_threads_keeps_order():
    """Items that finish out of order (the early ones sleep longest) still come out in order, from 3 threads at
    once; an error comes at its own place."""
    import threading
    import time

    from catalogue.background import background_map

    names = set()

    def slow(x):
        names.add(threading.current_thread().name)
        time.sleep(0.02 * ((9 - x) % 4))
        if x == 7:
            raise ValueError("bad 7")
        return x
    got = []
    with pytest.raises(ValueError, match="bad 7"):
        for v in background_map(slow, range(10), name="t", ahead=4, threads=3):
            got.append(v)
    assert got == list(range(7)) and len(names) > 1
    assert list(background_map(lambda x: -x, iter(range(100)), ahead=3, threads=2)) == [-x for x in range(100)]


@pytest.mark.slow
def test_ctrl_c_stops_a_long_kernel_at_once(tmp_path):
    # Counting the solutions of an empty 25x25 grid runs in one compiled kernel; called from the main thread it
    # held Ctrl-C until it returned (practically never). Now exit 130 within seconds, one line, no traceback.
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "empty25.txt"
    path.write_text("." * 625 + "\n")
    proc = subprocess.Popen([sys.executable, "-m", "catalogue", "solve", str(path), "--count-solutions",
                             "--max-solutions", str(10**12), "--node-limit", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(5)  # imports, then well inside the kernel
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("Ctrl-C did not stop solve --count-solutions within 15 s")
    assert proc.returncode == 130 and out == b""
    assert err.decode() == "catalogue: interrupted\n"


@pytest.mark.parametrize("args, line", [
    (["--solver", "magic"], "--solver: no solver 'magic'; one of: fast, mrv, stack, backtrack"),
    (["--input-format", "xml"], "--input-format: no input format 'xml'; one of: auto, line, block, rcv, pretty, json, txt"),
])
def test_bad_choice_is_one_line_with_the_valid_values(args, line):
    result = run(["solve", "-", *args], input=UNIQUE)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"catalogue: {line}\n")


def test_solver_is_case_insensitive():
    assert run(["solve", "-", "--solver", "MRV"], input=UNIQUE).stdout == run(
        ["solve", "-", "--solver", "mrv"], input=UNIQUE).stdout
