"""The symmetry group of a shape, and keys by trying every element of it (small shapes).

Which moves keep a shape (map every unit onto a unit, so a board stays a board):

* **boxes r x c**: permuting the bands (groups of r rows) and the rows within each band, the stacks (groups of c
  columns) and the columns within each stack; transposing too when r = c. Order
  ``(n/r)! * r!^(n/r) * (n/c)! * c!^(n/c)`` (x 2 when r = c): 3,456 for 2x3 (6x6), 3,359,232 for 3x3.
* **Latin squares**: any row and any column permutation and the transpose, ``2 * n!^2``; the main class adds the
  other conjugates (engine.keys.latin).
* **diagonals, jigsaw**: the moves of the shape's family (boxes, or the 8 symmetries of the square for jigsaw)
  that also keep the diagonals or the layout; found by trying each.

With relabelling (``full``) the digits are renamed too (n! more). ``d4`` is the 8 symmetries of the square (rotations
and mirrors), those the shape keeps.

:func:`brute_keys` takes the smallest image over an explicit list of the group's cell permutations: exact for any
shape whose group fits in memory (:data:`MAX_EXPLICIT` elements), which covers 4x4 and 6x6 and the diagonal and
jigsaw shapes; boxes of r x c and Latin squares take pruned searches at every size (engine/keys/rect_full.py,
engine/keys/latin.py), square boxes theirs (engine/keys/_board.py, _grid.py).
"""
from __future__ import annotations

from functools import lru_cache
from math import factorial

import numpy as np

from .._jit import kernel
from ..geometry import geometry
from ..shape import Shape
from .orders import line_orders

#: the most group elements :func:`shape_group` lists explicitly (each a row of ncells cell indices)
MAX_EXPLICIT = 200_000


def _d4(n: int) -> list[np.ndarray]:
    """The 8 symmetries of the square as cell permutations: image[cell] = grid[perm[cell]]."""
    r, c = np.divmod(np.arange(n * n), n)
    m = n - 1
    sources = [(r, c), (c, m - r), (m - r, m - c), (m - c, r), (r, m - c), (m - r, c), (c, r), (m - c, m - r)]
    return [rr * n + cc for rr, cc in sources]


def _kept(geo, perms) -> list[np.ndarray]:
    """The cell permutations of ``perms`` that map every unit of ``geo`` onto a unit."""
    units = {frozenset(u.tolist()) for u in geo.houses}
    return [p for p in perms if all(frozenset(p[u].tolist()) in units for u in geo.houses)]


