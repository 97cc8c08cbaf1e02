"""The candidates state every technique reads, the :class:`Step` a technique returns, and the words they use.

Candidates are bitmasks: bit ``d - 1`` of ``cands[cell]`` is set while digit ``d`` may still stand in that blank
cell. Plain Python ints in plain lists, not numpy arrays: the techniques touch single cells in tight loops, where
list indexing is several times faster than numpy scalar indexing (numpy pays off only in the compiled fast path,
:mod:`engine.grade.kernels.driver`).

Houses are numbered as in :mod:`engine.geometry`: rows ``0..n-1``, columns ``n..2n-1``, boxes ``2n..3n-1``.
Explanations count rows, columns and boxes from 1 (``r4c7``, ``box 6``), like the CLI.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..bits import digits_of
from ..geometry import geometry
from .kernels.state import grader_units
from ..shape import Shape
from ..vocabulary import SYMBOLS, step_name


#: one state of a chain: (cell, digit, on)
Link = tuple[int, int, bool]


@dataclass(frozen=True)
class Reason:
    """Why a state of a chain holds where the state before it is not enough.

    ``also``: the other states it needs (in a dynamic chain, a digit's last place in a house once the chain removed
    the others). ``inner``: for a state a nested forcing chain concluded, the step of the chain found inside the
    run that concludes it, on the grid the run had left (:mod:`engine.grade.finders.chains.nested`). ``rule``: for a
    state a dynamic chain (+) removed by a pattern, the pattern (:mod:`engine.grade.finders.chains.plus`).
    """

    also: tuple[Link, ...] = ()
    inner: Step | None = None
    rule: str = ""

    def __bool__(self) -> bool:
        return bool(self.also or self.inner is not None or self.rule)

    def as_dict(self) -> dict:
        d: dict = {}
        if self.also:
            d["also"] = [_link_dict(link) for link in self.also]
        if self.rule:
            d["rule"] = self.rule
        if self.inner is not None:
            d["inner"] = self.inner.as_dict()
        return d


def _link_dict(link: Link) -> dict:
    cell, digit, on = link
    return {"cell": cell, "digit": digit, "on": on}


@dataclass(frozen=True)
class Step:
    """One deduction: what a technique found and what it changes.

    ``placements`` and ``eliminations`` are ``(cell, digit)`` pairs; ``cells`` are the cells of the pattern
    (the pivot and pincers of a wing, the base cells of a fish, the links of a chain), ``houses`` the houses
    it reasons about. ``explanation`` is the sentence a person can follow. A chain step also has ``links``: each
    of its chains as ``(cell, digit, on)`` states, from the assumption to the conclusion, and ``reasons``, beside
    each state, what else it rests on (a :class:`Reason`, or None where the state before it is the whole reason).
    """

    technique: str
    rating: float
    explanation: str
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    cells: tuple[int, ...] = ()
    houses: tuple[int, ...] = ()
    links: tuple[tuple[Link, ...], ...] = ()
    reasons: tuple[tuple[Reason | None, ...], ...] = ()
    #: which of its technique's steps this is (engine.vocabulary.STEP_NAMES): a full house, BUG+1, a forcing X-chain
    kind: int = 0

    @property
    def name(self) -> str:
        """The step's own name, as the literature writes it (``forcing X-chain``, ``BUG+1``, ``X-Wing``)."""
        return step_name(self.technique, self.kind)

    def as_dict(self) -> dict:
        d = {"technique": self.technique, "name": self.name, "rating": self.rating, "explanation": self.explanation,
             "placements": [list(p) for p in self.placements],
             "eliminations": [list(e) for e in self.eliminations],
             "cells": list(self.cells), "houses": list(self.houses)}
        if self.links:
            reasons = self.reasons or tuple((None,) * len(chain) for chain in self.links)
            d["links"] = [[{**_link_dict(link), **(reason.as_dict() if reason else {})}
                           for link, reason in zip(chain, why)] for chain, why in zip(self.links, reasons)]
        return d


class Tables:
    """The geometry of one shape as Python lists (built once per box size or Shape by :func:`tables`)."""

    def __init__(self, box: "int | Shape"):
        geo = geometry(box)
        self.box = box
        self.n = n = geo.size
        self.ncells = geo.ncells
        self.all_digits = (1 << n) - 1
        self.houses: list[list[int]] = geo.houses.tolist()
        self.rows = self.houses[:n]
        self.columns = self.houses[n:2 * n]
        #: the regions (boxes or jigsaw regions), as a range of house indexes: empty on a Latin square
        self.has_regions = geo.shape.has_regions
        self.regions = range(2 * n, 3 * n) if self.has_regions else range(0)
        # each cell's peers, once each (the geometry's table pads a shorter row with repeats: on X-Sudoku a cell
        # off the diagonals has fewer)
        self.peers: list[list[int]] = [row[:k] for row, k in zip(geo.peers.tolist(), geo.npeers_of.tolist())]
        self.peer_sets: list[frozenset[int]] = [frozenset(p) for p in self.peers]
        #: each cell's row, column and region (the row again on a Latin square: kernels.state.grader_units)
        self.cell_houses: list[tuple[int, int, int]] = [tuple(h) for h in grader_units(geo).tolist()]
        self.row_of: list[int] = geo.row_of.tolist()
        self.col_of: list[int] = geo.col_of.tolist()
        self.box_of: list[int] = geo.box_of.tolist()
        #: ``row 4``, ``column 2``, ``box 7`` (``region 7`` on a jigsaw), by house
        self.house_names: list[str] = [geo.unit_name(h) for h in range(geo.nhouses)]

    def cell_name(self, cell: int) -> str:
        return f"r{self.row_of[cell] + 1}c{self.col_of[cell] + 1}"

    def symbol(self, digit: int) -> str:
        """How a digit is written in a sentence: as the grid writes it (``C`` for 12 on 16x16, as the line format
        and the page show it; 1-9 alike on every size)."""
        return SYMBOLS[int(digit)]

    def symbols(self, digits) -> str:
        """``1,5,C``: digits as the grid writes them, in the order given."""
        return ",".join(self.symbol(d) for d in digits)

    def house_name(self, house: int) -> str:
        return self.house_names[house]

    def common_houses(self, cells) -> list[int]:
        """The houses holding every one of ``cells`` (row, then column, then box order)."""
        first = self.cell_houses[cells[0]]
        return list(dict.fromkeys(h for k, h in enumerate(first) if all(self.cell_houses[c][k] == h for c in cells)))


