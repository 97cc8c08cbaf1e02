"""The plain-Python twin of the carver: the same removal order from the same seed, decided by a plain solver.

tests/engine/carve/test_carve.py holds the compiled carver to it (the same puzzle, cell for cell) and uses its
plain solver to prove carved puzzles unique and minimal.
"""
from __future__ import annotations

from . import house_cells

M32, M64 = 0xFFFFFFFF, (1 << 64) - 1


def count_up_to(cells, box, limit):
    """Solutions up to ``limit`` by plain backtracking on a list (fewest options first)."""
    n = box * box
    grid = list(int(v) for v in cells)
    houses = house_cells(box * box)
    of_cell = [[h for h in houses if c in h] for c in range(n * n)]
    for h in houses:
        digits = [grid[c] for c in h if grid[c]]
        if len(digits) != len(set(digits)):
            return 0
    count = 0

    def options(c):
        return set(range(1, n + 1)) - {grid[x] for h in of_cell[c] for x in h}

    def search():
        nonlocal count
        blanks = [c for c in range(n * n) if grid[c] == 0]
        if not blanks:
            count += 1
            return count >= limit
        cell = min(blanks, key=lambda c: len(options(c)))
        for d in options(cell):
            grid[cell] = d
            if search():
                return True
        grid[cell] = 0
        return False

    search()
    return count


def random_board(box, rng):
    """A random board by plain backtracking with a shuffled digit order."""
    n = box * box
    grid = [0] * (n * n)
    houses = house_cells(box * box)
    of_cell = [[h for h in houses if c in h] for c in range(n * n)]

    def fill(c):
        if c == n * n:
            return True
        for d in rng.sample(range(1, n + 1), n):
            if all(grid[x] != d for h in of_cell[c] for x in h):
                grid[c] = d
                if fill(c + 1):
                    return True
        grid[c] = 0
        return False

    assert fill(0)
    return grid


def pattern_board(box, rng):
    """A random board without search (plain backtracking is too slow on 25x25): the band pattern, shuffled."""
    n = box * box
    digits = rng.sample(range(1, n + 1), n)
    rows = [b * box + r for b in rng.sample(range(box), box) for r in rng.sample(range(box), box)]
    cols = [b * box + c for b in rng.sample(range(box), box) for c in rng.sample(range(box), box)]
    return [digits[((r % box) * box + r // box + c) % n] for r in rows for c in cols]


def images(box, symmetry, cell):
    n = box * box
    r, c = divmod(cell, n)
    return {"none": [], "rot180": [(n - 1 - r, n - 1 - c)],
            "rot90": [(c, n - 1 - r), (n - 1 - r, n - 1 - c), (n - 1 - c, r)],
            "mirror": [(r, n - 1 - c)], "diagonal": [(c, r)]}[symmetry]


def twin_orbits(box, symmetry):
    n = box * box
    seen, out = set(), []
    for cell in range(n * n):
        if cell not in seen:
            orbit = sorted({cell} | {r * n + c for r, c in images(box, symmetry, cell)})
            seen.update(orbit)
            out.append(orbit)
    return out


def twin_stream(seed):
    z = (seed + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    z ^= z >> 31
    x = ((z >> 32) ^ (z & M32)) or 0x6D2B79F5
    while True:
        x = (x ^ (x << 13)) & M32
        x ^= x >> 17
        x = (x ^ (x << 5)) & M32
        yield x


def twin_carve(board, box, seed, symmetry="none"):
    """One attempt, no clue target: remove orbits in the documented random order while the count stays 1."""
    orbits = twin_orbits(box, symmetry)
    order = list(range(len(orbits)))
    stream = twin_stream(seed)
    for i in range(len(order) - 1, 0, -1):
        j = next(stream) % (i + 1)
        order[i], order[j] = order[j], order[i]
    puzzle = list(board)
    for o in order:
        for c in orbits[o]:
            puzzle[c] = 0
        if count_up_to(puzzle, box, 2) != 1:
            for c in orbits[o]:
                puzzle[c] = board[c]
    return puzzle
