"""The options that select puzzles, written once for every command that reads puzzles (query, daily, and later
book and serve).

As sqlite-utils' ``output_options`` does for output, a decorator adds a group of typer options to a command and
hands the command one value instead of a dozen parameters:

- :func:`filter_options` replaces the command's ``filters: PuzzleFilter`` parameter with ``--min-clues``,
  ``--max-clues``, ``--size``, ``--shape``, ``--equivalence``, ``--method``, ``--source``, ``--level``, ``--technique``,
  ``--min-score`` and ``--max-score``, checks them (a bound above its other bound, a name outside the vocabulary:
  one line, exit 2) and passes the command a :class:`~catalogue.store.selection.PuzzleFilter`;
- :func:`sample_options` replaces ``sampling: Sampling`` with ``--sample N``, ``--seed S`` and ``--offset K``.

Both leave the command's other parameters, and their order, alone. Nothing here imports SQLAlchemy or the engine's
kernels: ``catalogue query`` must start fast.
"""
from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass
from typing import Annotated, Callable, Optional

import typer

from engine.vocabulary import BOARD_METHODS, MAX_SHAPE_SIZE, MIN_SHAPE_SIZE

from ..choices import HARDEST, Equivalence, Level, choose
from ..config import draw_seed
from ..console import report
from ..errors import UsageError
from ..shapes import shape_filter
from ..store.selection import PuzzleFilter


def _option(annotation, *names: str, **settings):
    return Annotated[annotation, typer.Option(*names, **settings)]


#: parameter name -> annotation of every filter option, in the order --help lists them
FILTER_OPTIONS = {
    "min_clues": _option(Optional[int], "--min-clues", min=0, metavar="A", help="Only puzzles with at least A clues."),
    "max_clues": _option(Optional[int], "--max-clues", min=0, metavar="B", help="Only puzzles with at most B clues."),
    "size": _option(Optional[int], "--size", min=1, metavar="N", help="Only N x N boards (4, 6, 9, 16, ...)."),
    "shape": _option(Optional[str], "--shape", metavar="SHAPE",
                     help="Only boards of this shape: 3x3, 2x3, latin5, 3x3+x (with diagonals), jigsaw9 (any "
                          "layout)."),
    "equivalence": _option(Optional[Equivalence], "--equivalence",
                           help="Only boards made unique under this equivalence."),
    "method": _option(Optional[str], "--method", metavar="NAME",
                      help="Only boards from this generator (wfc, backtrack, pattern), or imported (import)."),
    "source": _option(Optional[str], "--source", metavar="NAME",
                      help="Only puzzles imported from NAME (the file's name, or what import --source said)."),
    "level": _option(Optional[Level], "--level", help="Only puzzles graded at this level."),
    "technique": _option(Optional[str], "--technique", metavar="NAME",
                         help="Only puzzles whose hardest step is of technique NAME (e.g. x-wing, "
                              "chains-and-cycles)."),
    "min_score": _option(Optional[float], "--min-score", min=0, metavar="X",
                         help="Only puzzles whose grade's score is at least X (ungraded puzzles have none)."),
    "max_score": _option(Optional[float], "--max-score", min=0, metavar="Y",
                         help="Only puzzles whose grade's score is at most Y."),
}

SAMPLE_OPTIONS = {
    "sample": _option(Optional[int], "--sample", min=1, metavar="N",
                      help="A uniform random sample of N of the matching puzzles (all if fewer match); the same "
                           "for the same --seed and catalogue, on SQLite and PostgreSQL."),
    "seed": _option(Optional[int], "--seed", min=0, metavar="S",
                    help="The sample's seed (default: a new one, printed on stderr so the sample can be made "
                         "again)."),
    "offset": _option(int, "--offset", min=0, metavar="K", help="Skip the first K puzzles of the result."),
}
_SAMPLE_DEFAULTS = {"sample": None, "seed": None, "offset": 0}


