"""Wings: XY-Wing and XYZ-Wing, a pivot cell that sees two bivalue pincers {x,z} and {y,z}.

- XY-Wing: a pivot {x,y}. Whichever digit the pivot takes, one pincer becomes z, so z leaves every cell that sees
  both pincers.
- XYZ-Wing: a pivot {x,y,z}. One of the three cells holds z, so z leaves every cell that sees all three.

Search order, both: pivots in reading order, then pincer pairs among the pivot's peers in reading order.
``xyz`` (the rows' argument: engine.grade.kernels.families.XY 0, XYZ 1) says which, as it does for the kernel;
``name`` is the row's name, which the step carries (its explanation says the row's step name).
"""
from __future__ import annotations

from ...bits import digits_of, lowest_digit
from ...vocabulary import RATINGS, step_name
from ..state import State, Step, describe_eliminations


def _show(state: State, cell: int) -> str:
    return f"{state.t.cell_name(cell)} ({state.t.symbols(digits_of(state.cands[cell]))})"


def find_xy_wing(state: State, name: str) -> Step | None:
    t = state.t
    cands = state.cands
    for pivot in range(t.ncells):
        xy = cands[pivot]
        if xy.bit_count() != 2:
            continue
        # bivalue peers sharing exactly one digit with the pivot
        wings = [p for p in t.peers[pivot] if cands[p].bit_count() == 2 and (cands[p] & xy).bit_count() == 1]
        for i, p1 in enumerate(wings):
            for p2 in wings[i + 1:]:
                if cands[p1] & xy == cands[p2] & xy:
                    continue
                z = cands[p1] & ~xy
                if z != cands[p2] & ~xy:
                    continue
                seen = t.peer_sets[p2]
                eliminations = tuple((c, lowest_digit(z)) for c in t.peers[p1] if cands[c] & z and c in seen)
                if eliminations:
                    return Step(name, RATINGS[name],
                                f"{step_name(name)} pivot {_show(state, pivot)}, pincers {_show(state, p1)}, "
                                f"{_show(state, p2)}: removes {describe_eliminations(t, eliminations)}",
                                eliminations=eliminations, cells=(pivot, p1, p2))
    return None


def find_xyz_wing(state: State, name: str) -> Step | None:
    t = state.t
    cands = state.cands
    for pivot in range(t.ncells):
        xyz = cands[pivot]
        if xyz.bit_count() != 3:
            continue
        wings = [p for p in t.peers[pivot] if cands[p].bit_count() == 2 and cands[p] & ~xyz == 0]
        for i, p1 in enumerate(wings):
            for p2 in wings[i + 1:]:
                if cands[p1] == cands[p2]:
                    continue
                z = cands[p1] & cands[p2]
                seen2, seen_pivot = t.peer_sets[p2], t.peer_sets[pivot]
                eliminations = tuple((c, lowest_digit(z)) for c in t.peers[p1]
                                     if cands[c] & z and c in seen2 and c in seen_pivot)
                if eliminations:
                    return Step(name, RATINGS[name],
                                f"{step_name(name)} pivot {_show(state, pivot)}, pincers {_show(state, p1)}, "
                                f"{_show(state, p2)}: removes {describe_eliminations(t, eliminations)}",
                                eliminations=eliminations, cells=(pivot, p1, p2))
    return None


def find_wing(state: State, name: str, xyz: bool) -> Step | None:
    """The first XY-Wing step (``xyz`` false) or XYZ-Wing step in search order, or None."""
    return find_xyz_wing(state, name) if xyz else find_xy_wing(state, name)
