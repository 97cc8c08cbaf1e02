"""`catalogue key`: one key line per grid on stdout (file order), one stderr line per bad grid, exit 1 if any."""
from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from catalogue.cli import app
from records import parse_records
from engine.keys import canonical_transform
from engine.formats import from_line, to_line

BOARD = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
TURNED = "329748165486125973571369824245987316813256497697431258162874539738592641954613782"  # BOARD rotated 90
FLIPPED_RENAMED = "765824931823691475149573826397186254684257319251349687912768543438915762576432198"  # flip, 9-d
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

# the expected keys (test_the_expected_keys_are_right checks them without the key kernels)
BOARD_D4 = "219876435843591276765243891324167958197358624658429317482735169536914782971682543"
BOARD_FULL = "123456789457189263698273514271895346539764128864312957345928671786531492912647835"
PUZZLE_D4 = "....7..35...591..6.6....89.3...6...81..3.8..46...2...7.82....6.5..914...97..8...."
PUZZLE_FULL = "........1.....2.34156...27......8.......51..232974......16..9....34..7..28.91.45."


def run(*args, stdin=None):
    return CliRunner().invoke(app, ["key", *args], input=stdin)


def write(tmp_path, text, name="grids.txt"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_board_and_its_rotation_get_the_same_key(tmp_path):
    path = write(tmp_path, f"{BOARD}\n{TURNED}\n")
    result = run(path)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{BOARD_D4}\n{BOARD_D4}\n"
    assert result.stderr == ""


def test_under_none_they_differ(tmp_path):
    result = run(write(tmp_path, f"{BOARD}\n{TURNED}\n"), "--equivalence", "none")
    assert result.exit_code == 0
    assert result.stdout == f"{BOARD}\n{TURNED}\n"


def test_full_also_merges_flips_and_renamed_digits(tmp_path):
    path = write(tmp_path, f"{BOARD}\n{TURNED}\n{FLIPPED_RENAMED}\n{PUZZLE}\n")
    assert run(path, "-e", "full").stdout == f"{BOARD_FULL}\n{BOARD_FULL}\n{BOARD_FULL}\n{PUZZLE_FULL}\n"
    d4 = run(path, "-e", "d4").stdout.splitlines()
    assert d4[:2] == [BOARD_D4, BOARD_D4] and d4[2] != BOARD_D4 and d4[3] == PUZZLE_D4


def test_bad_lines_are_reported_with_file_and_line_and_the_rest_is_keyed(tmp_path):
    bad = BOARD[:5] + "x" + BOARD[6:]
    path = write(tmp_path, f"# boards\n{BOARD}\n{bad}\n{PUZZLE}\n")
    result = run(path)
    assert result.exit_code == 1
    assert result.stdout == f"{BOARD_D4}\n{PUZZLE_D4}\n"
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"catalogue: {path}:3:6: 'x' is not a symbol")


def test_a_grid_with_a_conflict_has_no_full_key_but_a_d4_key(tmp_path):
    clash = "55" + BOARD[2:]
    path = write(tmp_path, f"{clash}\n{BOARD}\n")
    result = run(path, "-e", "full")
    assert result.exit_code == 1
    assert result.stdout == f"{BOARD_FULL}\n"
    assert result.stderr.startswith(f"catalogue: {path}:1: no full key: r1c1 and r1c2 both hold 5 (row")
    assert result.stderr.count("\n") == 1
    assert run(path).exit_code == 0  # d4 keys any grid


def test_stdin_and_input_format(tmp_path):
    block = "\n".join(BOARD[r * 9:(r + 1) * 9] for r in range(9)) + "\n"
    result = run("-", "--input-format", "block", stdin=block)
    assert result.exit_code == 0 and result.stdout == f"{BOARD_D4}\n"
    assert run("-", stdin=block).stdout == f"{BOARD_D4}\n"  # detected


def test_missing_file_and_no_grids(tmp_path):
    result = run(str(tmp_path / "nope.txt"))
    assert result.exit_code == 1 and result.stderr == f"catalogue: {tmp_path / 'nope.txt'}: no such file\n"
    path = write(tmp_path, "# nothing here\n")
    result = run(path)
    assert result.exit_code == 1 and result.stderr == f"catalogue: {path}: no grid found\n"
    result = run(write(tmp_path, f"{BOARD}\n"), "--equivalence", "rotations")
    assert result.exit_code == 2


def test_help_names_the_equivalences():
    result = CliRunner().invoke(app, ["key", "--help"])
    assert result.exit_code == 0
    for word in ("--equivalence", "d4", "full", "none", "--input-format"):
        assert word in result.stdout


def test_the_expected_keys_are_right():
    for grid, key in ((BOARD, BOARD_D4), (PUZZLE, PUZZLE_D4)):
        m = from_line(grid).reshape(9, 9)
        images = [np.rot90(m, k) for k in range(4)] + [np.rot90(m, k).T for k in range(4)]
        assert key == min(to_line(image.ravel()) for image in images)
    for grid, key in ((BOARD, BOARD_FULL), (PUZZLE, PUZZLE_FULL)):  # the witness move makes the key
        assert to_line(canonical_transform(from_line(grid), 3, "full").apply(from_line(grid))) == key


def test_bad_equivalence_is_one_line_with_the_valid_values():
    result = run("-", "--equivalence", "d8", stdin="." * 16)
    assert (result.exit_code, result.stdout, result.stderr) == (
        2, "", "catalogue: --equivalence: no equivalence 'd8'; one of: d4, full, none\n")
    assert run("-", "--equivalence", "FULL", stdin="1234341221434321").stdout == run(
        "-", "--equivalence", "full", stdin="1234341221434321").stdout


@pytest.mark.parametrize("fmt", ["csv", "tsv", "json", "ndjson"])
def test_record_formats_parse_and_name_the_same_columns(tmp_path, fmt):

    path = tmp_path / "grids.txt"
    path.write_text(f"{BOARD}\n{TURNED}\n")
    out = run(str(path), "--format", fmt).stdout
    records = parse_records(fmt, out)
    assert [list(r) for r in records] == [["source", "line", "equivalence", "key"]] * 2
    assert [r["key"] for r in records] == [BOARD_D4, BOARD_D4]
    assert [str(r["line"]) for r in records] == ["1", "2"]


def test_a_puzzle_of_a_shape_whose_full_keys_are_for_boards_is_one_line(tmp_path):
    # boxes of 2x4 and larger, and Latin squares, are keyed under full by searches of complete grids
    board = "1358246724761853316257844587321657348621682143757213654886457132"
    puzzle = "." * 5 + board[5:]
    path = write(tmp_path, f"# shape 2x4\n{puzzle}\n{board}\n")
    result = run(path, "-e", "full")
    assert result.exit_code == 1
    assert result.stderr == (f"catalogue: {path}:2: no full key: it has blanks, and the full keys of this shape are "
                             "for complete boards\n")
    assert len(result.stdout.split()) == 1  # the board's key
