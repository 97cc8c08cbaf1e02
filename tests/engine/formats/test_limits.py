"""Each bound of engine/formats/limits.py: refused with one FormatError naming the line and column (never a
RecursionError, a ValueError from int(), or memory and time that grow with a line), and the input size bound of
the commands (catalogue/io.py) as one ``catalogue:`` line."""
from __future__ import annotations

import json
import time
import tracemalloc

import pytest
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.io import MAX_INPUT_BYTES
from engine.formats import FormatError, Parsed, from_txt, parse
from engine.formats.limits import (MAX_FORMAT_ERRORS, MAX_JSON_DEPTH, MAX_JSON_GRID_CHARS, MAX_NUMBER_DIGITS,
                                   MAX_ROW_CELLS, echo, too_long_number)
from engine.formats.registry import parse_entries

BOARD_4 = "1234341221434321"
DEEP = f"arrays and objects nested more than {MAX_JSON_DEPTH} deep (a grid needs 2 or 3); reading stops here"


def only_error(text: str, fmt: str | None = None) -> FormatError:
    entries = parse(text, "f.txt", fmt)
    assert len(entries) == 1 and isinstance(entries[0], FormatError), entries
    return entries[0]


# -- JSON nesting ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, line, column", [
    ("[" * 100_000, 1, MAX_JSON_DEPTH + 1),
    ("[\n" * 100_000, MAX_JSON_DEPTH + 1, 1),
    ('{"grid": ' * 1000, 1, 9 * MAX_JSON_DEPTH + 1),
    ("  " + "[" * 70 + "]" * 70, 1, MAX_JSON_DEPTH + 3),
])
def test_nesting_deeper_than_the_limit_is_one_error_at_the_bracket(text, line, column):
    e = only_error(text)
    assert (e.line, e.column, e.message) == (line, column, DEEP)


def test_nesting_up_to_the_limit_is_json_as_usual():
    e = only_error("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH)
    assert e.message.startswith("a grid has 4, 9, 16 or 25 rows")


def test_grids_before_a_too_deep_value_are_read():
    text = '{"grid": "' + BOARD_4 + '"}\n' + "[" * 1000
    first, second = parse(text, "f.txt")
    assert isinstance(first, Parsed) and (second.line, second.column) == (2, MAX_JSON_DEPTH + 1)


def test_brackets_inside_strings_do_not_count():
    e = only_error('["' + "[" * 1000 + '"]')
    assert "nested" not in e.message


# -- long numbers ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, fmt, line, column, digits", [
    ("[" + "9" * 5000 + "]", None, 1, 2, 5000),
    ('{"size": ' + "9" * 5000 + ', "grid": []}', None, 1, 10, 5000),
    ("[-" + "9" * 5000 + "]", None, 1, 3, 5000),
    ('{"grid": [[1, 2],\n [3, ' + "1" * 10 + ']]}', None, 2, 6, 10),
    ("1 1 " + "9" * 5000, "rcv", 1, 5, 5000),
    ("# size " + "9" * 5000 + "\n1 1 1", "rcv", 1, 8, 5000),
    (("1 2 3 " + "4" * 5000 + "\n") * 4, "txt", 1, 7, 5000),
])
def test_a_number_with_too_many_digits_is_one_error_at_the_number(text, fmt, line, column, digits):
    e = only_error(text, fmt)
    assert (e.line, e.column, e.message) == (line, column, too_long_number(digits))


def test_numbers_up_to_the_limit_are_out_of_range_as_before():
    e = only_error('{"grid": [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, ' + "9" * MAX_NUMBER_DIGITS
                   + "]]}")
    assert e.message == f"{'9' * MAX_NUMBER_DIGITS} is out of range for a 4x4 grid (0-4, 0 = blank)"


def test_a_float_with_a_huge_exponent_is_not_a_number_of_the_grid():
    e = only_error('{"grid": [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1e999]]}')
    assert e.message == "expected a number 0-4 (0 or null = blank), got Infinity"


# -- long lines --------------------------------------------------------------------------------------------------
TEN_MB = 10 * 1000 * 1000


