"""Boards from seed 003's construction: one random box shifted into all the others.

The construction: fill the top-left (seed) box with the digits in a random order; the box in band B and stack S
is the seed box with its rows turned by S and its columns turned by B::

    cell(B*b + i, S*b + j) = seed[(i + S) mod b][(j + B) mod b]

Seed 003 hard-codes this for b = 3 as 81 assignments ("permutate the seed into the 8 other cells"); the formula
is the same table for every size. Rows: row (B, i) holds seed rows i, i+1, ..., i+b-1 (one per stack), so every
digit. Columns: column (S, j) holds seed column (j + B) of row (i + S) for all i and B, every seed cell once.
Boxes: each box is the seed box permuted. So it is a board for every b, with no search and no failure.

Randomly relabelling the digits adds nothing: a random seed box already IS a random relabelling of the
identity construction (1..n in reading order), so the two are the same distribution.

What it reaches, exactly (counted by enumeration, the 4x4 figures checked in tests/test_generators.py):

============  ======================  =================  ===================================
              boards reached          d4 classes         full classes (relabel, permute, d4)
============  ======================  =================  ===================================
4x4           24 (of 288)             6                  1 (of 2)
9x9           362,880 = 9!            90,720             1 (of 5,472,730,538)
n x n         n!                      (not counted)      1
============  ======================  =================  ===================================

So of the 6.67e21 9x9 boards it reaches 5.4e-17 of them, and every one of them is the same board up to
relabelling: all lie in one class of the full Sudoku equivalence. Half the d4 symmetries (transpose, the other
diagonal, 180 degrees) map pattern boards to pattern boards, which is why the d4 classes are n!/4, not n!/8
(on 4x4 and 9x9, where we counted).
Its boards have a telltale structure: in every band the b boxes use the same b sets of mini-row digits, and in
every stack the same sets of mini-column digits; no board without it can come out.

``shuffle=True`` (not the seed's; off by default) then permutes rows within each band, the bands, columns
within each stack and the stacks, uniformly at random. That reaches 96 of the 288 4x4 boards (15 d4 classes)
and 1,881,169,920 9x9 boards (the orbit of a pattern board under relabelling and those permutations: 9! * 1296^2
/ 324, the 324 being the permutations that only relabel it; the set is closed under d4, so about 1/8 as many d4
classes). It is still one full class: these permutations are Sudoku symmetries, so they never leave the class.
"""
from __future__ import annotations

import numpy as np

from ..geometry import check_box, geometry
from . import GeneratedBoard
from ..inputs import check_seed
from ._common import make_boards, run_array, run_seeds, timed
from ._pattern_kernel import pattern_boards

METHOD = "pattern"


def _runner(shuffle: bool):
    def run(box: int, seeds: np.ndarray, boards: np.ndarray, restarts: np.ndarray) -> None:
        pattern_boards(geometry(box).size, box, seeds, bool(shuffle), boards)
    return run


def generate_seeds(box: int, seeds, *, shuffle: bool = False, threads: int = 1):
    """Boards ``(m, ncells) int8`` and restarts ``(m,) int32`` (always 0), one per seed."""
    return run_seeds(_runner(shuffle), check_box(box), seeds, threads)  # square boxes: its pattern is theirs


def generate_array(box: int, count: int, seed: int, *, shuffle: bool = False, threads: int = 1):
    """``(boards (count, ncells) int8, seeds (count,) int64, restarts (count,) int32)`` in one kernel call
    per thread; row k is ``generate(box, seeds[k])``."""
    return run_array(_runner(shuffle), box, count, seed, threads)


def generate_many(box: int, count: int, seed: int, *, shuffle: bool = False, threads: int = 1
                  ) -> list[GeneratedBoard]:
    """``count`` boards; board k is ``generate(box, derive_seeds(seed, count)[k])``."""
    (boards, seeds, restarts), seconds = timed(generate_array, box, count, seed, shuffle=shuffle,
                                               threads=threads)
    return make_boards(METHOD, box, boards, seeds, restarts, seconds)


def generate(box: int, seed: int, *, shuffle: bool = False) -> GeneratedBoard:
    """The pattern board of ``seed`` (0 .. 2**63 - 1); ``shuffle`` adds the band/stack permutations."""
    seed = check_seed(seed)
    (boards, restarts), seconds = timed(generate_seeds, box, np.array([seed], dtype=np.int64), shuffle=shuffle)
    return make_boards(METHOD, box, boards, np.array([seed]), restarts, seconds)[0]
