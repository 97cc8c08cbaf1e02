"""Slow, obviously-correct reference twins that every test compares the real code against.

Nothing here imports the engine: the rules of Sudoku are written out again from scratch with plain lists and
sets, so a mistake in the engine's geometry tables or solvers cannot hide in its own reference.

Grids are any sequence of n*n ints (0 = blank), row-major, n = box * box. Here: the rules (houses, peers,
conflicts, validity, candidates), the one plain solver/counter ``count_solutions`` and the board makers
``pattern_board`` and ``random_board``; the twins of the generators, the carver and the canonical keys are in
generators.py, carve.py and keys.py, and that of the `catalogue stats` aggregates in stats.py.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache


def _box_of(n: int) -> int:
    box = int(round(n ** 0.5))
    if box * box != n:
        raise ValueError(f"{n} is not a square number of rows")
    return box


def _size(cells: Sequence[int]) -> int:
    n = int(round(len(cells) ** 0.5))
    if n * n != len(cells):
        raise ValueError(f"{len(cells)} cells do not make a square grid")
    return n


@lru_cache(maxsize=None)
def house_cells(n: int) -> tuple[tuple[int, ...], ...]:
    """Every house as a list of cells: the n rows, the n columns, then the n boxes."""
    box = _box_of(n)
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    boxes = [[(br * box + i) * n + bc * box + j for i in range(box) for j in range(box)]
             for br in range(box) for bc in range(box)]
    return tuple(tuple(h) for h in rows + cols + boxes)


@lru_cache(maxsize=None)
def peers(n: int) -> tuple[frozenset[int], ...]:
    """For each cell, the other cells sharing a row, column or box with it."""
    out = [set() for _ in range(n * n)]
    for house in house_cells(n):
        for cell in house:
            out[cell].update(house)
    return tuple(frozenset(s - {cell}) for cell, s in enumerate(out))


def conflicts(cells: Sequence[int]) -> list[tuple[int, int, int]]:
    """Pairs of filled cells ``(a, b, digit)``, a < b, that share a house and hold the same digit."""
    n = _size(cells)
    found = set()
    for house in house_cells(n):
        for i, a in enumerate(house):
            for b in house[i + 1:]:
                if cells[a] and cells[a] == cells[b]:
                    found.add((min(a, b), max(a, b), int(cells[a])))
    return sorted(found)


def is_valid(cells: Sequence[int]) -> bool:
    """No two filled cells of a house hold the same digit, and every digit is 0..n."""
    n = _size(cells)
    return all(0 <= int(v) <= n for v in cells) and not conflicts(cells)


def is_board(cells: Sequence[int]) -> bool:
    """Complete and valid: every house holds every digit 1..n exactly once."""
    n = _size(cells)
    return all(sorted(int(cells[c]) for c in house) == list(range(1, n + 1)) for house in house_cells(n))


def is_solution(puzzle: Sequence[int], solution: Sequence[int]) -> bool:
    """``solution`` is a board and keeps every clue of ``puzzle``."""
    return (len(puzzle) == len(solution) and is_board(solution)
            and all(int(p) == 0 or int(p) == int(s) for p, s in zip(puzzle, solution)))


def candidates(cells: Sequence[int], cell: int) -> set[int]:
    """Digits no peer of ``cell`` holds (computed from scratch every time)."""
    n = _size(cells)
    return set(range(1, n + 1)) - {int(cells[p]) for p in peers(n)[cell]}


def count_solutions(cells: Sequence[int], limit: int = 2,
                    forbid: tuple[int, int] | None = None) -> tuple[int, list[int] | None]:
    """``(number of solutions up to limit, the first one found or None)`` by plain recursion: the one plain
    counter, twin of every solver's count (engine/solvers) and of the carver's uniqueness test (engine/carve).

    ``forbid = (cell, digit)`` rules that digit out of that blank cell: the twin of ``fast.exists_without``.
    Branches on the blank with the fewest candidates (recomputed from scratch at every step) only to keep 9x9
    and easy 16x16 puzzles to a few seconds; any order of cells gives the same count.
    """
    grid = [int(v) for v in cells]
    if not is_valid(grid):
        return 0, None
    n = _size(grid)
    found: list[list[int]] = []

    def options(c: int) -> list[int]:
        out = candidates(grid, c)
        if forbid is not None and c == forbid[0]:
            out.discard(forbid[1])
        return sorted(out)

    def search() -> None:
        blanks = [c for c, v in enumerate(grid) if v == 0]
        if not blanks:
            found.append(list(grid))
            return
        choices = {c: options(c) for c in blanks}
        # a dead end as soon as a house has a digit with no place left (every house holds every digit): the same
        # count, found without walking the branches under it (a 24-clue puzzle took 27 s without this test)
        digits = set(range(1, n + 1))
        for house in house_cells(n):
            if not digits <= {grid[c] for c in house}.union(*(choices[c] for c in house if grid[c] == 0)):
                return
        cell = min(blanks, key=lambda c: len(choices[c]))
        for digit in choices[cell]:
            grid[cell] = digit
            search()
            grid[cell] = 0
            if len(found) >= limit:
                return

    search()
    return len(found), (found[0] if found else None)


# --- boards to test on (made without the engine) -------------------------------------------------------------

def pattern_board(box: int, rng=None, *, shift: int = 0, digits: Sequence[int] | None = None,
                  keep: float | None = None) -> list[int]:
    """A valid board without search: the classic band pattern, the one board maker of the tests.

    Cell (r, c) holds the ``((r mod box) * box + r div box + c) mod n``-th of ``digits`` (default 1..n, each
    moved on by ``shift``: digit d becomes (d - 1 + shift) mod n + 1). With ``rng`` (a ``random.Random``) the
    digits (unless given), the rows within bands and the bands, then the columns within stacks and the stacks
    are shuffled, in that order. With ``keep`` (needs ``rng``) each cell then keeps its digit with that chance
    and is blank otherwise: a random puzzle with at least one solution.
    """
    n = box * box
    if digits is None:
        digits = rng.sample(range(1, n + 1), n) if rng is not None else [(d + shift) % n + 1 for d in range(n)]
    rows = cols = range(n)
    if rng is not None:
        rows = [b * box + r for b in rng.sample(range(box), box) for r in rng.sample(range(box), box)]
        cols = [b * box + c for b in rng.sample(range(box), box) for c in rng.sample(range(box), box)]
    board = [digits[((r % box) * box + r // box + c) % n] for r in rows for c in cols]
    if keep is not None:
        board = [v if rng.random() < keep else 0 for v in board]
    return board


def random_board(box: int, rng) -> list[int]:
    """A random board by plain backtracking in reading order with a shuffled digit order (4x4 to 16x16)."""
    n = box * box
    grid = [0] * (n * n)
    near = peers(n)

    def fill(c: int) -> bool:
        if c == n * n:
            return True
        for d in rng.sample(range(1, n + 1), n):
            if all(grid[x] != d for x in near[c]):
                grid[c] = d
                if fill(c + 1):
                    return True
        grid[c] = 0
        return False

    assert fill(0)
    return grid
