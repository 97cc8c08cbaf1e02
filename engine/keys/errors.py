"""The error of a ``full`` key that cannot be had, shared by every key search (engine.keys.canonical re-exports it),
and the one way the searches' per-grid statuses become it."""
from __future__ import annotations

import numpy as np

#: the statuses every full key search writes per grid (engine/keys/_full.py, _rect.py, _latin.py)
OK, TOO_MANY, CONFLICT = 0, 1, 2


class KeySearchError(ValueError):
    """A grid that cannot be keyed under ``full``: it has a conflict, or its search outgrew its bound (a grid with
    a huge symmetry group keeps too many tied states)."""


def raise_for(status: np.ndarray, where: str, conflict: str, too_many: str) -> None:
    """:class:`KeySearchError` for the first grid whose ``status`` is not OK: ``grid k of m has no full key{where}:
    {conflict or too_many}``, naming the shape in ``where`` (" on shape 2x7") when there is one."""
    bad = np.flatnonzero(status != OK)
    if bad.size:
        k = int(bad[0])
        why = conflict if status[k] == CONFLICT else too_many
        raise KeySearchError(f"grid {k + 1} of {status.size} has no full key{where}: {why}")
