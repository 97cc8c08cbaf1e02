"""Plumbing the three generators share: argument checks, seeds, threads, and arrays -> GeneratedBoard lists.

Each generator module supplies one function ``run(box, seeds, boards, restarts)`` that calls its kernel on a
slice of seeds and fills the matching slices of the output arrays. Everything public is built on it here, so
the rule "``generate_many(box, k, s)`` equals ``[generate(box, si) for si in derive_seeds(s, k)]``" holds by
construction: a board depends only on its own seed, never on its neighbours in a batch or on the thread.
"""
from __future__ import annotations

import threading
import time
from typing import Callable

import numpy as np

from ..geometry import check_shape, geometry
from ..inputs import check_count, check_seed
from . import GeneratedBoard, GenerationError, derive_seeds


Runner = Callable[[int, np.ndarray, np.ndarray, np.ndarray], None]


def run_seeds(run: Runner, box: int, seeds, threads: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Boards ``(m, ncells) int8`` and restarts ``(m,) int32`` for the given seeds.

    With ``threads`` > 1 the seeds are cut into that many contiguous slices, each run by one thread on its own
    slice of the output (the kernels release the GIL, so the threads really run at once); the result is the
    same array the serial call gives.
    """
    box = check_shape(box)
    threads = check_count("threads", threads, 1)
    seeds = np.ascontiguousarray(seeds, dtype=np.int64).reshape(-1)
    if seeds.size and (seeds.min() < 0):
        raise ValueError("seeds must be in 0 .. 2**63 - 1")
    boards = np.zeros((seeds.size, geometry(box).ncells), dtype=np.int8)
    restarts = np.zeros(seeds.size, dtype=np.int32)
    if threads == 1 or seeds.size < 2:
        run(box, seeds, boards, restarts)
        return boards, restarts
    edges = np.linspace(0, seeds.size, min(threads, seeds.size) + 1).astype(int)
    errors: list[BaseException] = []

    def work(lo: int, hi: int) -> None:
        try:
            run(box, seeds[lo:hi], boards[lo:hi], restarts[lo:hi])
        except BaseException as e:  # handed to the caller below, never printed by the thread
            errors.append(e)

    workers = [threading.Thread(target=work, args=(lo, hi), name=f"generate-{k}")
               for k, (lo, hi) in enumerate(zip(edges[:-1], edges[1:]))]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    if errors:
        raise errors[0]
    return boards, restarts


def run_array(run: Runner, box: int, count: int, seed: int, threads: int = 1):
    """``(boards, seeds, restarts)`` for ``count`` boards from the run seed ``seed``."""
    seeds = derive_seeds(check_seed(seed), check_count("count", count, 0))
    boards, restarts = run_seeds(run, box, seeds, threads)
    return boards, seeds, restarts


def check_finished(method: str, boards: np.ndarray, seeds: np.ndarray, restarts: np.ndarray) -> None:
    """Raise :class:`GenerationError` for the first board a restart limit stopped (its row is all zeros)."""
    if boards.size == 0:
        return
    unfinished = np.flatnonzero(boards[:, 0] == 0)
    if unfinished.size:
        k = int(unfinished[0])
        raise GenerationError(f"{method}: the board of seed {int(seeds[k])} was not finished after "
                              f"{int(restarts[k])} restarts (the restart limit)")


def make_boards(method: str, box: int, boards: np.ndarray, seeds: np.ndarray, restarts: np.ndarray,
                seconds: float) -> list[GeneratedBoard]:
    """One GeneratedBoard per row; ``seconds`` is the batch's wall time shared evenly (a kernel has no clock)."""
    each = seconds / max(1, len(seeds))
    return [GeneratedBoard(cells=boards[k].copy(), box=box, method=method, seed=int(seeds[k]),
                           restarts=int(restarts[k]), seconds=each) for k in range(len(seeds))]


def timed(fn, *args, **kwargs):
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t0
