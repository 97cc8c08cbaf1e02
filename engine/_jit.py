"""The one place numba options live.

Every compiled kernel in the engine is decorated with :data:`kernel`. ``nogil=True`` lets the catalogue's actor
threads run kernels truly in parallel; ``cache=True`` writes compiled code next to the modules (or to
``NUMBA_CACHE_DIR``, see :mod:`engine.cache`) so the compile cost is paid once per machine, not once per process.
Kernels called from threads must never use ``parallel=True``: numba's threading layer is not meant to be entered
from many Python threads.

Setting ``NUMBA_DISABLE_JIT=1`` runs every kernel as plain Python (slow, but coverage sees the lines).

Where the cache lives is chosen by an explicit call, :func:`engine.cache.enable`, never at import.
"""
from __future__ import annotations

import os

import numba

JIT_DISABLED = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")

#: Decorator for every compiled kernel: ``@kernel`` or ``@kernel(...)`` with an explicit signature.
kernel = numba.njit(cache=True, nogil=True, fastmath=False, boundscheck=False)


def kernel_with(**options):
    """Like :data:`kernel` but with extra numba options for the odd kernel that needs them (never parallel)."""
    if options.get("parallel"):
        raise ValueError("kernels run from actor threads; parallel=True is not allowed")
    return numba.njit(cache=True, nogil=True, boundscheck=False, **options)
