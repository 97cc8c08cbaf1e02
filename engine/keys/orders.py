"""The orders of a grid's lines that keep its blocks together: the rows' or the columns' half of a box shape's
moves, listed (engine.keys.shape_group)."""
from __future__ import annotations

from itertools import permutations, product


def line_orders(size: int, block: int) -> list[tuple[int, ...]]:
    """Every order of ``size`` lines that keeps blocks of ``block`` consecutive lines together: blocks permuted,
    lines permuted within each block."""
    groups = [list(range(g * block, (g + 1) * block)) for g in range(size // block)]
    out = []
    for gorder in permutations(range(len(groups))):
        for inner in product(*(list(permutations(groups[g])) for g in gorder)):
            out.append(tuple(x for part in inner for x in part))
    return out
