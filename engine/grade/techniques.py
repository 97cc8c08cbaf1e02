"""The grader's technique table: each row of :data:`engine.vocabulary.TECHNIQUE_TABLE` with its step finder.

The vocabulary's table (plain data, so the CLI validates ``--technique`` without loading the engine) holds the
names, the order (easiest first, the order the grader tries them in) and the ratings; this module adds the one
thing it cannot hold, the step finder of each name (the explaining path). A technique's position in the table
is also its kernel id in the compiled path (:mod:`engine.grade._fast`) and its counter in both paths.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..vocabulary import FULL_HOUSE_RATING, HIDDEN_SINGLE_IN_BOX_RATING, RATINGS, TECHNIQUE_TABLE, TECHNIQUES
from . import (aligned_exclusion, bug, direct, fish, forcing_chains, hidden_single, hidden_subset,
               locked_candidates, naked_single, naked_subset, unique_loop, xy_wing, xyz_wing)
from .state import State, Step

#: technique name -> the function that finds its first step in a state (or None); the table gives the order
FINDERS: dict[str, Callable[[State], Step | None]] = {
    "hidden-single": hidden_single.find,
    "direct-pointing": direct.find_pointing,
    "direct-claiming": direct.find_claiming,
    "direct-hidden-pair": direct.find_hidden_pair,
    "naked-single": naked_single.find,
    "direct-hidden-triple": direct.find_hidden_triple,
    "pointing": locked_candidates.find_pointing,
    "claiming": locked_candidates.find_claiming,
    "naked-pair": naked_subset.find_pair,
    "x-wing": fish.find_x_wing,
    "hidden-pair": hidden_subset.find_pair,
    "naked-triple": naked_subset.find_triple,
    "swordfish": fish.find_swordfish,
    "hidden-triple": hidden_subset.find_triple,
    "xy-wing": xy_wing.find,
    "xyz-wing": xyz_wing.find,
    "unique-loop": unique_loop.find,
    "naked-quad": naked_subset.find_quad,
    "jellyfish": fish.find_jellyfish,
    "hidden-quad": hidden_subset.find_quad,
    "bug": bug.find,
    "aligned-pair-exclusion": aligned_exclusion.find_pair,
    "chains-and-cycles": forcing_chains.find_chains_and_cycles,
    "aligned-triple-exclusion": aligned_exclusion.find_triple,
    "nishio": forcing_chains.find_nishio,
    "multiple-forcing-chains": forcing_chains.find_multiple,
    "dynamic-forcing-chains": forcing_chains.find_dynamic,
    "dynamic-forcing-chains-plus": forcing_chains.find_dynamic_plus,
    "nested-forcing-chains": forcing_chains.find_nested,
}
if set(FINDERS) != set(TECHNIQUES):  # a row without a finder, or a finder without a row, fails at import
    raise RuntimeError(f"step finders {sorted(set(FINDERS) ^ set(TECHNIQUES))} do not match engine.vocabulary")


@dataclass(frozen=True)
class Technique:
    name: str  # kebab-case, the key in steps_by_technique and the database
    rating: float  # the rating of a step (a hidden single found in a box rates HIDDEN_SINGLE_IN_BOX_RATING)
    find: Callable[[State], Step | None]


#: the table's rows, easiest first: the order the grader tries them in
REGISTRY: tuple[Technique, ...] = tuple(Technique(name, rating, FINDERS[name]) for name, rating in TECHNIQUE_TABLE)
BY_NAME = {t.name: t for t in REGISTRY}
#: technique name -> its row: its kernel id in the compiled path and its counter in both paths
INDEX = {name: i for i, name in enumerate(TECHNIQUES)}

# The step counters both paths keep: one per technique, at its row, and after them one for hidden singles found
# in a box and one for full houses, which rate apart (the grade adds them to the hidden-single count).
IN_BOX_COUNTER = len(TECHNIQUES)
FULL_HOUSE_COUNTER = IN_BOX_COUNTER + 1
COUNTER_NAMES = TECHNIQUES + (hidden_single.NAME, hidden_single.NAME)
COUNTER_RATINGS = tuple(RATINGS[name] for name in TECHNIQUES) + (HIDDEN_SINGLE_IN_BOX_RATING, FULL_HOUSE_RATING)
NCOUNTERS = len(COUNTER_NAMES)

__all__ = ["BY_NAME", "COUNTER_NAMES", "COUNTER_RATINGS", "FINDERS", "FULL_HOUSE_COUNTER", "IN_BOX_COUNTER", "INDEX",
           "NCOUNTERS", "REGISTRY", "TECHNIQUES", "Technique"]
