"""A shape: which cells must hold every digit once. Plain data, no tables (those are :mod:`engine.geometry`'s).

Every shape is an n x n grid of cells whose rows and columns hold 1..n once each (a Latin square); a shape adds
*regions* - n sets of n cells that must hold 1..n once each too - and, when asked, the two *diagonals*:

=========  ===================================================  ==========================================
kind       regions                                              spelled (``Shape.parse``, ``--shape``)
=========  ===================================================  ==========================================
boxes      rectangles of r rows by c columns, n = r * c          ``3x3`` (9x9 Sudoku), ``2x3`` (6x6), ``3x4``
latin      none: rows and columns only                           ``latin`` with a size (``latin 5``)
jigsaw     n connected regions of n cells, given as a layout     ``jigsaw`` with a layout (engine.regions)
=========  ===================================================  ==========================================

``2x3`` means boxes two rows high and three columns wide (so a 6x6 grid has three bands of two boxes); ``3x2`` is
the other orientation, a different shape. Today's square boxes are the case r = c: ``Shape.square(3)`` is 9x9.
The two diagonals (X-Sudoku) are units on any kind: ``Shape.boxes(3, 3, diagonals=True)``.

A Shape is a hashable value (a dict key, a cache key, a database string via :attr:`Shape.name`); everything
computed from it - units, peers, symmetries - lives in :func:`engine.geometry.geometry`, built once per shape.
"""
from __future__ import annotations

from dataclasses import dataclass

from .vocabulary import MAX_SHAPE_SIZE, MIN_SHAPE_SIZE

#: the region letters of a jigsaw layout, one per region, in the order regions are first met in reading order
REGION_SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXY"


