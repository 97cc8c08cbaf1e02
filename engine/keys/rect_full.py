"""``full`` keys of complete boards with boxes of r x c, r != c, whose move group is too large to list (8x8 and up).

The key is the smallest image, row by row, over the shape's moves (bands of r rows and the rows within each band,
stacks of c columns and the columns within each stack) and the relabellings of the digits, as
:func:`engine.keys.shape_group.brute_keys` takes it over a listed group. Here it is found without listing the
rows' half of the group:

- the image's first row always reads 1..n once relabelled (a complete row holds every digit), so each choice of
  the column order ``q`` and of the row ``top`` that goes first fixes the relabelling (the digit in column ``j`` of
  ``top`` becomes ``j + 1``);
- the rows are then free within the rules: ``top``'s band goes first with ``top`` at its head and its other rows
  in ascending order, and every other band follows with its rows in ascending order, the bands ordered by those
  rows (a band is a block of r rows, so comparing blocks decides the order of their concatenation).

So a board costs n x (the column orders) images, not the whole group. The rows' and the columns' halves of the
group differ in size (2x4: 384 row orders, 1,152 column orders): the board is transposed first when that leaves
fewer column orders to try, and the key transposed back (transposing maps one shape's group onto the other's,
so the key is still the same for every board of a class, and a board of the class). The plain twin is
``brute_keys`` over the listed group, in the tests.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .._jit import kernel
from ..shape import Shape
from ._board import _row_less
from .orders import line_orders

#: the most (column order, top row) images a board may cost: 12x12 takes 12 x 31,104 (3x4, 0.11 s a board on the
#: EPYC host) or 12 x 46,080 (2x6, 0.18 s); the next, 2x7 (14 x 645,120, about 3 s) and 3x5, and larger boxes
#: are refused by name
MAX_IMAGES = 600_000


@lru_cache(maxsize=None)
def _orders(n: int, block: int) -> np.ndarray:
    out = np.ascontiguousarray(np.array(line_orders(n, block), dtype=np.int64))
    out.flags.writeable = False
    return out


def plan(shape: Shape) -> tuple[bool, int, int]:
    """(transpose first, rows per band, columns per stack) of the oriented board, for boxes of r x c with r != c;
    ValueError when a board would cost more than :data:`MAX_IMAGES` images."""
    r, c, n = shape.box_rows, shape.box_cols, shape.size
    col_orders = {c: len_orders(n, c), r: len_orders(n, r)}
    transpose = col_orders[r] < col_orders[c]  # transposed, the columns come in stacks of r
    cb = r if transpose else c
    if n * col_orders[cb] > MAX_IMAGES:
        raise ValueError(f"full keys of shape {shape.name} would try {n * col_orders[cb]:,} images a board (at "
                         f"most {MAX_IMAGES:,})")
    return transpose, (c if transpose else r), cb


def len_orders(n: int, block: int) -> int:
    from math import factorial

    return factorial(n // block) * factorial(block) ** (n // block)


def rect_full_keys(grids: np.ndarray, shape: Shape) -> np.ndarray:
    """The ``full`` keys (m, ncells) int8 of complete boards (m, ncells) of ``shape`` (boxes r x c, r != c)."""
    transpose, rb, cb = plan(shape)
    n = shape.size
    if (grids == 0).any():
        raise ValueError(f"full keys of shape {shape.name} are for complete boards; this grid has blanks")
    work = grids.reshape(-1, n, n)
    if transpose:
        work = work.transpose(0, 2, 1)
    work = np.ascontiguousarray(work.reshape(-1, n * n), dtype=np.int8)
    out = np.empty_like(work)
    _keys(work, n, rb, _orders(n, cb), out)
    if transpose:
        out = np.ascontiguousarray(out.reshape(-1, n, n).transpose(0, 2, 1).reshape(-1, n * n))
    return out


@kernel
def _keys(grids, n, rb, col_orders, out):
    nbands = n // rb
    label = np.zeros(n + 1, dtype=np.int8)
    rows = np.zeros((n, n), dtype=np.int8)  # every row relabelled, in the column order tried
    image = np.zeros((n, n), dtype=np.int8)
    order = np.zeros(n, dtype=np.int64)  # the image's rows, as rows of `rows`
    bands = np.zeros(nbands, dtype=np.int64)
    for i in range(grids.shape[0]):
        g = grids[i]
        best = out[i]
        for c in range(n * n):
            best[c] = 127
        for k in range(col_orders.shape[0]):
            q = col_orders[k]
            for top in range(n):
                for j in range(n):
                    label[g[top * n + q[j]]] = j + 1
                for r in range(n):
                    for j in range(n):
                        rows[r, j] = label[g[r * n + q[j]]]
                # each band's rows in ascending order (insertion sort: r is 2 to 5), top's band with top first
                for b in range(nbands):
                    for t in range(rb):
                        order[b * rb + t] = b * rb + t
                    first = 0
                    if b == top // rb:
                        order[b * rb], order[top] = top, b * rb
                        first = 1
                    for t in range(first + 1, rb):
                        x = order[b * rb + t]
                        u = t
                        while u > first and _row_less(rows, x, order[b * rb + u - 1], n):
                            order[b * rb + u] = order[b * rb + u - 1]
                            u -= 1
                        order[b * rb + u] = x
                # the bands: top's first, the others in ascending order of their rows (insertion sort)
                nb = 0
                bands[nb] = top // rb
                nb += 1
                for b in range(nbands):
                    if b == top // rb:
                        continue
                    u = nb
                    while u > 1 and _band_less(rows, order, b, bands[u - 1], rb, n):
                        bands[u] = bands[u - 1]
                        u -= 1
                    bands[u] = b
                    nb += 1
                # compare with the best so far, row by row, with early exit
                state = 0
                for b in range(nbands):
                    for t in range(rb):
                        src = order[bands[b] * rb + t]
                        for j in range(n):
                            d = rows[src, j]
                            image[b * rb + t, j] = d
                            if state == 0:
                                if d < best[(b * rb + t) * n + j]:
                                    state = 1
                                elif d > best[(b * rb + t) * n + j]:
                                    state = -1
                    if state == -1:
                        break
                if state == 1:
                    for r in range(n):
                        for j in range(n):
                            best[r * n + j] = image[r, j]
    return out


@kernel
def _band_less(rows, order, a, b, rb, n):
    for t in range(rb):
        x, y = order[a * rb + t], order[b * rb + t]
        for j in range(n):
            if rows[x, j] != rows[y, j]:
                return rows[x, j] < rows[y, j]
    return False
