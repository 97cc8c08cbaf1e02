"""Readers and writers of every format: hand-written examples, every error with its exact position, detection,
and write-then-read round trips on random grids of every size."""
from __future__ import annotations

import json
import pickle
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from engine import formats as F
from engine.formats import FormatError, Parsed
from engine.formats.svg import SOLUTION_COLOUR
from engine.grid import Grid

SEED_004 = Path("/work/shared/seeds/004_e07b9b3f8d6e44d0.txt")
from paths import SAMPLES

# the seed 004 picture, written out here so the test does not depend on the seed file being present
PICTURE = """\
╔═══╤═══╤═══╦═══╤═══╤═══╦═══╤═══╤═══╗
║   │   │   ║ 6 │   │ 2 ║   │   │   ║
╟───┼───┼───╫───┼───┼───╫───┼───┼───╢
║   │ 9 │ 2 ║   │   │   ║ 3 │ 1 │   ║
╟───┼───┼───╫───┼───┼───╫───┼───┼───╢
║ 8 │   │ 5 ║   │ 1 │ 4 ║ 6 │ 9 │   ║
╠═══╪═══╪═══╬═══╪═══╪═══╬═══╪═══╪═══╣
║ 1 │ 3 │   ║ 4 │   │   ║ 7 │   │   ║
╟───┼───┼───╫───┼───┼───╫───┼───┼───╢
║ 4 │   │ 9 ║   │   │ 8 ║ 1 │   │   ║
╟───┼───┼───╫───┼───┼───╫───┼───┼───╢
║   │ 5 │   ║ 1 │ 3 │ 6 ║ 4 │   │ 9 ║
╠═══╪═══╪═══╬═══╪═══╪═══╬═══╪═══╪═══╣
║   │   │   ║   │   │ 1 ║ 5 │ 8 │ 7 ║
╟───┼───┼───╫───┼───┼───╫───┼───┼───╢
║ 2 │   │ 1 ║ 5 │   │   ║   │   │   ║
╟───┼───┼───╫───┼───┼───╫───┼───┼───╢
║   │ 8 │ 7 ║ 9 │ 4 │ 3 ║ 2 │   │   ║
╚═══╧═══╧═══╩═══╧═══╧═══╩═══╧═══╧═══╝"""
PICTURE_LINE = "...6.2....92...31.8.5.1469.13.4..7..4.9..81...5.1364.9.....15872.15......879432.."
PUZZLE = "7.8........38..9..4....6.7..45.12....7......9.......856.7.5...2..2...1..5....38.."
BOARD = "758149623263875941491326578845912736376584219129637485687451392932768154514293867"
P4 = "...1..2..4.....3"


def cells(line: str) -> np.ndarray:
    return F.from_line(line)


def grids(text: str, **kw) -> list[str]:
    """The line form of each grid read, or the error text."""
    return [F.to_line(e.grid.cells) if isinstance(e, Parsed) else str(e) for e in F.parse(text, "f.txt", **kw)]


def error(text: str, **kw) -> str:
    (entry,) = F.parse(text, "f.txt", **kw)
    assert isinstance(entry, FormatError), entry
    return str(entry)


# -- line ---------------------------------------------------------------------------------------------------------
def test_line_reads_dots_zeros_comments_and_data_file_lines():
    text = f"# puzzles\n\n{PUZZLE}\n{PUZZLE.replace('.', '0')}\r\n  {PUZZLE}:1:{BOARD}\n"
    entries = F.parse(text, "p.sdm")
    assert [(e.line, e.index, e.source) for e in entries] == [(3, 0, "p.sdm"), (4, 1, "p.sdm"), (5, 2, "p.sdm")]
    assert all(F.to_line(e.grid.cells) == PUZZLE for e in entries)
    g = entries[0].grid
    assert g.box == 3 and g.clue_count == 25 and np.array_equal(g.givens, g.cells != 0)


