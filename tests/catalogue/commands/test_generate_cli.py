"""``catalogue generate`` through typer's CliRunner: counts, formats, seeds, the seed-000 demonstration, errors."""
from __future__ import annotations

import itertools
import re

import pytest
from typer.testing import CliRunner

from catalogue.cli import app
from engine.formats import from_line
from engine.generators import wfc
from engine.grid import Grid


def run(*args, input=None):
    result = CliRunner().invoke(app, ["generate", *args], input=input)
    return result, result.stdout, result.stderr


@pytest.mark.parametrize("method", ["wfc", "backtrack", "pattern"])
@pytest.mark.parametrize("size", [4, 9, 16])
def test_line_format_prints_one_valid_board_per_line(method, size):
    result, out, _ = run("--size", str(size), "--method", method, "--count", "5", "--seed", "7")
    assert result.exit_code == 0, result.output
    lines = out.splitlines()
    assert len(lines) == 5
    for line in lines:
        assert len(line) == size * size
        assert Grid(from_line(line)).is_solved()


def test_seed_remakes_the_output_and_matches_the_library():
    first = run("--count", "4", "--seed", "42")[1]
    assert first == run("--count", "4", "--seed", "42")[1]
    assert first != run("--count", "4", "--seed", "43")[1]
    library = [b.cells for b in wfc.generate_many(3, 4, 42)]
    assert [from_line(line).tolist() for line in first.splitlines()] == [c.tolist() for c in library]


def test_without_seed_a_random_one_is_told_and_remakes_the_run():
    result, out, err = run("--count", "2")
    seed = re.search(r"seed (\d+) \(use --seed \1", err).group(1)
    assert run("--count", "2", "--seed", seed)[1] == out


def test_pretty_shows_zero_invalid_cells_under_each_board():
    result, out, _ = run("--format", "pretty", "--count", "3", "--seed", "1")
    assert result.exit_code == 0
    assert out.count("0 invalid cells") == 3
    assert out.count("╔") == 3 and out.count("\n\n") == 2


@pytest.mark.parametrize("fmt,lines_per_board", [("block", 11), ("txt", 9)])
def test_other_formats_separate_boards_by_a_blank_line(fmt, lines_per_board):
    result, out, _ = run("--format", fmt, "--count", "3", "--seed", "2", "--method", "backtrack")
    assert result.exit_code == 0
    boards = out.rstrip("\n").split("\n\n")
    assert len(boards) == 3 and all(len(b.splitlines()) == lines_per_board for b in boards)
    assert "invalid" not in out


@pytest.mark.parametrize("count", [1, 3])
def test_json_is_one_valid_array(count):
    import json

    result, out, _ = run("--format", "json", "--count", str(count), "--seed", "2", "--method", "backtrack")
    assert result.exit_code == 0
    boards = json.loads(out)
    assert isinstance(boards, list) and len(boards) == count
    assert all(b["size"] == 9 and len(b["grid"]) == 9 for b in boards)
    lines = run("--format", "line", "--count", str(count), "--seed", "2", "--method", "backtrack")[1].splitlines()
    assert ["".join(str(d) for row in b["grid"] for d in row) for b in boards] == lines


def test_wfc_contradictions_go_to_stderr():
    # a run seed whose one board meets contradictions (its board seed is derive_seeds(seed, 1)[0])
    seed = next(s for s in range(50) if wfc.generate_many(3, 1, s)[0].restarts > 0)
    restarts = wfc.generate_many(3, 1, seed)[0].restarts
    result, out, err = run("--seed", str(seed))
    assert len(out.splitlines()) == 1
    # one line by default; each contradiction with -v
    assert err.splitlines() == [f"catalogue: {restarts} restart{'s' if restarts > 1 else ''} in 1 board "
                                    f"({restarts:.2f} a board): -v tells why"]
    verbose = CliRunner().invoke(app, ["-v", "generate", "--seed", str(seed)])
    told = [line for line in verbose.stderr.splitlines() if "contradiction at r" in line]
    assert len(told) == min(restarts, wfc.MAX_TRACE)
    assert told[0].startswith("catalogue: board 1: contradiction at r") and told[0].endswith(", restarting")


