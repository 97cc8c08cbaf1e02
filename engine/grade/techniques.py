"""The grader's technique table: each row of :data:`engine.vocabulary.TECHNIQUE_TABLE` with its two halves, the
step finder (the explaining path, :mod:`engine.grade.finders`) and the kernel family (the compiled path,
:mod:`engine.grade.kernels`), and the argument both take.

The vocabulary's table (plain data, so the CLI validates ``--technique`` without loading the engine) holds the
names, the order (easiest first, the order the grader tries them in) and the ratings; :data:`ROWS` here holds, in
the same order, what it cannot: each row's step finder, its kernel family (:mod:`engine.grade.kernels.families`:
the branch of the compiled step loop that calls its kernel) and its argument (k of a subset, a fish or an aligned
exclusion; which side a locked candidate is found from; which wing; which forcing chains), which the finder and
the kernel both take besides the grid. A technique's position in the table is also its id in the compiled path
(:mod:`engine.grade.kernels.driver`, which reads the rows' families and arguments as frozen constants) and its
counter in both paths.

Each finder takes its row's name (and from it its rating and the words of its explanations,
:data:`engine.vocabulary.STEP_NAMES`), so no finder or kernel holds a technique's name, and the memo of misses
keeps a row per row of this table (:mod:`engine.grade.kernels.misses`).

Adding a technique of a family that has its finder and kernel (a fish of five lines: FISH, k = 5): its row in the
vocabulary (name, rating, step names) and its row here (finder, family, argument), nothing else, provided the
family's finder and kernel take that argument. A technique of a new family also needs its finder
(engine/grade/finders/) and its kernel (engine/grade/kernels/, the same file name), the family's number in
engine/grade/kernels/families.py and its branch in the driver's step loop (engine/grade/kernels/driver.py). Rows
that differ only by their argument share a finder and a kernel (naked pair, triple, quad: NAKED_SUBSET, k = 2, 3,
4).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..vocabulary import FULL_HOUSE_RATING, HIDDEN_SINGLE_IN_BOX_RATING, RATINGS, STEP_PATH_ONLY, TECHNIQUES
from .finders import aligned, bug, fish, locked, singles, subsets, unique_loops, wings
from .finders.chains import cycles, forcing, steps
from .kernels.families import (ALIGNED, BUG, CLAIMING, CYCLES, DIRECT_HIDDEN, DIRECT_LOCKING, DYNAMIC,
                               DYNAMIC_PLUS, FISH, FORCING, HIDDEN_SINGLE, HIDDEN_SUBSET, LOCKED_CANDIDATES,
                               MULTIPLE, NAKED_SINGLE, NAKED_SUBSET, NISHIO, POINTING, STEP_PATH, UNIQUE_LOOP, WING,
                               XY, XYZ)
from .state import State, Step

#: The grader's half of each row of the vocabulary's table, in its order: (name, step finder, kernel family,
#: argument). A finder takes the state, the row's name, and the argument when the row has one (None: it takes
#: none). The nested
#: forcing chains have no kernel: the compiled path stops before them (STEP_PATH, engine.vocabulary.STEP_PATH_ONLY).
ROWS = (
    # name                          step finder                      kernel family      argument
    ("hidden-single",               singles.find_hidden_single,      HIDDEN_SINGLE,     None),
    ("direct-pointing",             locked.find_direct_locking,      DIRECT_LOCKING,    POINTING),
    ("direct-claiming",             locked.find_direct_locking,      DIRECT_LOCKING,    CLAIMING),
    ("direct-hidden-pair",          subsets.find_direct_hidden,      DIRECT_HIDDEN,     2),
    ("naked-single",                singles.find_naked_single,       NAKED_SINGLE,      None),
    ("direct-hidden-triple",        subsets.find_direct_hidden,      DIRECT_HIDDEN,     3),
    ("pointing",                    locked.find_locked_candidates,   LOCKED_CANDIDATES, POINTING),
    ("claiming",                    locked.find_locked_candidates,   LOCKED_CANDIDATES, CLAIMING),
    ("naked-pair",                  subsets.find_naked_subset,       NAKED_SUBSET,      2),
    ("x-wing",                      fish.find_fish,                  FISH,              2),
    ("hidden-pair",                 subsets.find_hidden_subset,      HIDDEN_SUBSET,     2),
    ("naked-triple",                subsets.find_naked_subset,       NAKED_SUBSET,      3),
    ("swordfish",                   fish.find_fish,                  FISH,              3),
    ("hidden-triple",               subsets.find_hidden_subset,      HIDDEN_SUBSET,     3),
    ("xy-wing",                     wings.find_wing,                 WING,              XY),
    ("xyz-wing",                    wings.find_wing,                 WING,              XYZ),
    ("unique-loop",                 unique_loops.find,               UNIQUE_LOOP,       None),
    ("naked-quad",                  subsets.find_naked_subset,       NAKED_SUBSET,      4),
    ("jellyfish",                   fish.find_fish,                  FISH,              4),
    ("hidden-quad",                 subsets.find_hidden_subset,      HIDDEN_SUBSET,     4),
    ("bug",                         bug.find,                        BUG,               None),
    ("aligned-pair-exclusion",      aligned.find,                    ALIGNED,           2),
    ("chains-and-cycles",           cycles.find,                     CYCLES,            None),
    ("aligned-triple-exclusion",    aligned.find,                    ALIGNED,           3),
    ("nishio",                      forcing.find,                    FORCING,           NISHIO),
    ("multiple-forcing-chains",     forcing.find,                    FORCING,           MULTIPLE),
    ("dynamic-forcing-chains",      forcing.find,                    FORCING,           DYNAMIC),
    ("dynamic-forcing-chains-plus", forcing.find,                    FORCING,           DYNAMIC_PLUS),
    ("nested-forcing-chains",       forcing.find_nested,             STEP_PATH,         None),
)
# a row missing, added or out of order against the vocabulary's table fails at import, as does a row without a
# kernel that the vocabulary does not leave to the step path (or the other way round)
if tuple(name for name, *_ in ROWS) != TECHNIQUES:
    raise RuntimeError("engine.grade.techniques.ROWS does not list engine.vocabulary.TECHNIQUES in their order")
if tuple(name for name, _, family, _ in ROWS if family == STEP_PATH) != STEP_PATH_ONLY:
    raise RuntimeError("the rows without a kernel in engine.grade.techniques.ROWS are not engine.vocabulary's "
                       "STEP_PATH_ONLY")


def _for_row(find: Callable, name: str, arg: int | None) -> Callable[[State], Step | None]:
    """``find`` with the row's name and argument given: a finder of the state alone."""
    if arg is None:
        def find_row(state: State) -> Step | None:
            return find(state, name)
    else:
        def find_row(state: State) -> Step | None:
            return find(state, name, arg)

    find_row.__qualname__ = f"{find.__qualname__}[{name}]"
    return find_row


