"""The twin of ``catalogue stats``'s SQL aggregates: the same figures from plain lists of rows, in Python.

``summarise`` is the report's old median code (columns read into Python and sorted), kept here as the reference
the SQL (index walks, ``ORDER BY ... LIMIT 1 or 2 OFFSET``) must agree with exactly.
"""
from __future__ import annotations

from collections import Counter
from typing import Any


def summarise(values) -> dict[str, Any]:
    """min / median / max of the values that are not None; the median of an even count is the mean of the two
    middle values (a whole number stays whole when that mean is one)."""
    ordered = sorted(v for v in values if v is not None)
    if not ordered:
        return {"min": None, "median": None, "max": None}
    middle = ordered[(len(ordered) - 1) // 2: len(ordered) // 2 + 1]
    median = middle[0] if len(middle) == 1 else (middle[0] + middle[1]) / 2
    if isinstance(median, float) and median.is_integer() and all(isinstance(v, int) for v in middle):
        median = int(median)
    return {"min": ordered[0], "median": median, "max": ordered[-1]}


def by_shape_and_clues(boards: list[dict], puzzles: list[dict]) -> tuple[list[dict], list[dict]]:
    """Per (size, shape name, equivalence): boards, puzzles, puzzles with ``minimal`` False and with it None; and
    the clue histogram per shape; both sorted, as ``stats`` gives them. A row without a shape has square boxes."""
    square = {4: "2x2", 9: "3x3", 16: "4x4", 25: "5x5"}
    group = {b["number"]: (b["size"], b.get("shape", square.get(b["size"])).partition(":")[0], b["equivalence"])
             for b in boards}
    out = {}
    for key in sorted(set(group.values())):
        mine = [p for p in puzzles if group[p["board_number"]] == key]
        out[key] = {"size": key[0], "shape": key[1], "equivalence": key[2],
                    "boards": sum(1 for g in group.values() if g == key), "puzzles": len(mine),
                    "not_proven_minimal": sum(1 for p in mine if p["minimal"] is False),
                    "minimal_unknown": sum(1 for p in mine if p["minimal"] is None)}
    clues = Counter((*group[p["board_number"]][:2], p["clues"]) for p in puzzles)
    return list(out.values()), [{"size": s, "shape": name, "clues": c, "puzzles": n}
                                for (s, name, c), n in sorted(clues.items())]