def test_line_reads_trailing_comments_and_csv_with_a_puzzle_column():
    # a puzzle followed by a comment, as people annotate files
    entries = F.parse(f"{PUZZLE} # from a newspaper\n{PUZZLE}# no space\n", "c.txt")
    assert [F.to_line(e.grid.cells) for e in entries] == [PUZZLE] * 2
    # QQWing's --csv, as `qqwing --generate 2 --csv --solution` prints it: a header, then puzzle,solution,
    qqwing = f"Puzzle,Solution,\n{PUZZLE},{BOARD},\n{PUZZLE},{BOARD},\n"
    assert F.detect(qqwing) == "line"
    entries = F.parse(qqwing, "q.csv")
    assert [(e.line, F.to_line(e.grid.cells)) for e in entries] == [(2, PUZZLE), (3, PUZZLE)]
    # catalogue query's csv (the puzzle quoted, in a later column) and the Kaggle sets' quizzes,solutions
    own = f'number,level,puzzle,solution\n7,"easy","{PUZZLE}","{BOARD}"\n'
    assert [F.to_line(e.grid.cells) for e in F.parse(own, "own.csv")] == [PUZZLE]
    kaggle = f"quizzes,solutions\n{PUZZLE.replace('.', '0')},{BOARD}\n"
    assert [F.to_line(e.grid.cells) for e in F.parse(kaggle, "k.csv")] == [PUZZLE]
    # a bad row of a CSV is named at its own column
    bad = F.parse(f'number,puzzle\n7,"{PUZZLE[:-1]}x"\n', "bad.csv")
    assert isinstance(bad[0], FormatError) and (bad[0].line, bad[0].column) == (2, 4 + 80)


def test_line_sixteen_by_sixteen_uses_letters_lowercase_accepted():
    line = "123456789ABCDEFG" + "." * 240
    g = F.parse(line.lower())[0].grid
    assert g.box == 4 and list(g.cells[:16]) == list(range(1, 17))
    assert F.to_line(g.cells) == line
    assert F.write(g, "line") == line


def test_to_line_and_from_line_keep_their_behaviour():
    assert F.to_line(cells(PUZZLE), blank="0") == PUZZLE.replace(".", "0")
    assert F.from_line(f"  {PUZZLE}  ").dtype == np.int8
    with pytest.raises(ValueError, match=r"<line>:1:3: 'x' is not a symbol"):
        F.from_line("12x4" * 4)
    with pytest.raises(FormatError, match=r"<line>:1:17: expected 16 symbols for a 4x4 grid, got 81"):
        F.from_line(PUZZLE, box=2)


@pytest.mark.parametrize("line, box, message", [
    (PUZZLE[:80], None, "f.txt:1:81: expected 16, 81, 256 or 625 symbols, got 80"),
    (PUZZLE + "5", None, "f.txt:1:82: expected 16, 81, 256 or 625 symbols, got 82"),
    (P4, 3, "f.txt:1:17: expected 81 symbols for a 9x9 grid, got 16"),
    ("  " + PUZZLE[:40] + "x" + PUZZLE[41:], None, "f.txt:1:43: 'x' is not a symbol (digits 1-9, letters A-P for "
                                                   "10-25, '.' or '0' for a blank)"),
    (PUZZLE[:10] + "A" + PUZZLE[11:], None, "f.txt:1:11: 'A' (10) is out of range for a 9x9 grid (symbols 1-9)"),
    ("H" + "." * 255, None, "f.txt:1:1: 'H' (17) is out of range for a 16x16 grid (symbols 1-9, A-G)"),
    ("5" + "." * 15, None, "f.txt:1:1: '5' is out of range for a 4x4 grid (symbols 1-4)"),
])
def test_line_errors_name_file_line_column(line, box, message):
    assert error(line, fmt="line", box=box) == message


def test_bad_lines_do_not_stop_the_rest():
    text = "\n".join([PUZZLE, PUZZLE[:-1], PUZZLE, "hello", PUZZLE])
    entries = F.parse(text, "many.txt")
    assert [type(e).__name__ for e in entries] == ["Parsed", "FormatError", "Parsed", "FormatError", "Parsed"]
    assert [e.index for e in entries if isinstance(e, Parsed)] == [0, 2, 4]
    assert (entries[1].source, entries[1].line, entries[1].column) == ("many.txt", 2, 81)
    good, bad = F.read_grids(text, "many.txt")
    assert len(good) == 3 and [e.line for e in bad] == [2, 4]


