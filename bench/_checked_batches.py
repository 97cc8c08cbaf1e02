"""Pre-made checked batches for the writer benchmarks: real 9x9 boards with their keys and carved, graded puzzles,
made once by the fill's own checker code and cached in the temp folder, and the rows the fill's writer stores."""
from __future__ import annotations

import pickle
import tempfile
from pathlib import Path


def make_batches(total: int, batch: int, seed: int) -> list:
    """``total // batch`` checked batches as the fill's checkers make them (``CheckerActor.check``), cached."""
    cache = Path(tempfile.gettempdir()) / f"catalogue-scaleout-{total}-{batch}-{seed}.pickle"
    if cache.exists():
        return pickle.loads(cache.read_bytes())
    import threading

    import numpy as np

    from catalogue.pipeline.options import FillOptions
    from catalogue.pipeline.stages import CheckerActor, Kernels

    plan = FillOptions(size=9, method="wfc", equivalence="d4", batch=batch, seed=seed)
    kernels = Kernels("wfc")
    kernels.warm(plan)
    class Checker(CheckerActor):
        name = "bench"  # not a started thread: only check() is used, with a plan, the kernels and a stop event

    checker = object.__new__(Checker)
    checker.plan, checker.kernels, checker.stop = plan, kernels, threading.Event()
    from catalogue.pipeline.messages import BoardBatch

    seen: set[str] = set()
    out = []
    index = 0
    while len(out) < total // batch:
        boards, seeds, restarts = kernels.generate_array(3, batch, seed * 1_000_003 + index)
        index += 1
        keys = tuple(kernels.key_texts(boards, 3, "d4"))
        new = np.array([i for i, k in enumerate(keys) if k not in seen], dtype=np.int64)
        seen.update(keys)
        raw = BoardBatch("bench", index, boards, seeds.astype(np.int64), restarts.astype(np.int32), 0.001)
        out.append(checker.check(raw, new, keys))
    cache.write_bytes(pickle.dumps(out))
    return out


def rows_of(batches, run_id: int):
    from catalogue.pipeline.options import FillOptions
    from catalogue.pipeline.writer import batch_rows

    plan = FillOptions(size=9, method="wfc", equivalence="d4", seed=0)
    return [(b, *batch_rows(b, plan, run_id)) for b in batches]
