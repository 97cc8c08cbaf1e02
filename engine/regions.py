"""Jigsaw region layouts: read from text, and made at random by a documented method.

A layout gives each cell of an n x n grid its region: n regions of n cells, each in one piece (cells joined side
by side). In text it is n lines of n letters (or one line of n*n), one letter per region, any letters:

    AAABBBCCC
    AAABBBCCC
    ...

**The random method** (:func:`random_layout`), reproducible from its seed:

1. Start from a tiling every side admits: boxes of r x c where n = r * c with r the largest divisor of n up to its
   square root (2x3 for 6, 3x4 for 12), or rows when n is prime (7, 11, 13: n stripes).
2. Trade cells between neighbouring regions ``20 * n * n`` times: draw a cell ``a`` and one of its side
   neighbours ``b`` in another region; ``a`` joins ``b``'s region and a cell ``x`` of that region, drawn among
   those that touch ``a``'s old region, goes the other way. The trade stands only if both regions are still in one
   piece, so every step keeps n connected regions of n cells. Twenty a cell is a compromise: by then the regions
   no longer look like boxes, though about half the cells are still in their starting region (the chain mixes
   slowly; docs/shapes.md has the measurement), and twice as many trades cost twice as much for little more.
3. Keep the layout if it has a board (some layouts have none: a region that fills two rows but one cell, say); the
   compiled solver answers in milliseconds. Otherwise draw again from where the stream is.

Not uniform over layouts (nothing here counts them), but it reaches any layout that a chain of trades reaches from
the start, and the same seed always gives the same layout.
"""
from __future__ import annotations

import numpy as np

from .shape import Shape, connected

#: trades per cell in step 2 of the method
TRADES_PER_CELL = 20
#: layouts drawn before giving up on a side (none has needed more than a few)
MAX_DRAWS = 100


def read_layout(text: str, where: str = "layout") -> Shape:
    """The jigsaw shape of a layout in text: n lines of n letters, or one line of n*n (blank lines and spaces
    ignored). ValueError naming ``where`` and the problem otherwise."""
    cells = [ch for ch in text if not ch.isspace()]
    try:
        return Shape.jigsaw(cells)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def layout_text(shape: Shape) -> str:
    """A jigsaw's layout as n lines of n letters (what :func:`read_layout` reads)."""
    n, letters = shape.size, shape.layout
    if letters is None:
        raise ValueError(f"{shape.describe()} has no region layout")
    return "\n".join(letters[r * n:(r + 1) * n] for r in range(n)) + "\n"


def _start(n: int) -> np.ndarray:
    r = max((d for d in range(2, int(n ** 0.5) + 1) if n % d == 0), default=0)
    rows, cols = np.divmod(np.arange(n * n), n)
    if r == 0:
        return rows.copy()
    c = n // r
    return (rows // r) * (n // c) + cols // c


def _neighbours(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    return [rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < n and 0 <= cc < n]


def _mix(region: np.ndarray, n: int, rng: np.random.Generator) -> None:
    """Step 2 of the method, in place."""
    near = [_neighbours(c, n) for c in range(n * n)]
    for _ in range(TRADES_PER_CELL * n * n):
        a = int(rng.integers(n * n))
        others = [b for b in near[a] if region[b] != region[a]]
        if not others:
            continue
        b = others[int(rng.integers(len(others)))]
        ra, rb = int(region[a]), int(region[b])
        region[a] = rb
        touching = [x for x in np.flatnonzero(region == rb) if x != a and any(region[y] == ra for y in near[x])]
        if not touching:
            region[a] = ra
            continue
        x = int(touching[int(rng.integers(len(touching)))])
        region[x] = ra
        if not (connected(np.flatnonzero(region == ra), n) and connected(np.flatnonzero(region == rb), n)):
            region[a], region[x] = ra, rb


def random_layout(n: int, seed: int, diagonals: bool = False) -> Shape:
    """A jigsaw shape of side ``n`` drawn by the method above from ``seed`` (same seed, same layout); it has at
    least one board (with the diagonals too when ``diagonals``)."""
    # imported here: the solver's module imports the geometry, which imports this package's shape module
    from .solvers.units import has_board

    Shape.latin(n, diagonals)  # checks n (and the diagonals) before any work
    rng = np.random.default_rng(seed)
    for _ in range(MAX_DRAWS):
        region = _start(n)
        _mix(region, n, rng)
        shape = Shape.jigsaw(region.tolist(), diagonals)
        if has_board(shape):
            return shape
    raise ValueError(f"no {n}x{n} jigsaw layout with a board in {MAX_DRAWS} draws from seed {seed}")
