"""Compile the kernels ahead of time into a bundle that ships inside the package: a new machine's first run loads
them instead of compiling them for a minute.

``python -m engine.precompile`` (options: ``--size``, ``--out``, ``--check``) compiles, for each size asked (4x4 and
9x9 by default), every kernel the commands call: the generators, the keys, the carver, the solvers and the grader,
in two processes at once (the grader in one, the rest in the other). It writes ``engine/_bundle/``: the compiled
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

#: the CPU each architecture's bundle is compiled for, and the features a machine needs to run it
BASELINES = {
    "x86_64": ("x86-64-v3", ("avx", "avx2", "bmi", "bmi2", "cx16", "f16c", "fma", "lzcnt", "movbe", "popcnt",
                             "sahf", "sse3", "sse4.1", "sse4.2", "ssse3", "xsave")),
}
GENERIC = ("generic", ())

#: the two halves compiled at once: the grader is about half of the work (see engine/warmup.py)
HALVES = (("grade",), ("generate", "keys", "carve", "solve"))


def baseline() -> tuple[str, str, tuple[str, ...]]:
    """(LLVM triple, CPU name, features it needs) for this machine's bundle."""
    triple, host = bundle.host_cpu()
    name, needs = BASELINES.get(triple.split("-")[0], GENERIC)
    if not set(needs) <= host:  # an older machine cannot even run its own bundle: make a generic one
        name, needs = GENERIC
    return triple, name, needs


# ---- what each part compiles: the engine calls the commands make, on a tiny input -------------------------------

def _boards(box: int):
    from .generators import get_generator

    boards, seeds, _ = get_generator("wfc").generate_array(box, 2, 1)
    return boards, seeds


def _generate(box: int) -> None:
    from .generators import GENERATORS, get_generator

    for method in GENERATORS:
        get_generator(method).generate_array(box, 2, 1)


def _keys(box: int) -> None:
    from .keys import key_texts
    from .vocabulary import EQUIVALENCES

    boards, _ = _boards(box)
    for equivalence in EQUIVALENCES:
        key_texts(boards, box, equivalence)


def _carve(box: int) -> None:
    from .carve import carve_many

    boards, seeds = _boards(box)
    carve_many(boards, box, seeds)
    carve_many(boards, box, seeds, symmetry="rot180", target_clues=boards.shape[1] // 2, attempts=2)


def _solve(box: int) -> None:
    import numpy as np

    from .carve import carve_many
    from .grid import Grid
    from .solvers import SOLVERS, count_solutions, solve
    from .solvers import fast

    boards, seeds = _boards(box)
    puzzles = np.stack([r.puzzle for r in carve_many(boards, box, seeds)])
    fast.solve_many(puzzles, box)
    fast.count_many(puzzles, box, limit=2)
    fast.metrics_many(puzzles, box, limit=1)
    grid = Grid.puzzle(puzzles[0])
    for name in SOLVERS:
        solve(grid, solver=name)
        count_solutions(grid, limit=2, solver=name)


def _grade(box: int) -> None:
    import numpy as np

    from .carve import carve_many, relax_many
    from .grade import grade_many
    from .vocabulary import LEVELS

    boards, seeds = _boards(box)
    carvings = carve_many(boards, box, seeds)
    grade_many(np.stack([c.puzzle for c in carvings]), box)
    relax_many(carvings, boards, box, LEVELS[0], seeds)


PARTS = {"generate": _generate, "keys": _keys, "carve": _carve, "solve": _solve, "grade": _grade}


def run(parts, sizes) -> None:
    """Compile (or load) ``parts`` for every size, in this process, into the cache :func:`cache.enable` chose."""
    cache.enable()
    from .geometry import box_for_size

    for size in sizes:
        for part in parts:
            PARTS[part](box_for_size(size))


# ---- the driver -----------------------------------------------------------------------------------------------

def _compiled_files(folder: Path) -> int:
    return sum(1 for _ in folder.rglob("*.nbc"))


def _children(parts_groups, sizes, env) -> None:
    code = "import sys; from engine.precompile import run; run(sys.argv[1].split(','), [int(s) for s in sys.argv[2:]])"
    children = [subprocess.Popen([sys.executable, "-c", code, ",".join(parts), *map(str, sizes)], env=env)
                for parts in parts_groups]
    try:
        codes = [child.wait() for child in children]
    except BaseException:
        for child in children:
            child.kill()
        raise
    if any(codes):
        raise RuntimeError(f"compiling the kernels failed (exit codes {codes})")


def build(out: Path, sizes=(4, 9), parts=tuple(PARTS), log=print) -> dict:
    """Compile ``parts`` of the kernels (all by default) for ``sizes`` for this machine's baseline CPU and write the
    bundle to ``out``."""
    digest = cache.source_digest()
    triple, cpu_name, needs = baseline()
    from importlib.metadata import version

    with tempfile.TemporaryDirectory(prefix="catalogue-precompile-") as work:
        folder = Path(work) / digest  # named by the digest: the children's cache.enable() keeps it
        folder.mkdir()
        env = dict(os.environ, NUMBA_CACHE_DIR=str(folder), NUMBA_CPU_NAME=cpu_name, NUMBA_CPU_FEATURES="")
        started, cpu0 = time.perf_counter(), os.times()
        _children([h for h in (tuple(p for p in half if p in parts) for half in HALVES) if h], sizes, env)
        compiled = _compiled_files(folder)
        # one more pass over everything in one process: a kernel both halves compiled at once may have lost its
        # index entry to the other's write; this pass compiles whatever is missing, and should find nothing
        _children([tuple(parts)], sizes, env)
        missing = _compiled_files(folder) - compiled
        cpu1 = os.times()
        manifest = {"digest": digest, "numba": version("numba"), "python": bundle.python_tag(), "triple": triple,
                    "cpu_name": cpu_name, "cpu_features": "", "needs": list(needs), "sizes": list(sizes),
                    "parts": list(parts),
                    "files": _compiled_files(folder), "compile_seconds": round(time.perf_counter() - started, 1),
                    "compile_cpu_seconds": round(cpu1.children_user + cpu1.children_system
                                                 - cpu0.children_user - cpu0.children_system, 1),
                    "missing_after_halves": missing}
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
