"""The precompiled bundle a package may carry (made by ``python -m engine.precompile``): whether it fits this
machine, and seeding a new cache folder from it.

A bundle is a cache folder's files compiled ahead of time for a baseline CPU, with ``manifest.json`` saying what
they were made from. It fits when the engine source (its digest), numba's version, the Python and the platform are
this machine's and the CPU has every feature the code needs. A new cache folder (no kernel compiled in it yet) is
then filled from the bundle and marked with the bundle's CPU target (:data:`TARGET_FILE`), which numba must be told
for every kernel of that folder: :func:`engine.cache.enable` reads it through :func:`cpu_target`.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

#: where a precompiled bundle lives in the installed package
BUNDLE = Path(__file__).resolve().parent / "_bundle"
#: the file in a cache folder that names the CPU target its code was compiled for (absent: this machine's own CPU)
TARGET_FILE = "cpu-target.json"


def cpu_target(folder: Path, digest: str) -> dict | None:
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
    for what, theirs, ours in (("engine source", manifest.get("digest"), digest),
                               ("numba version", manifest.get("numba"), numba_version),
                               ("Python", manifest.get("python"), python_tag())):
        if theirs != ours:
            return None, f"the bundle was made for another {what} ({theirs}; this is {ours})"
    triple, features = host_cpu()  # last: it imports llvmlite, and an edited engine (the usual misfit) needs none
    if manifest.get("triple") != triple:
        return None, f"the bundle was made for another platform ({manifest.get('triple')}; this is {triple})"
    missing = sorted(set(manifest.get("needs", ())) - features)
    if missing:
        return None, f"this CPU lacks {', '.join(missing)}, which the bundle's {manifest.get('cpu_name')} code needs"
    return manifest, ""


def host_cpu() -> tuple[str, set[str]]:
    """This machine's platform triple and CPU features as LLVM names them (``x86_64-unknown-linux-gnu``,
    ``{"avx2", "popcnt", ...}``): what numba compiles for, and what a bundle's code needs."""
    import llvmlite.binding as ll  # only on a first run with a bundle, or to make one: a slow import

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
