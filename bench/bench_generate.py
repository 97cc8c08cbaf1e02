"""Boards per second of every generator and size, threads, restarts, and the pure-Python WFC peer.

    python bench/bench_generate.py            # about two minutes on a quiet 2-core machine
    python bench/bench_generate.py --quick    # a few seconds per line, fewer boards
    python bench/bench_generate.py --shapes   # WFC's propagation with and without locked candidates per shape

Each figure is the median of ``--repeats`` timed runs after one warm-up call (which also compiles the kernels);
boards per second count one kernel call per thread (``generate_array``). Restarts are per board, the mean
over every board of every repeat. The peer is the plain-Python twin of WFC from tests/naive/generators.py (sets
of candidates, same random stream, same boards), run on a few boards.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

import numpy as np
from tabulate import tabulate

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import _common  # noqa: E402,F401  (first: it enables the kernel cache before kernels load)
from engine.generators import backtrack, derive_seeds, pattern, wfc  # noqa: E402

MODULES = {"wfc": wfc, "backtrack": backtrack, "pattern": pattern}


def load_twin():
    """The plain-Python WFC twin from the tests' reference twins (tests/naive/generators.py)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from naive.generators import twin_wfc

    return twin_wfc


def measure(method: str, box: int, count: int, repeats: int, threads: int = 1, **options):
    """Medians of boards per wall second and per CPU second, mean restarts per board, and CPU/wall.

    Why CPU seconds too: this machine's 2 cores are shared with other work, so wall-clock rates say as much
    about the neighbours as about the kernel; process CPU time counts only the time our threads ran.
    """
    m = MODULES[method]
    m.generate_array(box, min(count, 2), 0, threads=threads, **options)  # compile and warm up
    wall_rates, cpu_rates, busy, restarts = [], [], [], []
    for r in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        _, _, rs = m.generate_array(box, count, 1000 + r, threads=threads, **options)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        wall_rates.append(count / wall)
        cpu_rates.append(count / max(cpu, 1e-9))
        busy.append(cpu / wall)
        restarts.extend(rs.tolist())
    return (statistics.median(wall_rates), statistics.median(cpu_rates), float(np.mean(restarts)),
            statistics.median(busy))


def speed_table(quick: bool, repeats: int) -> list[list]:
    scale = 0.1 if quick else 1.0
    plan = [  # method, box, boards per run, options
        ("wfc", 3, 20000, {"propagate": False}), ("wfc", 3, 20000, {"propagate": True}),
        ("backtrack", 3, 50000, {}), ("pattern", 3, 200000, {}), ("pattern", 3, 200000, {"shuffle": True}),
        ("wfc", 2, 50000, {"propagate": False}), ("wfc", 2, 50000, {"propagate": True}),
        ("backtrack", 2, 50000, {}), ("pattern", 2, 50000, {}),
        ("wfc", 4, 300, {"propagate": False}), ("wfc", 4, 1000, {"propagate": True}),
        ("backtrack", 4, 500, {}), ("pattern", 4, 20000, {}),
        ("wfc", 5, 4, {"propagate": False}), ("wfc", 5, 100, {"propagate": True}),
        ("backtrack", 5, 4, {}), ("pattern", 5, 5000, {}),
    ]
    rows = []
    for method, box, count, options in plan:
        count = max(1, int(count * scale))
        reps = 1 if (box == 5 and method != "pattern") else repeats
        wall_rate, cpu_rate, restarts, _ = measure(method, box, count, reps, **options)
        label = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
        rows.append([f"{box * box}x{box * box}", method, label, f"{count * reps:,}", f"{cpu_rate:,.1f}",
                     f"{wall_rate:,.1f}", f"{1e3 / cpu_rate:,.3f}", f"{restarts:,.2f}"])
        print(f"  done {rows[-1][:3]}", file=sys.stderr, flush=True)
    return rows


def overlap(method: str, count: int) -> float:
    """How much two threads' kernel calls overlapped in time, as a fraction of the shorter call.

    Unlike the speed ratio this does not depend on the machine being idle: a kernel holding the GIL would
    make the second call wait for the first (overlap near 0); nogil kernels run side by side (near 1).
    """
    m, seeds, spans = MODULES[method], derive_seeds(3, 2 * count), {}

    def work(k: int) -> None:
        t0 = time.perf_counter()
        m.generate_seeds(3, seeds[k * count:(k + 1) * count])
        spans[k] = (t0, time.perf_counter())

    workers = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    (a0, a1), (b0, b1) = spans[0], spans[1]
    return max(0.0, min(a1, b1) - max(a0, b0)) / min(a1 - a0, b1 - b0)


