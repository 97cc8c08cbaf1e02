"""Benchmark canonical keys: rates per equivalence and size, thread scaling, and a plain-Python d4 peer.

    python bench/bench_keys.py            # about a minute
    python bench/bench_keys.py --quick    # a few seconds

Boards come from the engine's WFC generator (seeded, so every run keys the same boards); puzzles are those boards
with each cell kept with probability 0.4 (so ~40% clues, no conflicts). Keys are computed as the catalogue's
checker threads do: canonical_keys on batches of 256. Rates are per CPU second of the keying thread (per core),
median of several repeats: on a shared machine wall time mostly measures the neighbours. Thread scaling runs the
same batches split over 1 and 2 threads (wall time, and CPU/wall to show the kernels release the GIL); the peer
is a plain-Python d4 key (min over the 8 images as tuples).
"""
from __future__ import annotations

import argparse
import os
import statistics
import threading
import time

import numpy as np
from tabulate import tabulate

import _common  # noqa: E402,F401  (first: it enables the kernel cache before kernels load)
from engine.keys import canonical_keys, warm
from engine.generators import generate_many

BATCH = 256


def boards_for(box: int, count: int, seed: int = 2024) -> np.ndarray:
    return np.stack([np.asarray(g.cells, dtype=np.int8) for g in generate_many(box, "wfc", count, seed)])


def puzzles_from(boards: np.ndarray, seed: int = 7) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.where(rng.random(boards.shape) < 0.4, boards, 0).astype(np.int8)


def key_all(grids: np.ndarray, box: int, equivalence: str) -> None:
    for k in range(0, len(grids), BATCH):
        canonical_keys(grids[k:k + BATCH], box, equivalence)


def rate(grids: np.ndarray, box: int, equivalence: str, repeats: int) -> float:
    """Median grids per CPU second of this (single) thread over ``repeats`` runs: the per-core rate, which other
    processes on a shared machine slow down far less than wall time."""
    times = []
    for _ in range(repeats):
        t = time.thread_time()
        key_all(grids, box, equivalence)
        times.append(max(time.thread_time() - t, 1e-9))
    return len(grids) / statistics.median(times)


def threaded_seconds(grids: np.ndarray, box: int, equivalence: str, nthreads: int) -> tuple[float, float]:
    """(wall seconds, process CPU seconds) to key ``grids`` split over ``nthreads`` threads."""
    parts = np.array_split(grids, nthreads)
    threads = [threading.Thread(target=key_all, args=(part, box, equivalence)) for part in parts]
    t, c = time.perf_counter(), time.process_time()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return time.perf_counter() - t, time.process_time() - c


def gil_check(grids: np.ndarray, box: int, equivalence: str) -> tuple[float, float]:
    """(kernel seconds, main-thread progress) while another thread keys ``grids`` in one call: progress is the
    main thread's Python loop rate during the call over its rate alone. A kernel holding the GIL would freeze the
    main thread (progress ~0); on a busy machine the two threads also share cores, so ~0.3-1.0 means GIL-free."""
    def spin(seconds: float) -> float:
        count, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            count += 1
        return count / seconds

    alone = spin(0.5)
    done = threading.Event()

    def work():
        canonical_keys(grids, box, equivalence)
        done.set()

    th = threading.Thread(target=work)
    count, t = 0, time.perf_counter()
    th.start()
    while not done.is_set():
        count += 1
        time.perf_counter()
    seconds = time.perf_counter() - t
    th.join()
    return seconds, count / seconds / alone


