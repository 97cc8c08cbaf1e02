"""Human-style difficulty grading: which techniques a person needs, how many steps of each, how hard that is.

>>> from engine.formats import from_line
>>> g = grade(from_line("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"), 3)
>>> g.level, g.score, g.hardest, g.steps_by_technique
('medium', 2.6, 'pointing', {'hidden-single': 60, 'naked-single': 4, 'pointing': 7})
>>> g.steps[3].explanation
'pointing 7 in box 3 (r2c7, r2c9) along row 2: removes 7 from r2c1, r2c3'

See :mod:`engine.grade.grader` for how a grade is made and :data:`engine.vocabulary.TECHNIQUE_TABLE` for the
techniques, their order and their ratings.
"""
from ..vocabulary import GUESSING, GUESSING_RATING, LEVEL_LIMITS, LEVELS, RATINGS, TECHNIQUES
from .grader import NOTHING, Grade, Later, grade, grade_many, level_of, next_step, solve_logically, within_level
from .state import Contradiction, State, Step
from .techniques import BY_NAME, REGISTRY

__all__ = ["LEVELS", "LEVEL_LIMITS", "TECHNIQUES", "RATINGS", "GUESSING", "GUESSING_RATING", "NOTHING", "Grade", "Later",
           "Step", "State", "Contradiction", "grade", "grade_many", "level_of", "next_step", "solve_logically", "BY_NAME",
           "REGISTRY", "within_level"]
