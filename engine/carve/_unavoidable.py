"""Small unavoidable sets of a board: removal tests the carver can fail without a search.

Take two rows of one band. Following a digit from the first row to the second row's digit in the same column,
then to that digit's column in the first row, and so on, closes a cycle of k columns; the 2k cells of those
columns in the two rows hold the same k digits in each row. Swapping the two rows' digits in those cells gives
another valid board: each row keeps its digits, each column keeps its two, and each box keeps its own, since the
two rows lie in one band (the two cells of a column share a box). The same holds for two columns of one stack. So
those 2k cells form an unavoidable set: a puzzle of that board with none of them among its clues has a second
solution, and when a removal empties one, the removal test's answer is known without a search (the clue stays).
k = 2 is the familiar rectangle (four cells, two digits).

Why it pays: a removal test that fails searches until it finds the second solution, and those searches are most
of carving's work (measured on 9x9: a minority of the tests, most of the mask checks). The sets with k <= 3
decide a good share of the failing tests (rectangles alone most of those; k = 4 adds little). The
answer is exactly the search's, so which clues stay is unchanged.
"""
from __future__ import annotations

import numpy as np

from .._jit import kernel, kernel_with
from ..bits import lowbit_index

#: at most this many sets are kept per board (a bit each in a cell's int64 mask)
MAX_SETS = 64
#: the longest cycle kept: sets of 2 * MAX_CYCLE cells
MAX_CYCLE = 4


@kernel
def _cell(direction, line, j, n):
    """Cell ``j`` of row ``line`` (direction 0) or of column ``line`` (direction 1)."""
    return line * n + j if direction == 0 else j * n + line


@kernel
def board_sets(board, n, box, sets, sizes, cell_sets, position):
    """Find the board's unavoidable sets of 2 * k cells, k <= :data:`MAX_CYCLE` (up to :data:`MAX_SETS`):
    ``sets[s, :sizes[s]]`` are the cells of set s, and ``cell_sets[c]`` has the bit ``1 << s`` of each set with
    cell ``c``. ``position`` is scratch (n + 1). Returns how many sets were found."""
    for c in range(cell_sets.size):
        cell_sets[c] = 0
    k = 0
    for direction in range(2):
        for band in range(box):
            for i1 in range(box):
                for i2 in range(i1 + 1, box):
                    first = band * box + i1
                    second = band * box + i2
                    for j in range(n):
                        position[board[_cell(direction, first, j, n)]] = j
                    seen = np.int64(0)
                    for j in range(n):
                        if seen >> j & 1:
                            continue
                        length = 0
                        x = j
                        while True:
                            seen |= np.int64(1) << x
                            length += 1
                            x = position[board[_cell(direction, second, x, n)]]
                            if x == j:
                                break
                        if length > MAX_CYCLE:
                            continue
                        if k == MAX_SETS:
                            return k
                        bit = np.int64(1) << k
                        x = j
                        for t in range(length):
                            a = _cell(direction, first, x, n)
                            b = _cell(direction, second, x, n)
                            sets[k, 2 * t] = a
                            sets[k, 2 * t + 1] = b
                            cell_sets[a] |= bit
                            cell_sets[b] |= bit
                            x = position[board[b]]
                        sizes[k] = 2 * length
                        k += 1
    return k


@kernel_with(_nrt=False)
def empties_a_set(puzzle, orbit, size, sets, sizes, cell_sets):
    """Whether the blank orbit cells leave one of the board's sets without a clue (the puzzle then has a second
    solution)."""
    candidates = np.int64(0)
    for t in range(size):
        candidates |= cell_sets[orbit[t]]
    while candidates:
        s = lowbit_index(candidates)
        candidates &= candidates - 1
        empty = True
        for i in range(sizes[s]):
            if puzzle[sets[s, i]] != 0:
                empty = False
                break
        if empty:
            return True
    return False
