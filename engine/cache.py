"""Where compiled kernels are cached on disk: one folder for every entry point, chosen before the first kernel.

:func:`enable` picks a directory keyed on a hash of the engine's source and hands it to numba through
``NUMBA_CACHE_DIR``. :mod:`engine._jit`, which every kernel module imports before it defines a kernel, calls it:
so the catalogue CLI, the server, a script or a notebook using the library, the tests and bench/ all find the same
compiled kernels (``~/.cache/catalogue-numba/<digest>`` by default), and what one of them compiled is never
compiled again by another. ``import engine`` and its pure-Python parts (the vocabulary, the grid model, the
formats) still do no I/O: the folder is chosen when a compiled part is first imported. A program that wants
another folder calls ``enable(folder)`` before that (or sets ``NUMBA_CACHE_DIR``, which is then the base).

Why one folder and not numba's default: numba files a kernel beside its module (``__pycache__``) or, where that is
not writable, in a folder named after the module's absolute path, so the same source installed twice, or run from
a checkout and from site-packages, compiled everything twice (the README's Python example, run after the CLI had
compiled every kernel, compiled them all again into the checkout: docs/benchmarks.md, "Single calls and the
first run").

Why the directory is keyed on a hash of the engine's source: numba's cache checks only the timestamp of the file
that defines a kernel, so a kernel that calls a kernel from another file keeps running the old, cached callee
after the callee is edited (seen while building the carver, the keys and the grader). Keying the whole cache on
the engine's source makes any edit start a fresh cache, and a fresh clone compiles once and reuses it thereafter.

Why the environment variable: numba reads it when it is first imported, and child processes (the CLI tests,
bench/, the compile workers of :mod:`engine.warmup`) inherit it, so they share the cache; a child that calls
:func:`enable` itself finds the directory already chosen (its name is the digest) and keeps it. This module does
not import numba, so the CLI pays nothing for it.

Inside the folder each kernel is filed by its package path (:mod:`engine._cache_locator`), not by where the engine
is installed, so a folder compiled elsewhere serves here too. That is how a precompiled bundle works
(:mod:`engine.bundle`, made by :mod:`engine.precompile`): :func:`enable` lets a new folder be seeded from a bundle
that fits, and tells numba which CPU target the folder's code is for.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from pathlib import Path

from . import bundle

_ENGINE = Path(__file__).resolve().parent

#: numba's locators, ours first (see engine/_cache_locator.py); names without a dot are numba's own classes
_LOCATORS = ("engine._cache_locator.EngineLocator,UserProvidedCacheLocator,InTreeCacheLocator,UserWideCacheLocator,"
             "IPythonCacheLocator,ZipCacheLocator")


def source_digest() -> str:
    """A hash of the engine's source files and of the installed numba's version file (16 hex digits)."""
    h = hashlib.sha1()
    spec = importlib.util.find_spec("numba")  # finds the package without importing it (a slow import)
    if spec is not None and spec.origin:
        version_file = Path(spec.origin).parent / "_version.py"
        if version_file.exists():
            h.update(version_file.read_bytes())
    for path in sorted(_ENGINE.rglob("*.py")):
        h.update(path.relative_to(_ENGINE).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _choose(directory: str | os.PathLike | None, digest: str) -> str | None:
    given = os.environ.get("NUMBA_CACHE_DIR")
    if directory is None and given and Path(given).name == digest:  # already chosen by a parent process of ours
        return given
    base = directory or given or os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    candidates = [Path(base) / "catalogue-numba"]
    if directory is None:
        candidates.append(None)  # the temp folder, looked up only if needed: tempfile is slow to import
    for candidate in candidates:
        if candidate is None:
            import tempfile

            candidate = Path(tempfile.gettempdir()) / "catalogue-numba"
        target = candidate / digest
        try:
            target.mkdir(parents=True, exist_ok=True)
            if os.access(target, os.W_OK):
                return str(target)
        except OSError:
            continue
    return None


#: the folder this process chose (``False``: not chosen yet; ``None``: none was writable)
_chosen: str | None | bool = False


def enable(directory: str | os.PathLike | None = None) -> str | None:
    """Cache compiled kernels under ``directory`` (default: ``$NUMBA_CACHE_DIR``, ``$XDG_CACHE_HOME`` or
    ``~/.cache``, then the temp folder), in a subfolder named by :func:`source_digest`. Returns the folder, or None
    when none is writable (numba then keeps its default). Called with no folder, it chooses once per process (the
    engine calls it so before its first kernel: :mod:`engine._jit`). A folder of one's own must be given before the
    first kernel module is imported: numba fixes a kernel's cache location when the kernel is defined.
    """
    global _chosen
    if directory is None and _chosen is not False:
        return _chosen
    digest = source_digest()
    target = _choose(directory, digest)
    if target is not None:
        settings = {"NUMBA_CACHE_DIR": target, "NUMBA_CACHE_LOCATOR_CLASSES": _LOCATORS}
        if "NUMBA_CPU_NAME" not in os.environ:  # a user's own choice of CPU wins (the bundle then goes unused)
            cpu = bundle.cpu_target(Path(target), digest)
            if cpu is not None:
                settings.update(NUMBA_CPU_NAME=cpu["cpu_name"], NUMBA_CPU_FEATURES=cpu["cpu_features"])
        os.environ.update(settings)
        numba = sys.modules.get("numba")
        if numba is not None:  # already imported: it read the environment before we changed it
            numba.config.CACHE_DIR = target
            numba.config.CACHE_LOCATOR_CLASSES = _LOCATORS
            if "NUMBA_CPU_NAME" in settings:
                numba.config.CPU_NAME = settings["NUMBA_CPU_NAME"]
                numba.config.CPU_FEATURES = settings["NUMBA_CPU_FEATURES"]
    _chosen = target
    return target
