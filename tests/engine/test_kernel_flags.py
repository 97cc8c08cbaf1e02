"""The kernels compiled without reference counts (``_nrt=False``) call only kernels compiled so too.

Why (engine/_jit.py, kernel_with): numba compiles a callee under its caller's flags only when the caller's compile
is the first to need it; otherwise under its own. A callee left with the default flags ran with atomic reference
counts or without them by the order things were first compiled in: carving was markedly slower after the warm-up
(which compiles callees first) than after a plain first run. Declared on every callee, the flags no longer depend
on that order.
"""
from __future__ import annotations

import pkgutil
from importlib import import_module

from numba.core.registry import CPUDispatcher

import engine
from engine.warmup.plan import static_calls

# kernels reached from an _nrt=False kernel's code that allocate, so they say _nrt=True (else an nrt-free caller
# compiled first would give them its flags, and what they allocate would never be freed): the cell-mask search that
# makes its own scratch (the carver's overload chooses its twin on the caller's scratch, _search_on)
ALLOCATE = {"engine.solvers._bitmask:_search", "engine.solvers._bitmask:search_scratch"}


def _dispatcher(name: str):
    module, _, qualname = name.partition(":")
    return getattr(import_module(module), qualname)


def _options(name: str) -> dict:
    return getattr(_dispatcher(name), "targetoptions", {})


def _every_kernel() -> list[str]:
    """Every kernel the engine defines (not only those the warm-up plan has recorded), as ``module:qualname``."""
    found = set()
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        module = import_module(info.name)
        for obj in vars(module).values():
            if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == info.name:
                found.add(f"{info.name}:{obj.py_func.__qualname__}")
    return sorted(found)


def test_every_kernel_an_nrt_free_kernel_calls_is_nrt_free_too():
    kernels = _every_kernel()
    assert len(kernels) > 200
    calls = static_calls(kernels)
    named = set(calls) | {c for callees in calls.values() for c in callees}
    roots = [k for k in named if _options(k).get("_nrt") is False]
    assert len(roots) > 20  # the grader's rules, the carver's loops, the band kernel
    reached, todo = set(), list(roots)
    while todo:
        for callee in calls.get(todo.pop(), ()):
            if callee not in reached:
                reached.add(callee)
                todo.append(callee)
    counted = sorted(k for k in reached - ALLOCATE
                     if _options(k).get("_nrt") is not False and _options(k).get("inline") != "always")
    assert counted == [], "give these kernels _nrt=False (engine/_jit.py, kernel_with): " + ", ".join(counted)
    assert ALLOCATE <= reached  # the exceptions are still called that way (else drop them from the list)
    assert all(_options(k).get("_nrt") is True for k in ALLOCATE)