def python_d4_key(cells: list[int], n: int) -> tuple:
    """The peer: the smallest of the 8 images, each built as a tuple in plain Python."""
    m = [cells[r * n:(r + 1) * n] for r in range(n)]
    z = n - 1
    images = (
        [m[r][c] for r in range(n) for c in range(n)], [m[z - c][r] for r in range(n) for c in range(n)],
        [m[z - r][z - c] for r in range(n) for c in range(n)], [m[c][z - r] for r in range(n) for c in range(n)],
        [m[z - r][c] for r in range(n) for c in range(n)], [m[r][z - c] for r in range(n) for c in range(n)],
        [m[c][r] for r in range(n) for c in range(n)], [m[z - c][z - r] for r in range(n) for c in range(n)],
    )
    return min(tuple(image) for image in images)


def fmt(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer grids and repeats (a few seconds)")
    args = parser.parse_args()
    repeats = 3 if args.quick else 5
    counts = {2: 2048, 3: 2048, 4: 256, 5: 64} if args.quick else {2: 8192, 3: 8192, 4: 1024, 5: 256}
    t = time.perf_counter()
    warm()
    print(f"kernels ready in {time.perf_counter() - t:.1f} s (compile or cache load)")

    rows = []
    data = {}
    for box, count in counts.items():
        boards = boards_for(box, count)
        puzzles = puzzles_from(boards)
        data[box] = boards
        n = box * box
        full_repeats = 1 if box >= 4 else repeats
        rows.append([f"{n}x{n}", count,
                     fmt(rate(boards, box, "d4", repeats)), fmt(rate(boards, box, "full", full_repeats)),
                     fmt(rate(boards, box, "none", repeats)), fmt(rate(puzzles, box, "d4", repeats)),
                     fmt(rate(puzzles, box, "full", full_repeats))])
    print("\nKeys per CPU second, one thread (= per core; median of repeats; batches of 256):")
    print(tabulate(rows, headers=["size", "grids", "d4 boards", "full boards", "none boards", "d4 puzzles",
                                  "full puzzles"], tablefmt="github", disable_numparse=True))

    print("\nThread scaling on 9x9 boards (same work split over threads; medians of 3). speed-up = wall(1) / wall(2);")
    print("parallelism = CPU seconds / wall seconds of the 2-thread run (2.0 = both threads ran at once all along).")
    scale_rows = []
    for equivalence, copies in (("d4", 64 if not args.quick else 16), ("full", 1)):
        grids = np.tile(data[3], (copies, 1))
        one = statistics.median(threaded_seconds(grids, 3, equivalence, 1)[0] for _ in range(3))
        runs = [threaded_seconds(grids, 3, equivalence, 2) for _ in range(3)]
        two = statistics.median(w for w, _ in runs)
        par = statistics.median(c / w for w, c in runs)
        scale_rows.append([equivalence, len(grids), fmt(len(grids) / one), fmt(len(grids) / two), f"{one / two:.2f}x",
                           f"{par:.2f}"])
    print(tabulate(scale_rows, headers=["equivalence", "boards", "1 thread /s", "2 threads /s", "speed-up",
                                        "parallelism"], tablefmt="github", disable_numparse=True))
    print(f"(load average while running: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    for equivalence, copies in (("d4", 200 if not args.quick else 50), ("full", 2 if not args.quick else 1)):
        seconds, progress = gil_check(np.tile(data[3], (copies, 1)), 3, equivalence)
        print(f"GIL check, {equivalence}: one {seconds:.2f} s batch call in a thread; the main thread kept "
              f"{progress:.2f} of its solo Python speed meanwhile (0 would mean the GIL was held)")

    boards = data[3][:2048 if not args.quick else 512]
    as_lists = [list(map(int, b)) for b in boards]
    times = []
    for _ in range(repeats):
        t = time.thread_time()
        for cells in as_lists:
            python_d4_key(cells, 9)
        times.append(time.thread_time() - t)
    peer = len(boards) / statistics.median(times)
    ours = rate(data[3], 3, "d4", repeats)
    print(f"\nPeer: plain-Python d4 key on 9x9 boards: {fmt(peer)}/s; canonical_keys d4: {fmt(ours)}/s "
          f"= {ours / peer:,.0f}x the peer")


if __name__ == "__main__":
    main()
