"""Where numba files one engine kernel's compiled code: a place that does not depend on where the engine lives.

Why: numba's own locator names a kernel's cache folder after a hash of the absolute path of its source folder, so
code compiled in one checkout (or in a wheel's build folder) is never found from another install of the same
source. This locator files a kernel under ``$NUMBA_CACHE_DIR/<package path>`` (``engine.grade``,
``engine.solvers``...), which is the same wherever the package is installed. That is safe because the folder
above, chosen by :mod:`engine.cache`, is already keyed on a hash of the whole engine's source, and numba itself
checks each file's content hash, the Python version and the CPU the code was made for. It is what lets a
precompiled bundle (:mod:`engine.precompile`) serve every install of the same source.

numba imports this module by name (``NUMBA_CACHE_LOCATOR_CLASSES``, set by :func:`engine.cache.enable`) when it
defines the first cached kernel; nothing else should import it, since it imports numba.
"""
from __future__ import annotations

import os
from pathlib import Path

from numba.core import config
from numba.core.caching import _CacheLocator, _SourceFileBackedLocatorMixin

_ROOT = Path(__file__).resolve().parent.parent  # the folder that holds the engine package


def package_folder(py_file: str | os.PathLike) -> str | None:
    """``engine.grade.kernels`` for ``.../engine/grade/kernels/driver.py``; None for a file outside the engine package."""
    try:
        relative = Path(py_file).resolve().parent.relative_to(_ROOT)
    except ValueError:
        return None
    if not relative.parts or relative.parts[0] != "engine":
        return None
    return ".".join(relative.parts)


class EngineLocator(_SourceFileBackedLocatorMixin, _CacheLocator):
    """Files the engine's kernels under ``config.CACHE_DIR/<package path>``; declines any other function, and
    declines when no cache folder was chosen (numba's next locators then apply)."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(config.CACHE_DIR, package_folder(py_file))

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        if not config.CACHE_DIR or package_folder(py_file) is None:
            return None
        return super().from_function(py_func, py_file)
