"""``full`` keys of complete boards with boxes of r x c, r != c, by a pruned search (every size, 6x6 to 24x24).

The key is the smallest image, row by row, over the shape's moves (bands of r rows and the rows within each band,
stacks of c columns and the columns within each stack) and the relabellings of the digits, as
:func:`engine.keys.shape_group.brute_keys` takes it over a listed group, of the board *oriented* first: the board
is transposed when the transposed shape has fewer column orders (2x4: 384 orders of columns in stacks of 2 against
1,152 in stacks of 4), and the key transposed back. Transposing maps one shape's group onto the other's, so the key
is still the same for every board of a class, and a board of the class. (The rule comes from the enumeration this
search replaced, which tried every column order; it is kept so that keys stored before stay the same, and 6x6
boards, whose keys were the listed group's smallest images, are not transposed.)

The smallest image is found by the pruned search of :mod:`engine.keys._rect` (its docstring says why it is
exact): well under a millisecond a random board at every size up to 24x24, where the enumeration it replaced (n x
the column orders images a board; now the plain twin in tests/naive/key_enumerations.py) was refused from 2x7 on.
A board with a huge symmetry group keeps too many tied states and raises
:class:`~engine.keys.errors.KeySearchError`, naming the shape.
"""
from __future__ import annotations

from math import factorial

import numpy as np

from ..shape import Shape
from ._rect import rect_keys
from .errors import KeySearchError, raise_for

#: the most tied states the search of a board may keep (~10 MB a beam at 24x24); random boards keep a few dozen,
#: only boards with a huge symmetry group come near it
MAX_STATES = 1 << 16


#: boards of this side or less are keyed as they stand: their keys were the listed group's smallest images
#: (engine.keys.shape_group.brute_keys) before this search took them over, and stay so
AS_LISTED = 6


def plan(shape: Shape) -> tuple[bool, int, int]:
    """(transpose first, rows per band, columns per stack) of the oriented board, for boxes of r x c with r != c.
    The rule is part of the keys' definition: changing it would change stored keys."""
    r, c, n = shape.box_rows, shape.box_cols, shape.size
    # transposed, the columns come in stacks of r
    transpose = n > AS_LISTED and len_orders(n, r) < len_orders(n, c)
    return transpose, (c if transpose else r), (r if transpose else c)


def len_orders(n: int, block: int) -> int:
    """How many orders of n lines keep blocks of ``block`` lines together."""
    return factorial(n // block) * factorial(block) ** (n // block)


def oriented(grids: np.ndarray, shape: Shape) -> tuple[np.ndarray, bool, int, int]:
    """``grids`` (m, ncells) as the search takes them (transposed when :func:`plan` says so), and the plan."""
    transpose, rb, cb = plan(shape)
    n = shape.size
    work = grids.reshape(-1, n, n)
    if transpose:
        work = work.transpose(0, 2, 1)
    return np.ascontiguousarray(work.reshape(-1, n * n), dtype=np.int8), transpose, rb, cb


def rect_full_keys(grids: np.ndarray, shape: Shape) -> np.ndarray:
    """The ``full`` keys (m, ncells) int8 of complete boards (m, ncells) of ``shape`` (boxes r x c, r != c).

    :class:`~engine.keys.errors.KeySearchError` on a grid with blanks (puzzles have no full key here), on one that
    is not a board of the shape, or on one whose search keeps more than :data:`MAX_STATES` tied states."""
    return rect_full_search(grids, shape)[0]


def rect_full_search(grids: np.ndarray, shape: Shape) -> tuple[np.ndarray, np.ndarray]:
    """(keys, cell permutations): key k is ``grids[k][perms[k]]`` with its digits renamed (the proof that each key
    is an image of its board; in order of first appearance on the oriented board). Raises as
    :func:`rect_full_keys`."""
    n = shape.size
    blank = np.flatnonzero((grids == 0).any(axis=1))
    if blank.size:
        raise KeySearchError(f"grid {blank[0] + 1} of {len(grids)} has no full key on shape {shape.name}: it has "
                             "blanks, and the full keys of this shape are for complete boards")
    work, transpose, rb, cb = oriented(grids, shape)
    out = np.empty_like(work)
    perms = np.empty(work.shape, dtype=np.int32)
    status = np.empty(len(work), dtype=np.int32)
    rect_keys(work, n, rb, cb, out, perms, status, MAX_STATES)
    raise_for(status, f" on shape {shape.name}", "it has a conflict (a digit twice in a row, column or box)",
              f"its search kept more than {MAX_STATES:,} tied states (too symmetric); use d4 or none")
    if transpose:  # back to the board's own orientation: cell (r, c) of the key is (c, r) of the oriented one
        t = np.arange(n * n).reshape(n, n).T.ravel()
        out = np.ascontiguousarray(out[:, t])
        back = perms[:, t]
        perms = np.ascontiguousarray(back % n * n + back // n)
    return out, perms
