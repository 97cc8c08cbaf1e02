"""Making boards and puzzles on every shape: WFC boards, carved puzzles unique and minimal (the plain twin says)."""
import numpy as np
import pytest
from naive import shapes as plain

from engine.carve.carver import carve, carve_many
from engine.generators import generate, generate_many, wfc
from engine.regions import random_layout
from engine.shape import Shape

#: a 4x4 jigsaw layout that no board fills (found by trying the 117 layouts of four connected regions)
NO_BOARD = "AAAB\nACBB\nCCDB\nCDDD\n"

SHAPES = [Shape.boxes(2, 3), Shape.boxes(3, 2), Shape.boxes(2, 4), Shape.latin(6), Shape.boxes(2, 3, True),
          Shape.square(3, True), random_layout(6, 5), random_layout(9, 5)]


def _units(shape):
    return plain.units(shape.size, shape.box_rows, shape.box_cols, shape.diagonals, shape.regions)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_wfc_makes_boards_of_every_shape_again_from_their_seeds(shape):
    boards = generate_many(shape, "wfc", 20, 7)
    for b in boards:
        assert plain.is_board(b.cells.tolist(), _units(shape), shape.size)
        assert b.box == shape
    again = generate(shape, "wfc", boards[3].seed)
    assert np.array_equal(again.cells, boards[3].cells)
    assert len({b.cells.tobytes() for b in boards}) == 20


@pytest.mark.parametrize("shape", SHAPES + [Shape.boxes(3, 4), Shape.latin(9, True)], ids=str)
def test_backtracking_makes_boards_of_every_shape_again_from_their_seeds(shape):
    boards = generate_many(shape, "backtrack", 20, 7)
    for b in boards:
        assert plain.is_board(b.cells.tolist(), _units(shape), shape.size)
        assert b.box == shape and b.method == "backtrack"
    assert np.array_equal(generate(shape, "backtrack", boards[3].seed).cells, boards[3].cells)
    assert len({b.cells.tobytes() for b in boards}) == 20


def test_backtracking_reaches_every_board_of_a_small_shape():
    """The 4x4 diagonal Latin squares number 48 (OEIS A274171): 2,000 random fills reach every one of them, and
    nothing else (each a board by the plain twin's rules)."""
    shape = Shape.latin(4, True)
    seen = {b.cells.tobytes() for b in generate_many(shape, "backtrack", 2000, 3)}
    assert len(seen) == 48
    assert all(plain.is_board(list(np.frombuffer(b, np.int8)), _units(shape), 4) for b in seen)


def test_backtracking_proves_a_layout_without_a_board():
    from engine.generators import GenerationError
    from engine.regions import read_layout

    shape = read_layout(NO_BOARD)
    assert plain.count([0] * 16, _units(shape), 4, 1) == 0  # the plain twin agrees: nothing to find
    with pytest.raises(GenerationError, match=r"has no board \(the search tried every digit of the first cell\)"):
        generate(shape, "backtrack", 1)


@pytest.mark.parametrize("shape,propagate,seeds", [
    (Shape.boxes(2, 3), False, range(10)), (Shape.boxes(2, 3), True, range(10)), (Shape.latin(6, True), True, range(6)),
    (random_layout(6, 5), True, range(10)), (random_layout(9, 5), True, range(4)),
    (random_layout(7, 2, True), True, range(3))], ids=str)
def test_wfc_kernel_equals_its_twin_on_shapes(shape, propagate, seeds):
    """Cell for cell and restart for restart, with the twin's own units; on jigsaw layouts propagation takes
    locked candidates (the default there), on the others singles only."""
    from naive.generators import twin_wfc

    for s in seeds:
        got = wfc.generate(shape, s, propagate=propagate)
        board, restarts = twin_wfc(0, s, propagate, units=_units(shape), locked=wfc.default_locked(shape))
        assert (list(got.cells), got.restarts) == (board, restarts), f"seed {s}"


def test_locked_candidates_spare_jigsaw_boards_their_restarts():
    shape = random_layout(9, 1)
    assert wfc.default_locked(shape) and not wfc.default_locked(3) and not wfc.default_locked(Shape.boxes(2, 3))
    singles = wfc.generate_array(shape, 60, 1, locked=False)[2].mean()
    locked = wfc.generate_array(shape, 60, 1)[2].mean()
    assert locked < singles / 4  # measured: 4.8 against 50.6 restarts a board (bench/bench_generate.py)
    with pytest.raises(ValueError, match="locked=True needs propagate=True"):
        wfc.generate(shape, 1, propagate=False, locked=True)
    assert wfc.generate(shape, 1, propagate=False).restarts > 0  # the seed's plain WFC still runs there
    assert np.array_equal(wfc.generate(3, 1, locked=True).cells,  # locked=True brings propagation with it
                          wfc.generate(3, 1, propagate=True, locked=True).cells)


