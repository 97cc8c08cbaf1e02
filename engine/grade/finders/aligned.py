"""Aligned pair and triple exclusion (Sudoku Explainer's AlignedPairExclusion and AlignedExclusion(3)).

Take k base cells and the cells with 2..k candidates that see all of them (the excluders, at least two). A choice
of one digit for each base cell is out when two base cells that see each other get the same digit, or when the
chosen digits cover every candidate of an excluder (it would be left empty). A digit of a base cell that no
remaining choice uses is removed.

As SE: the possible base cells are the cells with two or more candidates, none of whose peers has a single
candidate, with at least one peer of 2..k candidates (its excluders), in cell order. The first two base cells
are walked as pairs in colex order of their positions in that list (0-1, 0-2, 1-2, 0-3, ...); for a triple the
third is one of the excluders of the first, then of the second (in peer order, each once) that is a base cell.
"""
from __future__ import annotations

from itertools import combinations, product

from ...bits import digits_of
from ...vocabulary import RATINGS, step_name
from ..state import State, Step, cell_list, describe_eliminations


def base_cells(state: State, k: int) -> tuple[list[int], dict[int, list[int]]]:
    """SE's possible base cells in cell order, and each one's excluders (its peers with 2..k candidates)."""
    t = state.t
    cands = state.cands
    bases: list[int] = []
    excluders: dict[int, list[int]] = {}
    for c in range(t.ncells):
        if cands[c].bit_count() < 2:
            continue
        sizes = [cands[p].bit_count() for p in sorted(t.peers[c])]
        if 1 in sizes:  # a naked single is left: SE skips the cell
            continue
        ex = [p for p, size in zip(sorted(t.peers[c]), sizes) if 2 <= size <= k]
        if ex:
            bases.append(c)
            excluders[c] = ex
    return bases, excluders


def allowed_digits(state: State, cells, excluders) -> list[int]:
    """For each base cell, the mask of its digits used by some choice that is not out."""
    cands = state.cands
    ex = [cands[e] for e in excluders]
    allowed = [0] * len(cells)
    for choice in product(*(digits_of(cands[c]) for c in cells)):
        if any(choice[i] == choice[j] and state.sees(cells[i], cells[j])
               for i, j in combinations(range(len(cells)), 2)):
            continue
        used = 0
        for d in choice:
            used |= 1 << (d - 1)
        if any(not e & ~used for e in ex):
            continue
        for i, d in enumerate(choice):
            allowed[i] |= 1 << (d - 1)
    return allowed


def find(state: State, name: str, k: int) -> Step | None:
    """The first aligned pair (k = 2) or triple (k = 3) exclusion in SE's search order, or None: a step of the row
    ``name``."""
    title = step_name(name)
    t = state.t
    cands = state.cands
    bases, excluders = base_cells(state, k)
    is_base = set(bases)
    for j in range(1, len(bases)):
        c1 = bases[j]
        for i in range(j):
            c0 = bases[i]
            # the excluders of the pair; those of a triple are among them, so fewer than two ends the search here
            common = [e for e in excluders[c0] if state.sees(e, c1)]
            if len(common) < 2:
                continue
            if k == 2:
                sets = [(c0, c1)]
            else:
                twin = dict.fromkeys(excluders[c0] + excluders[c1])
                sets = [(c0, c1, c2) for c2 in twin if c2 in is_base and c2 != c0 and c2 != c1]
            for cells in sets:
                ex = [e for e in common if all(state.sees(e, c) for c in cells[2:])]
                if len(ex) < 2:
                    continue
                allowed = allowed_digits(state, cells, ex)
                eliminations = tuple((c, d) for c, a in zip(cells, allowed) for d in digits_of(cands[c] & ~a))
                if eliminations:
                    seen = ", ".join(f"{t.cell_name(e)} {{{t.symbols(digits_of(cands[e]))}}}" for e in ex)
                    return Step(name, RATINGS[name],
                                f"{title} {cell_list(t, cells)}: no choice of their digits may take every candidate "
                                f"of {seen} (they see them all), nor repeat a digit in a house: removes "
                                f"{describe_eliminations(t, eliminations)}",
                                eliminations=eliminations, cells=tuple(cells) + tuple(ex))
    return None