def test_interactive_shows_a_board_per_enter_until_q():
    result, out, err = run("--interactive", "--seed", "3", input="\n\nq\n")
    assert result.exit_code == 0
    assert out.count("0 invalid cells") == 3 and out.count("╔") == 3
    assert err.count("Enter: next board, q: quit") == 3


def test_interactive_ends_at_end_of_input_and_at_count():
    result, out, _ = run("--interactive", "--seed", "3", "--size", "4", input="\n")
    assert result.exit_code == 0 and out.count("0 invalid cells") == 2
    result, out, _ = run("--interactive", "--seed", "3", "--count", "2", input="\n\n\n\n")
    assert result.exit_code == 0 and out.count("0 invalid cells") == 2


def test_propagate_changes_wfc_and_shuffle_changes_pattern():
    plain = run("--count", "20", "--seed", "9", "--no-propagate")[1]
    assert plain == run("--count", "20", "--seed", "9")[1]  # plain is the 9x9 default
    assert plain != run("--count", "20", "--seed", "9", "--propagate")[1]
    result, out, _ = run("--method", "pattern", "--shuffle", "--count", "3", "--seed", "1")
    assert result.exit_code == 0 and out != run("--method", "pattern", "--count", "3", "--seed", "1")[1]


def test_locked_candidates_are_the_jigsaw_default_and_can_be_turned_off():
    jigsaw = ("--shape", "jigsaw", "--regions", "random", "--seed", "5", "--count", "3", "--format", "json")
    default, singles = run(*jigsaw)[1], run(*jigsaw, "--no-locked")[1]
    assert default == run(*jigsaw, "--locked")[1] and default != singles
    assert run("--count", "3", "--seed", "9", "--propagate", "--locked")[1] != run(
        "--count", "3", "--seed", "9", "--propagate")[1]  # on 9x9 only when asked
    result, out, _ = run("--count", "3", "--seed", "9", "--locked")  # --locked brings propagation with it
    assert result.exit_code == 0 and out == run("--count", "3", "--seed", "9", "--propagate", "--locked")[1]


@pytest.mark.parametrize("args", [
    ["--size", "7"], ["--count", "0"], ["--seed", "-1"], ["--method", "magic"], ["--format", "svg"],
    ["--method", "backtrack", "--propagate"], ["--method", "wfc", "--shuffle"], ["--bogus"],
    ["--method", "backtrack", "--locked"], ["--no-propagate", "--locked"],
])
def test_bad_options_exit_2(args):
    result, _, _ = run(*args)
    assert result.exit_code == 2, (args, result.output)
    assert "Traceback" not in result.output


def test_help_names_the_methods():
    result = CliRunner().invoke(app, ["generate", "--help"])
    assert result.exit_code == 0
    assert all(word in result.stdout for word in ("wfc", "backtrack", "pattern", "--interactive", "--propagate"))


def test_long_runs_sum_up_their_restarts_in_one_line():
    result, out, err = run("--count", "300", "--seed", "1")
    assert result.exit_code == 0 and len(out.splitlines()) == 300
    total = sum(b.restarts for b in wfc.generate_many(3, 300, 1))
    assert err.splitlines() == [f"catalogue: {total:,} restarts in 300 boards ({total / 300:.2f} a board): -v tells why"]


def test_a_huge_count_streams_seeds_instead_of_making_them_all_first():
    # --count 10**20 used to fail in derive_seeds(seed, count) (numpy: "Maximum allowed dimension exceeded")
    from catalogue.cli.commands.generate import _seeds
    from engine.generators import derive_seeds

    first = list(itertools.islice(_seeds(5, 10**20), 200))
    assert first == [int(s) for s in derive_seeds(5, 200)]
    assert list(_seeds(5, 70)) == [int(s) for s in derive_seeds(5, 70)]  # a count across a block boundary
    assert list(_seeds(5, 1)) == [int(derive_seeds(5, 1)[0])]


