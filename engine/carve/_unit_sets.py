"""Small unavoidable sets of a board of any shape: removal tests the units carver fails without a search.

An *unavoidable set* is a set of cells whose digits can be rearranged into another valid board: a puzzle with none
of them among its clues has a second solution. The square carver finds them from two lines of one band
(engine/carve/_unavoidable.py), which relies on boxes. On any shape (rows, columns, regions of any form, the
diagonals) two families are found here, each valid by construction or by a check against every unit:

* **two digits swapped.** Take digits a and b. In every unit the a-cell and the b-cell are linked; swapping a and b
  on a set of those cells keeps each unit whole exactly when the set holds both or neither of each unit's two, so
  every connected component of the links is an unavoidable set. The smallest are the rectangles of two rows, two
  columns and two regions; on irregular regions the components are often larger.
* **two lines' cycles.** Take two rows. Following a digit from the first row to the second row's digit in the
  same column, then to that digit's column in the first row, and so on, closes a cycle of k columns whose 2k cells
  hold the same k digits in each row; swapping the two rows there keeps every row and column whole, and keeps a
  region or a diagonal whole when it loses and gains the same digits, which is checked. The same for two columns.
  These add the sets of three and four digits that the first family misses.

The sets are only ever used to answer "does this removal leave a set without a clue?", whose answer is the
search's own (a second solution exists), so which clues stay is unchanged: the carver's twin in tests/naive/
makes the same puzzles.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel

#: at most this many sets are kept per board (a bit each in a cell's int64 mask), the smallest first
MAX_SETS = 64
#: the most cells a kept set has: larger ones are rarely left without a clue, and each costs a scan
MAX_CELLS = 12
#: the longest cycle of two lines tried (sets of 2 * MAX_CYCLE cells)
MAX_CYCLE = 4


@kernel
def _root(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@kernel
def _keeps_units(board, cells, digits, k, houses, cell_houses, nunits, seen):
    """Whether writing ``digits[:k]`` into ``cells[:k]`` keeps every unit of ``board`` whole: each unit the cells
    meet loses and gains the same digits. ``seen`` is scratch, one int64 a unit, zero on entry and on return."""
    ok = True
    for i in range(k):  # each unit: the bits of the digits it loses, minus those it gains (xor: one of each)
        c = cells[i]
        change = (np.int64(1) << (board[c] - 1)) ^ (np.int64(1) << (digits[i] - 1))
        for j in range(nunits[c]):
            seen[cell_houses[c, j]] ^= change
    for i in range(k):
        c = cells[i]
        for j in range(nunits[c]):
            u = cell_houses[c, j]
            if seen[u] != 0:
                ok = False
            seen[u] = 0
    return ok


@kernel
def _keep(found, nfound, cells, k):
    """Add the set ``cells[:k]`` (sorted here) to ``found`` unless it is there: ``found[s, 0]`` is a set's size."""
    for i in range(1, k):  # insertion sort: k <= MAX_CELLS
        x = cells[i]
        j = i - 1
        while j >= 0 and cells[j] > x:
            cells[j + 1] = cells[j]
            j -= 1
        cells[j + 1] = x
    for s in range(nfound):
        if found[s, 0] != k:
            continue
        same = True
        for i in range(k):
            if found[s, 1 + i] != cells[i]:
                same = False
                break
        if same:
            return nfound
    if nfound == found.shape[0]:
        return nfound
    found[nfound, 0] = k
    for i in range(k):
        found[nfound, 1 + i] = cells[i]
    return nfound + 1


@kernel
def unit_sets(board, n, houses, cell_houses, nunits, sets, sizes, cell_sets):
    """Find the board's small unavoidable sets (the module docstring's two families, at most :data:`MAX_CELLS`
    cells each), keep the :data:`MAX_SETS` smallest: ``sets[s, :sizes[s]]`` are the cells of set s and
    ``cell_sets[c]`` has the bit ``1 << s`` of each set with cell ``c``. Returns how many were kept."""
    ncells = board.shape[0]
    nhouses = houses.shape[0]
    where = np.empty((nhouses, n), np.int64)  # where[u, d - 1]: the cell of digit d in unit u
    for u in range(nhouses):
        for j in range(n):
            c = houses[u, j]
            where[u, board[c] - 1] = c
    found = np.zeros((8 * MAX_SETS, MAX_CELLS + 1), np.int64)  # candidates, before the smallest are kept
    nfound = 0
    cells = np.empty(2 * n, np.int64)
    digits = np.empty(2 * n, np.int64)
    parent = np.arange(ncells)
    seen = np.zeros(nhouses, np.int64)
    # two digits swapped: the components of the a-cell/b-cell links of every unit
    node = np.empty(2 * n, np.int64)  # the rows hold every a-cell and b-cell once
    root = np.empty(2 * n, np.int64)
    for a in range(1, n + 1):
        for b in range(a + 1, n + 1):
            for r in range(n):
                node[2 * r] = where[r, a - 1]
                node[2 * r + 1] = where[r, b - 1]
            for i in range(2 * n):
                parent[node[i]] = node[i]
            for u in range(nhouses):
                x = _root(parent, where[u, a - 1])
                y = _root(parent, where[u, b - 1])
                if x != y:
                    parent[x] = y
            for i in range(2 * n):
                root[i] = _root(parent, node[i])
            done = np.int64(0)  # 2n <= 50 nodes: one bit each
            for i in range(2 * n):
                if done >> i & 1:
                    continue
                k = 0
                for i2 in range(i, 2 * n):
                    if root[i2] == root[i]:
                        done |= np.int64(1) << i2
                        if k < MAX_CELLS:
                            cells[k] = node[i2]
                        k += 1
                if 4 <= k <= MAX_CELLS:
                    nfound = _keep(found, nfound, cells, k)
    # two lines' cycles: rows (direction 0), then columns (direction 1)
    position = np.empty(n + 1, np.int64)
    for direction in range(2):
        for first in range(n):
            for second in range(first + 1, n):
                for j in range(n):
                    c = first * n + j if direction == 0 else j * n + first
                    position[board[c]] = j
                used = np.int64(0)
                for j in range(n):
                    if used >> j & 1:
                        continue
                    length = 0
                    x = j
                    while True:
                        used |= np.int64(1) << x
                        if length < MAX_CYCLE:
                            c1 = first * n + x if direction == 0 else x * n + first
                            c2 = second * n + x if direction == 0 else x * n + second
                            cells[2 * length] = c1
                            digits[2 * length] = board[c2]
                            cells[2 * length + 1] = c2
                            digits[2 * length + 1] = board[c1]
                        length += 1
                        x = position[board[second * n + x if direction == 0 else x * n + second]]
                        if x == j:
                            break
                    if 3 <= length <= MAX_CYCLE and _keeps_units(board, cells, digits, 2 * length, houses,
                                                                 cell_houses, nunits, seen):
                        nfound = _keep(found, nfound, cells, 2 * length)
    # the smallest first (a stable insertion sort of the indices by size), then the first MAX_SETS kept
    order = np.arange(nfound)
    for i in range(1, nfound):
        x = order[i]
        j = i - 1
        while j >= 0 and found[order[j], 0] > found[x, 0]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = x
    for c in range(ncells):
        cell_sets[c] = 0
    kept = min(nfound, sets.shape[0])
    for s in range(kept):
        f = order[s]
        sizes[s] = found[f, 0]
        for i in range(found[f, 0]):
            sets[s, i] = found[f, 1 + i]
            cell_sets[found[f, 1 + i]] |= np.int64(1) << s
    return kept
