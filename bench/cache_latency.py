"""How far a load reaches before it costs a trip to memory on this host: the latency of a random pointer chase over
buffers of growing size.

    python bench/cache_latency.py [--sizes 256,512,1024,2048,3072,4096,16384] [--steps 5000000]

Why: the nested forcing chains of the hardest puzzles work in slots of several megabytes, so their speed follows
the last-level cache a host gives a guest more than its clock (bench/results/hosts.toml notes it per host). A
virtual host may share its L3 with other guests: ``lscpu`` gives the chip's size, this the size in effect. Each
size is one cycle through a random permutation (every load depends on the one before), after a warm-up lap.
"""
from __future__ import annotations

import argparse
import os
import time

import numba
import numpy as np


@numba.njit(cache=False)
def _chase(following, steps):
    i = 0
    for _ in range(steps):
        i = following[i]
    return i


def latency(kib: int, steps: int, seed: int = 1) -> float:
    """Nanoseconds a dependent load over a buffer of ``kib`` KiB."""
    size = kib * 1024 // 8
    order = np.random.default_rng(seed).permutation(size)
    following = np.empty(size, np.int64)
    following[order] = np.roll(order, 1)  # one cycle through every slot, in random order
    _chase(following, min(steps, 4 * size))
    started = time.perf_counter()
    _chase(following, steps)
    return (time.perf_counter() - started) / steps * 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="256,512,1024,2048,3072,4096,16384", help="buffer sizes in KiB")
    parser.add_argument("--steps", type=int, default=5_000_000, help="loads timed at each size")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; one thread")
    for kib in (int(k) for k in args.sizes.split(",")):
        print(f"{kib:8,d} KiB  {latency(kib, args.steps):7.1f} ns a load")


if __name__ == "__main__":
    main()
