"""Where compiled kernels are cached on disk: an explicit call, never an import side effect.

:func:`enable` picks a directory keyed on a hash of the engine's source and hands it to numba through
``NUMBA_CACHE_DIR``. Programs call it once at start, before any kernel module is imported (the catalogue CLI's
``main``, ``tests/conftest.py``, ``bench/_common.py``); a library user who never calls it gets numba's default
(``cache=True`` writes beside the modules, or to numba's user-wide fallback), and importing ``engine`` does no I/O.

Why the directory is keyed on a hash of the engine's source: numba's cache checks only the timestamp of the file
that defines a kernel, so a kernel that calls a kernel from another file keeps running the old, cached callee
after the callee is edited (seen while building the carver, the keys and the grader). Keying the whole cache on
the engine's source makes any edit start a fresh cache, and a fresh clone compiles once and reuses it thereafter.

Why the environment variable: numba reads it when it is first imported, and child processes (the CLI tests,
bench/) inherit it, so they share the cache; a child that calls :func:`enable` itself finds the directory already
chosen (its name is the digest) and keeps it. This module does not import numba, so the CLI pays nothing for it.

Inside the folder each kernel is filed by its package path (:mod:`engine._cache_locator`), not by where the engine
is installed, so a folder compiled elsewhere serves here too. That is how a precompiled bundle works
(:mod:`engine.precompile`): when the folder is new and the installed package carries a bundle made from the same
source, numba version and Python, for a CPU this machine can run, :func:`enable` copies the bundle in and tells
numba to use the bundle's CPU target, and the first run loads kernels instead of compiling them for a minute.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path

_ENGINE = Path(__file__).resolve().parent

#: where a precompiled bundle lives in the installed package (made by ``python -m engine.precompile``)
BUNDLE = _ENGINE / "_bundle"
#: the file in a cache folder that names the CPU target its code was compiled for (absent: this machine's own CPU)
TARGET_FILE = "cpu-target.json"

#: numba's locators, ours first (see engine/_cache_locator.py); names without a dot are numba's own classes
_LOCATORS = ("engine._cache_locator.EngineLocator,UserProvidedCacheLocator,InTreeCacheLocator,UserWideCacheLocator,"
             "IPythonCacheLocator,ZipCacheLocator")


def source_digest() -> str:
    """A hash of the engine's source files and of the installed numba's version file (16 hex digits)."""
    h = hashlib.sha1()
    spec = importlib.util.find_spec("numba")  # finds the package without importing it (~0.3 s)
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
        candidates.append(None)  # the temp folder, looked up only if needed: tempfile costs ~9 ms to import
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


def enable(directory: str | os.PathLike | None = None) -> str | None:
    """Cache compiled kernels under ``directory`` (default: ``$NUMBA_CACHE_DIR``, ``$XDG_CACHE_HOME`` or
    ``~/.cache``, then the temp folder), in a subfolder named by :func:`source_digest`. Returns the folder, or None
    when none is writable (numba then keeps its default). Call it before the first kernel module is imported:
    numba fixes a kernel's cache location when the kernel is defined.
    """
    digest = source_digest()
    target = _choose(directory, digest)
    if target is not None:
        settings = {"NUMBA_CACHE_DIR": target, "NUMBA_CACHE_LOCATOR_CLASSES": _LOCATORS}
        if "NUMBA_CPU_NAME" not in os.environ:  # a user's own choice of CPU wins (the bundle then goes unused)
            cpu = _cpu_target(Path(target), digest)
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
    return target


def _cpu_target(folder: Path, digest: str) -> dict | None:
    """The CPU target of the cache folder's code: the one its bundle was made for, after copying the bundle in if
    the folder is new and the bundle fits; None for this machine's own CPU (numba's default)."""
    marker = folder / TARGET_FILE
    if not marker.exists() and (BUNDLE / "manifest.json").exists() and not _has_kernels(folder):
        manifest = bundle_fits(BUNDLE, digest)
        if manifest is not None:
            # the marker first: a process starting meanwhile then compiles for the same target as the bundle's
            # (what it finds copied it loads, what it compiles is equally valid), never for another
            try:
                _write_atomically(marker, json.dumps({k: manifest[k] for k in ("cpu_name", "cpu_features")}))
                _copy_bundle(BUNDLE / "kernels", folder)
            except OSError:  # a full disk: what was not copied compiles, for the marker's target (or this CPU's)
                pass
    try:
        return json.loads(marker.read_text())
    except (OSError, ValueError):
        return None


def _has_kernels(folder: Path) -> bool:
    """Whether numba has filed any kernel in the folder (a folder compiled here keeps this machine's target)."""
    return any(folder.glob("*/*.nbi"))


def bundle_fits(bundle: Path, digest: str) -> dict | None:
    """The bundle's manifest if its code was made from this engine source (``digest``), this numba version and
    Python, for a CPU this machine runs; otherwise None (the kernels then compile here, as without a bundle)."""
    manifest, _ = bundle_verdict(bundle, digest)
    return manifest


def bundle_verdict(bundle: Path, digest: str) -> tuple[dict | None, str]:
    """``(manifest, "")`` when the bundle fits this machine, else ``(None, why not)`` in one sentence."""
    try:
        manifest = json.loads((bundle / "manifest.json").read_text())
    except FileNotFoundError:
        return None, f"no precompiled bundle in {bundle}"
    except (OSError, ValueError) as error:
        return None, f"{bundle / 'manifest.json'} cannot be read: {error}"
    from importlib.metadata import PackageNotFoundError, version

    try:
        numba_version = version("numba")
    except PackageNotFoundError:
        return None, "numba is not installed"
    triple, features = host_cpu()
    missing = sorted(set(manifest.get("needs", ())) - features)
    for what, theirs, ours in (("engine source", manifest.get("digest"), digest),
                               ("numba version", manifest.get("numba"), numba_version),
                               ("Python", manifest.get("python"), python_tag()),
                               ("platform", manifest.get("triple"), triple)):
        if theirs != ours:
            return None, f"the bundle was made for another {what} ({theirs}; this is {ours})"
    if missing:
        return None, f"this CPU lacks {', '.join(missing)}, which the bundle's {manifest.get('cpu_name')} code needs"
    return manifest, ""


def host_cpu() -> tuple[str, set[str]]:
    """This machine's platform triple and CPU features as LLVM names them (``x86_64-unknown-linux-gnu``,
    ``{"avx2", "popcnt", ...}``): what numba compiles for, and what a bundle's code needs."""
    import llvmlite.binding as ll  # only on a first run with a bundle, or to make one: ~50 ms

    return ll.get_process_triple(), {f[1:] for f in ll.get_host_cpu_features().flatten().split(",")
                                     if f.startswith("+")}


def python_tag() -> str:
    """The tag numba puts in its cache file names (py311): code compiled for one Python is not used by another."""
    return "py%d%d%s" % (sys.version_info[0], sys.version_info[1], getattr(sys, "abiflags", ""))


def _copy_bundle(source: Path, folder: Path) -> None:
    """Copy the bundle's files into the cache folder, each under a temporary name first: a process that starts
    meanwhile sees whole files or none (two first runs at once copy the same bytes)."""
    for path in sorted(source.rglob("*")):
        if path.is_file():
            _write_atomically(folder / path.relative_to(source), path)


def _write_atomically(destination: Path, content: str | Path) -> None:
    destination.parent.mkdir(parents=True, exist_ok=True)
    temporary = destination.with_name(f".{destination.name}.{os.getpid()}.tmp")
    if isinstance(content, Path):
        shutil.copyfile(content, temporary)
    else:
        temporary.write_text(content)
    os.replace(temporary, destination)