# -- block ----------------------------------------------------------------------------------------------------------
def test_block_as_people_write_it():
    text = """# a 9x9 with rules
. . . | 6 . 2 | . . .
. 9 2 | . . . | 3 1 .
8 . 5 | . 1 4 | 6 9 .
------+-------+------
1 3 . | 4 . . | 7 . .
4 . 9 | . . 8 | 1 . .
. 5 . | 1 3 6 | 4 . 9
------+-------+------
. . . | . . 1 | 5 8 7
2 . 1 | 5 . . | . . .
. 8 7 | 9 4 3 | 2 . .
"""
    assert grids(text) == [PICTURE_LINE]
    assert F.to_block(cells(PICTURE_LINE)) == text.split("\n", 1)[1].rstrip("\n")
    assert F.parse(text)[0].line == 2


def test_several_blocks_plain_and_zero_blanks():
    rows = [PUZZLE[i:i + 9] for i in range(0, 81, 9)]
    text = "\n".join(rows) + "\n\n" + "\n".join(r.replace(".", "0") for r in rows) + "\n\n1..4\n..1.\n2...\n...3\n"
    assert grids(text) == [PUZZLE, PUZZLE, "1..4..1.2......3"]
    assert F.to_block(cells(P4), spaced=False) == "...1\n..2.\n.4..\n...3"
    assert F.to_block(cells(P4)) == ". . | . 1\n. . | 2 .\n----+----\n. 4 | . .\n. . | . 3"


def test_block_errors():
    rows = [PUZZLE[i:i + 9] for i in range(0, 81, 9)]
    short_row = rows[:3] + [rows[3][:8]] + rows[4:]
    assert error("\n".join(short_row)) == "f.txt:4:9: expected 9 symbols in a row of a 9x9 grid, got 8"
    assert error("\n".join(rows[:8])) == "f.txt:1:1: expected 9 rows for a 9x9 grid, got 8"
    bad_char = rows[:5] + ["7.8.?...."] + rows[6:]
    assert error("\n".join(bad_char), fmt="block").startswith("f.txt:6:5: '?' is not a symbol")
    text = "\n".join(rows) + "\n\n" + "\n".join(rows[:8]) + "\n\n" + "\n".join(rows)
    assert grids(text) == [PUZZLE, "f.txt:11:1: expected 9 rows for a 9x9 grid, got 8", PUZZLE]


# -- rcv ------------------------------------------------------------------------------------------------------------
def test_rcv_as_in_seed_002():
    text = "row column value\n1 4 6\n1 6 2\n2 2 9\n9 8 1\n"
    (p,) = F.parse(text, "clues.txt")
    g = p.grid
    assert g.box == 3 and g.clue_count == 4 and (g.get(0, 3), g.get(0, 5), g.get(1, 1), g.get(8, 7)) == (6, 2, 9, 1)
    assert F.detect(text) == "rcv"


def test_rcv_size_is_inferred_rounded_up_or_given():
    assert F.parse("1 1 1\n2 3 3\n")[0].grid.box == 2
    assert F.parse("1 1 5\n")[0].grid.box == 3
    assert F.parse("1 12 3\n")[0].grid.box == 4
    assert F.parse("1 1 1\n", box=5)[0].grid.box == 5
    assert F.parse("# size 16\n1 1 1\n")[0].grid.box == 4
    assert F.parse("1,1,1\n2,2,2\n")[0].grid.clue_count == 2


def test_rcv_writer_keeps_the_size_of_sparse_and_empty_grids():
    g = Grid.empty(4)
    g.set(0, 0, 1)
    text = F.to_rcv(g)
    assert text == "# size 16 (box 4): row column value, 1-based\n1 1 1"
    assert F.parse(text)[0].grid == g
    assert F.parse(F.to_rcv(Grid.empty(5)))[0].grid == Grid.empty(5)
    assert F.to_rcv(cells(P4), header=False) == "1 4 1\n2 3 2\n3 2 4\n4 4 3"


