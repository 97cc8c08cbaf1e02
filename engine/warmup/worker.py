"""A compile worker: a process that compiles the kernel overloads it is given into the shared kernel cache.

    python -m engine.warmup.worker        (started by engine.warmup.parallel, one per core)

It reads one task a line on stdin, ``{"id": 7, "kernel": "engine.grade.kernels.chains.forcing:_forcing", "signatures":
["(...)", ...]}``, compiles each overload (numba loads instead whatever the cache already holds, the callees
other workers compiled included) and answers one line on stdout, ``{"id": 7, "seconds": 2.9}`` or ``{"id": 7,
"error": "..."}``. It exits at the end of its input: when the parent closes the pipe, or dies.

Why processes: numba holds the GIL while it compiles, so threads compile one kernel at a time; and a process can be
stopped at once (Ctrl-C), where a thread deep inside LLVM cannot. What a worker has written stays: numba writes each
cache file under a temporary name and renames it, so a worker killed halfway leaves whole files or none.
"""
from __future__ import annotations

import json
import signal
import sys
import time
from importlib import import_module


def compile_task(kernel: str, signatures: list[str]) -> None:
    """Compile every overload of ``kernel`` (``module:qualname``) named by ``signatures``."""
    from .signature import parse

    module, _, qualname = kernel.partition(":")
    dispatcher = getattr(import_module(module), qualname)
    if not hasattr(dispatcher, "compile"):
        raise TypeError(f"{kernel} is not a compiled kernel")
    for signature in signatures:
        dispatcher.compile(parse(signature))


def main() -> int:
    # Ctrl-C reaches the whole foreground process group: the parent stops the workers itself (and reports once)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from .. import cache

    cache.enable()  # the parent's folder, inherited through NUMBA_CACHE_DIR
    import numba  # noqa: F401  (before the first task: its import is not a task's time)

    for line in sys.stdin:
        task = json.loads(line)
        started = time.perf_counter()
        try:
            compile_task(task["kernel"], task["signatures"])
            answer = {"id": task["id"], "seconds": round(time.perf_counter() - started, 3)}
        except Exception as error:  # one kernel's failure is the parent's to report; the next task may still work
            answer = {"id": task["id"], "error": f"{type(error).__name__}: {error}"[:2000]}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
