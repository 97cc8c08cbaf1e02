"""The page geometry of catalogue.publish.layout, as properties: for every puzzles-per-page arrangement, page
size and grid size, the slots and every shape's ink stay inside the page's margins, no two slots' ink overlap,
the givens sit centred in their own cells, and captions never run past their grid."""
from __future__ import annotations

import itertools
import math

import pytest
from conftest import pattern_board
from hypothesis import given, settings
from hypothesis import strategies as st

from catalogue.publish.layout import (A4, ARRANGEMENTS, CAPTION_FONT, MARGIN, Box, Item, Line, Rect, Text,
                                      caption_shapes, content_box, grid_shapes, line_widths, page_slots, paginate,
                                      shape_box, sheet)
from engine.vocabulary import SYMBOLS

pages = st.tuples(st.floats(360, 1400), st.floats(360, 1400)) | st.just(A4)


def _puzzle(box: int, mask: list[bool]) -> tuple[str, str]:
    board = pattern_board(box, shift=1)
    return "".join(ch if keep else "." for ch, keep in zip(board, itertools.cycle(mask))), board


@settings(max_examples=60, deadline=None)
@given(per_page=st.sampled_from(sorted(ARRANGEMENTS)), page=pages)
def test_slots_fill_the_page_inside_the_margins_without_overlapping(per_page, page):
    slots = page_slots(per_page, page)
    area = content_box(page)
    assert len(slots) == per_page
    inks = []
    for slot in slots:
        assert slot.grid.w == pytest.approx(slot.grid.h) and slot.grid.w > 0  # square
        assert slot.caption.bottom == pytest.approx(slot.grid.y) and slot.caption.w == pytest.approx(slot.grid.w)
        ink = slot.grid.grown(line_widths(slot.grid.w, 9)[1] / 2)
        assert area.contains(ink) and area.contains(slot.caption)
        inks.append((slot.caption, ink))
    for (cap_a, ink_a), (cap_b, ink_b) in itertools.combinations(inks, 2):
        for a, b in itertools.product((cap_a, ink_a), (cap_b, ink_b)):
            assert not a.overlaps(b), (a, b)
    cols, rows = ARRANGEMENTS[per_page]
    # reading order: row by row, left to right
    assert [s.grid.x for s in slots[:cols]] == sorted(s.grid.x for s in slots[:cols])
    assert [s.grid.y for s in slots[::cols]] == sorted(s.grid.y for s in slots[::cols])


@settings(max_examples=40, deadline=None)
@given(per_page=st.sampled_from(sorted(ARRANGEMENTS)), box=st.sampled_from([2, 3, 4, 5]),
       mask=st.lists(st.booleans(), min_size=1, max_size=30), solved=st.booleans(),
       number=st.integers(0, 10 ** 7), caption_level=st.sampled_from(["easy", "extreme", "ungraded"]))
def test_every_shape_of_a_page_is_inside_the_margins_and_its_own_slot(per_page, box, mask, solved, number,
                                                                      caption_level):
    puzzle, board = _puzzle(box, mask)
    text = f"No. {number} \u00b7 {caption_level} \u00b7 {puzzle.count('.')} clues \u00b7 score 12.25"
    items = [Item(text, puzzle, board if solved else None)] * per_page
    page = sheet(items, per_page, title="Sudoku", folio="page 1 of 1")
    margins = Box(MARGIN, MARGIN, A4[0] - 2 * MARGIN, A4[1] - 2 * MARGIN)
    slots = page_slots(per_page)
    owners = [g for g in page.groups if g.kind in ("caption", "grid")]
    assert len([g for g in owners if g.kind == "grid"]) == per_page
    for k, group in enumerate(owners):
        slot = slots[k // 2]
        own = slot.caption if group.kind == "caption" else slot.grid.grown(line_widths(slot.grid.w, box * box)[1] / 2)
        for shape in group.shapes:
            ink = shape_box(shape)
            assert margins.contains(ink), (shape, margins)
            assert own.contains(ink, eps=1e-3), (group.kind, shape, own)
    for shape in page.groups[0].shapes:  # the header
        assert margins.contains(shape_box(shape))


@settings(max_examples=40, deadline=None)
@given(box=st.sampled_from([2, 3, 4, 5]), side=st.floats(40, 600), mask=st.lists(st.booleans(), min_size=1,
                                                                                 max_size=30))
def test_givens_are_centred_in_their_cells_and_lines_on_the_cell_edges(box, side, mask):
    n = box * box
    puzzle, _ = _puzzle(box, mask)
    grid = Box(10.0, 20.0, side, side)
    shapes = grid_shapes(puzzle, grid)
    step = side / n
    texts = [s for s in shapes if isinstance(s, Text)]
    assert len(texts) == sum(ch != "." for ch in puzzle)
    givens = [(c, ch) for c, ch in enumerate(puzzle) if ch != "."]
    for (c, ch), text in zip(givens, texts):
        assert text.text == ch and ch in SYMBOLS[1:n + 1]
        cell = Box(grid.x + (c % n) * step, grid.y + (c // n) * step, step, step)
        ink = shape_box(text)
        assert cell.contains(ink), (c, text, cell)
        # centred: the same room left and right, above the cap height and below the baseline
        assert ink.x - cell.x == pytest.approx(cell.right - ink.right, abs=1e-6)
        assert text.y - 0.718 * text.size - cell.y == pytest.approx(cell.bottom - text.y, abs=1e-6)
    thin, thick = line_widths(side, n)
    lines = [s for s in shapes if isinstance(s, Line)]
    assert len(lines) == 2 * (n - 1)
    edges = {round(grid.x + k * step, 6) for k in range(1, n)} | {round(grid.y + k * step, 6) for k in range(1, n)}
    for line in lines:
        assert round(line.x1 if line.x1 == line.x2 else line.y1, 6) in edges
        assert line.width == (thick if (round(((line.x1 - grid.x) if line.x1 == line.x2 else (line.y1 - grid.y))
                                              / step) % box == 0) else thin)
    assert [s for s in shapes if isinstance(s, Rect)] == [Rect(grid, thick)]
    assert thin < thick


def test_solutions_draw_every_cell_and_the_givens_bold():
    puzzle, board = _puzzle(3, [True, False, False])
    shapes = grid_shapes(puzzle, Box(0, 0, 270, 270), board)
    texts = [s for s in shapes if isinstance(s, Text)]
    assert "".join(t.text for t in texts) == board
    assert [t.font.endswith("Bold") for t in texts] == [ch != "." for ch in puzzle]


@pytest.mark.parametrize("bad, message", [("1" * 80, "not a grid"), ("X" + "." * 80, "not a digit of a 9x9")])
def test_bad_grids_are_refused(bad, message):
    with pytest.raises(ValueError, match=message):
        grid_shapes(bad, Box(0, 0, 100, 100))


def test_a_long_caption_shrinks_to_its_band():
    band = Box(0, 0, 60, CAPTION_FONT * 1.9)
    (text,) = caption_shapes("No. 123456789 \u00b7 extreme \u00b7 300 clues \u00b7 score 10.5", band)
    assert text.size < CAPTION_FONT and shape_box(text).w == pytest.approx(band.w)


@given(count=st.integers(0, 500), per_page=st.sampled_from(sorted(ARRANGEMENTS)))
def test_paginate(count, per_page):
    parts = paginate(count, per_page)
    assert len(parts) == math.ceil(count / per_page)
    assert [i for part in parts for i in part] == list(range(count))
    assert all(1 <= len(part) <= per_page for part in parts)