@pytest.mark.parametrize("text, kw, message", [
    ("1 1 5\n2 2\n", {}, 'f.txt:2:4: expected "row column value" (3 whole numbers), got 2'),
    ("1 1 5\n2 x 3\n", {}, "f.txt:2:3: expected \"row column value\" (3 whole numbers), got 'x'"),
    ("1 1 5\n2 2 3 4\n", {}, 'f.txt:2:7: expected "row column value" (3 whole numbers), got 4'),
    ("1 1 5\n2 2 0\n", {}, "f.txt:2:5: value 0 is out of range 1-9 for a 9x9 grid"),
    ("1 1 5\n0 2 3\n", {}, "f.txt:2:1: row 0 is out of range 1-9 for a 9x9 grid"),
    ("1 1 5\n2 10 3\n", {"box": 3}, "f.txt:2:3: column 10 is out of range 1-9 for a 9x9 grid"),
    ("1 1 5\n2 2 3\n  1 1 4\n", {}, "f.txt:3:3: r1c1 is given twice (first on line 1)"),
    ("1 1 5\n2 2 30\n", {}, "f.txt:2:5: value 30 is out of range 1-25 (largest grid 25x25)"),
    ("# size 10\n1 1 5\n", {}, "f.txt:1:1: size 10 is not 4, 9, 16 or 25"),
])
def test_rcv_errors(text, kw, message):
    assert error(text, fmt="rcv", **kw) == message


def test_rcv_grids_separated_by_blank_lines_each_checked():
    text = "1 1 1\n2 2 2\n\n1 1 0\n\n3 3 3\n"
    assert grids(text) == ["1....2..........", "f.txt:4:5: value 0 is out of range 1-4 for a 4x4 grid",
                           ".........." + "3....."]


# -- pretty (seed 004) ----------------------------------------------------------------------------------------------
def test_pretty_reads_seed_004_and_writes_it_exactly():
    (p,) = F.parse(PICTURE, "seed.txt")
    assert F.to_line(p.grid.cells) == PICTURE_LINE and p.line == 1
    assert F.to_pretty(p.grid) == PICTURE
    assert F.write(cells(PICTURE_LINE), "pretty") == PICTURE


@pytest.mark.skipif(not SEED_004.exists(), reason="seed files not present")
def test_pretty_found_inside_the_seed_document():
    entries = F.parse(SEED_004.read_text(encoding="utf-8"), "seed004")
    assert [F.to_line(e.grid.cells) for e in entries] == [PICTURE_LINE]
    assert F.to_pretty(entries[0].grid) in SEED_004.read_text(encoding="utf-8")


def test_pretty_sixteen_by_sixteen_and_lenient_reading():
    line = "G" + "." * 14 + "A" + "." * 240
    pic = F.to_pretty(cells(line))
    assert pic.splitlines()[1].startswith("║ G │   │   │   ║") and len(pic.splitlines()) == 33
    assert grids(pic) == [line]
    ascii_cells = pic.replace(" G ", " 16").replace(" A ", "10 ").replace(" . ", "   ")
    assert grids(ascii_cells) == [line]
    ascii_art = "+---+---+---+---+\n|   |   |   | 1 |\n|   |   | 2 |   |\n+---+---+---+---+\n|   | 4 |   |   |\n" \
                "|   |   |   | 3 |\n+---+---+---+---+\n"
    assert grids(ascii_art, fmt="pretty") == [P4]
    two = F.to_pretty(cells(P4)) + "\n" + F.to_pretty(cells(P4[::-1]))
    assert grids(two) == [P4, P4[::-1]]
    assert [p.line for p in F.parse(two)] == [1, 10]


def test_pretty_errors():
    rows = PICTURE.splitlines()
    bad = rows[:3] + [rows[3].replace("│ 9 │", "│ x │")] + rows[4:]
    assert error("\n".join(bad)).startswith("f.txt:4:7: 'x' is not a symbol")
    short = rows[:3] + [rows[3][:-4]] + rows[4:]  # the row lost its last cell
    assert error("\n".join(short)) == "f.txt:4:34: expected 9 symbols in a row of a 9x9 grid, got 8"


