"""What several benchmarks share: timing by medians, and random boards to work on.

Benchmarks run as scripts (``python bench/bench_x.py``), so this folder is on ``sys.path`` and they import this
module as ``_common``; it puts the repository first on the path so an uninstalled checkout works too.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import cache  # noqa: E402

cache.enable()  # before any benchmark imports a kernel module: the warm cache is shared with the CLI and tests


def cpu_model() -> str:
    """The host's CPU model from /proc/cpuinfo, with its family and model numbers (a VM may name only the maker:
    "AMD EPYC" is a Zen 3 or a Zen 4, which bench/results/hosts.toml tells apart by them) and AVX-512 when it has
    it; the platform's name for it elsewhere."""
    import platform

    fields: dict[str, str] = {}
    try:
        for line in open("/proc/cpuinfo"):
            key, _, value = line.partition(":")
            key = key.strip()
            if not key:  # the first processor's block is enough
                break
            fields.setdefault(key, value.strip())
    except OSError:
        pass
    if "model name" not in fields:
        return platform.processor() or "unknown CPU"
    extra = [f"family {fields['cpu family']}, model {fields['model']}"] if "cpu family" in fields else []
    if "avx512f" in fields.get("flags", "").split():
        extra.append("AVX-512")
    return fields["model name"] + (f" ({', '.join(extra)})" if extra else "")


def host_line() -> str:
    """``AMD EPYC ..., 2 CPUs, load average 0.93``: what every figure is printed beside."""
    import os

    return f"{cpu_model()}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}"


def timed(fn, repeats: int) -> tuple[float, float]:
    """Median wall and CPU seconds (the whole process: every thread) of ``fn()`` over ``repeats`` runs, after one
    warm-up run that pays any kernel compilation or cache load."""
    fn()
    walls, cpus = [], []
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus)


def random_boards(box: int, count: int, seed: int) -> np.ndarray:
    """``count`` random complete boards ``(count, ncells)`` from the randomized backtracking generator."""
    from engine.generators import generate_many

    return np.stack([b.cells for b in generate_many(box, "backtrack", count, seed)])
