"""Compile the grader in a second process while the caller compiles the rest: a first run's start-up, halved.

Why: on a new machine a fill spends most of its first minute compiling kernels (numba, once per machine and
source version: see :mod:`engine.cache`). Compiling holds the GIL, so threads do not help, but the cache is a
folder of files that any process can fill: a child process compiles the grading kernels (the largest part, about
half of a fill's compile time) into the shared cache while the parent compiles the generator, the keys and the
carver; then the parent loads the grader from the cache in a fraction of a second. On 2 cores the wall time of
the warm-up falls to the longer of the two halves.

The child is started only when the cache has no compiled grader yet (a glance at the cache folder), so a warm
start costs nothing. If the child fails for any reason the parent compiles the grader itself: nothing depends on
the child but time.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

#: the cache index file of the grader's batch entry point (engine/_cache_locator.py files it under its package;
#: numba names it <module>.<function>-<line>)
_GRADER_INDEX = "engine.grade/_fast._grade_many-*.nbi"


def grader_cached() -> bool:
    """Whether the active kernel cache (``NUMBA_CACHE_DIR``) already holds the compiled grader."""
    folder = os.environ.get("NUMBA_CACHE_DIR")
    if not folder:
        return True  # numba's default cache beside the modules: unknown, so never spawn a child
    return any(Path(folder).glob(_GRADER_INDEX))


def compiled_ready() -> bool:
    """Whether the compiled grader can be used at once: loaded in this process, or compiled in the kernel cache (it
    then loads in a fraction of a second). Where it is not, a caller that must answer at once (the web server's
    hint) takes the plain path rather than compile the grader for a minute inside a request."""
    from .grade import _fast

    overloads = getattr(_fast._grade_many, "overloads", None)
    if overloads is None:  # NUMBA_DISABLE_JIT: the kernels are plain Python, far slower than the finders alone
        return False
    # without a cache folder (engine.cache.enable found none) nothing compiled lasts: only a loaded grader counts
    return bool(overloads) or (bool(os.environ.get("NUMBA_CACHE_DIR")) and grader_cached())


def start_grader_compile(box: int) -> subprocess.Popen | None:
    """Start compiling the grader for ``box`` in a child process, unless it is cached; returns the child or None."""
    if grader_cached():
        return None
    code = f"from engine.warmup import compile_grader; compile_grader({int(box)})"
    try:
        return subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
    except OSError:  # no process to spare: the parent compiles it itself
        return None


def finish(child: subprocess.Popen | None) -> None:
    """Wait for the child (its result is in the cache, or not: either way the caller's next call works)."""
    if child is None:
        return
    try:
        child.wait()
    except BaseException:  # Ctrl-C while waiting: do not leave the child compiling on its own
        child.kill()
        child.wait()
        raise


def compile_grader(box: int) -> None:
    """The child's work: grade one puzzle of ``box`` so that the grading kernels compile into the cache."""
    import numpy as np

    from .geometry import geometry
    from .grade import grade_many

    n = geometry(box).size
    # a complete board written by a formula (a valid Latin square with boxes), with one cell blanked
    cells = np.array([((r % box) * box + r // box + c) % n + 1 for r in range(n) for c in range(n)], dtype=np.int8)
    cells[0] = 0
    grade_many(cells[None, :], box)