# -- json -----------------------------------------------------------------------------------------------------------
def test_json_writes_the_object_and_reads_every_shape():
    text = F.to_json(cells(P4))
    assert json.loads(text) == {"size": 4, "box": 2, "grid": [[0, 0, 0, 1], [0, 0, 2, 0], [0, 4, 0, 0], [0, 0, 0, 3]]}
    matrix = json.dumps(json.loads(text)["grid"])
    assert grids(text) == [P4]
    assert grids("[" + text + ",\n" + text + "]") == [P4, P4]
    assert grids(matrix) == [P4]
    assert grids(f"[{matrix}, {matrix}]") == [P4, P4]
    assert grids(text + "\n" + text) == [P4, P4]  # what callers get when they join written grids
    assert grids('{"grid": [[null, 0, 0, 1], "..2.", ".4..", "0003"]}') == [P4]
    assert grids('{"grid": "' + PUZZLE + '"}') == [PUZZLE]
    assert [p.line for p in F.parse("[" + text + ",\n" + text + "]")] == [1, 7]


@pytest.mark.parametrize("text, message", [
    ('{"size": 4, "grid": [[0, 0, 0, 1], [0, 0, 2, 0], [0, 4, 0, 0], [0, 0, 0, 5]]}',
     "f.txt:1:74: 5 is out of range for a 4x4 grid (0-4, 0 = blank)"),
    ('{"grid": [[0, 0, 0, 1],\n [0, 0, 2],\n [0, 4, 0, 0], [0, 0, 0, 3]]}',
     "f.txt:2:2: row 2 has 3 values, expected 4"),
    ('{"grid": [[0, 0, 0, 1],\n [0, 0, 2, 0],\n [0, 4, "x", 0], [0, 0, 0, 3]]}',
     'f.txt:3:9: expected a number 0-4 (0 or null = blank), got "x"'),
    ('{"size": 9, "grid": [[0]]}', "f.txt:1:1: the grid's size does not agree: size 9, box 2 asked for"),
    ('{"size": 10, "grid": [[0]]}', 'f.txt:1:10: "size" must be one of 4, 9, 16, 25, got 10'),
    ('{"cells": []}', 'f.txt:1:1: the object has no "grid" (expected {"size": 9, "box": 3, "grid": [[...], ...]})'),
    ('[[0, 1, 0]]', "f.txt:1:1: a grid has 4, 9, 16 or 25 rows, got 1"),
    ('{"grid": [[0, 0, 0, 1],\n  [0, 0 0]]}', "f.txt:2:9: invalid JSON: Expecting ',' delimiter"),
])
def test_json_errors_point_at_the_value(text, message):
    box = 2 if "size\": 9" in text else None
    assert error(text, fmt="json", box=box) == message


def test_json_goes_on_after_bad_json_at_the_next_value():
    text = '{"grid": [[0, 0, 0, 1]\n' + F.to_json(cells(P4))
    assert grids(text) == ["f.txt:2:1: invalid JSON: Expecting ',' delimiter", P4]


# -- txt (the catalogue's N.txt) ------------------------------------------------------------------------------------
def test_txt_nine_and_sixteen():
    assert F.to_txt(cells(P4)) == "0001\n0020\n0400\n0003"
    assert np.array_equal(F.from_txt("0001\n0020\n0400\n0003\n"), cells(P4))
    line16 = "G" + "." * 14 + "A" + "." * 240
    text = F.to_txt(cells(line16))
    assert text.splitlines()[0] == "16 0 0 0 0 0 0 0 0 0 0 0 0 0 0 10" and len(text.splitlines()) == 16
    assert F.detect(text) == "txt" and grids(text) == [line16]
    assert np.array_equal(F.from_txt(text), cells(line16))


def test_txt_errors():
    rows = F.to_txt(cells("G" + "." * 255)).splitlines()
    with pytest.raises(FormatError, match=r"^<txt>:3:7: 17 is out of range for a 16x16 grid \(0-16, 0 = blank\)$"):
        F.from_txt("\n".join(rows[:2] + ["0 0 0 17" + rows[2][7:]] + rows[3:]))
    with pytest.raises(FormatError, match=r"^<txt>:2:5: 'x1' is not a number \(0 = blank, 1-16\)$"):
        F.from_txt("\n".join(rows[:1] + ["0 0 x1" + rows[1][5:]] + rows[2:]))
    with pytest.raises(FormatError, match="expected one grid, found 2"):
        F.from_txt("0001\n0020\n0400\n0003\n\n0001\n0020\n0400\n0003\n")