@dataclass(frozen=True)
class Shape:
    """The rules of a grid: its side ``size`` (n), its regions, and whether the diagonals are units.

    Build one with :meth:`square`, :meth:`boxes`, :meth:`latin`, :meth:`jigsaw` or :meth:`parse`; the
    constructor checks that the fields make a shape.
    """

    size: int
    box_rows: int = 0  # r: rows of a box; 0 when the shape has no boxes
    box_cols: int = 0  # c: columns of a box
    diagonals: bool = False
    #: jigsaw only: the region (0..n-1) of every cell in reading order, regions numbered in order of first cell
    regions: tuple[int, ...] | None = None

    def __post_init__(self):
        n = self.size
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"a shape's size must be an integer, got {n!r}")
        least = MIN_SHAPE_SIZE[self.kind]
        if not least <= n <= MAX_SHAPE_SIZE:
            raise ValueError(f"a {self.kind} shape has a side from {least} to {MAX_SHAPE_SIZE}, got {n}")
        if self.kind == "boxes":
            if self.box_rows < 2 or self.box_cols < 2 or self.box_rows * self.box_cols != n:
                raise ValueError(f"boxes of {self.box_rows}x{self.box_cols} do not tile a {n}x{n} grid "
                                 "(rows and columns of a box are 2 or more, their product the side)")
        elif self.box_rows or self.box_cols:
            raise ValueError("a shape has boxes or a region layout, not both")
        if self.regions is not None:
            _check_layout(self.regions, n)
        if self.diagonals and n < 4:
            raise ValueError(f"no {n}x{n} grid has both diagonals holding every digit (the side must be 4 or more)")

    # -- constructors --------------------------------------------------------------------------------------------
    @classmethod
    def square(cls, box: int, diagonals: bool = False) -> "Shape":
        """Boxes of ``box`` x ``box``: the classic shapes (2 -> 4x4, 3 -> 9x9, 4 -> 16x16, 5 -> 25x25)."""
        return cls(box * box, box, box, diagonals)

    @classmethod
    def boxes(cls, rows: int, cols: int, diagonals: bool = False) -> "Shape":
        """Boxes ``rows`` high and ``cols`` wide (``boxes(2, 3)``: the 6x6 grid of children's books)."""
        return cls(rows * cols, rows, cols, diagonals)

    @classmethod
    def latin(cls, size: int, diagonals: bool = False) -> "Shape":
        """No regions: a Latin square of side ``size`` (with ``diagonals``, a diagonal Latin square)."""
        return cls(size, diagonals=diagonals)

    @classmethod
    def jigsaw(cls, layout, diagonals: bool = False) -> "Shape":
        """Irregular regions: ``layout`` gives each cell's region (n*n labels, any hashable values, or a string of
        n*n letters); regions are renumbered in order of their first cell so equal layouts make equal shapes."""
        cells = list(layout)
        n = round(len(cells) ** 0.5)
        if n * n != len(cells):
            raise ValueError(f"a region layout has n*n cells for a side n, got {len(cells)}")
        number: dict = {}
        regions = tuple(number.setdefault(label, len(number)) for label in cells)
        return cls(n, diagonals=diagonals, regions=regions)

    @classmethod
    def parse(cls, spec: str, size: int | None = None, diagonals: bool = False, layout=None) -> "Shape":
        """A shape from the CLI's words: ``RxC`` (boxes), ``latin`` with ``size``, ``jigsaw`` with ``layout``; a
        name as :attr:`name` writes it (``2x3``, ``latin5``, ``3x3+x``), and a :attr:`spec` (a jigsaw's with its
        layout after a colon), are read back too."""
        text, _, written = spec.strip().partition(":")  # a spec's layout follows a colon (:attr:`spec`)
        text = text.lower()
        if written:
            if layout is not None:
                raise ValueError(f"shape {spec!r}: a layout is given twice")
            layout = written.strip()
        if text.endswith("+x"):
            text, diagonals = text[:-2], True
        if text.startswith("latin"):
            tail = text[5:]
            if tail:
                if not tail.isdigit() or (size is not None and int(tail) != size):
                    raise ValueError(f"shape {spec!r}: write latin with a size, as latin5 or --size 5")
                size = int(tail)
            if size is None:
                raise ValueError("shape latin needs a size (--size N)")
            return cls.latin(size, diagonals)
        if text.startswith("jigsaw"):
            if layout is None:
                raise ValueError("shape jigsaw needs a region layout (--regions random|FILE)")
            shape = cls.jigsaw(layout, diagonals)
            tail = text[6:]
            if tail and tail != str(shape.size):
                raise ValueError(f"shape {spec!r} does not match a layout of side {shape.size}")
            return shape
        rows, sep, cols = text.partition("x")
        if not sep or not rows.isdigit() or not cols.isdigit():
            raise ValueError(f"unknown shape {spec!r}; write RxC for boxes of R rows by C columns (3x3 is 9x9, "
                             "2x3 is 6x6), latin, or jigsaw")
        shape = cls.boxes(int(rows), int(cols), diagonals)
        if size is not None and size != shape.size:
            raise ValueError(f"shape {spec} is {shape.size}x{shape.size}, not {size}x{size}")
        return shape

    # -- what it is ----------------------------------------------------------------------------------------------
    @property
    def kind(self) -> str:
        """``boxes``, ``latin`` or ``jigsaw``."""
        if self.regions is not None:
            return "jigsaw"
        return "boxes" if self.box_rows or self.box_cols else "latin"

    @property
    def ncells(self) -> int:
        return self.size * self.size

    @property
    def square_box(self) -> int:
        """b for boxes of b x b without diagonals (today's shapes, their own fast kernels); 0 for any other."""
        return self.box_rows if self.kind == "boxes" and self.box_rows == self.box_cols and not self.diagonals else 0

    @property
    def has_regions(self) -> bool:
        return self.kind != "latin"

    @property
    def name(self) -> str:
        """The shape in one short word: ``3x3``, ``2x3+x`` (with diagonals), ``latin5``, ``jigsaw9``. A jigsaw's
        layout is not in its name (see :attr:`layout`)."""
        base = {"boxes": f"{self.box_rows}x{self.box_cols}", "latin": f"latin{self.size}",
                "jigsaw": f"jigsaw{self.size}"}[self.kind]
        return base + ("+x" if self.diagonals else "")

    @property
    def spec(self) -> str:
        """The shape in one word that :meth:`parse` reads back whole: the :attr:`name`, and for a jigsaw a colon
        and its :attr:`layout` (``jigsaw4:AABBAABBCCDDCCDD``). What the text formats' ``# shape`` line holds."""
        return self.name + (f":{self.layout}" if self.regions is not None else "")

    @property
    def layout(self) -> str | None:
        """A jigsaw's regions as n*n letters (``A`` for the region of the first cell, then ``B``...); None else."""
        return None if self.regions is None else "".join(REGION_SYMBOLS[r] for r in self.regions)

    def describe(self) -> str:
        """``9x9 with boxes of 3x3`` style words for messages (an error names the shape it expected)."""
        n = self.size
        what = {"boxes": f"boxes of {self.box_rows}x{self.box_cols}", "latin": "no regions (Latin square)",
                "jigsaw": "jigsaw regions"}[self.kind]
        return f"{n}x{n} with {what}" + (" and both diagonals" if self.diagonals else "")

    def __str__(self) -> str:
        return self.name


def _check_layout(regions: tuple[int, ...], n: int) -> None:
    """n regions of n cells each, every region connected (side by side, not corner to corner)."""
    if len(regions) != n * n:
        raise ValueError(f"a {n}x{n} region layout has {n * n} cells, got {len(regions)}")
    members: dict[int, list[int]] = {}
    for cell, r in enumerate(regions):
        members.setdefault(r, []).append(cell)
    if sorted(members) != list(range(n)):
        raise ValueError(f"a {n}x{n} grid has {n} regions, the layout has {len(members)}")
    for r, cells in members.items():
        label = REGION_SYMBOLS[r]
        if len(cells) != n:
            raise ValueError(f"region {label} has {len(cells)} cells; each of the {n} regions needs {n}")
        if not connected(cells, n):
            raise ValueError(f"region {label} is in pieces; a region's cells must join side by side")


def connected(cells, n: int) -> bool:
    """Whether ``cells`` of an n x n grid form one piece through shared sides."""
    cells = set(cells)
    if not cells:
        return True
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        c = todo.pop()
        r, k = divmod(c, n)
        for rr, kk in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1)):
            d = rr * n + kk
            if 0 <= rr < n and 0 <= kk < n and d in cells and d not in seen:
                seen.add(d)
                todo.append(d)
    return len(seen) == len(cells)