def make_filter(min_clues: Optional[int] = None, max_clues: Optional[int] = None, size: Optional[int] = None,
                shape: Optional[str] = None, equivalence: Optional[Equivalence] = None, method: Optional[str] = None,
                source: Optional[str] = None, level: Optional[Level] = None, technique: Optional[str] = None,
                min_score: Optional[float] = None, max_score: Optional[float] = None) -> PuzzleFilter:
    """The filter of the options' values; a bad combination or name is a one-line usage error (exit 2)."""
    if min_clues is not None and max_clues is not None and min_clues > max_clues:
        raise UsageError(f"--min-clues {min_clues} is above --max-clues {max_clues}")
    if min_score is not None and max_score is not None and min_score > max_score:
        raise UsageError(f"--min-score {min_score:g} is above --max-score {max_score:g}")
    # a name outside the vocabulary would match nothing and look like an empty result: exit 2 instead
    if size is not None and not MIN_SHAPE_SIZE["latin"] <= size <= MAX_SHAPE_SIZE:
        raise UsageError(f"--size must be a grid's rows, {MIN_SHAPE_SIZE['latin']} to {MAX_SHAPE_SIZE}, not {size}")
    try:
        shape = None if shape is None else shape_filter(shape)
    except ValueError as e:
        raise UsageError(f"--shape: {e}") from None
    return PuzzleFilter(min_clues=min_clues, max_clues=max_clues, size=size, shape=shape,
                        equivalence=equivalence.value if equivalence else None,
                        method=choose("--method", "method", BOARD_METHODS, method), source=source,
                        level=level.value if level else None,
                        technique=choose("--technique", "technique", HARDEST, technique),
                        min_score=min_score, max_score=max_score)


@dataclass(frozen=True)
class Sampling:
    """``--sample``, ``--seed`` and ``--offset``: ``apply(query)`` gives the query they ask for."""

    sample: Optional[int] = None
    seed: Optional[int] = None
    offset: int = 0

    def apply(self, query):
        if self.sample is not None:
            query = query.sample(self.sample, seed=self.seed)
        return query.offset(self.offset) if self.offset else query


def make_sampling(sample: Optional[int] = None, seed: Optional[int] = None, offset: int = 0) -> Sampling:
    if seed is not None and sample is None:
        raise UsageError("--seed chooses a sample: give --sample N too")
    if sample is not None and seed is None:
        seed = draw_seed()
        report(f"sample drawn with --seed {seed}")
    return Sampling(sample, seed, offset)


def _grouped(placeholder: str, options: dict, build: Callable) -> Callable:
    """A decorator that replaces the command's parameter ``placeholder`` by ``options`` (name -> annotation, all
    keyword options with None defaults unless ``build``'s own defaults say otherwise) and calls the command with
    ``placeholder=build(**their values)``."""
    defaults = {name: p.default for name, p in inspect.signature(build).parameters.items()}

    def decorate(command: Callable) -> Callable:
        # the command's annotations as objects (text under `from __future__ import annotations`): typer takes a
        # given __signature__ as it is
        signature = inspect.signature(command, eval_str=True)
        added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=defaults.get(name),
                                   annotation=annotation) for name, annotation in options.items()]
        params = []
        for param in signature.parameters.values():
            if param.name == placeholder:
                params.extend(added)
            else:
                params.append(param.replace(kind=inspect.Parameter.KEYWORD_ONLY))
        if placeholder not in signature.parameters:
            raise TypeError(f"{command.__name__} has no parameter {placeholder!r} for the options to replace")

        @functools.wraps(command)
        def wrapper(**values):
            group = {name: values.pop(name) for name in options}
            values[placeholder] = build(**group)
            return command(**values)

        wrapper.__signature__ = signature.replace(parameters=params)
        wrapper.__annotations__ = {p.name: p.annotation for p in params}
        wrapper.__annotations__["return"] = signature.return_annotation
        return wrapper

    return decorate


#: ``@filter_options`` on a command with a ``filters: PuzzleFilter`` parameter
filter_options = _grouped("filters", FILTER_OPTIONS, make_filter)
#: ``@sample_options`` on a command with a ``sampling: Sampling`` parameter
sample_options = _grouped("sampling", SAMPLE_OPTIONS, make_sampling)