# -- svg ------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("box", [2, 3, 4, 5])
def test_svg_is_a_printable_picture_at_every_size(box):
    n = box * box
    rng = np.random.default_rng(box)
    puzzle = rng.integers(0, n + 1, n * n).astype(np.int8)
    root = ET.fromstring(F.to_svg(puzzle, box))
    ns = "{http://www.w3.org/2000/svg}"
    texts = root.findall(f".//{ns}text")
    assert len(texts) == np.count_nonzero(puzzle)
    assert len([e for e in root.iter(f"{ns}line") if e.get("class") == "box"]) == 2 * (box - 1)
    assert all(float(e.get("stroke-width")) >= 2 for e in root.iter(f"{ns}line") if e.get("class") == "box")
    assert {t.text for t in texts} <= set(F.SYMBOLS[1:n + 1])


def test_svg_with_solution_in_a_second_colour_or_beside():
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.fromstring(F.to_svg(cells(PUZZLE), 3, cells(BOARD)))
    texts = root.findall(f".//{ns}text")
    assert len(texts) == 81 and sum(t.get("class") == "solution" for t in texts) == 81 - 25
    assert {t.get("fill") for t in texts if t.get("class") == "solution"} == {SOLUTION_COLOUR}
    beside = ET.fromstring(F.to_svg(cells(PUZZLE), 3, cells(BOARD), beside=True))
    assert len(beside.findall(f".//{ns}g[@class='grid']")) == 2 and len(beside.findall(f".//{ns}text")) == 25 + 81
    with pytest.raises(ValueError, match="the solution has 6 at r1c3, where the puzzle has the clue 8"):
        F.to_svg(cells(PUZZLE), 3, cells("756" + BOARD[3:]))
    g = Grid.puzzle(cells(PUZZLE))
    g.set(0, 1, 5)
    assert F.write(g, "svg").count('class="solution"') == 1


# -- conflicts, detection, errors -----------------------------------------------------------------------------------
def test_conflict_errors_name_each_pair_one_line_per_grid():
    text = f"{PUZZLE}\n{'7.8..7...' + PUZZLE[9:]}\n"
    errors = F.conflict_errors(F.parse(text, "puzzles.txt"))
    assert [str(e) for e in errors] == ["puzzles.txt:2: r1c1 and r1c6 both hold 7 (row conflict)"]
    four = F.parse("11..\n1...\n....\n....\n", "g.txt")
    assert str(F.conflict_errors(four[0])[0]) == ("g.txt:1: r1c1 and r1c2 both hold 1 (row and box conflict); "
                                                  "r1c1 and r2c1 both hold 1 (column and box conflict); "
                                                  "r1c2 and r2c1 both hold 1 (box conflict)")


@pytest.mark.parametrize("text, fmt", [
    (PUZZLE, "line"), ("# c\n\n" + PUZZLE + ":1:" + BOARD, "line"), (P4 + "\n" + P4, "line"),
    (F.to_block(cells(P4)), "block"), (F.to_block(cells(PUZZLE), spaced=False), "block"),
    ("\n".join(["123456789ABCDEFG"] * 16), "block"), ("\n".join(["1234123412341234"] * 16), "line"),
    ("1 2 3\n4 5 6\n", "rcv"), ("1 2 3\n4 5 6\n7 8\n", "rcv"), ("# size 9\n", "rcv"),
    (PICTURE, "pretty"), ("  [[1]]", "json"), ('{"grid": []}', "json"),
    (F.to_txt(cells("G" + "." * 255)), "txt"), (F.to_txt(cells(PUZZLE)), "block"),
])
def test_detect(text, fmt):
    assert F.detect(text) == fmt


def test_format_error_fields_pickling_and_unknown_format_names():
    e = FormatError("a.txt", 3, 12, "bad")
    assert (e.source, e.line, e.column, e.message, str(e)) == ("a.txt", 3, 12, "bad", "a.txt:3:12: bad")
    assert isinstance(e, ValueError) and str(pickle.loads(pickle.dumps(e))) == "a.txt:3:12: bad"
    assert str(FormatError("a.txt", 3, None, "whole grid")) == "a.txt:3: whole grid"
    with pytest.raises(ValueError, match="unknown input format 'xml'"):
        F.parse(PUZZLE, fmt="xml")
    with pytest.raises(ValueError, match="unknown output format 'xml'"):
        F.write(cells(PUZZLE), "xml")
    assert F.FORMATS == ("line", "block", "rcv", "pretty", "json", "txt") and F.WRITE_FORMATS[-1] == "svg"


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*")), ids=lambda p: p.name)
def test_sample_files_read_without_errors_except_the_deliberate_one(path):
    entries = F.parse(path.read_text(encoding="utf-8"), path.name)
    errors = [e for e in entries if isinstance(e, FormatError)]
    assert entries and len(errors) == (1 if path.name == "checks.sdm" else 0)