def test_wfc_names_the_unit_of_a_contradiction():
    board, events = wfc.generate_traced(Shape.square(3, True), 3, propagate=True)
    assert board.restarts == len(events) > 0
    words = {e.describe().split(" (")[0].split(" in ")[-1].split()[0] for e in events if e.kind == 1}
    assert words <= {"row", "column", "box", "diagonal"}


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("symmetry", ["none", "rot180"])
def test_carved_puzzles_are_unique_and_minimal(shape, symmetry):
    boards = np.array([b.cells for b in generate_many(shape, "wfc", 4, 9)])
    units = _units(shape)
    for board, result in zip(boards, carve_many(boards, shape, [1, 2, 3, 4], symmetry=symmetry)):
        puzzle = result.puzzle
        assert result.minimal and result.clues == np.count_nonzero(puzzle)
        assert np.all((puzzle == 0) | (puzzle == board))
        if shape.size > 6:
            continue  # the twin takes seconds a count past 6x6; the kernel's agreement with it: test_shape_solving
        assert plain.count(puzzle.tolist(), units, shape.size, 2) == 1
        if symmetry == "none":  # minimal: every clue is needed
            for c in np.flatnonzero(puzzle):
                weaker = puzzle.copy()
                weaker[c] = 0
                assert plain.count(weaker.tolist(), units, shape.size, 2) == 2


def test_carving_a_shape_repeats_and_stops_at_a_clue_count():
    shape = Shape.boxes(2, 3)
    board = generate(shape, "wfc", 1).cells
    a, b = carve(board, shape, 5), carve(board, shape, 5)
    assert np.array_equal(a.puzzle, b.puzzle)
    exact = carve(board, shape, 5, clues=20)
    assert exact.clues == 20 and exact.target_reached and not exact.minimal
    with pytest.raises(ValueError, match="is not a complete valid 6x6 board"):
        carve(np.zeros(36, np.int8), shape, 1)
    with pytest.raises(ValueError, match="order 'spread' is for square boxes"):
        carve(board, shape, 1, order="spread")


@pytest.mark.parametrize("shape", [Shape.boxes(2, 3), Shape.latin(5), Shape.boxes(2, 2, True), random_layout(6, 2)],
                         ids=str)
@pytest.mark.parametrize("symmetry", ["none", "rot180", "rot90"])
def test_the_compiled_carving_loop_makes_the_plain_twins_puzzles(shape, symmetry):
    from engine.carve.carver import orbits

    table, sizes = orbits(shape, symmetry)
    for seed in range(3):
        board = generate(shape, "wfc", seed).cells
        order = np.random.default_rng(seed).permutation(table.shape[0])  # the order carve_units draws
        want = plain.carve(board.tolist(), [table[k, :sizes[k]].tolist() for k in order], _units(shape), shape.size)
        assert carve(board, shape, seed, symmetry=symmetry).puzzle.tolist() == want


@pytest.mark.slow
def test_the_units_carver_runs_as_plain_python():
    """NUMBA_DISABLE_JIT=1: the units carver's lines (its unavoidable sets, removal tests and search) run as Python
    and give the very same puzzle."""
    import os
    import subprocess
    import sys

    shape = random_layout(6, 2)
    board = generate(shape, "wfc", 4).cells.tolist()
    script = ("import numpy as np; from engine.carve import carve; from engine.regions import random_layout; "
              f"print(carve(np.array({board}, np.int8), random_layout(6, 2), 3, symmetry='rot180').puzzle.tolist())")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300,
                         check=True)
    assert out.stdout.strip() == str(carve(np.array(board, np.int8), shape, 3, symmetry="rot180").puzzle.tolist())


def test_large_shapes_carve_with_a_node_limit_and_say_when_not_proven_minimal():
    from engine.carve.carver import shape_node_limit

    assert [shape_node_limit(s) for s in (Shape.boxes(2, 8), Shape.latin(16), Shape.boxes(3, 6), Shape.latin(21),
                                          Shape.boxes(2, 11), Shape.boxes(4, 6), Shape.latin(25))] == \
        [0, 0, 20_000, 20_000, 2_000, 2_000, 2_000]
    shape = Shape.boxes(4, 6)
    board = generate(shape, "wfc", 1).cells
    result = carve(board, shape, 1)  # a fifth of a second; without the limit, minutes
    assert result.minimal == (result.undecided == 0)
    assert result.undecided > 0  # at 2,000 nodes some of 24x24's tests stay open
    assert np.all((result.puzzle == 0) | (result.puzzle == board))
