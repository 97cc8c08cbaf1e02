"""The techniques in the order the grader tries them: easiest first, by rating.

The ratings follow Sudoku Explainer's scale where it has the technique (hidden single 1.2 in a box and 1.5 in
a row or column, naked single 2.3, pointing 2.6, claiming 2.8, naked pair 3.0, X-Wing 3.2, hidden pair 3.4,
naked triple 3.6, Swordfish 3.8, hidden triple 4.0, XY-Wing 4.2, XYZ-Wing 4.4, naked quad 5.0, Jellyfish 5.2,
hidden quad 5.4); the chains sit where Sudoku Explainer puts its cycles and chains: simple colouring 6.5,
X-chain 6.6, XY-chain 6.7, and the general alternating inference chain 7.0.
Needing a guess is rated beyond every technique (:data:`GUESSING_RATING`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import (aic, claiming, fish, hidden_single, hidden_subset, naked_single, naked_subset, pointing,
               simple_colouring, x_chain, xy_chain, xy_wing, xyz_wing)
from .state import State, Step


@dataclass(frozen=True)
class Technique:
    name: str  # kebab-case, the key in steps_by_technique and the database
    rating: float  # the rating of a step (hidden single: 1.5 here, 1.2 for one found in a box)
    find: Callable[[State], Step | None]


REGISTRY: tuple[Technique, ...] = (
    Technique("hidden-single", hidden_single.RATING_LINE, hidden_single.find),
    Technique("naked-single", naked_single.RATING, naked_single.find),
    Technique("pointing", pointing.RATING, pointing.find),
    Technique("claiming", claiming.RATING, claiming.find),
    Technique("naked-pair", 3.0, naked_subset.find_pair),
    Technique("x-wing", 3.2, fish.find_x_wing),
    Technique("hidden-pair", 3.4, hidden_subset.find_pair),
    Technique("naked-triple", 3.6, naked_subset.find_triple),
    Technique("swordfish", 3.8, fish.find_swordfish),
    Technique("hidden-triple", 4.0, hidden_subset.find_triple),
    Technique("xy-wing", xy_wing.RATING, xy_wing.find),
    Technique("xyz-wing", xyz_wing.RATING, xyz_wing.find),
    Technique("naked-quad", 5.0, naked_subset.find_quad),
    Technique("jellyfish", 5.2, fish.find_jellyfish),
    Technique("hidden-quad", 5.4, hidden_subset.find_quad),
    Technique("simple-colouring", simple_colouring.RATING, simple_colouring.find),
    Technique("x-chain", x_chain.RATING, x_chain.find),
    Technique("xy-chain", xy_chain.RATING, xy_chain.find),
    Technique("aic", aic.RATING, aic.find),
)

#: technique names, easiest first: the order the grader tries them in
TECHNIQUES: tuple[str, ...] = tuple(t.name for t in REGISTRY)
BY_NAME = {t.name: t for t in REGISTRY}
#: what ``hardest`` says, and the score, when no technique makes progress
GUESSING = "guessing"
GUESSING_RATING = 10.0


def _check_ratings() -> None:
    """The subset and fish modules carry their own names and ratings; keep them and the registry in step."""
    for module in (naked_subset, hidden_subset, fish):
        for name, _title, rating in module.SIZES.values():
            assert BY_NAME[name].rating == rating, name
    ratings = [t.rating for t in REGISTRY]
    assert ratings == sorted(ratings), "techniques must be tried easiest first"


_check_ratings()