# -- round trips ----------------------------------------------------------------------------------------------------
@st.composite
def random_grids(draw):
    """Grids of every box size with random digits (conflicts allowed: formats do not care) and some blanks."""
    box = draw(st.integers(2, 5))
    n = box * box
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    blank = draw(st.sampled_from([0.0, 0.5, 0.9, 1.0]))
    values = rng.integers(1, n + 1, n * n)
    return np.where(rng.random(n * n) < blank, 0, values).astype(np.int8), box


WRITERS = {fmt: (lambda c, b, fmt=fmt: F.write(c, fmt)) for fmt in F.FORMATS}
WRITERS["block-plain"] = lambda c, b: F.to_block(c, b, spaced=False)


@pytest.mark.parametrize("name", list(WRITERS))
@settings(max_examples=40, deadline=None)
@given(grid=random_grids())
@pytest.mark.slow
def test_write_then_read_gives_the_same_grid(name, grid):
    cells_, box = grid
    text = WRITERS[name](cells_, box)
    fmt = name.split("-")[0]
    for entries in (F.parse(text, fmt=fmt), F.parse(text, fmt=fmt, box=box)):
        assert len(entries) == 1 and isinstance(entries[0], Parsed), entries
        assert entries[0].grid.box == box and np.array_equal(entries[0].grid.cells, cells_)
    if name != "block-plain":  # 16 plain rows of digits 1-4 could equally be sixteen 4x4 lines
        (auto,) = F.parse(text)
        assert np.array_equal(auto.grid.cells, cells_)


@pytest.mark.parametrize("fmt", F.FORMATS)
@settings(max_examples=15, deadline=None)
@given(many=st.lists(random_grids(), min_size=1, max_size=4))
def test_write_many_then_parse_gives_every_grid(fmt, many):
    text = F.write_many([Grid(c, b) for c, b in many], fmt)
    entries = F.parse(text, fmt=fmt)
    assert [e.index for e in entries] == list(range(len(many)))
    assert all(np.array_equal(e.grid.cells, c) for e, (c, _) in zip(entries, many))


_NOISE = st.lists(st.sampled_from(list("0123456789.ABGPx :|-+#\n\n ,{}[]\"╔═╤║│╟─╚\r\t") + ["null", "# size 9\n",
                                                                                             "99999999"]),
                  max_size=120).map("".join)


@settings(max_examples=150, deadline=None)
@given(text=st.one_of(_NOISE, st.sampled_from([PUZZLE, PICTURE, F.to_json(cells(P4)), F.to_rcv(cells(P4))]).flatmap(
    lambda base: st.tuples(st.integers(0, len(base)), _NOISE).map(lambda t: base[:t[0]] + t[1] + base[t[0]:]))))
def test_bad_input_never_crashes(text):
    for fmt in (None,) + F.FORMATS:
        for entry in F.parse(text, "noise.txt", fmt=fmt):
            assert isinstance(entry, Parsed) or (isinstance(entry, FormatError) and entry.line >= 1
                                                  and (entry.column is None or entry.column >= 1))


def test_a_single_short_line_is_reported_as_a_line_of_the_wrong_length():
    from engine.formats import detect, parse
    assert detect("123456789.........\n") == "line"
    (entry,) = parse("123456789.........\n", "one.txt")
    assert str(entry) == "one.txt:1:17: expected 16, 81, 256 or 625 symbols, got 18"


def test_parse_refuses_non_text_clearly():
    from engine.formats import parse as parse_text
    for bad in (b"1234", None, 5):
        with pytest.raises(TypeError, match="parse takes text"):
            parse_text(bad)
