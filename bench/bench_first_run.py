"""A new machine's first run: `catalogue fill --count 1000` from a wheel with kernels compiled ahead of time,
side by side with the same wheel built without them (every kernel compiles on the first run).

    python bench/bench_first_run.py [--runs 3] [--count 1000] [--speed-count 5000]

What it does, all under one temporary folder (the checkout and the user's caches are not touched):
1. copies this working tree, runs ``python -m engine.precompile`` in the copy (timed: the cost moved ahead of time)
   and builds two wheels of it, one with the bundle and one without;
2. installs each wheel into a fresh virtual environment (dependencies from the package index);
3. ``--runs`` times each, alternately: an empty cache folder (a new machine), then `catalogue fill --count 1000`
   from the shell: wall and CPU time of the whole command, the "kernels loaded in" figure the fill prints, and how
   many kernel files the run compiled itself;
4. the speed the bundle's baseline CPU code costs: `catalogue fill --count 5000` warm, in both environments in
   turn (``--runs`` pairs), CPU seconds of each and their ratio.
Target (issue 11): the first `fill --count 1000` spends <= 15 s compiling.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def _copy_tree(dest: Path) -> None:
    """The working tree's files (tracked and new, not ignored) as they are now."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    for name in files:
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


def _timed(cmd, env, cwd) -> tuple[float, float, str, int]:
    """Wall and CPU seconds of a child command (its whole process tree), its output and exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out.stdout + out.stderr, out.returncode


def _wheel(src: Path, out: Path) -> Path:
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-q", "-w", str(out)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return next(out.glob("*.whl"))


def _venv(wheel: Path, where: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    subprocess.run([str(where / "bin" / "pip"), "install", "-q", str(wheel)], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return where / "bin" / "catalogue"


def _env(home: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "CATALOGUE_", "VIRTUAL_ENV"))}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / "cache"))
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--speed-count", type=int, default=5000)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-first-run-") as tmp:
        tmp = Path(tmp)
        src = tmp / "src"
        _copy_tree(src)
        plain_wheel = _wheel(src, tmp / "wheel-plain")
        print(f"load before precompiling: {_load()}")
        env = dict(os.environ, PYTHONPATH=str(src))
        wall, cpu, out, code = _timed([sys.executable, "-m", "engine.precompile"], env, src)
        if code:
            sys.exit(f"precompile failed:\n{out}")
        print(out.strip())
        print(f"precompile: wall {wall:.1f} s, CPU {cpu:.1f} s (both processes)")
        bundle_wheel = _wheel(src, tmp / "wheel-bundle")
        with zipfile.ZipFile(bundle_wheel) as z:
            bundled = sum(1 for n in z.namelist() if n.endswith(".nbc"))
        print(f"wheels: {plain_wheel.stat().st_size / 1e6:.1f} MB plain, {bundle_wheel.stat().st_size / 1e6:.1f} MB "
              f"with the bundle ({bundled} kernel files)")
        clis = {"with bundle": _venv(bundle_wheel, tmp / "venv-bundle"), "no bundle": _venv(plain_wheel,
                                                                                            tmp / "venv-plain")}

        rows = {name: [] for name in clis}
        for run in range(args.runs):
            for name, cli in clis.items():
                home = tmp / f"home-{name.replace(' ', '-')}-{run}"
                (home / "cache").mkdir(parents=True)
                load = _load()
                wall, cpu, out, code = _timed([str(cli), "fill", "--count", str(args.count), "--seed", "1",
                                               "--db", str(home / "c.db")], _env(home), home)
                loaded = re.search(r"kernels loaded in ([\d.]+) s", out)
                files = sum(1 for _ in (home / "cache").rglob("*.nbc"))
                compiled = files - (bundled if name == "with bundle" else 0)
                rows[name].append((wall, cpu, float(loaded.group(1)) if loaded else float("nan"), compiled))
                print(f"run {run + 1} {name:12} exit {code}, wall {wall:6.2f} s, CPU {cpu:6.1f} s, kernels loaded in "
                      f"{loaded.group(1) if loaded else '?'} s, kernel files compiled by the run: {compiled} "
                      f"(load before: {load})")
        print(f"\nfirst `catalogue fill --count {args.count}` on an empty cache, median of {args.runs}:")
        print(f"{'':14}{'wall s':>10}{'CPU s':>10}{'kernels loaded in s':>22}{'files compiled':>16}")
        for name, values in rows.items():
            med = [statistics.median(v[i] for v in values) for i in range(4)]
            print(f"{name:14}{med[0]:10.2f}{med[1]:10.1f}{med[2]:22.2f}{med[3]:16.0f}")

        # what the baseline CPU costs: the same warm fill in both environments, in turn
        homes = {name: tmp / f"home-{name.replace(' ', '-')}-0" for name in clis}
        cpus = {name: [] for name in clis}
        print(f"\nwarm `catalogue fill --count {args.speed_count}`, the two environments in turn:")
        for run in range(args.runs):
            for name, cli in clis.items():
                db = homes[name] / f"speed-{run}.db"
                load = _load()
                wall, cpu, out, code = _timed([str(cli), "fill", "--count", str(args.speed_count), "--seed", "3",
                                               "--db", str(db)], _env(homes[name]), homes[name])
                cpus[name].append(cpu)
                print(f"run {run + 1} {name:12} exit {code}, wall {wall:6.2f} s, CPU {cpu:6.2f} s "
                      f"(load before: {load})")
        ratios = [a / b for a, b in zip(cpus["with bundle"], cpus["no bundle"])]
        print(f"CPU with bundle / no bundle: median {statistics.median(ratios):.3f} "
              f"({', '.join(f'{r:.3f}' for r in ratios)})")


if __name__ == "__main__":
    main()
