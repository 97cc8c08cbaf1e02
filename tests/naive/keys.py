"""Plain-Python twins of the canonical keys (engine/keys), written from the definition of the groups.

tests/engine/keys/test_canonical.py holds the compiled key kernels to them: every 4x4 board by brute force and its
classes by breadth-first closure under the group's generators; the 4x4 full key as the minimum over every image
(transpose or not x every band-preserving row order x every band-preserving column order, digits relabelled by
first appearance); the d4 key on any size as the minimum of the 8 images written out with row/column formulas.

Nothing here imports the engine: a transformation is given as plain lists ``(perm, relabel)`` (cell i of the
image is ``relabel[cells[perm[i]]]``), so the caller hands ``orbits`` the engine's generators as lists.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence


def all_4x4_boards() -> list[tuple[int, ...]]:
    """Every valid 4x4 board, by plain backtracking in reading order (twin of the count 288 and of the set the
    4x4 key classes partition)."""
    out = []
    cells = [0] * 16

    def ok(i: int, d: int) -> bool:
        r, c = divmod(i, 4)
        same = [r * 4 + k for k in range(4)] + [k * 4 + c for k in range(4)]
        same += [(r // 2 * 2 + x) * 4 + c // 2 * 2 + y for x in range(2) for y in range(2)]
        return all(cells[j] != d for j in same if j < i)

    def fill(i: int) -> None:
        if i == 16:
            out.append(tuple(cells))
            return
        for d in range(1, 5):
            if ok(i, d):
                cells[i] = d
                fill(i + 1)
        cells[i] = 0

    fill(0)
    return out


def apply(cells: Sequence[int], perm: Sequence[int], relabel: Sequence[int]) -> tuple[int, ...]:
    """Twin of ``Transform.apply``: cell i of the image is ``relabel[cells[perm[i]]]``."""
    return tuple(relabel[cells[p]] for p in perm)


def first_appearance(image: Iterable[int]) -> tuple[int, ...]:
    """Digits renamed 1, 2, ... in order of first appearance, blanks kept: twin of the full key's relabelling."""
    labels = {0: 0}
    return tuple(labels.setdefault(d, len(labels)) for d in image)


def orbits(grids: Iterable[tuple[int, ...]], generators: Sequence[tuple[Sequence[int], Sequence[int]]]) -> list[set]:
    """The classes of ``grids`` under the group the ``(perm, relabel)`` generators make, each found by
    breadth-first closure: twin of "two grids have the same key exactly when they are in one class"."""
    left, classes = set(grids), []
    while left:
        start = left.pop()
        seen, frontier = {start}, [start]
        while frontier:
            g = frontier.pop()
            for perm, relabel in generators:
                h = apply(g, perm, relabel)
                if h not in seen:
                    seen.add(h)
                    frontier.append(h)
        left -= seen
        classes.append(seen)
    return classes


def line_orders(b: int) -> list[tuple[int, ...]]:
    """Every order of the n rows that keeps bands whole: the bands in any order, the rows of each band in any
    order (b! ** (b + 1) of them). Twin of ``transforms.all_line_orders``."""
    out = []
    for bands in itertools.permutations(range(b)):
        for inner in itertools.product(itertools.permutations(range(b)), repeat=b):
            out.append(tuple(band * b + inner[k][i] for k, band in enumerate(bands) for i in range(b)))
    return out


def full_twin_4x4(cells: Sequence[int]) -> tuple[int, ...]:
    """Twin of the 4x4 full key: the minimum over transpose x every band-preserving row and column order (2 x 8
    x 8 images), each relabelled by first appearance."""
    m = [list(cells[r * 4:(r + 1) * 4]) for r in range(4)]
    orders = line_orders(2)
    best = None
    for grid in (m, [list(col) for col in zip(*m)]):
        for rows, cols in itertools.product(orders, orders):
            image = first_appearance(grid[r][c] for r in rows for c in cols)
            best = image if best is None or image < best else best
    return best


def d4_twin(cells: Sequence[int], b: int) -> tuple[int, ...]:
    """Twin of the d4 key: the minimum of the 8 rotations and reflections, each written out with its own
    row/column formula."""
    n = b * b
    m = [list(map(int, cells[r * n:(r + 1) * n])) for r in range(n)]
    z = n - 1
    maps = [lambda r, c: m[r][c], lambda r, c: m[z - c][r], lambda r, c: m[z - r][z - c], lambda r, c: m[c][z - r],
            lambda r, c: m[z - r][c], lambda r, c: m[r][z - c], lambda r, c: m[c][r], lambda r, c: m[z - c][z - r]]
    return min(tuple(f(r, c) for r in range(n) for c in range(n)) for f in maps)
