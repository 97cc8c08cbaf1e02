"""Record the plan: which kernels (and overloads) every warm-up job compiles, and what each cost to compile.

    python -m engine.warmup.record [--jobs grade@3,carve@2,...] [--processes 2] [--out engine/warmup/plan.json]
    python -m engine.warmup.record --calls      (only which kernel calls which, read from the code again)

Each job (every job of :mod:`engine.warmup.jobs` for every box size, by default) runs in a process of its own on an
empty kernel cache, with a listener on numba's compile events: every engine kernel numba compiles is written down
with its argument types (:mod:`engine.warmup.signature`) and its own compile time (its callees' excluded; numba's
library functions it needed, such as ``np.empty``, included). Run it again when a kernel is added, removed or
takes other argument types: a stale plan is never wrong, only slower (an overload it lacks is compiled by the
process that needs it, one at a time; ``bench/bench_first_run.py`` counts them).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .. import cache
from .jobs import all_job_ids, job_names, parse_job_id
from .plan import PLAN_FILE, static_calls


def _record_one(job: str) -> list[list]:
    """In this (fresh) process: run ``job`` and return ``[kernel, signature, seconds]`` for every engine kernel
    overload it compiled."""
    from numba.core import event

    from .jobs import run_job
    from .signature import signature_text

    stack: list[list] = []  # [kernel or None, started, seconds of engine kernels compiled inside]
    rows: list[list] = []

    class Listener(event.Listener):
        def on_start(self, ev):
            disp = ev.data["dispatcher"]
            module = getattr(disp.py_func, "__module__", "") or ""
            qualname = disp.py_func.__qualname__
            # an engine kernel is a module's dispatcher; the bodies an @overload chooses (engine/carve/_removal.py)
            # are compiled inside their caller and count toward it, as numba's own functions do
            kernel = module.startswith("engine.") and getattr(sys.modules.get(module), qualname, None) is disp
            stack.append([f"{module}:{qualname}" if kernel else None, time.perf_counter(), 0.0, ev.data["args"]])

        def on_end(self, ev):
            name, started, inner, args = stack.pop()
            seconds = time.perf_counter() - started
            if name is None:  # numba's own functions count toward the engine kernel that needed them
                return
            rows.append([name, signature_text(args), round(seconds - inner, 3)])
            for frame in reversed(stack):  # the nearest engine kernel above this one
                if frame[0] is not None:
                    frame[2] += seconds
                    break

    listener = Listener()
    event.register("numba:compile", listener)
    run_job(job)
    event.unregister("numba:compile", listener)
    return rows


def _order(job: str) -> tuple[int, int]:
    """Jobs in the order of the jobs table, each for every box size."""
    name, box = parse_job_id(job)
    return job_names().index(name), box


def _run_child(job: str) -> list[list]:
    with tempfile.TemporaryDirectory(prefix="catalogue-record-") as work:
        folder = Path(work) / cache.source_digest()  # named by the digest: the child's cache.enable() keeps it
        folder.mkdir()
        env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
        env["NUMBA_CACHE_DIR"] = str(folder)
        out = subprocess.run([sys.executable, "-m", "engine.warmup.record", "--one", job], env=env,
                             capture_output=True, text=True)
        if out.returncode:
            raise RuntimeError(f"recording {job} failed:\n{out.stderr[-3000:]}")
        return json.loads(out.stdout.strip().splitlines()[-1])


def _rows_of(plan: dict) -> dict[str, list]:
    """Each job's ``[kernel, signature, seconds]`` rows, read back from a plan."""
    overloads = plan["overloads"]
    return {job: [overloads[k] for k in indices] for job, indices in plan["jobs"].items()}


