"""Where a cold compile goes: every kernel a set of warm-up jobs compiles, its own seconds (its callees' excluded),
how much of that LLVM took (optimising and emitting machine code) and how much numba's typing and lowering.

    python bench/compile_costs.py [--jobs generate:wfc@3,keys:d4@3,carve@3,grade@3] [--top 30]

The jobs (engine/warmup/jobs.py; default: what `catalogue fill` compiles for 9x9) run in one fresh process on an
empty kernel cache, with listeners on numba's events: ``numba:compile`` (a kernel's compile, nested in its
caller's) and ``numba:llvm_lock`` (the time numba holds LLVM, attributed to the kernel being compiled). Run it
before and after a change to see what the change saved, and where the rest goes.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILL = "generate:wfc@3,keys:d4@3,carve@3,grade@3"


def measure(jobs: list[str]) -> dict:
    """In this (fresh) process: run the jobs and return each kernel's own and LLVM seconds and its overloads."""
    from numba.core import event

    from engine.warmup.jobs import run_job

    own: collections.Counter = collections.Counter()
    llvm: collections.Counter = collections.Counter()
    count: collections.Counter = collections.Counter()
    stack: list[list] = []
    lock: list[float] = []

    class Listener(event.Listener):
        def on_start(self, ev):
            if ev.kind == "numba:compile":
                fn = ev.data["dispatcher"].py_func
                stack.append([f"{fn.__module__}:{fn.__qualname__}", time.perf_counter(), 0.0])
            else:
                lock.append(time.perf_counter())

        def on_end(self, ev):
            if ev.kind == "numba:compile":
                name, started, inner = stack.pop()
                seconds = time.perf_counter() - started
                own[name] += seconds - inner
                count[name] += 1
                if stack:
                    stack[-1][2] += seconds
            elif lock:
                llvm[stack[-1][0] if stack else "(outside a kernel)"] += time.perf_counter() - lock.pop()

    listener = Listener()
    for kind in ("numba:compile", "numba:llvm_lock"):
        event.register(kind, listener)
    started, cpu = time.perf_counter(), time.process_time()
    for job in jobs:
        run_job(job)
    return {"wall": time.perf_counter() - started, "cpu": time.process_time() - cpu,
            "kernels": {k: [own[k], llvm[k], count[k]] for k in own}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", default=FILL, help=f"comma-separated job ids (default: {FILL})")
    parser.add_argument("--top", type=int, default=30, help="kernels listed (the costliest first)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    jobs = args.jobs.split(",")
    if args.child:
        print(json.dumps(measure(jobs)))
        return
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="compile-costs-") as cache:
        env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
        env.update(XDG_CACHE_HOME=cache, PYTHONPATH=str(ROOT))
        out = subprocess.run([sys.executable, __file__, "--jobs", args.jobs, "--child"], env=env,
                             capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    kernels = result["kernels"]
    total_own = sum(v[0] for v in kernels.values())
    total_llvm = sum(v[1] for v in kernels.values())
    engine = {k: v for k, v in kernels.items() if k.startswith("engine.")}
    print(f"jobs: {args.jobs}")
    print(f"one process, empty cache: wall {result['wall']:.1f} s, CPU {result['cpu']:.1f} s; "
          f"{sum(v[2] for v in engine.values())} engine overloads of {len(engine)} kernels "
          f"(and {sum(v[2] for k, v in kernels.items() if k not in engine)} of numba's own functions)")
    print(f"compile seconds: {total_own:.1f}, of which LLVM {total_llvm:.1f} ({total_llvm / total_own:.0%}) and "
          f"numba's typing and lowering {total_own - total_llvm:.1f}")
    print(f"\n{'own s':>7} {'LLVM s':>7} {'typing s':>9} {'overloads':>9}  kernel")
    for name, (own, llvm, n) in sorted(kernels.items(), key=lambda kv: -kv[1][0])[:args.top]:
        print(f"{own:7.2f} {llvm:7.2f} {own - llvm:9.2f} {n:9d}  {name}")


if __name__ == "__main__":
    main()
