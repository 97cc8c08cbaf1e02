"""``catalogue carve`` through typer's CliRunner: output per format, file:line messages, exit codes."""
from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from catalogue.cli import app
from records import parse_records
from engine.formats import read_grids, to_line
from engine.solvers import fast

# three 9x9 boards and a 4x4 one (valid complete boards, written out so the test needs no generator)
BOARDS = [
    "342759816689341752571286934728495163193627485456138279915864327267913548834572691",
    "652387914497156382183492765325874196719623458846519237938245671261738549574961823",
    "214937586976158423853426971381562794625794318749813652468279135537681249192345867",
    "3214143243212143",
]


def _run(args, stdin=None):
    return CliRunner().invoke(app, ["carve", *args], input=stdin)


@pytest.fixture
def boards_file(tmp_path):
    path = tmp_path / "boards.txt"
    path.write_text("\n".join(BOARDS) + "\n", encoding="utf-8")
    return path


def _cells(line):
    return np.array([0 if ch == "." else int(ch) for ch in line], dtype=np.int8)


def _check_unique_minimal(puzzle_line, board_line):
    puzzle, board = _cells(puzzle_line), _cells(board_line)
    box = 3 if len(board) == 81 else 2
    assert all(p in (0, b) for p, b in zip(puzzle, board))
    assert fast.count_many(puzzle[None, :], box, 2)[0] == 1
    assert np.array_equal(fast.solve(puzzle, box).solution, board)
    for c in np.flatnonzero(puzzle):
        fewer = puzzle.copy()
        fewer[c] = 0
        assert fast.count_many(fewer[None, :], box, 2)[0] == 2


