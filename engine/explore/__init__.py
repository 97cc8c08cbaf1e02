"""Seed 001's experiment (``experiment``) and the dependency-free SVG line charts it draws (``plot``)."""
from __future__ import annotations

from .experiment import (DEFAULT_CLUES, DEFAULT_NODE_LIMIT, Exploration, Row, Trial, explore, plot_svg,
                         random_grid)

__all__ = ["DEFAULT_CLUES", "DEFAULT_NODE_LIMIT", "Exploration", "Row", "Trial", "explore", "plot_svg",
           "random_grid"]
