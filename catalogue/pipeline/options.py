"""What a fill makes and how: :class:`FillOptions`, made once and passed down.

``catalogue fill`` makes one from its options, a library caller from keywords (``fill(catalogue, 20, seed=7)``);
the run validates it, the actors read it (the generators' seed streams, the checkers' carving and grading), and
the run row stores it: the command line that makes the same boards again (:meth:`FillOptions.command`) and the
parameters that only shape the run (:meth:`FillOptions.parameters`). One list of fields, so an option added to
the fill is one field here and one typer option in catalogue/cli/commands/fill.py.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass, field, fields

from ..config import DEFAULT_QUEUE_SIZE, draw_seed

#: boards per batch by box size: a batch is one kernel call, and a checker finishes its batch before it stops,
#: so big grids (a board costs many times a 9x9 one: docs/benchmarks.md, Cost against size) get small batches
#: to keep Ctrl-C within a few seconds
DEFAULT_BATCH = {2: 256, 3: 256, 4: 16, 5: 1}


def default_batch(spec: str) -> int:
    """Boards per batch for a shape (its spec): :data:`DEFAULT_BATCH` for square boxes; for the other shapes by
    what a board costs to make, carve and grade (docs/benchmarks.md, Shapes): 256 up to 10x10 (under a
    millisecond or two a board), 16 for 12x12 and a 9x9 jigsaw or X (tens of milliseconds), 1 beyond (a 12x12
    jigsaw takes seconds)."""
    from ..shapes import is_square, shape_of

    shape = shape_of(spec)
    if is_square(spec):
        return DEFAULT_BATCH[shape.box_rows]
    if shape.kind == "jigsaw" or shape.diagonals:
        return 16 if shape.size <= 9 else 1
    return 256 if shape.size <= 10 else 16 if shape.size <= 12 else 1

# A field's role: what makes the boards (repeated in the stored command line), or what only shapes the run
# (threads, queue: stored as the run's parameters; a repeat may change them and get the same boards).
_MAKES = {"repeat": True}
_SHAPES = {"repeat": False}


@dataclass(frozen=True)
class FillOptions:
    """Everything ``catalogue fill`` takes but the catalogue, with its defaults. ``seed`` None draws one (once,
    here, :func:`catalogue.config.draw_seed`: the run stores and prints it); ``batch`` None takes the size's default (:data:`DEFAULT_BATCH`)."""

    count: int = field(default=1, metadata=_MAKES)
    #: rows of the grid (9 when neither it nor the shape is given); follows from ``shape`` when that is given
    size: int | None = field(default=None, metadata=_MAKES)
    #: the shape's spec (engine.shape.Shape.spec, what ``--shape`` reads: ``2x3``, ``latin5``, ``3x3+x``, a
    #: jigsaw's with its layout); None: square boxes of ``size``
    shape: str | None = field(default=None, metadata=_MAKES)
    method: str = field(default="wfc", metadata=_MAKES)
    equivalence: str = field(default="d4", metadata=_MAKES)
    seed: int | None = field(default=None, metadata=_MAKES)
    symmetry: str = field(default="none", metadata=_MAKES)
    target_clues: int | None = field(default=None, metadata=_MAKES)
    level: str | None = field(default=None, metadata=_MAKES)
    level_tries: int = field(default=20, metadata=_MAKES)
    batch: int | None = field(default=None, metadata=_MAKES)  # the seeds of a batch follow from its size
    generators: int = field(default=1, metadata=_SHAPES)
    checkers: int = field(default=1, metadata=_SHAPES)
    queue_size: int = field(default=DEFAULT_QUEUE_SIZE, metadata=_SHAPES)
    give_up_after: int = field(default=10_000, metadata=_SHAPES)
    #: carvings per board (engine.carve.carve_many's default: 1, or 20 orders with target_clues); no CLI option
    carve_attempts: int | None = field(default=None, metadata=_SHAPES)

    def __post_init__(self) -> None:
        from ..shapes import SQUARE_SPECS

        if self.seed is None:
            object.__setattr__(self, "seed", draw_seed())
        if self.shape is None:
            size = 9 if self.size is None else self.size
            # a size that is no square-box grid stays as given: the run refuses it (a usage error naming it)
            object.__setattr__(self, "size", size)
            object.__setattr__(self, "shape", SQUARE_SPECS.get(size))
        else:
            from engine.shape import Shape

            shape = Shape.parse(self.shape, self.size)  # ValueError when the two disagree
            object.__setattr__(self, "shape", shape.spec)
            object.__setattr__(self, "size", shape.size)
        if self.batch is None and self.shape is not None:
            object.__setattr__(self, "batch", default_batch(self.shape))

    @property
    def grid_shape(self):
        """The :class:`engine.shape.Shape` the boards keep."""
        from ..shapes import shape_of

        return shape_of(self.shape)

    @property
    def box(self):
        """What the kernels take: the box size b of square boxes (the grid is b*b rows), else the Shape."""
        from ..shapes import kernel_shape

        return kernel_shape(self.shape)

    def command(self) -> str:
        """The fill command line that makes the same boards again (stored with the run): every field that makes
        them, as given or drawn (``--level-tries`` only with ``--level``, which alone reads it)."""
        from ..shapes import SQUARE_SPECS

        parts = ["catalogue", "fill"]
        for f in fields(self):
            value = getattr(self, f.name)
            if not f.metadata["repeat"] or value is None or (f.name == "level_tries" and self.level is None):
                continue
            # square boxes are said by their size, as they always were; every other shape by its spec alone
            if (f.name == "shape" and self.size in SQUARE_SPECS and value == SQUARE_SPECS[self.size]) or (
                    f.name == "size" and self.shape != SQUARE_SPECS.get(value)):
                continue
            parts += [f"--{f.name.replace('_', '-')}", shlex.quote(str(value))]
        return " ".join(parts)

    def parameters(self) -> dict:
        """The options that shape the run but not its boards, and the count and batch (the run row's JSON)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if not f.metadata["repeat"] or f.name in ("count", "batch", "level_tries")}
