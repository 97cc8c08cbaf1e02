"""The plan: which kernel overloads each warm-up job compiles, which kernels call which, and what each costs.

``plan.json`` beside this module is made by ``python -m engine.warmup.record`` (see there). Read here, it gives,
for the jobs a command needs, the :class:`Task` list a parallel compile works through: one task per kernel (all of
its overloads the jobs need, so two processes never write one kernel's cache index at once), each with the kernels
it calls (numba compiles a callee before its caller, so a task waits for its callees' tasks) and its recorded
compile seconds (weights: what matters is their ratio, measured again on this machine as tasks finish).

A plan that no longer matches the code is never wrong, only slower: an overload it lacks is compiled by whichever
process needs it first, and one that no longer exists is compiled for nothing.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

PLAN_FILE = Path(__file__).resolve().parent / "plan.json"


@dataclass
class Task:
    """One kernel to compile: ``kernel`` is ``module:qualname``; ``signatures`` the overloads' argument types
    (:mod:`engine.warmup.signature`); ``callees`` the indices of the tasks it waits for; ``seconds`` the recorded
    cost; ``rank`` the recorded seconds of the longest chain of tasks from this one to the last (its callers wait
    for it): the scheduler starts the highest rank first, so the longest chain never waits for a free process."""

    kernel: str
    signatures: list[str]
    seconds: float
    callees: set[int] = field(default_factory=set)
    callers: set[int] = field(default_factory=set)
    rank: float = 0.0


@lru_cache(maxsize=1)
def load(path: Path = PLAN_FILE) -> dict:
    """The plan as recorded; an empty one when the file is missing or unreadable (then nothing is known ahead and
    every process compiles what it needs itself)."""
    try:
        plan = json.loads(Path(path).read_text())
        plan["overloads"], plan["jobs"], plan.setdefault("calls", {})
        return plan
    except (OSError, ValueError, KeyError, TypeError):
        return {"overloads": [], "jobs": {}, "calls": {}}


def known(jobs, plan: dict | None = None) -> bool:
    """Whether the plan has every one of ``jobs`` (job ids)."""
    plan = load() if plan is None else plan
    return all(job in plan["jobs"] for job in jobs)


def tasks(jobs, plan: dict | None = None, skip=lambda kernel, signature: False) -> list[Task]:
    """The tasks that compile every overload of ``jobs`` (job ids the plan has), leaving out the overloads ``skip``
    says are compiled already; linked to one another by the plan's calls, and ranked."""
    plan = load() if plan is None else plan
    overloads = plan["overloads"]
    by_kernel: dict[str, Task] = {}
    for job in jobs:
        for k in plan["jobs"].get(job, ()):
            kernel, signature, seconds = overloads[k]
            if skip(kernel, signature):
                continue
            task = by_kernel.setdefault(kernel, Task(kernel, [], 0.0))
            if signature not in task.signatures:
                task.signatures.append(signature)
                task.seconds += seconds
    out = list(by_kernel.values())
    index = {t.kernel: k for k, t in enumerate(out)}
    for k, task in enumerate(out):
        for callee in plan["calls"].get(task.kernel, ()):
            j = index.get(callee)
            if j is not None and j != k:
                task.callees.add(j)
                out[j].callers.add(k)
    _rank(out)
    return out


def _rank(out: list[Task]) -> None:
    """rank = own seconds + the highest rank among the callers (a caller starts only after this task ends)."""
    done: dict[int, float] = {}

    def rank(k: int, path: frozenset) -> float:
        if k in done:
            return done[k]
        callers = [c for c in out[k].callers if c not in path]  # a cycle (recursion) would loop: cut it
        value = out[k].seconds + max((rank(c, path | {k}) for c in callers), default=0.0)
        done[k] = value
        return value

    for k, task in enumerate(out):
        task.rank = rank(k, frozenset())


def static_calls(kernels) -> dict[str, list[str]]:
    """For each kernel (``module:qualname``), the engine kernels its code calls, read from its byte code: names of
    its module's globals that are kernels, and attributes of modules it names. What is compiled inside its caller
    counts as the caller's: a kernel numba inlines (``inline="always"``), and an engine function that is not a
    kernel (the bodies an ``@overload`` chooses, engine/carve/_removal.py: their names appear in the plain
    function the overload stands for). Imports the modules."""
    from importlib import import_module
    from types import FunctionType, ModuleType

    from numba.core.registry import CPUDispatcher

    def name_of(d) -> str:
        return f"{d.py_func.__module__}:{d.py_func.__qualname__}"

    def called(code, names) -> list:
        found = []
        for name in code.co_names:
            obj = names.get(name)
            if isinstance(obj, (CPUDispatcher, FunctionType)):
                found.append(obj)
            elif isinstance(obj, ModuleType):
                found += [a for a in (getattr(obj, n, None) for n in code.co_names) if isinstance(a, CPUDispatcher)]
        return found

    def walk(code, names, out: set, seen: set) -> None:
        for d in called(code, names):
            if isinstance(d, FunctionType):  # a plain engine function: what it names is compiled with the caller
                if d.__module__.startswith("engine.") and d not in seen:
                    seen.add(d)
                    walk(d.__code__, d.__globals__, out, seen)
            elif d.targetoptions.get("inline") == "always":
                if d not in seen:
                    seen.add(d)
                    walk(d.py_func.__code__, d.py_func.__globals__, out, seen)
            elif d.py_func.__module__.startswith("engine."):
                out.add(name_of(d))

    calls = {}
    for kernel in sorted(kernels):
        module, _, qualname = kernel.partition(":")
        fn = getattr(import_module(module), qualname, None)
        if isinstance(fn, CPUDispatcher):
            out: set = set()
            walk(fn.py_func.__code__, fn.py_func.__globals__, out, {fn})
            out.discard(kernel)
            calls[kernel] = sorted(out & set(kernels))
    return calls
