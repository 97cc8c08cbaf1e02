"""Transforms and canonical keys: when two grids are "the same", and one representative per class.

``transforms``: the moves as data (:class:`Transform`, the d4 and full groups); ``canonical``: the keys; the
private ``_d4``, ``_board``, ``_grid`` and ``_full`` modules: their compiled searches. Shapes other than square
boxes: ``shape_group`` (listed groups), ``rect_full`` with ``_rect`` (boxes of r x c), ``latin`` with ``_latin``
(main classes); ``errors``: :class:`KeySearchError`.
"""
from __future__ import annotations

from .canonical import (MAX_STATES, KeySearchError, canonical_key, canonical_keys, canonical_transform, key_text,
                        key_texts, same_class, warm)
from .transforms import D4_NAMES, EQUIVALENCES, Transform, apply, check_equivalence, compose, d4_group, identity

__all__ = ["EQUIVALENCES", "D4_NAMES", "MAX_STATES", "KeySearchError", "Transform", "apply", "compose", "identity",
           "d4_group", "check_equivalence", "canonical_key", "canonical_keys", "canonical_transform", "key_text",
           "key_texts", "same_class", "warm"]
