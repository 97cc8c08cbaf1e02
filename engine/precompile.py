"""Compile the kernels ahead of time into a bundle that ships inside the package: a new machine's first run loads
them instead of compiling them for a minute.

``python -m engine.precompile`` (options: ``--size``, ``--out``, ``--check``) compiles, for each size asked (4x4 and
9x9 by default), every kernel the commands call: every warm-up job of :mod:`engine.warmup.jobs` (the generators,
the keys, the carver, the solvers, the grader), on every core (:func:`engine.warmup.prepare`). It writes ``engine/_bundle/``: the compiled
files, laid out as in a cache folder (see :mod:`engine._cache_locator`), and ``manifest.json``, which says what
they were made from: the engine source's digest, numba's version, the Python and the CPU target. A wheel built
afterwards (``pip wheel . --no-deps``) carries the bundle; on a first run :func:`engine.cache.enable` copies it
into the new cache folder when the manifest fits the machine (:mod:`engine.bundle`), and otherwise nothing changes
(the kernels compile as before).

Why a CPU baseline rather than this machine's CPU: numba compiles for the CPU it runs on and will load cached code
only on a machine that reports the same CPU. The bundle is compiled for a baseline (x86-64-v3: AVX2, BMI, POPCNT;
every x86-64 CPU since 2013-2015 runs it), which costs a few per cent of speed against the newest CPUs (see
docs/benchmarks.md) and lets one bundle serve every such machine. Elsewhere (ARM) it is LLVM's generic CPU.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import bundle, cache
from .geometry import box_for_size
from .warmup.jobs import job_id, job_names

#: the CPU each architecture's bundle is compiled for, and the features a machine needs to run it
BASELINES = {
    "x86_64": ("x86-64-v3", ("avx", "avx2", "bmi", "bmi2", "cx16", "f16c", "fma", "lzcnt", "movbe", "popcnt",
                             "sahf", "sse3", "sse4.1", "sse4.2", "ssse3", "xsave")),
}
GENERIC = ("generic", ())

def baseline() -> tuple[str, str, tuple[str, ...]]:
    """(LLVM triple, CPU name, features it needs) for this machine's bundle."""
    triple, host = bundle.host_cpu()
    name, needs = BASELINES.get(triple.split("-")[0], GENERIC)
    if not set(needs) <= host:  # an older machine cannot even run its own bundle: make a generic one
        name, needs = GENERIC
    return triple, name, needs


# ---- the driver -----------------------------------------------------------------------------------------------

def _compiled_files(folder: Path) -> int:
    return sum(1 for _ in folder.rglob("*.nbc"))


def build(out: Path, sizes=(4, 9), jobs=job_names(), log=print) -> dict:
    """Compile the warm-up ``jobs`` (engine.warmup.jobs; all by default) for ``sizes`` for this machine's baseline
    CPU, on every core (engine.warmup.prepare), and write the bundle to ``out``."""
    digest = cache.source_digest()
    triple, cpu_name, needs = baseline()
    from importlib.metadata import version

    with tempfile.TemporaryDirectory(prefix="catalogue-precompile-") as work:
        folder = Path(work) / digest  # named by the digest: the children's cache.enable() keeps it
        folder.mkdir()
        env = dict(os.environ, NUMBA_CACHE_DIR=str(folder), NUMBA_CPU_NAME=cpu_name, NUMBA_CPU_FEATURES="")
        started, cpu0 = time.perf_counter(), os.times()
        ids = [job_id(name, box_for_size(size)) for size in sizes for name in jobs]
        # in a child: numba reads the CPU target when it is imported, and the child's compile workers inherit it;
        # always on the workers (however few seconds the plan says), so what the child compiles itself is only what
        # the plan lacks
        code = ("import sys; from engine.warmup import prepare; r = prepare(sys.argv[1:], workers_from=0.0); "
                "print(r.compiled_here)")
        child = subprocess.run([sys.executable, "-c", code, *ids], env=env, capture_output=True, text=True)
        if child.returncode:
            raise RuntimeError(f"compiling the kernels failed (exit code {child.returncode}): "
                               f"{child.stderr.strip().splitlines()[-1:] or ''}")
        missing = int(child.stdout.split()[-1])
        cpu1 = os.times()
        manifest = {"digest": digest, "numba": version("numba"), "python": bundle.python_tag(), "triple": triple,
                    "cpu_name": cpu_name, "cpu_features": "", "needs": list(needs), "sizes": list(sizes),
                    "jobs": list(jobs),
                    "files": _compiled_files(folder), "compile_seconds": round(time.perf_counter() - started, 1),
                    "compile_cpu_seconds": round(cpu1.children_user + cpu1.children_system
                                                 - cpu0.children_user - cpu0.children_system, 1),
                    "compiled_outside_the_plan": missing}
        staged = out.with_name(out.name + ".new")
        shutil.rmtree(staged, ignore_errors=True)
        shutil.copytree(folder, staged / "kernels")
        (staged / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
        shutil.rmtree(out, ignore_errors=True)
        os.replace(staged, out)
    log(f"precompiled {manifest['files']} kernel files for sizes {', '.join(map(str, sizes))} ({cpu_name}) in "
        f"{manifest['compile_seconds']} s ({manifest['compile_cpu_seconds']} s of CPU) into {out}")
    return manifest


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        """A usage error is one line on stderr and exit 2, as everywhere in the project (not argparse's usage)."""
        print(f"engine.precompile: {message}", file=sys.stderr)
        sys.exit(2)


def main(argv=None) -> int:
    parser = _Parser(prog="python -m engine.precompile", description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, action="append", choices=(4, 9, 16, 25),
                        help="grid size to compile for (repeat for several; default 4 and 9)")
    parser.add_argument("--out", type=Path, default=bundle.BUNDLE, help=f"bundle folder (default {bundle.BUNDLE})")
    parser.add_argument("--check", action="store_true",
                        help="only say whether the bundle in --out fits this machine (exit 0) or why not (exit 1)")
    args = parser.parse_args(argv)
    if args.check:
        manifest, why = bundle.bundle_verdict(args.out, cache.source_digest())
        if manifest is None:
            print(f"engine.precompile: {why}: the kernels compile on the first run", file=sys.stderr)
            return 1
        print(f"{args.out}: {manifest['files']} kernel files for sizes {', '.join(map(str, manifest['sizes']))}, "
              f"{manifest['cpu_name']}: fits this machine (a first run loads them)")
        return 0
    try:
        build(args.out, tuple(args.size or (4, 9)))
    except (RuntimeError, OSError) as error:
        print(f"engine.precompile: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
