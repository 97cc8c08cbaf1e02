"""Main-class keys of Latin squares: the same square up to row, column and symbol permutations and conjugates.

A Latin square is a set of n*n triples (row, column, symbol). Permuting the rows, the columns and the symbols
(an *isotopy*) and permuting the three roles of a triple (a *conjugate*: the transpose swaps row and column; the
others put the symbol in a line's place) keep it a Latin square; the squares reached so form its *main class*.
Main classes number 1, 1, 2, 2, 12, 147 for n = 1..6 (McKay, Meynert and Myrvold, "Small Latin squares,
quasigroups and loops", J. Combin. Des. 15, 2007), which the tests hold this to for n = 4, 5, 6.

**The key.** Among the six conjugates, every choice of which row comes first (r0) and of the column order q fixes
the rest: the symbols are renamed so the first row reads 1..n (the symbol in column q[j] of r0 becomes j + 1),
then the rows are ordered so the first column reads 1..n (a *reduced* square). The key is the smallest reduced
square so reached, in reading order: 6 n n! candidates, which the search below does not list.

**Why the search is exact.** Rows 0 and column 0 of every candidate read 1..n, so row 1 decides first. Image row
1 is the source row r1 whose symbol in column q[0] is the one in column q[1] of r0. Let pi be the permutation of
the columns with pi(c) = the column of r0 holding r1's symbol of column c (a derangement: r0 and r1 differ in every
column). Cell j of image row 1 is the renamed symbol of r1 in column q[j], one more than the image column of
pi(q[j]): row 1 reads sigma + 1 with sigma = q^-1 pi q, a conjugate of pi, so of pi's cycle type. Conversely, for
given r0 and r1, every q with sigma(0) = 1 makes r1 image row 1.

1. *The smallest permutation of a cycle type* (no fixed points) is C, its cycles laid out one after another in
   ascending order of length, each as p -> p+1 -> .. -> p+L-1 -> p (type 2,3: ``1 0 3 4 2``). Proof: let s agree
   with C before position j; C's cycles cover 0..p-1 whole and p..j-1 is an open run p -> .. -> j, so the values
   used are 0..p-1 and p+1..j. If j = p, s(p) is not p (no fixed point), so s(p) >= p + 1 = C(p). If j > p, s(j)
   is p (closing a cycle of length j-p+1) or at least j+1; the lengths left in the type are those of C's later
   cycles, all at least the length l of C's cycle at p, so s may close only when j-p+1 = l, which is where C
   closes. Either way s(j) >= C(j): s >= C.
2. *Cycle types compare as their ascending length lists*: where two lists first differ (a < b, from position p),
   C of the first closes at p + a - 1 with value p where the other reads p + a. So only the (conjugate, r0, r1)
   whose pi has the smallest type can give the smallest row 1, and they all give the same row 1, C + 1.
3. *The column orders that give C*: q^-1 pi q = C exactly when pi q = q C, i.e. q maps each slot of C (p .. p+L-1)
   onto a cycle of pi of the same length, q(p + u) = pi^u(q(p)): for each slot, which of pi's cycles of its length
   (a bijection) and which of its columns goes first. These are the only candidates left; they differ from row 2
   on, and each is compared with the best so far.
4. *Pruning* (engine/keys/_latin.py): the slots are chosen one after another, depth first; with the first slots
   chosen, q is known on a prefix of the columns and the rows 2.. are compared cell by cell while they are known.
   A cell whose renamed symbol's column is not placed yet can be no smaller than one more than the first open
   slot of that column's cycle length, so a partial order is dropped only when every order completing it reads
   larger than the best: the search is exact.

A square with a huge symmetry group keeps many equal candidates: the Cayley table of Z_2^4 (n = 16) has every pi
eight 2-cycles, 8! 2^8 orders for each of its 1,440 pairs and some 31 million equal to the best. The search
gives up after :data:`MAX_NODES` partial orders and raises :class:`~engine.keys.errors.KeySearchError` naming the
shape. Plain twin: the enumeration of all 6 n n! candidates (tests/naive/key_enumerations.py). Cost:
bench/bench_shape_keys.py.
"""
from __future__ import annotations

from itertools import permutations

import numpy as np

from ._latin import main_class_keys
from .errors import KeySearchError, raise_for

#: the six orders of a triple's roles (row, column, symbol): where each role of the conjugate comes from
CONJUGATES = np.array(list(permutations(range(3))), dtype=np.int64)
CONJUGATES.flags.writeable = False

#: the most partial column orders the search of one square may visit (about a second's work); random squares
#: take a few hundred, only squares with a huge symmetry group come near it
MAX_NODES = 2_000_000


def latin_keys(squares: np.ndarray, name: str | None = None) -> np.ndarray:
    """The main-class keys (m, n*n) int8 of the Latin squares ``squares`` (m, n*n, values 1..n).

    :class:`~engine.keys.errors.KeySearchError` on a grid with blanks (puzzles have no main-class key here), on one
    that is not a Latin square, or on one whose search visits more than :data:`MAX_NODES` partial orders.
    ``name``: the shape's, for the messages."""
    squares = np.ascontiguousarray(squares, dtype=np.int8)
    m, ncells = squares.shape
    n = round(ncells ** 0.5)
    name = name or f"latin{n}"
    blank = np.flatnonzero((squares == 0).any(axis=1))
    if blank.size:
        raise KeySearchError(f"grid {blank[0] + 1} of {m} has no full key on shape {name}: it has blanks, and the "
                             "main-class keys are for complete squares")
    out = np.zeros_like(squares)
    status = np.empty(m, dtype=np.int32)
    main_class_keys(squares, n, CONJUGATES, out, status, MAX_NODES)
    raise_for(status, f" on shape {name}", "it has a conflict (a symbol twice in a row or column)",
              f"its search would try more than {MAX_NODES:,} column orders (too symmetric); use d4 or none")
    return out


def main_class_key(square) -> np.ndarray:
    """The main-class key of one Latin square (flat or n x n, values 1..n)."""
    return latin_keys(np.asarray(square, dtype=np.int8).reshape(1, -1))[0]
