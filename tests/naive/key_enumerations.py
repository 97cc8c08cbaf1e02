"""The enumerations that keyed rectangles and Latin squares before the pruned searches: their plain twins.

Each tries every candidate its key's definition names and keeps the smallest, with no pruning beyond an early exit
when comparing: the twin of engine/keys/_rect.py (``rect_enumerated_keys``) and of engine/keys/latin.py
(``latin_enumerated_keys``). They were the engine's own code (engine/keys/rect_full.py and latin.py up to the
commit that brought the searches); they stay as written there, compiled with numba only because plain Python
takes seconds a board (12x12: 552,960 images; Latin 7: 30,240 reduced squares of each of six conjugates).

Nothing here imports the engine: the caller orients a rectangle's boards (``engine.keys.rect_full.oriented``) and
passes the column orders (``column_orders``, ``line_orders``).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import permutations, product

import numba
import numpy as np

#: the six orders of a triple's roles (row, column, symbol): where each role of the conjugate comes from
CONJUGATES = np.array(list(permutations(range(3))), dtype=np.int64)


def line_orders(size: int, block: int) -> np.ndarray:
    """Every order of ``size`` lines that keeps blocks of ``block`` consecutive lines together."""
    groups = [list(range(g * block, (g + 1) * block)) for g in range(size // block)]
    out = []
    for gorder in permutations(range(len(groups))):
        for inner in product(*(list(permutations(groups[g])) for g in gorder)):
            out.append(tuple(x for part in inner for x in part))
    return np.array(out, dtype=np.int64)


@lru_cache(maxsize=None)
def column_orders(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every order of n columns, and the inverse of each."""
    orders = np.array(list(permutations(range(n))), dtype=np.int64)
    return orders, np.argsort(orders, axis=1)


def rect_enumerated_keys(grids: np.ndarray, n: int, rb: int, cb: int) -> np.ndarray:
    """The smallest image of each board (m, n*n) over bands of ``rb`` rows, stacks of ``cb`` columns and
    relabelling: every column order and top row, the other rows sorted (the rows' half of the group)."""
    grids = np.ascontiguousarray(grids, dtype=np.int8)
    out = np.empty_like(grids)
    _rect_keys(grids, n, rb, line_orders(n, cb), out)
    return out


def latin_enumerated_keys(squares: np.ndarray, n: int) -> np.ndarray:
    """The main-class key of each Latin square (m, n*n): the smallest reduced square over the six conjugates x
    first row x column order (6 n n! candidates)."""
    squares = np.ascontiguousarray(squares, dtype=np.int8)
    out = np.zeros_like(squares)
    _main_class_keys(squares, n, *column_orders(n), CONJUGATES, out)
    return out


@numba.njit(cache=True)
def _row_less(rows, a, c, n):
    for k in range(n):
        if rows[a, k] != rows[c, k]:
            return rows[a, k] < rows[c, k]
    return False


@numba.njit(cache=True)
def _band_less(rows, order, a, b, rb, n):
    for t in range(rb):
        x, y = order[a * rb + t], order[b * rb + t]
        for j in range(n):
            if rows[x, j] != rows[y, j]:
                return rows[x, j] < rows[y, j]
    return False


@numba.njit(cache=True)
def _rect_keys(grids, n, rb, col_orders, out):
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
                # each band's rows in ascending order, top's band with top first
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
                # the bands: top's first, the others in ascending order of their rows
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


@numba.njit(cache=True)
def _conjugate(sq, n, roles, out):
    t = np.zeros(3, dtype=np.int64)
    for r in range(n):
        for c in range(n):
            t[0] = r
            t[1] = c
            t[2] = sq[r * n + c] - 1
            out[t[roles[0]] * n + t[roles[1]]] = t[roles[2]] + 1


@numba.njit(cache=True)
def _main_class_keys(squares, n, orders, inverses, conjugates, out):
    ncells = n * n
    conj = np.zeros(ncells, dtype=np.int8)
    row_of = np.zeros((n, n + 1), dtype=np.int64)
    col_of = np.zeros((n, n + 1), dtype=np.int64)
    for i in range(squares.shape[0]):
        best = out[i]
        for c in range(ncells):
            best[c] = 127
        for k in range(conjugates.shape[0]):
            _conjugate(squares[i], n, conjugates[k], conj)
            for r in range(n):
                for c in range(n):
                    row_of[c, conj[r * n + c]] = r
                    col_of[r, conj[r * n + c]] = c
            for r0 in range(n):
                for t in range(orders.shape[0]):
                    tau = orders[t]
                    tinv = inverses[t]
                    state = 0  # 0: equal so far, 1: smaller (copy the rest), -1: larger
                    for a in range(1, n):
                        src = row_of[tau[0], conj[r0 * n + tau[a]]]
                        for j in range(1, n):
                            v = tinv[col_of[r0, conj[src * n + tau[j]]]] + 1
                            pos = a * n + j
                            if state == 0:
                                if v < best[pos]:
                                    state = 1
                                elif v > best[pos]:
                                    state = -1
                                    break
                            if state == 1:
                                best[pos] = v
                        if state == -1:
                            break
        for j in range(n):
            best[j] = j + 1
            best[j * n] = j + 1
    return out