@pytest.mark.parametrize("fmt, unit, message", [
    ("line", "1", "expected 16, 81, 256 or 625 symbols, got 10000000"),
    ("block", "1", "rows of 10000000 cells: a grid has 4, 9, 16 or 25 rows of as many cells"),
    ("txt", "1 ", "rows of 5000000 cells: a grid has 4, 9, 16 or 25 rows of as many cells"),
    ("pretty", "│1", "rows of 4999999 cells: a grid has 4, 9, 16 or 25 rows of as many cells"),
    ("rcv", "1 ", 'expected "row column value" (3 whole numbers), got 5,000,000'),
    ("json", "1", "a number of 10,000,000 digits (at most 9; a grid needs 2)"),
])
def test_a_10_mb_line_is_read_in_bounded_time_and_memory(fmt, unit, message):
    text = (unit * (TEN_MB // len(unit)))
    tracemalloc.start()
    started = time.perf_counter()
    try:
        entries = parse(text, "f.txt", fmt)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [e.message for e in entries] == [message]
    # the line itself is 10 MB (20 MB as "│1"); the readers add a decode of it at most, not an object per cell
    assert peak < 12 * len(text.encode()), f"{peak / 1e6:.0f} MB"
    assert time.perf_counter() - started < 20


def test_rows_keep_a_bounded_number_of_cells_and_count_the_rest():
    e = only_error(("1" * (MAX_ROW_CELLS * 1000) + "\n") * 3, "block")
    assert e.message == f"rows of {MAX_ROW_CELLS * 1000} cells: a grid has 4, 9, 16 or 25 rows of as many cells"
    rows = "1234\n" * 3 + "12" + "3" * 50_000 + "\n"
    e = only_error(rows, "block")
    assert (e.line, e.column, e.message) == (4, 5, "expected 4 symbols in a row of a 4x4 grid, got 50,002")


def test_a_long_line_of_dashes_is_not_a_quadratic_separator_check():
    started = time.perf_counter()
    e = only_error("-" * 1_000_000 + "x\n" + "1234\n" * 4, "block")
    assert time.perf_counter() - started < 5 and e.line == 1


def test_quoted_input_is_cut_short():
    e = only_error("1 1 " + "x" * 100_000, "rcv")
    assert e.message == f'expected "row column value" (3 whole numbers), got {echo("x" * 100_000)}'
    assert len(e.message) < 120
    with pytest.raises(FormatError, match=r"\(100,000 characters\) is not a number"):
        from_txt(("1 2 3 " + "x" * 100_000 + "\n") * 4)


# -- many errors -------------------------------------------------------------------------------------------------
def test_reading_stops_after_the_most_errors():
    entries = parse("x\n" * (MAX_FORMAT_ERRORS + 500), "f.txt", "line")
    assert len(entries) == MAX_FORMAT_ERRORS + 1
    last = entries[-1]
    assert (last.line, last.message) == (MAX_FORMAT_ERRORS + 1, f"more than {MAX_FORMAT_ERRORS:,} unreadable grids;"
                                                                 f" reading stops here")


# -- the commands' input size ------------------------------------------------------------------------------------
def test_a_file_over_the_input_limit_is_one_line(tmp_path):
    path = tmp_path / "big.sdm"
    with open(path, "wb") as f:
        f.truncate(MAX_INPUT_BYTES + 1)
    r = CliRunner().invoke(app, ["check", str(path)])
    assert r.exit_code == 1 and r.exception is None or isinstance(r.exception, SystemExit)
    assert r.stderr == (f"catalogue: {path}: 16.8 MB is more than a command reads at once (16 MiB); split the file "
                        f"(e.g. split -l 100000)\n")


def test_stdin_over_the_input_limit_is_one_line():
    r = CliRunner().invoke(app, ["key", "-"], input=b"1" * (MAX_INPUT_BYTES + 1))
    assert r.exit_code == 1
    assert r.stderr == ("catalogue: <stdin>: more than a command reads at once (16 MiB); split the file "
                        "(e.g. split -l 100000)\n")


def test_bytes_that_are_not_utf8_are_named_by_line_and_column(tmp_path):
    path = tmp_path / "latin1.sdm"
    path.write_bytes("# ok\ncaf\u00e9\n".encode("latin-1"))
    r = CliRunner().invoke(app, ["check", str(path)])
    assert r.exit_code == 1 and r.stderr == f"catalogue: {path}:2:4: not UTF-8 text (byte 9)\n"


# -- memory: what a reader holds does not grow with the file ---------------------------------------------------
G4 = '{"grid": [[0,0,0,1],[0,0,2,0],[0,4,0,0],[0,0,0,3]]}'
TOO_LONG = f"a JSON value of {{:,}} characters where a grid is expected (at most {MAX_JSON_GRID_CHARS:,}; a 25x25 " \
           f"grid takes about 3,000)"


def test_a_json_value_too_long_for_a_grid_is_one_error_at_its_start_and_not_decoded():
    huge = "[" + "[]," * (MAX_JSON_GRID_CHARS // 3) + "[]]"
    first, error, last = parse(f"[{G4}, {huge}, {G4}]", "f.json")
    assert isinstance(first, Parsed) and isinstance(last, Parsed)
    assert (error.line, error.column, error.message) == (1, len(G4) + 4, TOO_LONG.format(len(huge)))
    e = only_error("[" + G4 + ", " + huge[:-1])  # it does not even end: reading stops there
    assert (e.column, e.message) == (len(G4) + 4, TOO_LONG.format(len(huge) - 1))


@pytest.mark.parametrize("text", ["[" + "{}," * 1000 + "{} x]", "[{}, {}, ]", "[{}, {}", "[{}, {\"a\": }]",
                                  "[1 2]", "[{},\n\u00a0{}]", "[[1,2],[3,4]}"])
def test_a_json_list_read_an_element_at_a_time_is_refused_as_json_refuses_it(text):
    """A list is never decoded whole (a 16 MiB list of {} was 1.4 GB), yet a list that is not JSON gets json's own
    message at json's own place."""
    with pytest.raises(json.JSONDecodeError) as refused:
        json.loads(text)
    e = only_error(text)
    assert (e.line, e.column, e.message) == (refused.value.lineno, refused.value.colno,
                                             f"invalid JSON: {refused.value.msg}")


def test_entries_are_held_compactly_and_listed_as_parse_lists_them():
    text = "\n".join([BOARD_4, "x", BOARD_4[:-1] + ".", "12"] * 50)
    entries = parse_entries(text, "f.sdm", "line")
    listed = parse(text, "f.sdm", "line")
    assert len(entries) == len(listed) == 200 and entries.grids == 100 and entries.boxes == {2}
    assert [str(e) for e in entries if isinstance(e, FormatError)] == [str(e) for e in listed[1::2]]
    assert [(e.line, e.index, e.grid.cells.tolist()) for e in entries[::2]] == \
        [(e.line, e.index, e.grid.cells.tolist()) for e in listed[::2]]
    # on one line (JSON), grids come before the errors of that line, as the commands list them
    one_line = parse_entries(f'[{{}}, {G4}]', "f.json")
    assert [type(e).__name__ for e in one_line] == ["Parsed", "FormatError"]
