"""Generators of complete boards, behind one interface, and their registry.

Every generator module defines::

    generate(box: int, seed: int, **options) -> GeneratedBoard
    generate_many(box: int, count: int, seed: int, **options) -> list[GeneratedBoard]

and is deterministic for a given seed. ``generate_many(box, k, s)`` gives the same boards as
``[generate(box, s_i) for s_i in derive_seeds(s, k)]``, so every board in the catalogue can be remade from the
seed stored with it.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

import numpy as np

from .. import vocabulary
from ..inputs import NEW_SEED_MASK, check_name

#: method name -> module (named after the method, from the vocabulary; the first is the default)
GENERATORS = {method: f"engine.generators.{method}" for method in vocabulary.METHODS}
DEFAULT_METHOD = vocabulary.METHODS[0]


@dataclass
class GeneratedBoard:
    cells: np.ndarray  # flat int8 board
    box: int
    method: str
    seed: int  # the seed that remakes exactly this board with generate(box, seed)
    restarts: int = 0  # wfc: contradictions (each one a restart); backtrack: attempts cut at its node limit
    seconds: float = 0.0


class GenerationError(RuntimeError):
    """A generator stopped before finishing a board (only when a restart limit was asked for and reached)."""


def derive_seeds(seed: int, count: int, stream: int = 0) -> np.ndarray:
    """``count`` independent 53-bit seeds from one run seed (and a stream number, one per actor).

    53 bits, not 31: with 31-bit seeds about one pair in a 50,000-board fill shared a seed (the birthday bound),
    and so the same board; and not 63 (as before): a seed must survive JSON and JavaScript, whose numbers hold
    integers exactly up to 2**53. Run seeds up to 2**63 - 1 are still accepted.
    """
    ss = np.random.SeedSequence([int(seed) & 0xFFFFFFFF, int(seed) >> 32, int(stream)])
    return (ss.generate_state(count, dtype=np.uint64) & np.uint64(NEW_SEED_MASK)).astype(np.int64)


def get_generator(method: str):
    return import_module(GENERATORS[check_name("method", method, GENERATORS)])


def makes_every_shape(method: str) -> bool:
    """Whether ``method`` makes boards of every shape (:mod:`engine.shape`), or square boxes only: its module says
    (``EVERY_SHAPE``)."""
    return getattr(get_generator(method), "EVERY_SHAPE", False)


def shape_methods() -> list[str]:
    """The methods that make boards of every shape, in the vocabulary's order."""
    return [method for method in GENERATORS if makes_every_shape(method)]


def generate(box: int = 3, method: str = DEFAULT_METHOD, seed: int = 0, **options) -> GeneratedBoard:
    return get_generator(method).generate(box, seed, **options)


def generate_many(box: int = 3, method: str = DEFAULT_METHOD, count: int = 1, seed: int = 0,
                  **options) -> list[GeneratedBoard]:
    return get_generator(method).generate_many(box, count, seed, **options)
