"""The CLI's spelled-out choices match the engine registries they mirror."""
from catalogue import choices
from engine.canonical import EQUIVALENCES
from engine.carve import SYMMETRIES
from engine.formats import FORMATS
from engine.generators import GENERATORS
from engine.grade import LEVELS
from engine.solvers import SOLVERS


def _values(enum_class):
    return [member.value for member in enum_class]


def test_choices_match_the_engine():
    assert _values(choices.Method) == list(GENERATORS)
    assert _values(choices.Equivalence) == list(EQUIVALENCES)
    assert _values(choices.Symmetry) == list(SYMMETRIES)
    assert _values(choices.Level) == list(LEVELS)
    assert _values(choices.SolverName) == list(SOLVERS)
    assert _values(choices.InputFormat) == ["auto", *FORMATS]
