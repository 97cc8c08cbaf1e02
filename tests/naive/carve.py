"""The plain-Python twin of the carver: the same removal order from the same seed, decided by a plain solver.

tests/engine/carve/test_carve.py holds the compiled carver to it (the same puzzle, cell for cell) and uses the
plain counter (``naive.count_solutions``, the one this twin decides with) to prove carved puzzles unique and minimal.
"""
from __future__ import annotations

from . import count_solutions

M32, M64 = 0xFFFFFFFF, (1 << 64) - 1


def images(box, symmetry, cell):
    """The (row, column) images of ``cell`` under ``symmetry``: twin of the carver's symmetry maps."""
    n = box * box
    r, c = divmod(cell, n)
    return {"none": [], "rot180": [(n - 1 - r, n - 1 - c)],
            "rot90": [(c, n - 1 - r), (n - 1 - r, n - 1 - c), (n - 1 - c, r)],
            "mirror": [(r, n - 1 - c)], "diagonal": [(c, r)]}[symmetry]


def twin_orbits(box, symmetry):
    """Cells grouped into orbits in order of their first cell: twin of the carver's orbit table."""
    n = box * box
    seen, out = set(), []
    for cell in range(n * n):
        if cell not in seen:
            orbit = sorted({cell} | {r * n + c for r, c in images(box, symmetry, cell)})
            seen.update(orbit)
            out.append(orbit)
    return out


def twin_stream(seed):
    """The carver's random stream (SplitMix64 seeding a 32-bit xorshift) with Python integers."""
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


def twin_peers(box, cell):
    """The cells that share a row, a column or a box with ``cell`` (itself excluded)."""
    n = box * box
    r, c = divmod(cell, n)
    return [x for x in range(n * n) if x != cell and (x // n == r or x % n == c or
                                                     (x // n // box, x % n // box) == (r // box, c // box))]


def twin_carve(board, box, seed, symmetry="none", order="random"):
    """Twin of one carve attempt, no clue target: remove orbits in the documented order while the count stays 1.

    "random": the random order. "spread": each time, of the orbits not tried yet, the one whose cells see the most
    clues on average (clues among their peers, summed over the orbit, divided by its size), the earliest in the
    random order among equals."""
    orbits = twin_orbits(box, symmetry)
    shuffled = list(range(len(orbits)))
    stream = twin_stream(seed)
    for i in range(len(shuffled) - 1, 0, -1):
        j = next(stream) % (i + 1)
        shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
    puzzle = list(board)
    peers = [twin_peers(box, cell) for cell in range(len(board))]

    def density(o):
        from fractions import Fraction
        return Fraction(sum(1 for c in orbits[o] for q in peers[c] if puzzle[q]), len(orbits[o]))

    untried = list(shuffled)
    while untried:
        if order == "spread":
            best = max(density(o) for o in untried)
            o = next(o for o in untried if density(o) == best)
        else:
            o = untried[0]
        untried.remove(o)
        for c in orbits[o]:
            puzzle[c] = 0
        if count_solutions(puzzle, 2)[0] != 1:
            for c in orbits[o]:
                puzzle[c] = board[c]
    return puzzle
