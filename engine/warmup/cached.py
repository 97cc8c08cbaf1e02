"""Which of a plan's overloads the kernel cache already holds: numba's own index of each kernel, read as numba
reads it (the numba version, the source file's stamp, the argument types, the CPU target, the byte code).

Why per overload and not per kernel: a kernel compiled for 9x9 has an index file, but not the overload 16x16
needs (its arguments' types differ); counting it as compiled sent the whole general carver, a chain of kernels
each waiting for the one below, to the calling process after the workers were done (most of a first
``fill --size 4``, one core busy: docs/benchmarks.md, "Single calls and the first run"). Imports the kernels'
modules (numba with them), as the caller's run does next.
"""
from __future__ import annotations

from importlib import import_module

from .signature import parse


class CachedOverloads:
    """``cached(kernel, signature)``: whether this process would load that overload from the cache rather than
    compile it. Each kernel's index is read once (a fresh instance reads the cache as it is now)."""

    def __init__(self):
        self._indexes: dict[str, tuple] = {}

    def _index(self, kernel: str) -> tuple:
        if kernel not in self._indexes:
            module, _, qualname = kernel.partition(":")
            try:
                dispatcher = getattr(import_module(module), qualname)
                cache = dispatcher._cache
                self._indexes[kernel] = (dispatcher, cache, cache._cache_file._load_index())
            except Exception:  # gone, not a cached kernel, an unreadable index: as good as not cached
                self._indexes[kernel] = (None, None, {})
        return self._indexes[kernel]

    def __call__(self, kernel: str, signature: str) -> bool:
        dispatcher, cache, index = self._index(kernel)
        if not index:
            return False
        try:
            return cache._index_key(parse(signature), dispatcher.targetctx.codegen()) in index
        except Exception:
            return False