def group_order(shape: Shape) -> int:
    """The order of the shape's move group without relabelling (see the module docstring)."""
    if shape.kind == "boxes" and not shape.diagonals:
        n, r, c = shape.size, shape.box_rows, shape.box_cols
        rows = factorial(n // r) * factorial(r) ** (n // r)
        cols = factorial(n // c) * factorial(c) ** (n // c)
        return rows * cols * (2 if r == c else 1)
    if shape.kind == "latin" and not shape.diagonals:
        return 2 * factorial(shape.size) ** 2
    return len(shape_group(shape, "full"))


@lru_cache(maxsize=None)
def shape_group(shape: Shape, equivalence: str) -> np.ndarray:
    """Every move of ``shape`` under ``equivalence`` (``d4`` or ``full``, relabelling aside) as a read-only
    (order, ncells) int32 array of cell permutations, the identity first. ValueError when the group has more than
    :data:`MAX_EXPLICIT` elements."""
    geo = geometry(shape)
    n = shape.size
    if equivalence == "d4" or shape.kind == "jigsaw":
        perms = _kept(geo, _d4(n))
    else:
        rb, cb = (shape.box_rows, shape.box_cols) if shape.kind == "boxes" else (n, n)
        transposes = (False, True) if rb == cb else (False,)
        if shape.diagonals:
            pairs = _diagonal_moves(n, rb, cb)
            rr = np.array([p for p, _ in pairs])[:, :, None]
            cc = np.array([q for _, q in pairs])[:, None, :]
            images = (rr * n + cc).reshape(len(pairs), n * n)
        else:
            rows, cols = line_orders(n, rb), line_orders(n, cb)
            if len(rows) * len(cols) * len(transposes) > MAX_EXPLICIT:
                raise ValueError(f"the group of shape {shape.name} is too large to list "
                                 f"({group_order(shape):,} moves)")
            rr = np.array(rows)[:, None, :, None]
            cc = np.array(cols)[None, :, None, :]
            images = (rr * n + cc).reshape(len(rows) * len(cols), n * n)  # image[r, c] = grid[rows[r], cols[c]]
        perms = list(images)
        if True in transposes:
            t = np.arange(n * n).reshape(n, n).T.ravel()
            perms += list(images[:, t])
        if shape.diagonals:
            perms = _kept(geo, perms)  # (each is kept by construction: this only checks it)
    out = np.ascontiguousarray(np.array(perms, dtype=np.int32))
    out.flags.writeable = False
    return out


def _diagonal_moves(n: int, rb: int, cb: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The (row order, column order) pairs that keep both diagonals, rows in blocks of ``rb`` and columns in blocks
    of ``cb``: image[r, c] = grid[p[r], q[c]] puts the main diagonal on a diagonal exactly when q = p or q = the
    reverse of p, and the anti-diagonal on the other one exactly when p commutes with reversal (p[n-1-i] =
    n-1-p[i]). So the rows are found pair by pair ({i, n-1-i} onto a pair, either way round), pruned as soon as
    a block of rows would be split, instead of filtering every order of the lines (n! of them)."""
    found: list[tuple[int, ...]] = []
    p = [-1] * n
    if n % 2:
        p[n // 2] = n // 2

    def blocks_kept(size: int) -> bool:  # every block's assigned rows map into one block, blocks onto blocks
        image: dict[int, int] = {}
        for i in range(n):
            if p[i] >= 0:
                src, dst = i // size, p[i] // size
                if image.setdefault(src, dst) != dst:
                    return False
        return len(set(image.values())) == len(image)

    def place(i: int) -> None:
        if i == n // 2:
            if blocks_kept(rb) and blocks_kept(cb):
                found.append(tuple(p))
            return
        used = set(p)
        for j in range(n):
            if j in used or n - 1 - j in used or (j == n - 1 - j):
                continue
            p[i], p[n - 1 - i] = j, n - 1 - j
            if blocks_kept(rb) and blocks_kept(cb):
                place(i + 1)
            if len(found) > MAX_EXPLICIT:
                raise ValueError(f"the group of {n}x{n} with diagonals is too large to list (over "
                                 f"{MAX_EXPLICIT:,} moves)")
            p[i] = p[n - 1 - i] = -1

    place(0)
    reverse = list(range(n - 1, -1, -1))
    return [(r, q) for r in found for q in (r, tuple(reverse[x] for x in r))]


@kernel
def brute_keys(grids, perms, relabel, out):
    """``out[i]``: the smallest image of ``grids[i]`` over the rows of ``perms`` (digits renamed in order of first
    appearance when ``relabel``), compared lexicographically with early exit."""
    ncells = grids.shape[1]
    name = np.zeros(64, dtype=np.int8)
    for i in range(grids.shape[0]):
        g = grids[i]
        best = out[i]
        for c in range(ncells):
            best[c] = 127
        for k in range(perms.shape[0]):
            p = perms[k]
            name[:] = 0
            nxt = 1
            state = 0  # 0: equal so far, 1: smaller (copy the rest), -1: larger (stop)
            for c in range(ncells):
                d = g[p[c]]
                if relabel and d != 0:
                    if name[d] == 0:
                        name[d] = nxt
                        nxt += 1
                    d = name[d]
                if state == 0:
                    if d < best[c]:
                        state = 1
                    elif d > best[c]:
                        break
                best[c] = d if state == 1 else best[c]
    return out


def shape_keys(grids: np.ndarray, shape: Shape, equivalence: str) -> np.ndarray:
    """The keys of ``grids`` (m, ncells) on ``shape`` (not square boxes: those have their own pruned searches).

    ``none``: the grids. ``d4``: the smallest image under the symmetries of the square that the shape keeps.
    ``full``: on a Latin square, its main class (engine/keys/latin.py; complete squares only); on boxes of r x c,
    r != c, the smallest image over the shape's moves with relabelling, searched (engine/keys/rect_full.py;
    complete boards only, but 6x6 puzzles take the listed group, which gives the same keys on boards); on any other
    shape, the same over the whole move group listed (the diagonal and jigsaw shapes); ValueError for groups too
    large to list, :class:`~engine.keys.errors.KeySearchError` for a grid too symmetric to search.
    """
    grids = np.ascontiguousarray(grids, dtype=np.int8)
    if equivalence == "none":
        return grids.copy()
    out = np.empty_like(grids)
    if equivalence == "full" and shape.kind == "latin" and not shape.diagonals:
        from .latin import latin_keys

        return latin_keys(grids, shape.name)
    if equivalence == "full" and _rectangular(shape) and not (_listed(shape) and (grids == 0).any()):
        from .rect_full import rect_full_keys  # boards: searched, not listed (6x6 too: five times faster)

        return rect_full_keys(grids, shape)
    return brute_keys(grids, shape_group(shape, equivalence), equivalence == "full", out)


def _rectangular(shape: Shape) -> bool:
    return shape.kind == "boxes" and not shape.diagonals and shape.box_rows != shape.box_cols


def _listed(shape: Shape) -> bool:
    return group_order(shape) <= MAX_EXPLICIT


def check_full(shape: Shape, puzzles: bool = False) -> None:
    """ValueError, naming the shape, when its ``full`` keys cannot be had: a group too large to list and no
    search for it. Latin squares (engine/keys/latin.py) and boxes of r x c (engine/keys/rect_full.py) are searched
    at every size, for complete grids; with ``puzzles`` (grids with blanks too, as ``import`` keys them) those
    searches are refused: only a listed group keys a puzzle of these shapes (6x6 boxes)."""
    if (shape.kind == "latin" or _rectangular(shape)) and not shape.diagonals:
        if puzzles and (shape.kind == "latin" or group_order(shape) > MAX_EXPLICIT):
            raise ValueError(f"the full keys of shape {shape.name} are for complete grids, and its puzzles have "
                             "none")
        return
    shape_group(shape, "full")
