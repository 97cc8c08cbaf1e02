"""Slow, obviously-correct helpers the grading tests share, and tests of the helpers themselves.

- a plain-Python solution counter (bitmask candidates, fewest-candidates cell first), the reference solver;
- a random board maker and a plain-Python carver that removes clues while the puzzle stays unique, which
  makes minimal puzzles (no clue can go without losing uniqueness);
- the symmetry transformations of the keys issue, written here so the grading tests do not depend on
  engine/keys/transforms.py: rotations and reflections, transpose, band, stack, row-in-band and column-in-stack
  permutations, and digit relabelling.

Other test files import this module (``from test_grade_naive import ...``).
"""
from __future__ import annotations

import random

import numpy as np


# -- the reference solver ---------------------------------------------------------------------------------
def _units(box: int):
    n = box * box
    peers = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        same = {r * n + j for j in range(n)} | {i * n + c for i in range(n)}
        br, bc = r - r % box, c - c % box
        same |= {(br + i) * n + bc + j for i in range(box) for j in range(box)}
        same.discard(cell)
        peers.append(sorted(same))
    return n, peers


def solutions(cells, box: int, limit: int = 2, rng: random.Random | None = None) -> list[list[int]]:
    """Up to ``limit`` solutions of a puzzle; with ``rng`` the digits are tried in random order."""
    n, peers = _units(box)
    grid = [int(v) for v in np.asarray(cells).reshape(-1)]
    full = (1 << n) - 1
    for cell, d in enumerate(grid):
        if d and any(grid[p] == d for p in peers[cell]):
            return []
    found: list[list[int]] = []

    def options(cell):
        used = 0
        for p in peers[cell]:
            if grid[p]:
                used |= 1 << (grid[p] - 1)
        return full & ~used

    def search():
        best, best_mask, best_count = -1, 0, n + 1
        for cell in range(n * n):
            if grid[cell] == 0:
                mask = options(cell)
                count = bin(mask).count("1")
                if count < best_count:
                    best, best_mask, best_count = cell, mask, count
                    if count <= 1:
                        break
        if best < 0:
            found.append(grid[:])
            return len(found) >= limit
        digits = [d for d in range(1, n + 1) if best_mask >> (d - 1) & 1]
        if rng is not None:
            rng.shuffle(digits)
        for d in digits:
            grid[best] = d
            if search():
                grid[best] = 0
                return True
        grid[best] = 0
        return False

    search()
    return found


def random_board(box: int, rng: random.Random) -> np.ndarray:
    """A random board by randomised search; 25x25 starts from the band pattern instead, moved at random with
    :func:`transform` (the search alone can take many seconds there)."""
    if box == 5:
        n = 25
        pattern = [((r % box) * box + r // box + c) % n + 1 for r in range(n) for c in range(n)]
        return transform(np.array(pattern, dtype=np.int8), box, rng)
    return np.array(solutions([0] * box ** 4, box, limit=1, rng=rng)[0], dtype=np.int8)


def carve_minimal(board: np.ndarray, box: int, rng: random.Random) -> np.ndarray:
    """Remove clues in random order while the puzzle keeps one solution: a minimal unique puzzle."""
    puzzle = board.copy()
    order = list(range(board.size))
    rng.shuffle(order)
    for cell in order:
        digit = puzzle[cell]
        puzzle[cell] = 0
        if len(solutions(puzzle, box, limit=2)) != 1:
            puzzle[cell] = digit
    return puzzle


def fast_carver():
    """engine.carve.carve when it exists (written by another helper; optional here), else None."""
    try:
        from engine.carve import carve
    except ImportError:
        return None
    return carve


def minimal_puzzles(count: int, box: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """``count`` (puzzle, solution) pairs; uses engine.carve when it exists, else the carver above."""
    rng = random.Random(seed)
    out = []
    carve = fast_carver()
    for _ in range(count):
        board = random_board(box, rng)
        if carve is not None:
            puzzle = np.asarray(carve(board, box, seed=rng.randrange(2 ** 31)).puzzle, dtype=np.int8)
        else:
            puzzle = carve_minimal(board, box, rng)
        out.append((puzzle, board))
    return out


# -- symmetry transformations ---------------------------------------------------------------------------
def transform(cells: np.ndarray, box: int, rng: random.Random) -> np.ndarray:
    """A random transformation that keeps every Sudoku property (and so every grade)."""
    n = box * box
    m = np.asarray(cells).reshape(n, n).copy()
    m = np.rot90(m, rng.randrange(4))
    if rng.random() < 0.5:
        m = m.T
    if rng.random() < 0.5:
        m = m[:, ::-1]
    bands = rng.sample(range(box), box)
    rows = [b * box + r for b in bands for r in rng.sample(range(box), box)]
    stacks = rng.sample(range(box), box)
    cols = [s * box + c for s in stacks for c in rng.sample(range(box), box)]
    m = m[rows][:, cols]
    relabel = np.array([0] + rng.sample(range(1, n + 1), n), dtype=np.int8)
    return relabel[m].reshape(-1).astype(np.int8)


# -- tests of the helpers ---------------------------------------------------------------------------------
def test_reference_solver_counts():
    assert len(solutions([0] * 16, 2, limit=1000)) == 288  # all 4x4 boards
    easy = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
    [only] = solutions([int(ch) for ch in easy], 3, limit=2)
    assert only[:9] == [4, 8, 3, 9, 2, 1, 6, 5, 7]


def test_carver_makes_minimal_unique_puzzles():
    rng = random.Random(5)
    board = random_board(3, rng)
    puzzle = carve_minimal(board, 3, rng)
    assert solutions(puzzle, 3) == [board.tolist()]
    for cell in np.flatnonzero(puzzle):
        fewer = puzzle.copy()
        fewer[cell] = 0
        assert len(solutions(fewer, 3)) == 2


def test_transform_keeps_validity():
    rng = random.Random(1)
    board = random_board(3, rng)
    for _ in range(20):
        other = transform(board, 3, rng).reshape(9, 9)
        for i in range(9):
            assert sorted(other[i]) == list(range(1, 10))
            assert sorted(other[:, i]) == list(range(1, 10))
            r, c = divmod(i, 3)
            assert sorted(other[3 * r:3 * r + 3, 3 * c:3 * c + 3].reshape(-1)) == list(range(1, 10))
