"""The error of a ``full`` key that cannot be had, shared by every key search (engine.keys.canonical re-exports it)."""
from __future__ import annotations


class KeySearchError(ValueError):
    """A grid that cannot be keyed under ``full``: it has a conflict, or its search outgrew its bound (a grid with
    a huge symmetry group keeps too many tied states)."""
