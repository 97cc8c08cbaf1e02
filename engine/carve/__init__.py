"""Carving: minimal unique puzzles from complete boards (the carver in ``carver``, its kernel in ``_kernel``), and
carving toward a level (``toward``)."""
from __future__ import annotations

from .carver import (DEFAULT_NODE_LIMIT, DEFAULT_ORDER, DEFAULT_TARGET_ATTEMPTS, SYMMETRIES, CarveResult, carve,
                     carve_many,
                     minimal_many, orbits, stream_state, warm)
from .toward import relax_many

__all__ = ["SYMMETRIES", "DEFAULT_NODE_LIMIT", "DEFAULT_ORDER", "DEFAULT_TARGET_ATTEMPTS", "CarveResult", "carve", "carve_many",
           "minimal_many", "orbits", "relax_many", "stream_state", "warm"]
