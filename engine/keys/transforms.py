"""Transformations of a grid that keep every valid grid valid, as data.

A :class:`Transform` moves digits between cells and may rename digits: the image of a flat grid ``cells`` is
``relabel[cells[perm]]``, so image cell ``p`` takes the digit of source cell ``perm[p]``, and digit ``d`` becomes
``relabel[d]``. Blanks stay blank (``relabel[0] == 0``).

Two groups of transformations give the project's two notions of "the same grid" (see :mod:`engine.keys`):

``d4``
    The 8 symmetries of the square (the dihedral group D4), in :data:`D4_NAMES` order: the identity, rotations
    by 90, 180 and 270 degrees clockwise, ``flip-rows`` (reverse the order of the rows: top becomes bottom),
    ``flip-columns`` (reverse the order of the columns: a mirror), ``transpose`` (about the main diagonal) and
    ``anti-transpose`` (about the other diagonal). These are the moves of seed 000.
``full``
    Every validity-preserving transformation: transpose; permute the bands; permute the stacks; permute the
    rows within a band; permute the columns within a stack; relabel the digits. For a b x b box there are
    ``2 * (b!)^(2b+2) * (b*b)!`` of them (1.2e12 on 9x9). D4 is a subgroup of it.

``none`` has only the identity.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from ..geometry import check_box
from ..inputs import check_name
from ..vocabulary import EQUIVALENCES

D4_NAMES = ("identity", "rotate90", "rotate180", "rotate270", "flip-rows", "flip-columns", "transpose",
            "anti-transpose")


def check_equivalence(equivalence: str) -> str:
    return check_name("equivalence", equivalence, EQUIVALENCES)


@dataclass(frozen=True, eq=False)
class Transform:
    """A cell permutation plus a digit relabelling, for grids with ``box`` x ``box`` boxes."""

    box: int
    perm: np.ndarray  # (ncells,) int32: image cell p takes the digit of source cell perm[p]
    relabel: np.ndarray  # (size + 1,) int8: digit d becomes relabel[d]; relabel[0] == 0

    def __post_init__(self):
        n = self.box * self.box
        perm = np.ascontiguousarray(self.perm, dtype=np.int32)
        relabel = np.ascontiguousarray(self.relabel, dtype=np.int8)
        if sorted(perm.tolist()) != list(range(n * n)):
            raise ValueError("perm must be a permutation of the cells")
        if relabel.shape != (n + 1,) or relabel[0] != 0 or sorted(relabel.tolist()) != list(range(n + 1)):
            raise ValueError("relabel must be a permutation of the digits 1..n that keeps 0 (blank) at 0")
        object.__setattr__(self, "perm", perm)
        object.__setattr__(self, "relabel", relabel)

    def apply(self, cells: np.ndarray) -> np.ndarray:
        """The image of the flat grid ``cells`` (a new int8 array)."""
        return self.relabel[np.asarray(cells, dtype=np.int64)[self.perm]]

    def then(self, other: "Transform") -> "Transform":
        """This transform followed by ``other``: ``a.then(b).apply(x) == b.apply(a.apply(x))``."""
        return Transform(self.box, self.perm[other.perm], other.relabel[self.relabel])

    def inverse(self) -> "Transform":
        return Transform(self.box, np.argsort(self.perm), np.argsort(self.relabel))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Transform) and self.box == other.box
                and np.array_equal(self.perm, other.perm) and np.array_equal(self.relabel, other.relabel))

    def __hash__(self) -> int:
        return hash((self.box, self.perm.tobytes(), self.relabel.tobytes()))


def apply(cells: np.ndarray, transform: Transform) -> np.ndarray:
    """``transform.apply(cells)``."""
    return transform.apply(cells)


def compose(*transforms: Transform) -> Transform:
    """The transforms applied left to right (the first one first)."""
    out = transforms[0]
    for t in transforms[1:]:
        out = out.then(t)
    return out


def identity(box: int) -> Transform:
    n = check_box(box) ** 2
    return Transform(box, np.arange(n * n), np.arange(n + 1))


def _from_source(box: int, source) -> Transform:
    """The cell permutation whose image cell (r, c) takes the digit of source cell ``source(r, c) -> (r', c')``."""
    n = check_box(box) ** 2
    perm = np.empty(n * n, dtype=np.int32)
    for r in range(n):
        for c in range(n):
            sr, sc = source(r, c)
            perm[r * n + c] = sr * n + sc
    return Transform(box, perm, np.arange(n + 1))


def d4_group(box: int) -> tuple[Transform, ...]:
    """The 8 symmetries of the square, in :data:`D4_NAMES` order (rotations are clockwise)."""
    n = check_box(box) ** 2
    m = n - 1
    sources = (
        lambda r, c: (r, c),
        lambda r, c: (m - c, r),  # rotate90: the left column becomes the top row
        lambda r, c: (m - r, m - c),
        lambda r, c: (c, m - r),
        lambda r, c: (m - r, c),  # flip-rows: the bottom row becomes the top row
        lambda r, c: (r, m - c),  # flip-columns: a mirror image
        lambda r, c: (c, r),
        lambda r, c: (m - c, m - r),
    )
    return tuple(_from_source(box, s) for s in sources)


def from_lines(box: int, rows, columns, transposed: bool = False, relabel=None) -> Transform:
    """The member of the full group whose image cell (r, c) holds the digit at source row ``rows[r]``, source
    column ``columns[c]`` of the grid (of its transpose when ``transposed``), relabelled by ``relabel``.

    ``rows`` and ``columns`` must keep bands and stacks together (the image's band k is one source band, and so
    on), otherwise the result would not be validity-preserving and ValueError is raised.
    """
    b = check_box(box)
    n = b * b
    for name, lines in (("rows", rows), ("columns", columns)):
        lines = [int(x) for x in lines]
        if sorted(lines) != list(range(n)):
            raise ValueError(f"{name} must be a permutation of 0..{n - 1}")
        for k in range(b):
            chunk = lines[k * b:(k + 1) * b]
            if len({x // b for x in chunk}) != 1:
                raise ValueError(f"{name} must keep each {'band' if name == 'rows' else 'stack'} together")
    if transposed:
        t = _from_source(box, lambda r, c: (int(columns[c]), int(rows[r])))
    else:
        t = _from_source(box, lambda r, c: (int(rows[r]), int(columns[c])))
    if relabel is None:
        return t
    return Transform(box, t.perm, relabel)


def transpose(box: int) -> Transform:
    return _from_source(box, lambda r, c: (c, r))


def _swap(lines: list[int], i: int, j: int) -> list[int]:
    lines = list(lines)
    lines[i], lines[j] = lines[j], lines[i]
    return lines


def swap_bands(box: int, i: int, j: int) -> Transform:
    """Exchange bands ``i`` and ``j`` (0-based)."""
    b = check_box(box)
    rows = list(range(b * b))
    for k in range(b):
        rows = _swap(rows, i * b + k, j * b + k)
    return from_lines(box, rows, range(b * b))


def swap_stacks(box: int, i: int, j: int) -> Transform:
    """Exchange stacks ``i`` and ``j``."""
    return transpose(box).then(swap_bands(box, i, j)).then(transpose(box))


def swap_rows(box: int, band: int, i: int, j: int) -> Transform:
    """Exchange rows ``i`` and ``j`` of band ``band`` (``i``, ``j`` count from the band's top, 0-based)."""
    b = check_box(box)
    return from_lines(box, _swap(list(range(b * b)), band * b + i, band * b + j), range(b * b))


def swap_columns(box: int, stack: int, i: int, j: int) -> Transform:
    """Exchange columns ``i`` and ``j`` of stack ``stack``."""
    return transpose(box).then(swap_rows(box, stack, i, j)).then(transpose(box))


def relabel(box: int, mapping) -> Transform:
    """Rename digits: ``mapping`` is a sequence of the digits 1..n (digit d becomes ``mapping[d - 1]``)."""
    n = check_box(box) ** 2
    return Transform(box, np.arange(n * n), np.array([0, *mapping]))


def generators(box: int, equivalence: str) -> list[Transform]:
    """A generating set of the group of ``equivalence`` (every member is a product of these).

    ``d4``: rotate90 and flip-columns. ``full``: transpose, swaps of neighbouring bands and stacks, swaps of
    neighbouring rows within each band and columns within each stack, swaps of neighbouring digits. ``none``: [].
    """
    check_equivalence(equivalence)
    b = check_box(box)
    if equivalence == "none":
        return []
    if equivalence == "d4":
        d4 = d4_group(box)
        return [d4[1], d4[5]]
    n = b * b
    gens = [transpose(box)]
    gens += [swap_bands(box, k, k + 1) for k in range(b - 1)]
    gens += [swap_stacks(box, k, k + 1) for k in range(b - 1)]
    gens += [swap_rows(box, band, k, k + 1) for band in range(b) for k in range(b - 1)]
    gens += [swap_columns(box, stack, k, k + 1) for stack in range(b) for k in range(b - 1)]
    gens += [relabel(box, _swap(list(range(1, n + 1)), d, d + 1)) for d in range(n - 1)]
    return gens


def group_size(box: int, equivalence: str) -> int:
    """How many transformations the group of ``equivalence`` has."""
    check_equivalence(equivalence)
    b = check_box(box)
    if equivalence == "none":
        return 1
    if equivalence == "d4":
        return 8
    return 2 * math.factorial(b) ** (2 * b + 2) * math.factorial(b * b)


def random_transform(rng: np.random.Generator, box: int, equivalence: str) -> Transform:
    """A uniformly random member of the group of ``equivalence`` (for tests and benchmarks)."""
    check_equivalence(equivalence)
    b = check_box(box)
    if equivalence == "none":
        return identity(box)
    if equivalence == "d4":
        return d4_group(box)[int(rng.integers(8))]
    n = b * b

    def lines() -> list[int]:
        out: list[int] = []
        for group in rng.permutation(b):
            out += [int(group) * b + int(k) for k in rng.permutation(b)]
        return out

    return from_lines(box, lines(), lines(), transposed=bool(rng.integers(2)),
                      relabel=np.concatenate([[0], rng.permutation(n) + 1]))


def all_line_orders(box: int):
    """Every order of the rows that keeps bands together (``(b!)^(b+1)`` of them); for tests on small boxes."""
    b = check_box(box)
    inner = list(itertools.permutations(range(b)))
    for bands in itertools.permutations(range(b)):
        for within in itertools.product(inner, repeat=b):
            yield [bands[k] * b + within[k][j] for k in range(b) for j in range(b)]
