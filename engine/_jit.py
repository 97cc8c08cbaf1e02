"""The one place numba options live.

Every compiled kernel in the engine is decorated with :data:`kernel` or one of its variants below. ``nogil=True``
lets the catalogue's actor threads run kernels truly in parallel; ``cache=True`` writes compiled code next to the
modules (or to ``NUMBA_CACHE_DIR``, see :mod:`engine.cache`) so the compile cost is paid once per machine, not once
per process.
Kernels called from threads must never use ``parallel=True``: numba's threading layer is not meant to be entered
from many Python threads.

Setting ``NUMBA_DISABLE_JIT=1`` runs every kernel as plain Python (slow, but coverage sees the lines).

Where the cache lives is chosen here, before numba is imported and before the first kernel is defined
(:func:`engine.cache.enable`): every entry point that uses a kernel (the CLI, the server, a script, a notebook, the
tests) shares one folder of compiled kernels, and nothing is compiled twice.
"""
from __future__ import annotations

import os

from . import cache

cache.enable()  # before numba reads its settings (NUMBA_CACHE_DIR) and before any kernel fixes its cache folder

import numba  # noqa: E402

JIT_DISABLED = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")

_OPTIONS = dict(cache=True, nogil=True, boundscheck=False)

#: Decorator for every compiled kernel: ``@kernel``. A call from another kernel with a constant argument compiles
#: a copy for that constant (numba's Literal types), which the solvers' hot loops gain from: branches on a constant
#: flag fold away (measured: the batch solver and the generators are markedly slower without it).
kernel = numba.njit(fastmath=False, **_OPTIONS)


def _widened(t):
    """The argument type a :func:`wide_kernel` is compiled for when another kernel calls it with ``t``: a constant
    (Literal[int](0), Literal[bool](True)) is typed as its plain type and a signed integer as int64."""
    from numba.core import types

    t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.signed:
        return types.int64
    return t


def wide_kernel(fn=None, **options):
    """Decorator for a kernel compiled once per argument *kinds*, whatever constants its callers pass: the grader's.
    ``@wide_kernel(_nrt=False)`` adds numba options, as :func:`kernel_with` does.

    Why: numba types a constant argument by its value, so ``f(x, 0)``, ``f(x, 1)`` and ``f(x, n)`` from other
    kernels compile f three times, each a full compile of f and of everything f calls: the grader's rules are
    called with many such flags, and each copy adds to the first run's compile (docs/benchmarks.md, "Single calls
    and the first run") for no speed, since their branches depend on the grid, not on flags. A constant converts to
    int64 at the call, for free."""
    if fn is None:
        return lambda f: wide_kernel(f, **options)
    disp = kernel_with(**options)(fn) if options else kernel(fn)
    if JIT_DISABLED:
        return disp
    original = disp.get_call_template

    def get_call_template(args, kws):
        return original(tuple(_widened(a) for a in args), {k: _widened(v) for k, v in kws.items()})

    disp.get_call_template = get_call_template
    return disp


def kernel_with(**options):
    """Like :data:`kernel` but with extra numba options for the odd kernel that needs them (never parallel).

    ``inline="always"`` is for a large kernel with one caller: numba otherwise optimises and compiles to machine
    code the whole tree below every kernel once more for each kernel above it, so each level of the call tree
    costs a full pass over everything below it (the grader's top levels: a large share of a cold compile).

    It is also for a small kernel that takes arrays and is called in a hot loop (``_sees``, a walk's visits, the
    band kernel's ``_place``): a compiled call counts references to each array argument, in and out, with atomic
    operations (numba's NRT_incref/NRT_decref), and numba's pass that removes such counts mostly fails on them.
    Measured with perf: much of the grader's chain searches' time went to those counts. Inlined, the call and its
    counts are gone. (Each inlined copy costs compile time, so a large kernel is inlined only where it is hot.)

    ``_nrt=False`` compiles a kernel without those counts at all; only a kernel that allocates nothing and returns
    no array may have it. Every kernel such a kernel calls must say ``_nrt=False`` too (or be inlined; the test
    ``tests/engine/test_kernel_flags.py`` holds the code to it): numba compiles a callee under its caller's flags
    when the caller's compile is what first needs it, but under its own when anything else compiled it first: the
    warm-up's workers (which compile callees before callers), or a command that called it directly. The same
    source then ran at two speeds, by the order things were first compiled in: carving was markedly slower after
    ``catalogue compile`` than after a plain first run (the figures are in the commit that made this rule)."""
    if options.get("parallel"):
        raise ValueError("kernels run from actor threads; parallel=True is not allowed")
    return numba.njit(**_OPTIONS, **options)
