"""The grid model and the geometry tables."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import pattern_board

from engine.geometry import BOX_SIZES, box_for_ncells, box_for_size, geometry
from engine.grid import Conflict, Grid, LockedCellError


@pytest.mark.parametrize("box", BOX_SIZES)
def test_geometry_invariants(box):
    g = geometry(box)
    n = box * box
    assert g.size == n and g.ncells == n * n
    assert g.peers.shape == (n * n, 3 * n - 2 * box - 1)
    # every house holds each cell of the grid exactly three times overall (its row, column and box)
    counts = np.bincount(g.houses.ravel(), minlength=n * n)
    assert np.all(counts == 3)
    for c in range(n * n):
        r, col, b = g.row_of[c], g.col_of[c], g.box_of[c]
        assert list(g.cell_houses[c]) == [r, n + col, 2 * n + b]
        expected = {p for h in g.cell_houses[c] for p in g.houses[h]} - {c}
        assert set(g.peers[c].tolist()) == expected
        assert c not in g.peers[c]
    assert not g.peers.flags.writeable


def test_norvig_counts_on_9x9():
    g = geometry(3)
    assert g.peers.shape[1] == 20
    assert list(g.houses[2 * 9 + 4]) == [30, 31, 32, 39, 40, 41, 48, 49, 50]  # the middle box


def test_box_size_helpers():
    assert [box_for_size(n) for n in (4, 9, 16, 25)] == [2, 3, 4, 5]
    assert [box_for_ncells(n) for n in (16, 81, 256, 625)] == [2, 3, 4, 5]
    with pytest.raises(ValueError):
        box_for_size(10)
    with pytest.raises(ValueError):
        geometry(6)


def test_set_get_clear_and_givens():
    g = Grid.empty(3)
    g.set(0, 0, 5)
    assert g.get(0, 0) == 5 and g.clue_count == 1
    g.clear(0, 0)
    assert g.get(0, 0) == 0
    g.set(4, 4, 7, given=True)
    with pytest.raises(LockedCellError):
        g.clear(4, 4)
    with pytest.raises(LockedCellError):
        g.set(4, 4, 3)
    g.set(4, 4, 7)  # same digit is fine
    with pytest.raises(ValueError):
        g.set(0, 1, 10)
    with pytest.raises(IndexError):
        g.get(9, 0)


def test_conflicts_in_every_combination():
    g = Grid.empty(3)
    g.set(0, 8, 5)  # same row
    g.set(8, 0, 5)  # same column
    g.set(1, 1, 5)  # same box
    assert g.conflicts(0, 0, 5) == Conflict.ROW | Conflict.COLUMN | Conflict.BOX
    assert g.conflicts(0, 0, 5).describe() == "row, column and box conflict"
    assert g.conflicts(0, 4, 5) == Conflict.ROW
    assert g.conflicts(4, 0, 5) == Conflict.COLUMN
    assert g.conflicts(2, 2, 5) == Conflict.BOX
    assert g.conflicts(1, 7, 5) == Conflict.ROW | Conflict.BOX  # (1,1) shares row 1; (0,8) shares box 2
    assert g.conflicts(0, 0, 4) == Conflict.NONE and g.conflicts(0, 0, 4).describe() == "valid"
    assert g.is_valid() and not g.is_complete()
    g.set(0, 0, 5)
    assert g.invalid_count() == 4
    assert g.invalid_cells()[0] == (0, 0, 5, Conflict.ROW | Conflict.COLUMN | Conflict.BOX)


@pytest.mark.parametrize("box", BOX_SIZES)
def test_a_board_is_solved(box):
    g = Grid(np.array(pattern_board(box)))
    assert g.box == box and g.is_solved() and g.invalid_count() == 0


@settings(max_examples=40, deadline=None)
@given(box=st.sampled_from(BOX_SIZES), data=st.data())
def test_conflicts_agree_with_a_plain_definition(box, data):
    n = box * box
    cells = data.draw(st.lists(st.integers(0, n), min_size=n * n, max_size=n * n))
    g = Grid(cells, box)
    r, c = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    d = data.draw(st.integers(1, n))
    m = g.as_matrix()
    row = any(m[r, j] == d for j in range(n) if j != c)
    col = any(m[i, c] == d for i in range(n) if i != r)
    br, bc = r - r % box, c - c % box
    bx = any(m[i, j] == d for i in range(br, br + box) for j in range(bc, bc + box) if (i, j) != (r, c))
    got = g.conflicts(r, c, d)
    assert (Conflict.ROW in got, Conflict.COLUMN in got, Conflict.BOX in got) == (row, col, bx)
    assert (d in g.candidates(r, c)) == (m[r, c] == 0 and not (row or col or bx))


def test_non_integer_cells_are_refused_not_truncated():
    with pytest.raises(TypeError, match="integers"):
        Grid(np.full(81, 1.5))
    with pytest.raises(TypeError, match="integers"):
        Grid(["1"] * 81)
    assert Grid(np.zeros(81, dtype=np.uint8)).clue_count == 0


@settings(max_examples=200, deadline=None)
@given(box=st.sampled_from([2, 3, 4]), data=st.data())
def test_invalid_cells_are_the_cells_a_peer_clashes_with(box, data):
    """The per-house count against its slow, obvious twin: each filled cell asked alone (``conflicts``)."""
    n = box * box
    cells = np.array(data.draw(st.lists(st.integers(0, n), min_size=n * n, max_size=n * n)), dtype=np.int8)
    g = Grid(cells)
    twin = [(r, c, int(cells[r * n + c]), g.conflicts(r, c, int(cells[r * n + c])))
            for r in range(n) for c in range(n) if cells[r * n + c]]
    assert g.invalid_cells() == [t for t in twin if t[3] != Conflict.NONE]