@dataclass(frozen=True)
class Technique:
    name: str  # kebab-case, the key in steps_by_technique and the database
    rating: float  # the rating of a step (a hidden single found in a box rates HIDDEN_SINGLE_IN_BOX_RATING)
    find: Callable[[State], Step | None]  # the row's step finder, with its name and argument given
    family: int  # its kernel family (engine.grade.kernels.families)
    arg: int | None  # the argument its finder and kernel take (None: none)


#: the table's rows, easiest first: the order the grader tries them in
REGISTRY: tuple[Technique, ...] = tuple(
    Technique(name, RATINGS[name], _for_row(find, name, arg), family, arg)
    for name, find, family, arg in ROWS)
BY_NAME = {t.name: t for t in REGISTRY}
#: technique name -> the function that finds its first step in a state (or None); the table gives the order
FINDERS: dict[str, Callable[[State], Step | None]] = {t.name: t.find for t in REGISTRY}
#: technique name -> its row: its kernel id in the compiled path and its counter in both paths
INDEX = {name: i for i, name in enumerate(TECHNIQUES)}
#: each row's kernel family and argument (0 for none), by row: the compiled path's dispatch, as data (tuples of
#: ints, which numba freezes into the driver's code)
FAMILIES = tuple(t.family for t in REGISTRY)
ARGS = tuple(0 if t.arg is None else t.arg for t in REGISTRY)
#: (kernel family, argument) -> the name of the row whose kernel that is: the nested forcing chains name the chains
#: they find inside by it (engine.grade.finders.chains.nested)
ROW_OF_KERNEL = {(t.family, t.arg): t.name for t in REGISTRY if t.family != STEP_PATH}
if len(ROW_OF_KERNEL) != len(TECHNIQUES) - len(STEP_PATH_ONLY):
    raise RuntimeError("two rows of engine.grade.techniques.ROWS have the same kernel family and argument")
steps.ROW_OF_KERNEL.update(ROW_OF_KERNEL)  # the nested search names what it finds inside by its row

# The step counters both paths keep: one per technique, at its row, and after them one for hidden singles found
# in a box and one for full houses, which rate apart (the grade adds them to the hidden-single count).
IN_BOX_COUNTER = len(TECHNIQUES)
FULL_HOUSE_COUNTER = IN_BOX_COUNTER + 1
#: the row of the hidden singles, whose steps those two counters hold apart
HIDDEN_SINGLE_ROW = ROW_OF_KERNEL[HIDDEN_SINGLE, None]
COUNTER_NAMES = TECHNIQUES + (HIDDEN_SINGLE_ROW, HIDDEN_SINGLE_ROW)
COUNTER_RATINGS = tuple(RATINGS[name] for name in TECHNIQUES) + (HIDDEN_SINGLE_IN_BOX_RATING, FULL_HOUSE_RATING)
NCOUNTERS = len(COUNTER_NAMES)

__all__ = ["ARGS", "BY_NAME", "COUNTER_NAMES", "COUNTER_RATINGS", "FAMILIES", "FINDERS", "FULL_HOUSE_COUNTER",
           "HIDDEN_SINGLE_ROW", "IN_BOX_COUNTER", "INDEX", "NCOUNTERS", "REGISTRY", "ROWS", "ROW_OF_KERNEL",
           "TECHNIQUES", "Technique"]