def thread_table(quick: bool, repeats: int) -> list[list]:
    rows = []
    for method, count in (("wfc", 40000), ("backtrack", 100000), ("pattern", 400000)):
        count = int(count * (0.2 if quick else 1.0))
        one = measure(method, 3, count, repeats, threads=1)
        two = measure(method, 3, count, repeats, threads=2)
        rows.append([method, f"{one[0]:,.0f}", f"{two[0]:,.0f}", f"{two[0] / one[0]:.2f}x", f"{two[3]:.2f}",
                     f"{overlap(method, count // 2):.0%}"])
    return rows


def peer_table(quick: bool, repeats: int) -> list[list]:
    twin = load_twin()
    count = 5 if quick else 20
    rows = []
    for propagate in (False, True):
        seeds = derive_seeds(7, count)
        c0 = time.process_time()
        for s in seeds:
            twin(3, int(s), propagate)
        python_rate = count / (time.process_time() - c0)
        kernel_rate = measure("wfc", 3, 20000 if not quick else 2000, repeats, propagate=propagate)[1]
        rows.append([f"propagate={propagate}", f"{python_rate:,.1f}", f"{kernel_rate:,.0f}",
                     f"{kernel_rate / python_rate:,.0f}x"])
    return rows


def shape_table(repeats: int) -> list[list]:
    """WFC with singles against singles and locked candidates, per shape: CPU ms a board and restarts."""
    from engine.regions import random_layout
    from engine.shape import Shape

    plan = [("9x9 (3x3)", 3, 2000), ("6x6 (2x3)", Shape.boxes(2, 3), 2000), ("12x12 (3x4)", Shape.boxes(3, 4), 300),
            ("Latin 9", Shape.latin(9), 2000), ("X 9x9", Shape.square(3, True), 1000)]
    plan += [(f"jigsaw {n}x{n} (seed {seed})", random_layout(n, seed), count)
             for n, seed, count in ((6, 1, 2000), (9, 1, 500), (9, 2, 500), (9, 3, 500), (12, 1, 20))]
    plan += [("jigsaw 9x9 X (seed 1)", random_layout(9, 1, True), 50)]
    rows = []
    for name, shape, count in plan:
        singles = measure("wfc", shape, count, repeats, propagate=True, locked=False)
        locked = measure("wfc", shape, count, repeats, propagate=True, locked=True)
        rows.append([name, f"{count:,}", f"{1e3 / singles[1]:,.3f}", f"{singles[2]:,.2f}", f"{1e3 / locked[1]:,.3f}",
                     f"{locked[2]:,.2f}", f"x{singles[1] / locked[1]:.2f}",
                     "locked" if wfc.default_locked(shape) else "singles"])
        print(f"  done {name}", file=sys.stderr, flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer boards per measurement")
    parser.add_argument("--repeats", type=int, default=None, help="timed runs per figure (median) [5; quick 3]")
    parser.add_argument("--shapes", action="store_true", help="only the table of WFC's propagation per shape")
    args = parser.parse_args()
    repeats = args.repeats or (3 if args.quick else 5)
    if args.shapes:
        print(f"WFC with propagation per shape: singles, then singles and locked candidates; CPU ms a board and "
              f"restarts a board, median of {repeats} ({_common.host_line()})\n")
        print(tabulate(shape_table(repeats), headers=["shape", "boards", "singles ms", "restarts", "+locked ms",
                                                      "restarts", "locked / singles", "default"],
                       disable_numparse=True, stralign="right"))
        return
    print(f"catalogue generators, {'quick' if args.quick else 'full'} run, median of {repeats} "
          f"(25x25 searches: 1 run)\n")
    table = dict(disable_numparse=True, stralign="right")
    print(tabulate(speed_table(args.quick, repeats), headers=["size", "method", "options", "boards",
                                                               "boards/CPU s", "boards/wall s", "CPU ms/board",
                                                               "restarts/board"], **table))
    print("\n9x9, one kernel call per thread (nogil). CPU/wall near 2.0 = both cores busy; overlap = how much "
          "the two\nthreads' kernel calls overlapped in time (a GIL-holding kernel would give ~0%):")
    print(tabulate(thread_table(args.quick, repeats), headers=["method", "1 thread boards/s",
                                                                "2 threads boards/s", "ratio", "CPU/wall",
                                                                "overlap"],
                   **table))
    print("\n9x9 WFC against its pure-Python twin (same boards, per CPU second):")
    print(tabulate(peer_table(args.quick, repeats), headers=["wfc", "pure Python boards/s", "kernel boards/s",
                                                              "kernel / Python"], **table))


if __name__ == "__main__":
    main()
