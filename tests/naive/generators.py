"""Plain-Python twins of the three generator kernels, written from the generators' own rules with sets and lists.

The twins replay the kernels' random stream (SplitMix64, see engine/generators/_rng.py) with Python integers,
which is what lets a compiled board be compared with its twin's board exactly, not only for validity.
tests/engine/generators/test_generators.py holds the kernels to them; bench/bench_generate.py uses ``twin_wfc``
as its pure-Python peer.
"""
from __future__ import annotations

from . import house_cells, peers

M32, M64 = (1 << 32) - 1, (1 << 64) - 1
GOLDEN, SALT = 0x9E3779B97F4A7C15, 0x5EEDC0FFEE15600D


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


class Stream:
    """SplitMix64 with Python integers; ``below(k)`` is Lemire's unbiased draw, no draw at all for k == 1."""

    def __init__(self, seed: int):
        self.state = _mix(seed ^ SALT)

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & M64
        return _mix(self.state)

    def below(self, k: int) -> int:
        if k <= 1:
            return 0
        m = (self.next() >> 32) * k
        if (m & M32) < k:
            while (m & M32) < ((1 << 32) - k) % k:
                m = (self.next() >> 32) * k
        return m >> 32


def peers_of(box: int) -> list[list[int]]:
    """Each cell's peers in ascending order: the twins scan them in this order, as the kernels do."""
    return [sorted(p) for p in peers(box * box)]


def twin_wfc(box: int, seed: int, propagate: bool = False, on_step=None, units=None, locked: bool = False):
    """Seed 000 with sets: returns (board, restarts). ``on_step(board, cands, cell)`` sees every random pick.

    ``units``: a shape's units, each a set of cells (tests/naive/shapes.py ``units``; default the rows, columns and
    boxes of ``box``). ``locked``: propagation also takes locked candidates: a digit whose places in one unit all
    lie in a second unit goes from that unit's other cells."""
    rng = Stream(seed)
    if units is None:
        n, peers, houses = box * box, peers_of(box), house_cells(box * box)
    else:
        houses = [sorted(u) for u in units]
        n = len(houses[0])
        peers = [sorted(set().union(*(u for u in units if c in u)) - {c}) for c in range(n * n)]
    pairs = [(set(a), set(b)) for i, a in enumerate(houses) for b in houses[i + 1:] if len(set(a) & set(b)) >= 2]
    restarts = 0
    while True:
        board = [0] * (n * n)
        cands = [set(range(1, n + 1)) for _ in range(n * n)]

        def collapse(cell, digit):  # True when a peer is left with no candidate
            board[cell] = digit
            cands[cell] = set()
            for p in peers[cell]:
                if board[p] == 0:
                    cands[p].discard(digit)
            return any(board[p] == 0 and not cands[p] for p in peers[cell])

        def singles():  # True on a contradiction; collapses forced cells until none is left
            changed = True
            while changed:
                changed = False
                for c in range(n * n):
                    if board[c] == 0 and len(cands[c]) == 1:
                        if collapse(c, min(cands[c])):
                            return True
                        changed = True
                for house in houses:
                    for d in set(range(1, n + 1)) - {board[c] for c in house}:
                        places = [c for c in house if board[c] == 0 and d in cands[c]]
                        if not places:
                            return True
                        if len(places) == 1:
                            if collapse(places[0], d):
                                return True
                            changed = True
                if locked and not changed and 0 in board:
                    for a, b in pairs + [(b, a) for a, b in pairs]:
                        for d in range(1, n + 1):
                            places = [c for c in a if board[c] == 0 and d in cands[c]]
                            if places and set(places) <= b:
                                for c in b - a:
                                    if board[c] == 0 and d in cands[c]:
                                        cands[c].discard(d)
                                        if not cands[c]:
                                            return True
                                        changed = True
            return False

        dead = False
        while not dead and 0 in board:
            open_cells = [c for c in range(n * n) if board[c] == 0]
            fewest = min(len(cands[c]) for c in open_cells)
            ties = [c for c in open_cells if len(cands[c]) == fewest]
            cell = ties[rng.below(len(ties))]
            if on_step:
                on_step(list(board), [set(s) for s in cands], cell)
            dead = collapse(cell, sorted(cands[cell])[rng.below(fewest)]) or (propagate and singles())
        if not dead:
            return board, restarts
        restarts += 1


def twin_backtrack(box: int, seed: int, node_limit: int = 0, lookahead: bool = False):
    """Seeds 002/004: cells in reading order, untried valid digits drawn at random, back up on a dead end."""
    n, rng, peers = box * box, Stream(seed), peers_of(box)

    def valid(board, cell):
        return {d for d in range(1, n + 1) if all(board[p] != d for p in peers[cell])}

    restarts = 0
    while True:
        board, untried, cell, nodes, cut = [0] * (n * n), [set()] * (n * n), 0, 0, False
        untried[0] = valid(board, 0)
        while 0 <= cell < n * n:
            board[cell] = 0
            if not untried[cell]:
                cell -= 1
                continue
            options = sorted(untried[cell])
            digit = options[rng.below(len(options))]
            untried[cell] = untried[cell] - {digit}
            board[cell] = digit
            nodes += 1
            if lookahead and any(p > cell and not valid(board, p) for p in peers[cell]):
                continue
            cell += 1
            if cell < n * n:
                untried[cell] = valid(board, cell)
                if node_limit and nodes >= node_limit:
                    cut = True
                    break
        if not cut:
            return board, restarts
        restarts += 1


def twin_pattern(box: int, seed: int, shuffle: bool = False):
    """Seed 003: a random seed box shifted into every box; optionally lines shuffled within bands/stacks."""
    n, rng = box * box, Stream(seed)

    def shuffled(values):
        for k in range(len(values) - 1, 0, -1):
            j = rng.below(k + 1)
            values[k], values[j] = values[j], values[k]
        return values

    seed_box = shuffled(list(range(1, n + 1)))
    grid = [[seed_box[((r % box + c // box) % box) * box + (c % box + r // box) % box] for c in range(n)]
            for r in range(n)]
    if shuffle:
        orders = []
        for _ in range(2):
            groups = shuffled(list(range(box)))
            orders.append([groups[g] * box + k for g in range(box) for k in shuffled(list(range(box)))])
        grid = [[grid[r][c] for c in orders[1]] for r in orders[0]]
    return [v for row in grid for v in row]
