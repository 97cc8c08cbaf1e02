"""Slow, obviously-correct helpers the grading tests share (tests/engine/grade/ holds the grader to them).

- a plain-Python solution counter (bitmask candidates, fewest-candidates cell first), the reference solver;
- a random board maker and a plain-Python carver that removes clues while the puzzle stays unique, which
  makes minimal puzzles (no clue can go without losing uniqueness);
- the symmetry transformations of the keys issue, written here so the grading tests do not depend on
  engine/keys/transforms.py: rotations and reflections, transpose, band, stack, row-in-band and column-in-stack
  permutations, and digit relabelling.

The plain solver here tries digits in a random order when given a ``random.Random``, which is what makes random
boards; :func:`naive.count_solutions` is the counter the other twins share.
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


def minimal_puzzles(count: int, box: int, seed: int, carve=None) -> list[tuple[np.ndarray, np.ndarray]]:
    """``count`` (puzzle, solution) pairs from random boards; carved by ``carve`` (e.g. ``engine.carve.carve``,
    much faster) when given, else by the plain carver above."""
    rng = random.Random(seed)
    out = []
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
