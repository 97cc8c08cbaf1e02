"""The plain twin of every shape: units written out from the rules, and a counter that checks them.

No engine import (see tests/naive/__init__.py): a shape here is its words - the side n, boxes r x c (0 for none),
the diagonals, a region per cell for jigsaw - and its units are written from those words again.
"""
from __future__ import annotations


def units(n: int, box_rows: int = 0, box_cols: int = 0, diagonals: bool = False, regions=None) -> list[set[int]]:
    """Every unit: rows, columns, boxes or regions, diagonals; each a set of cells (row * n + column)."""
    out = [{r * n + c for c in range(n)} for r in range(n)]
    out += [{r * n + c for r in range(n)} for c in range(n)]
    if box_rows:
        for top in range(0, n, box_rows):
            for left in range(0, n, box_cols):
                out.append({(top + i) * n + left + j for i in range(box_rows) for j in range(box_cols)})
    if regions is not None:
        for k in sorted(set(regions)):
            out.append({cell for cell, r in enumerate(regions) if r == k})
    if diagonals:
        out.append({i * n + i for i in range(n)})
        out.append({i * n + n - 1 - i for i in range(n)})
    return out


def is_board(cells, unit_list, n: int) -> bool:
    """Every unit holds 1..n exactly once."""
    return all(sorted(cells[c] for c in u) == list(range(1, n + 1)) for u in unit_list)


def count(cells, unit_list, n: int, limit: int = 10**12) -> int:
    """Solutions of ``cells`` up to ``limit``: fill the blanks in reading order, trying each digit that no unit of
    the cell holds yet (plain backtracking; slow, obviously right)."""
    cells = list(cells)
    of_cell = [[u for u in unit_list if c in u] for c in range(n * n)]
    for c, d in enumerate(cells):  # clues that clash: no solution
        if d and any(cells[p] == d for u in of_cell[c] for p in u if p != c):
            return 0
    blanks = [c for c, d in enumerate(cells) if d == 0]
    found = 0

    def go(i: int) -> bool:
        nonlocal found
        if i == len(blanks):
            found += 1
            return found >= limit
        c = blanks[i]
        used = {cells[p] for u in of_cell[c] for p in u}
        for d in range(1, n + 1):
            if d not in used:
                cells[c] = d
                if go(i + 1):
                    return True
        cells[c] = 0
        return False

    go(0)
    return found


def completions(cells, unit_list, n: int) -> list[list[int]]:
    """Every board that agrees with ``cells`` (0 = blank), in the order :func:`count` finds them."""
    cells = list(cells)
    of_cell = [[u for u in unit_list if c in u] for c in range(n * n)]
    blanks = [c for c, d in enumerate(cells) if d == 0]
    out: list[list[int]] = []

    def go(i: int) -> None:
        if i == len(blanks):
            out.append(list(cells))
            return
        c = blanks[i]
        used = {cells[p] for u in of_cell[c] for p in u}
        for d in range(1, n + 1):
            if d not in used:
                cells[c] = d
                go(i + 1)
        cells[c] = 0

    go(0)
    return out


def latin_orbits(squares: list[tuple[int, ...]], n: int) -> list[set[tuple[int, ...]]]:
    """The main classes among ``squares`` (all the Latin squares of order n, flat, 1..n): orbits under swapping two
    rows, two columns, two symbols, and the two conjugates that generate the rest (transpose; row <-> symbol),
    found by a plain search from each square not yet reached."""
    def moves(sq):
        grid = [list(sq[r * n:(r + 1) * n]) for r in range(n)]
        for i in range(n - 1):  # adjacent swaps generate every permutation
            g = [row[:] for row in grid]
            g[i], g[i + 1] = g[i + 1], g[i]
            yield g
            yield [[row[i + 1] if c == i else row[i] if c == i + 1 else row[c] for c in range(n)] for row in grid]
            yield [[i + 2 if v == i + 1 else i + 1 if v == i + 2 else v for v in row] for row in grid]
        yield [[grid[c][r] for c in range(n)] for r in range(n)]  # transpose
        flip = [[0] * n for _ in range(n)]
        for r in range(n):
            for c in range(n):
                flip[grid[r][c] - 1][c] = r + 1  # (row, column, symbol) -> (symbol, column, row)
        yield flip

    left, classes = set(squares), []
    while left:
        start = left.pop()
        orbit, todo = {start}, [start]
        while todo:
            for g in moves(todo.pop()):
                t = tuple(v for row in g for v in row)
                if t not in orbit:
                    orbit.add(t)
                    todo.append(t)
        left -= orbit
        classes.append(orbit)
    return classes


def carve(board, orbits_in_order, unit_list, n: int) -> list[int]:
    """The carver's rule written plainly: take out each orbit (a list of cells) in the order given, put it back
    when the puzzle no longer has exactly one solution."""
    puzzle = list(board)
    for orbit in orbits_in_order:
        for c in orbit:
            puzzle[c] = 0
        if count(puzzle, unit_list, n, 2) != 1:
            for c in orbit:
                puzzle[c] = board[c]
    return puzzle