def test_one_minimal_unique_puzzle_per_board(boards_file):
    r = _run([str(boards_file), "--seed", "5"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert len(lines) == len(BOARDS) and r.stderr == ""
    for puzzle, board in zip(lines, BOARDS):
        _check_unique_minimal(puzzle, board)


def test_seeded_and_repeatable(boards_file):
    a = _run([str(boards_file), "--seed", "5"]).stdout
    assert a == _run([str(boards_file), "--seed", "5"]).stdout
    assert a != _run([str(boards_file), "--seed", "6"]).stdout
    # board k uses seed + k: the second board alone with seed 6 carves as it did in the file with seed 5
    alone = _run(["-", "--seed", "6"], stdin=BOARDS[1] + "\n").stdout
    assert alone.strip() == a.splitlines()[1]


def test_bad_entries_are_named_and_the_rest_carved(tmp_path):
    broken = BOARDS[0][:10] + "." + BOARDS[0][11:]
    clash = BOARDS[1][:1] + BOARDS[1][1] + BOARDS[1][1:80]  # the first two cells hold the same digit
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join([BOARDS[0], broken, "12x", clash, BOARDS[3]]) + "\n", encoding="utf-8")
    r = _run([str(path)])
    assert r.exit_code == 1
    assert len(r.stdout.splitlines()) == 2
    err = r.stderr.splitlines()
    assert any(f"{path}:2:" in e and "not a complete board: 1 blank cell" in e for e in err)
    assert any(f"{path}:3:" in e for e in err)
    assert any(f"{path}:4:" in e and "not a valid board" in e for e in err)
    assert all(e.startswith("catalogue: ") for e in err) and "Traceback" not in r.output


@pytest.mark.parametrize("symmetry", ["rot180", "rot90", "mirror", "diagonal"])
def test_symmetry_option(boards_file, symmetry):
    r = _run([str(boards_file), "--symmetry", symmetry])
    assert r.exit_code == 0
    n = 9
    for line in r.stdout.splitlines()[:3]:
        clue = (_cells(line) != 0).reshape(n, n)
        image = {"rot180": np.rot90(clue, 2), "rot90": np.rot90(clue), "mirror": clue[:, ::-1],
                 "diagonal": clue.T}[symmetry]
        assert np.array_equal(clue, image)


def test_exact_clues_and_unreachable_targets(tmp_path):
    path = tmp_path / "nines.txt"
    path.write_text("\n".join(BOARDS[:3]) + "\n", encoding="utf-8")
    r = _run([str(path), "--clues", "30"])
    assert r.exit_code == 0 and r.stderr == ""
    assert [sum(ch != "." for ch in line) for line in r.stdout.splitlines()] == [30, 30, 30]
    for line in r.stdout.splitlines():
        assert fast.count_many(_cells(line)[None, :], 3, 2)[0] == 1
    few = _run([str(path), "--clues", "12"])  # no 9x9 puzzle with 12 clues is unique: printed anyway, and said
    assert few.exit_code == 0 and len(few.stdout.splitlines()) == 3
    assert few.stderr.count("could not reach exactly 12 clues in 1 attempt; kept") == 3
    assert few.stderr.count("(no 9x9 puzzle with one solution has fewer than 17 clues)\n") == 3  # why, when known
    low = _run([str(path), "--target-clues", "12", "--attempts", "2"])
    assert low.exit_code == 0 and low.stderr.count("could not reach 12 or fewer clues in 2 attempts") == 3


def test_too_many_clues_for_a_board(tmp_path):
    path = tmp_path / "small.txt"
    path.write_text(BOARDS[3] + "\n", encoding="utf-8")
    r = _run([str(path), "--clues", "20"])
    assert r.exit_code == 1 and f"{path}:1: --clues 20 is more than the 16 cells" in r.stderr


def test_usage_errors():
    r = _run(["-", "--clues", "30", "--target-clues", "25"], stdin=BOARDS[0])
    assert r.exit_code == 2 and "do not go together" in r.stderr
    assert _run(["-", "--symmetry", "spiral"], stdin=BOARDS[0]).exit_code == 2
    assert _run(["-", "--attempts", "0"], stdin=BOARDS[0]).exit_code == 2


def test_missing_and_empty_input(tmp_path):
    r = _run([str(tmp_path / "nope.txt")])
    assert r.exit_code == 1 and "no such file" in r.stderr
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    assert _run([str(empty)]).exit_code == 1


@pytest.mark.parametrize("fmt", ["block", "pretty"])
def test_picture_formats_read_back(boards_file, fmt):
    lines = _run([str(boards_file), "--seed", "3"]).stdout.splitlines()
    r = _run([str(boards_file), "--seed", "3", "--format", fmt])
    assert r.exit_code == 0
    grids, errors = read_grids(r.stdout, "<out>")
    assert not errors and [to_line(p.grid.cells) for p in grids] == lines


@pytest.mark.slow
def test_metrics_table(boards_file):
    r = _run([str(boards_file), "--metrics"])
    assert r.exit_code == 0 and len(r.stdout.splitlines()) == 4  # stdout stays one puzzle per line
    assert "clues" in r.stderr and "guesses" in r.stderr and "carve_seconds" in r.stderr
    assert [line.split()[:2] for line in r.stderr.splitlines()[2:]] == [[str(boards_file), str(k)] for k in range(1, 5)]
    block = _run([str(boards_file), "--metrics", "--format", "block"])
    assert "carve_seconds" in block.stdout and block.stderr == ""


@pytest.mark.parametrize("fmt", ["csv", "tsv", "json", "ndjson"])
def test_record_formats_parse_and_name_the_same_columns(boards_file, fmt):

    from catalogue.cli.commands.carve import RECORD_FIELDS

    r = _run([str(boards_file), "--format", fmt, "--seed", "3"])
    assert r.exit_code == 0 and r.stderr == ""
    records = parse_records(fmt, r.stdout)
    assert [list(rec) for rec in records] == [list(RECORD_FIELDS)] * 4
    line = _run([str(boards_file), "--seed", "3"]).stdout.splitlines()
    assert [rec["puzzle"] for rec in records] == line
    if fmt == "csv":
        assert {rec["minimal"] for rec in records} == {"1"} and {rec["target_reached"] for rec in records} == {""}


def test_help_lists_the_options():
    r = _run(["--help"])
    assert r.exit_code == 0
    for option in ("--seed", "--symmetry", "--clues", "--target-clues", "--attempts", "--format", "--metrics"):
        assert option in r.output


def test_bad_symmetry_is_one_line_with_the_valid_values():
    r = _run(["-", "--symmetry", "spiral"], stdin=BOARDS[0])
    assert (r.exit_code, r.stdout, r.stderr) == (
        2, "", "catalogue: --symmetry: no symmetry 'spiral'; one of: none, rot180, rot90, mirror, diagonal\n")
