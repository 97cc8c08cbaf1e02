"""The one place numba options live.

Every compiled kernel in the engine is decorated with :data:`kernel`. ``nogil=True`` lets the catalogue's actor
threads run kernels truly in parallel; ``cache=True`` writes compiled code next to the modules (or to
``NUMBA_CACHE_DIR``) so the compile cost is paid once per machine, not once per process. Kernels called from threads
must never use ``parallel=True``: numba's threading layer is not meant to be entered from many Python threads.

Setting ``NUMBA_DISABLE_JIT=1`` runs every kernel as plain Python (slow, but coverage sees the lines).

Why the cache directory is keyed on a hash of the engine's source: numba's cache checks only the timestamp of the
file that defines a kernel, so a kernel that calls a kernel from another file keeps running the old, cached callee
after the callee is edited (seen while building the carver, the keys and the grader). Keying the whole cache on
the engine's source makes any edit start a fresh cache, and a fresh clone compiles once and reuses it thereafter.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numba


def _source_digest() -> str:
    root = Path(__file__).resolve().parent
    h = hashlib.sha1(numba.__version__.encode())
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _choose_cache_dir() -> str | None:
    digest = _source_digest()
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given and Path(given).name == digest:  # already chosen by a parent process of ours
        return given
    base = given or os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    for candidate in (Path(base) / "catalogue-numba", Path(tempfile.gettempdir()) / "catalogue-numba"):
        target = candidate / digest
        try:
            target.mkdir(parents=True, exist_ok=True)
            if os.access(target, os.W_OK):
                return str(target)
        except OSError:
            continue
    return None  # numba falls back to __pycache__ beside the modules


CACHE_DIR = _choose_cache_dir()
if CACHE_DIR is not None:
    # Both: numba reads config.CACHE_DIR when a kernel is defined, and re-reads the environment whenever a NUMBA_
    # variable changes; child processes (the CLI tests, bench/) then share the same cache.
    os.environ["NUMBA_CACHE_DIR"] = CACHE_DIR
    numba.config.CACHE_DIR = CACHE_DIR

JIT_DISABLED = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")

#: Decorator for every compiled kernel: ``@kernel`` or ``@kernel(...)`` with an explicit signature.
kernel = numba.njit(cache=True, nogil=True, fastmath=False, boundscheck=False)


def kernel_with(**options):
    """Like :data:`kernel` but with extra numba options for the odd kernel that needs them (never parallel)."""
    if options.get("parallel"):
        raise ValueError("kernels run from actor threads; parallel=True is not allowed")
    return numba.njit(cache=True, nogil=True, boundscheck=False, **options)
