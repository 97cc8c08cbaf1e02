"""Main-class keys of Latin squares: the same square up to row, column and symbol permutations and conjugates.

A Latin square is a set of n*n triples (row, column, symbol). Permuting the rows, the columns and the symbols
(an *isotopy*) and permuting the three roles of a triple (a *conjugate*: the transpose swaps row and column; the
others put the symbol in a line's place) keep it a Latin square; the squares reached so form its *main class*.
Main classes number 1, 1, 2, 2, 12, 147 for n = 1..6 (McKay, Meynert and Myrvold, "Small Latin squares,
quasigroups and loops", J. Combin. Des. 15, 2007), which the tests hold this to for n = 4, 5, 6.

The key: among the six conjugates, every choice of which row comes first (n) and of the column order (n!) fixes
the rest - the symbols are renamed so the first row reads 1..n, then the rows are ordered so the first column reads
1..n (a *reduced* square). The key is the smallest reduced square so reached, compared row by row with early exit:
``6 * n * n!`` candidates, exact, cheap to n = 7 (30,240 candidates a square), slow beyond.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import permutations

import numpy as np

from .._jit import kernel

#: the six orders of a triple's roles (row, column, symbol): where each role of the conjugate comes from
CONJUGATES = np.array(list(permutations(range(3))), dtype=np.int64)


@lru_cache(maxsize=None)
def column_orders(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every order of n columns, and the inverse of each."""
    orders = np.array(list(permutations(range(n))), dtype=np.int64)
    inverses = np.argsort(orders, axis=1)
    orders.flags.writeable = inverses.flags.writeable = False
    return orders, inverses


@kernel
def _conjugate(sq, n, roles, out):
    """``out``: the conjugate of square ``sq`` (values 1..n) whose triple (a0, a1, a2) is the source's roles
    ``roles`` of each triple (row, column, symbol - 1)."""
    t = np.zeros(3, dtype=np.int64)
    for r in range(n):
        for c in range(n):
            t[0] = r
            t[1] = c
            t[2] = sq[r * n + c] - 1
            out[t[roles[0]] * n + t[roles[1]]] = t[roles[2]] + 1


@kernel
def main_class_keys(squares, n, orders, inverses, conjugates, out):
    """``out[i]``: the main-class key of Latin square ``squares[i]`` (flat, values 1..n). ``orders``: every column
    order, ``inverses`` their inverses.

    A candidate's first row and column always read 1..n, so only the rest is compared; its cells are read through
    two tables made once per conjugate instead of renaming the square for each candidate: the row holding a
    symbol in a column (``row_of``) and the column holding a symbol in a row (``col_of``)."""
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
                        # row a of the candidate: the row whose first cell is renamed a + 1, i.e. holds the
                        # symbol row r0 has in column tau[a]
                        src = row_of[tau[0], conj[r0 * n + tau[a]]]
                        for j in range(1, n):
                            # renamed: the position (under tau) of this symbol in row r0
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


def main_class_key(square) -> np.ndarray:
    """The main-class key of one Latin square (flat or n x n, values 1..n)."""
    arr = np.asarray(square, dtype=np.int8).reshape(1, -1)
    n = round(arr.shape[1] ** 0.5)
    out = np.zeros_like(arr)
    main_class_keys(arr, n, *column_orders(n), CONJUGATES, out)
    return out[0]
