"""`catalogue check`: one report line per grid on stdout, read errors on stderr, exit 0 only if all are valid."""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from catalogue.cli import app

PUZZLE = "7.8........38..9..4....6.7..45.12....7......9.......856.7.5...2..2...1..5....38.."
BOARD = "758149623263875941491326578845912736376584219129637485687451392932768154514293867"
from paths import SAMPLES


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(app, ["check", *args], input=input)

    return invoke


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_valid_file_exits_0(run, tmp_path):
    path = write(tmp_path, "good.sdm", f"# two grids\n{PUZZLE}\n{BOARD}\n")
    result = run(path)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [f"grid 1 ({path}:2): valid 9x9 puzzle with 25 clues",
                                          f"grid 2 ({path}:3): valid 9x9 board"]
    assert result.stderr == "catalogue: 2 grids: 2 valid\n"


def test_conflicts_are_listed_with_their_reasons_and_exit_1(run, tmp_path):
    # r1c1 clashes with r1c2 (row, box) and with r2c1 (column, box): three reasons in one cell
    path = write(tmp_path, "bad.txt", "11..\n1...\n....\n....\n\n1234\n3412\n2143\n4321\n\n1234\n3412\n2143\n4312\n")
    result = run(path)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"grid 1 ({path}:1): 3 invalid cells: r1c1 1 (row, column and box conflict), r1c2 1 (row and box conflict), "
        f"r2c1 1 (column and box conflict); 4x4 puzzle with 3 clues",
        f"grid 2 ({path}:6): valid 4x4 board",
        f"grid 3 ({path}:11): 4 invalid cells: r2c3 1 (column conflict), r2c4 2 (column conflict), "
        f"r4c3 1 (column conflict), r4c4 2 (column conflict); complete 4x4 grid",
    ]
    assert result.stderr == "catalogue: 3 grids: 1 valid, 2 invalid\n"


def test_row_conflict_in_a_line_file(run, tmp_path):
    path = write(tmp_path, "puzzles.txt", f"{PUZZLE}\n{'7.8..7...' + PUZZLE[9:]}\n")
    result = run(path)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[1] == (f"grid 2 ({path}:2): 2 invalid cells: r1c1 7 (row conflict), "
                                             f"r1c6 7 (row conflict); 9x9 puzzle with 26 clues")


def test_bad_line_is_reported_and_the_rest_still_checked(run, tmp_path):
    path = write(tmp_path, "mixed.sdm", f"{PUZZLE}\n{PUZZLE[:11]}x{PUZZLE[12:]}\n{PUZZLE[:80]}\n{BOARD}\n")
    result = run(path)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [f"grid 1 ({path}:1): valid 9x9 puzzle with 25 clues",
                                          f"grid 4 ({path}:4): valid 9x9 board"]
    assert result.stderr.splitlines() == [
        f"catalogue: {path}:2:12: 'x' is not a symbol (digits 1-9, letters A-P for 10-25, '.' or '0' for a blank)",
        f"catalogue: {path}:3:81: expected 16, 81, 256 or 625 symbols, got 80",
        "catalogue: 4 grids: 2 valid, 2 unreadable",
    ]


def test_stdin(run):
    result = run("-", input=f"{PUZZLE}\n")
    assert result.exit_code == 0
    assert result.stdout == "grid 1 (<stdin>:1): valid 9x9 puzzle with 25 clues\n"


def test_missing_and_empty_files_are_one_line_exit_1(run, tmp_path):
    result = run(str(tmp_path / "nope.txt"))
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == f"catalogue: {tmp_path / 'nope.txt'}: no such file\n"
    result = run(write(tmp_path, "empty.txt", "\n"))
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and "empty file" in result.stderr
    result = run(write(tmp_path, "comments.txt", "# nothing here\n"))
    assert result.exit_code == 1 and result.stderr == f"catalogue: {tmp_path / 'comments.txt'}: no grid found\n"


def test_forced_format_and_size(run, tmp_path):
    path = write(tmp_path, "clues.rcv", "1 1 1\n2 2 2\n")
    assert run(path).stdout == f"grid 1 ({path}:1): 2 or more solutions: 4x4 puzzle with 2 clues\n"
    assert run(path, "--size", "9").stdout == f"grid 1 ({path}:1): 2 or more solutions: 9x9 puzzle with 2 clues\n"
    result = run(path, "--input-format", "line")
    assert result.exit_code == 1 and result.stderr.startswith(f"catalogue: {path}:1:2: ' ' is not a symbol")
    assert run(path, "--input-format", "xml").exit_code == 2
    wrong = run(path, "--size", "3")  # a box size where a grid size belongs: one line naming the valid sizes
    assert wrong.exit_code == 2 and wrong.stderr == "catalogue: --size must be one of 4, 9, 16, 25 (rows of the grid), not 3\n"


def test_every_sample_file_checks(run):
    for path in sorted(SAMPLES.glob("*")):
        result = run(str(path))
        assert result.exit_code == (1 if path.name == "checks.sdm" else 0), (path, result.output)


def test_help_names_the_formats(run):
    result = CliRunner().invoke(app, ["check", "--help"])
    assert result.exit_code == 0
    assert "auto|line|block|rcv|pretty|json|txt" in result.output


NO_SOLUTION = "12345678." + "........9" + "." * 63  # r1c9 can hold only 9, which r2c9 already holds: no conflict


def test_no_solution_and_several_solutions_are_not_valid(run, tmp_path):
    """Before, both were "valid" (exit 0) where `solve` said "no solution"."""
    path = write(tmp_path, "three.sdm", f"{NO_SOLUTION}\n{'.' * 81}\n{PUZZLE}\n")
    result = run(path)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [f"grid 1 ({path}:1): no solution: 9x9 puzzle with 9 clues",
                                          f"grid 2 ({path}:2): 2 or more solutions: 9x9 puzzle with 0 clues",
                                          f"grid 3 ({path}:3): valid 9x9 puzzle with 25 clues"]
    assert result.stderr == "catalogue: 3 grids: 1 valid, 1 without a solution, 1 with 2 or more solutions\n"


def test_a_unique_puzzle_alone_still_exits_0(run):
    result = run("-", input=f"{PUZZLE}\n{BOARD}\n")
    assert (result.exit_code, result.stderr) == (0, "catalogue: 2 grids: 2 valid\n")


def test_16x16_symbols_are_shown_as_written(run, tmp_path):
    """G is the digit 16: a line file says G (not 16), a txt file, which writes numbers, says 16."""
    line = "GG" + "." * 254
    result = run("-", input=line + "\n")
    assert result.exit_code == 1
    assert result.stdout == ("grid 1 (<stdin>:1): 2 invalid cells: r1c1 G (row and box conflict), "
                             "r1c2 G (row and box conflict); 16x16 puzzle with 2 clues\n")
    rows = ["16 16" + " 0" * 14] + [" ".join(["0"] * 16)] * 15
    result = run("-", "--input-format", "txt", input="\n".join(rows) + "\n")
    assert result.exit_code == 1 and "r1c1 16 (row and box conflict), r1c2 16 (row and box conflict)" in result.stdout

