"""Benchmark ``full`` keys of rectangles and Latin squares: the pruned searches, beside the enumerations they
replaced where those end.

    python bench/bench_shape_keys.py            # about a minute on two shared cores
    python bench/bench_shape_keys.py --quick    # a few seconds

Boards come from the engine's WFC generator (seeded, so every run keys the same boards). Each figure is CPU ms a
key (``time.thread_time`` of the keying thread: a shared machine's neighbours slow it far less than wall time),
the median of ``--repeats`` runs over the same boards, after a warm-up call that loads the kernels. The searches
run as ``canonical_keys`` does (engine/keys/rect_full.py, engine/keys/latin.py); the enumerations are their plain
twins (tests/naive/key_enumerations.py: every column order, or every column order of every first row and
conjugate), timed on fewer boards where they take tenths of a second a board. The load average is printed first.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np
from tabulate import tabulate

from _common import ROOT

#: (shape spec, boards, whether the enumeration is timed too, boards for the enumeration)
CASES = [("2x4", 200, True, 40), ("3x4", 200, True, 8), ("2x6", 200, True, 4), ("2x7", 200, False, 0),
         ("3x5", 200, False, 0), ("4x5", 100, False, 0), ("4x6", 100, False, 0), ("3x8", 100, False, 0),
         ("latin6", 200, True, 100), ("latin7", 200, True, 20), ("latin9", 200, False, 0),
         ("latin12", 200, False, 0), ("latin16", 100, False, 0), ("latin25", 100, False, 0)]


def cpu_ms(fn, count: int, repeats: int) -> float:
    """Median CPU ms a key of ``fn()`` (which keys ``count`` boards) over ``repeats`` runs."""
    times = []
    for _ in range(repeats):
        t = time.thread_time()
        fn()
        times.append(time.thread_time() - t)
    return statistics.median(times) / count * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the boards, one run each")
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure; the median is shown (default 5)")
    args = parser.parse_args()

    from engine.generators.wfc import generate_array
    from engine.keys import canonical_keys
    from engine.keys.rect_full import oriented
    from engine.shape import Shape

    sys.path.append(str(ROOT / "tests"))  # after the engine is imported: tests/engine must not shadow it
    from naive.key_enumerations import latin_enumerated_keys, rect_enumerated_keys

    repeats = 1 if args.quick else args.repeats
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min); {os.cpu_count()} cores")
    rows = []
    for spec, count, enumerate_too, old_count in CASES:
        shape = Shape.parse(spec)
        count = max(4, count // 10) if args.quick else count
        boards = generate_array(shape, count, 2024)[0]
        canonical_keys(boards[:2], shape, "full")  # kernels loaded
        new = cpu_ms(lambda: canonical_keys(boards, shape, "full"), count, repeats)
        old = ratio = None
        if enumerate_too:
            few = boards[:max(2, old_count // 10) if args.quick else old_count]
            if shape.kind == "latin":
                def enumerate_keys():
                    return latin_enumerated_keys(few, shape.size)
            else:
                work, transpose, rb, cb = oriented(few, shape)

                def enumerate_keys():
                    return rect_enumerated_keys(work, shape.size, rb, cb)
            enumerate_keys()  # compiled (numba's own cache, beside the twin)
            old = cpu_ms(enumerate_keys, len(few), repeats)
            ratio = old / new
        rows.append([spec, count, f"{new:.3f}", "" if old is None else f"{old:,.1f}",
                     "" if ratio is None else f"x{ratio:,.0f}"])
    print(tabulate(rows, headers=["shape", "boards", "search ms/key", "enumeration ms/key", "search faster"],
                   disable_numparse=True,
                   colalign=("left", "right", "right", "right", "right")))


if __name__ == "__main__":
    main()
