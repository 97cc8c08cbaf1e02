"""The kernel families: what a row of the technique table (:data:`engine.grade.techniques.ROWS`) names for the
compiled path, and the arguments they take. Plain numbers, no numba: the table imports them with the finders.

A family is one kernel the step loop calls (:func:`engine.grade.kernels.driver._solve_in` branches on the family
of each row it tries), and a row's argument is what that kernel takes besides the grid: the size k of a subset, a
fish or an aligned exclusion, which side a locked candidate is found from, which wing, which forcing chains. The
row's step finder takes the same argument, so one row makes both halves of a technique; rows of one family differ
only by it (naked pair, triple and quad are one family, k = 2, 3, 4).
"""
from __future__ import annotations

#: the singles, written out in the step loop (they make most steps)
HIDDEN_SINGLE, NAKED_SINGLE = 0, 1
#: engine.grade.kernels.locked (argument: POINTING or CLAIMING)
LOCKED_CANDIDATES, DIRECT_LOCKING = 2, 3
#: engine.grade.kernels.subsets (argument: k)
NAKED_SUBSET, HIDDEN_SUBSET, DIRECT_HIDDEN = 4, 5, 6
#: engine.grade.kernels.fish (argument: k), engine.grade.kernels.wings (argument: XY or XYZ)
FISH, WING = 7, 8
#: engine.grade.kernels.unique_loops, engine.grade.kernels.bug
UNIQUE_LOOP, BUG = 9, 10
#: engine.grade.kernels.aligned (argument: k)
ALIGNED = 11
#: engine.grade.kernels.chains.cycles, engine.grade.kernels.chains.forcing (argument: the producer, below)
CYCLES, FORCING = 12, 13
#: no kernel: the compiled path stops before the row, and the step path makes its steps
#: (engine.vocabulary.STEP_PATH_ONLY; the nested forcing chains)
STEP_PATH = -1

# --- arguments ---------------------------------------------------------------------------------------------------
#: locked candidates, plain and direct: the base is a box, the cover a line (pointing), or the other way round
POINTING, CLAIMING = 0, 1
#: wings: the pivot has two candidates (XY-Wing) or three (XYZ-Wing)
XY, XYZ = 0, 1
#: the forcing chains' producers (engine.grade.kernels.chains.forcing), Sudoku Explainer's ``Chaining`` flags:
#: Nishio, multiple (cell and region), dynamic, and DYNAMIC_PLUS, its level 1 (rules inside the chains); STATIC, its
#: plain forcing chains and cycles, serves only inside nested chains (engine.grade.kernels.chains.plain)
NISHIO, MULTIPLE, DYNAMIC, DYNAMIC_PLUS, STATIC = 0, 1, 2, 3, 4