@lru_cache(maxsize=None)
def tables(box: "int | Shape") -> Tables:
    return Tables(box)


def cell_list(t: Tables, cells) -> str:
    return ", ".join(t.cell_name(c) for c in cells)


def describe_eliminations(t: Tables, eliminations) -> str:
    """``"7 from r5c3, r6c5"``; several digits: ``"3 from r1c8; 7 from r1c4, r1c9"``."""
    by_digit: dict[int, list[int]] = {}
    for cell, digit in sorted(eliminations, key=lambda e: (e[1], e[0])):
        by_digit.setdefault(digit, []).append(cell)
    return "; ".join(f"{t.symbol(d)} from {cell_list(t, cells)}" for d, cells in by_digit.items())


class Contradiction(ValueError):
    """The clues leave some cell or house impossible: the puzzle has no solution."""


class State:
    """A puzzle being solved: ``cells`` (0 = blank) and ``cands`` (bitmask per cell, 0 for a filled cell)."""

    __slots__ = ("t", "cells", "cands")

    def __init__(self, t: Tables, cells: list[int], cands: list[int]):
        self.t = t
        self.cells = cells
        self.cands = cands

    @classmethod
    def from_puzzle(cls, cells, box: int) -> "State":
        """The state of a puzzle before any deduction; raises :class:`Contradiction` when clues conflict."""
        t = tables(box)
        values = [int(v) for v in np.asarray(cells).reshape(-1)]
        if len(values) != t.ncells:
            raise ValueError(f"a {t.n}x{t.n} puzzle has {t.ncells} cells, got {len(values)}")
        state = cls(t, [0] * t.ncells, [t.all_digits] * t.ncells)
        for cell, digit in enumerate(values):
            if not 0 <= digit <= t.n:
                raise ValueError(f"{t.cell_name(cell)}: {digit} is not a digit of a {t.n}x{t.n} grid")
            if digit:
                if not state.cands[cell] >> (digit - 1) & 1:
                    clash = next(p for p in t.peers[cell] if state.cells[p] == digit)
                    raise Contradiction(f"clues conflict: {t.cell_name(clash)} and {t.cell_name(cell)} "
                                        f"both hold {digit}")
                state.place(cell, digit)
        return state

    def to_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """``cells`` and ``cands`` as the int64 arrays the compiled kernels work on."""
        return np.array(self.cells, dtype=np.int64), np.array(self.cands, dtype=np.int64)

    def copy(self) -> "State":
        return State(self.t, self.cells[:], self.cands[:])

    # -- changes -----------------------------------------------------------------------------------------------
    def place(self, cell: int, digit: int) -> None:
        """Write ``digit`` and remove it from the candidates of every peer."""
        self.cells[cell] = digit
        self.cands[cell] = 0
        clear = ~(1 << (digit - 1))
        cands = self.cands
        for p in self.t.peers[cell]:
            cands[p] &= clear

    def apply(self, step: Step) -> None:
        for cell, digit in step.placements:
            self.place(cell, digit)
        for cell, digit in step.eliminations:
            self.cands[cell] &= ~(1 << (digit - 1))

    # -- questions ---------------------------------------------------------------------------------------------
    def has(self, cell: int, digit: int) -> bool:
        return bool(self.cands[cell] >> (digit - 1) & 1)

    def sees(self, a: int, b: int) -> bool:
        return b in self.t.peer_sets[a]

    def contradiction(self) -> str | None:
        """Why no solution is left (a blank cell without candidates, a digit without a place), or None."""
        t = self.t
        for cell in range(t.ncells):
            if self.cells[cell] == 0 and self.cands[cell] == 0:
                return f"{t.cell_name(cell)} has no candidate left"
        for h, house in enumerate(t.houses):
            covered = 0
            for c in house:
                covered |= self.cands[c] | (1 << (self.cells[c] - 1) if self.cells[c] else 0)
            if covered != t.all_digits:
                missing = digits_of(t.all_digits & ~covered)[0]
                return f"{t.symbol(missing)} has no place left in {t.house_name(h)}"
        return None