@pytest.mark.parametrize("args, line", [
    (["--method", "magic"], "--method: no method 'magic'; one of: wfc, backtrack, pattern"),
    (["--format", "svg"], "--format: no format 'svg'; one of: "),
    (["--size", "7"], "--size must be one of 4, 9, 16, 25"),
    (["--bogus"], "No such option: --bogus"),
])
def test_bad_option_is_one_line(args, line):
    result, stdout, stderr = run(*args)
    assert (result.exit_code, stdout, stderr.count("\n")) == (2, "", 1), stderr
    assert stderr.startswith(f"catalogue: {line}")


def test_method_is_case_insensitive():
    assert run("--method", "WFC", "--seed", "1")[1] == run("--method", "wfc", "--seed", "1")[1]


@pytest.mark.parametrize("args, shape", [
    (["--shape", "2x3"], "2x3"), (["--shape", "3x2"], "3x2"), (["--shape", "latin", "--size", "5"], "latin5"),
    (["--shape", "2x4", "--diagonals"], "2x4+x"), (["--diagonals"], "3x3+x"),
    (["--regions", "random", "--size", "6"], "jigsaw6"), (["--shape", "jigsaw", "--regions", "random"], "jigsaw9")])
def test_boards_of_every_shape_read_back_as_their_shape(args, shape):
    from engine.formats import parse
    from engine.geometry import check_shape
    from engine.shape import Shape

    for fmt in ("line", "block", "pretty", "json", "txt"):
        result, _, _ = run(*args, "--count", "3", "--seed", "11", "--format", fmt)
        assert result.exit_code == 0, result.stderr
        grids = parse(result.stdout, "out", fmt if fmt != "json" else None)
        made = grids[0].grid.box
        assert len(grids) == 3 and isinstance(made, Shape) and made.name == shape
        assert all(p.grid.box == made and p.grid.is_solved() for p in grids)
        if fmt != "json":
            assert result.stdout.count("# shape") == 1 and result.stdout.startswith(f"# shape {made.spec}\n")
    assert run(*args, "--count", "3", "--seed", "11")[1] == run(*args, "--count", "3", "--seed", "11")[1]
    assert check_shape(Shape.parse("3x3")) == 3


def test_a_layout_file_makes_jigsaw_boards(tmp_path):
    layout = tmp_path / "regions.txt"
    layout.write_text("AABB\nAABB\nCCDD\nCCDD\n", encoding="utf-8")
    result, _, _ = run("--regions", str(layout), "--seed", "1")
    assert result.exit_code == 0 and result.stdout.startswith("# shape jigsaw4:AABBAABBCCDDCCDD\n")


@pytest.mark.parametrize("args, message", [
    (["--shape", "latin"], "shape latin needs a size (--size N)"),
    (["--shape", "2x7", "--size", "9"], "shape 2x7 is 14x14, not 9x9"),
    (["--shape", "hexagon"], "unknown shape 'hexagon'; write RxC for boxes of R rows by C columns (3x3 is 9x9, "
                             "2x3 is 6x6), latin, or jigsaw"),
    (["--shape", "jigsaw"], "shape jigsaw needs a region layout (--regions random|FILE)"),
    (["--regions", "random", "--shape", "2x3"], "--regions makes a jigsaw: it does not go with --shape 2x3"),
    (["--shape", "3x4", "--method", "pattern"], "--method pattern makes square boxes only; shape 3x4 takes "
                                                "--method wfc or backtrack"),
    (["--regions", "random", "--method", "pattern"], "--method pattern makes square boxes only; jigsaw regions "
                                                     "take --method wfc or backtrack"),
    (["--size", "7"], "--size must be one of 4, 9, 16, 25 (rows of the grid), not 7"),
])
def test_options_that_make_no_shape_are_one_usage_line(args, message):
    result, _, _ = run(*args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [f"catalogue: {message}"]  # before any seed is drawn