def record(jobs, processes: int = 2, log=print, keep: dict | None = None) -> dict:
    """The plan for ``jobs`` (job ids), each recorded in a fresh process, ``processes`` at a time; the jobs of the
    plan ``keep`` that are not recorded again are kept as they were."""
    started = time.perf_counter()
    rows_of: dict[str, list] = {j: r for j, r in _rows_of(keep).items() if j not in jobs} if keep else {}
    with ThreadPoolExecutor(processes) as pool:
        for job, rows in zip(jobs, pool.map(_run_child, jobs)):
            rows_of[job] = rows
            log(f"{job}: {len(rows)} overloads, {sum(r[2] for r in rows):.1f} s")
    seconds: dict[tuple[str, str], list[float]] = {}
    for rows in rows_of.values():
        for kernel, signature, s in rows:
            seconds.setdefault((kernel, signature), []).append(s)
    overloads = sorted(seconds)
    index = {key: k for k, key in enumerate(overloads)}
    from importlib.metadata import version

    plan = {
        "about": "made by python -m engine.warmup.record: the kernels each warm-up job compiles (see "
                 "engine/warmup/plan.py); seconds are one machine's, used only as weights",
        "numba": version("numba"), "python": platform.python_version(), "machine": platform.machine(),
        "recorded_in_seconds": round(time.perf_counter() - started),
        # each overload once: kernel, argument types, median compile seconds over the jobs that compiled it
        "overloads": [[k, s, round(sorted(seconds[(k, s)])[len(seconds[(k, s)]) // 2], 2)] for k, s in overloads],
        "jobs": {job: sorted({index[(k, s)] for k, s, _ in rows_of[job]}) for job in sorted(rows_of, key=_order)},
        # which kernels each kernel's code calls (read from the code, not the recording: see plan.static_calls)
        "calls": {k: v for k, v in static_calls({k for k, _ in overloads}).items() if v},
    }
    return plan


def write(plan: dict, out: Path) -> None:
    """One overload a line: a diff of the plan reads as the kernels that changed."""
    lines = ["{"]
    for key in ("about", "numba", "python", "machine", "recorded_in_seconds"):
        lines.append(f" {json.dumps(key)}: {json.dumps(plan[key])},")
    lines.append(' "overloads": [')
    lines.append(",\n".join(f"  {json.dumps(o)}" for o in plan["overloads"]))
    lines.append(" ],")
    lines.append(' "jobs": {')
    lines.append(",\n".join(f"  {json.dumps(j)}: {json.dumps(v)}" for j, v in plan["jobs"].items()))
    lines.append(" },")
    lines.append(' "calls": {')
    lines.append(",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in plan["calls"].items()))
    lines.append(" }")
    lines.append("}")
    temporary = out.with_name(out.name + ".tmp")
    temporary.write_text("\n".join(lines) + "\n")
    os.replace(temporary, out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.warmup.record", description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", help="comma-separated job ids (NAME@BOX) to record again, keeping the plan's "
                        "others; default: every job for every box size")
    parser.add_argument("--processes", type=int, default=2, help="recordings at once (default 2)")
    parser.add_argument("--out", type=Path, default=PLAN_FILE, help=f"plan file (default {PLAN_FILE})")
    parser.add_argument("--calls", action="store_true",
                        help="only read which kernel calls which from the code again (seconds, not minutes)")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # the child's side: record one job, print JSON
    args = parser.parse_args(argv)
    if args.one:
        cache.enable()
        print(json.dumps(_record_one(args.one)))
        return 0
    if args.calls:
        plan = json.loads(args.out.read_text())
        plan["calls"] = {k: v for k, v in static_calls({k for k, _, _ in plan["overloads"]}).items() if v}
        write(plan, args.out)
        print(f"{args.out}: calls of {len(plan['calls'])} kernels", file=sys.stderr)
        return 0
    jobs = args.jobs.split(",") if args.jobs else all_job_ids()
    keep = json.loads(args.out.read_text()) if args.jobs and args.out.exists() else None
    plan = record(jobs, args.processes, log=lambda m: print(m, file=sys.stderr), keep=keep)
    write(plan, args.out)
    print(f"{args.out}: {len(plan['overloads'])} overloads in {len(plan['jobs'])} jobs "
          f"({plan['recorded_in_seconds']} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
