"""Locked candidates, plain and direct: a digit whose places in one house all lie in one other house (pointing and
claiming; direct pointing and direct claiming).

Then that digit's copy in the first house (the base) stands where the two meet, so no cell of the second house (the
cover) outside the base can hold it. One search, two techniques that rate and count apart:

- pointing: the base is a box and the cover a row or column (a digit confined to one line inside a box);
- claiming (box-line reduction): the base is a row or column and the cover a box.

The search order is Sudoku Explainer's (its ``Locking``), since the order decides which state the next steps see:
pointing along columns, then along rows; claiming from columns, then from rows; in each, digits ascending, then
the bases by index.

Direct pointing and direct claiming (Sudoku Explainer's ``Locking(true)``, one of its direct techniques: an easy
elimination that at once leaves a hidden single, placed in the same step) rate below the plain ones because only
the single has to be seen, not the elimination kept: the step places the single and makes none of the pattern's
eliminations (Sudoku Explainer's direct hints carry no removable candidates), so the same pattern may give
another single later, and a plain pointing is still needed, at its own rating, to remove those candidates. A
digit's places in a house (the base) all lie in a second house (the cover); removing the digit from the rest of
the cover leaves it one place in another house of the base's kind that crosses the cover. Search order as SE:
box -> column, box -> row (pointing); column -> box, row -> box (claiming); in each, digits ascending, then the
base, then the other house, by index.

``claiming`` (the rows' argument: engine.grade.kernels.families.POINTING 0, CLAIMING 1) says which side the base
is on, for both; ``name`` is the row's name, which the step carries (its explanation says the row's step name).
"""
from __future__ import annotations

from ...vocabulary import RATINGS, step_name
from ..state import State, Step, cell_list, describe_eliminations

ROW, COLUMN, BOX, DIAGONAL1, DIAGONAL2 = 0, 1, 2, 3, 4  # house kinds: slots of ``cell_houses[cell]``
#: claiming? -> the (base kind, cover kind) pairs in Sudoku Explainer's order (the direct ones' too); on a shape
#: with diagonals, box and diagonal pairs follow (:data:`DIAGONAL_ORDER`)
ORDER = {False: ((BOX, COLUMN), (BOX, ROW)), True: ((COLUMN, BOX), (ROW, BOX))}
DIAGONAL_ORDER = {False: ((BOX, DIAGONAL1), (BOX, DIAGONAL2)), True: ((DIAGONAL1, BOX), (DIAGONAL2, BOX))}


def _pairs(t, claiming: bool, direct: bool = False) -> tuple:
    """The (base kind, cover kind) pairs to look at: SE's, then the diagonals' where the shape has them (not for
    direct claiming: no other diagonal of a base's kind could be left a single)."""
    if len(t.cell_houses[0]) == 3 or (direct and claiming):
        return ORDER[claiming]
    return ORDER[claiming] + DIAGONAL_ORDER[claiming]


def _bases(t, kind: int) -> range:
    """The houses of ``kind``: n rows, columns or regions, or one diagonal (they follow the regions)."""
    n = t.n
    return range(kind * n, (kind + 1) * n) if kind < DIAGONAL1 else range(3 * n + kind - DIAGONAL1,
                                                                           3 * n + kind - DIAGONAL1 + 1)


def _cover(t, where: list[int], kind2: int) -> int:
    """The house of ``kind2`` holding every cell of ``where``, or -1 (a diagonal slot off the diagonal repeats the
    row, which is no diagonal)."""
    cover = t.cell_houses[where[0]][kind2]
    if any(t.cell_houses[c][kind2] != cover for c in where) or (kind2 >= DIAGONAL1 and cover < 3 * t.n):
        return -1
    return cover


def find_locked_candidates(state: State, name: str, claiming: bool) -> Step | None:
    """The first pointing step (``claiming`` False) or claiming step (True) in search order, or None."""
    t = state.t
    if not t.has_regions:  # a Latin square: two lines meet in one cell
        return None
    cands = state.cands
    n = t.n
    title = step_name(name)
    for kind1, kind2 in _pairs(t, claiming):
        for digit in range(1, n + 1):
            bit = 1 << (digit - 1)
            for base in _bases(t, kind1):
                where = [c for c in t.houses[base] if cands[c] & bit]
                if len(where) < 2:
                    continue
                cover = _cover(t, where, kind2)
                if cover < 0:
                    continue
                inside = set(t.houses[base])
                eliminations = tuple((c, digit) for c in t.houses[cover] if cands[c] & bit and c not in inside)
                if eliminations:
                    return Step(name, RATINGS[name],
                                f"{title} {t.symbol(digit)} in {t.house_name(base)} ({cell_list(t, where)}) "
                                f"{'inside' if claiming else 'along'} {t.house_name(cover)}: "
                                f"removes {describe_eliminations(t, eliminations)}",
                                eliminations=eliminations, cells=tuple(where), houses=(base, cover))
    return None


def find_direct_locking(state: State, name: str, claiming: bool) -> Step | None:
    """The first direct pointing (``claiming`` False) or direct claiming step in SE's search order, or None."""
    t = state.t
    if not t.has_regions:
        return None
    cands = state.cands
    n = t.n
    title = step_name(name)
    for kind1, kind2 in _pairs(t, claiming, direct=True):
        for digit in range(1, n + 1):
            bit = 1 << (digit - 1)
            for base in _bases(t, kind1):
                where = [c for c in t.houses[base] if cands[c] & bit]
                if len(where) < 2:
                    continue
                cover = _cover(t, where, kind2)
                if cover < 0:
                    continue
                for other in _bases(t, kind1):
                    if other == base:
                        continue
                    places = [c for c in t.houses[other] if cands[c] & bit]
                    rest = [c for c in places if t.cell_houses[c][kind2] != cover]
                    if len(places) < 2 or len(rest) != 1:  # (a house not crossing the cover keeps all its places)
                        continue
                    single = rest[0]
                    return Step(name, RATINGS[name],
                                f"{title} {t.symbol(digit)} in {t.house_name(base)} ({cell_list(t, where)}) "
                                f"{'inside' if claiming else 'along'} {t.house_name(cover)} leaves "
                                f"{t.cell_name(single)} as the only place for {t.symbol(digit)} in {t.house_name(other)}: "
                                f"places {t.symbol(digit)} in {t.cell_name(single)}",
                                placements=((single, digit),), cells=tuple(where),
                                houses=(base, cover, other))
    return None
