"""engine.warmup: the jobs, the plan recorded from them, compiling on every core, and one cache for every entry point.

The expensive tests start from an empty cache folder, in child processes (as a new machine would), on the small
4x4 jobs: the kernels are the same code whatever the size, only fewer.
"""
from __future__ import annotations

import inspect
import json
import os
import signal
import subprocess
import sys
import time
from importlib import import_module
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import warmup
from engine.warmup import jobs, plan, signature
from engine.warmup.parallel import Progress, compile_tasks
from engine.warmup.plan import Task

# ---- signatures --------------------------------------------------------------------------------------------------


def _types():
    from numba.core import types

    scalars = st.sampled_from([types.int8, types.int16, types.int32, types.int64, types.uint8, types.uint32,
                               types.uint64, types.float64, types.boolean])
    arrays = st.builds(lambda dtype, ndim, layout, ro: types.Array(dtype, ndim, layout, readonly=ro),
                       scalars, st.integers(1, 3), st.sampled_from("CA"), st.booleans())
    literals = st.one_of(st.integers(-2 ** 40, 2 ** 40), st.booleans()).map(types.literal)
    leaves = st.one_of(scalars, arrays, literals)
    return st.recursive(leaves, lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=3).map(lambda xs: types.Tuple(xs)),
        st.builds(types.UniTuple, inner, st.integers(1, 4))), max_leaves=6)


@settings(max_examples=200, deadline=None)
@given(st.lists(_types(), max_size=6))
def test_a_signature_reads_back_as_the_same_types(args):
    text = signature.signature_text(tuple(args))
    assert signature.parse(text) == tuple(args)


def test_signature_texts_are_short_and_readable():
    from numba.core import types

    args = (types.Array(types.int8, 2, "C"), types.Array(types.int32, 1, "C", readonly=True), types.int64,
            types.literal(0), types.literal(True), types.UniTuple(types.int64, 2))
    assert signature.signature_text(args) == "(A(int8, 2), A(int32, 1, ro=1), int64, L(0), L(True), U(int64, 2))"


def test_a_type_without_a_text_is_refused_loudly():
    from numba.core import types

    with pytest.raises(TypeError, match="no text for the numba type"):
        signature.text(types.unicode_type)
    with pytest.raises(ValueError, match="cannot read"):
        signature.parse("(__import__('os'))")


# ---- the plan ----------------------------------------------------------------------------------------------------


def test_the_plan_has_every_job_for_every_size():
    recorded = plan.load()
    assert set(recorded["jobs"]) == set(jobs.all_job_ids())
    assert recorded["jobs"]["keys:none@3"] == []  # no kernel: the keys under no equivalence are numpy's work
    assert len(recorded["jobs"]["grade@3"]) > 50


def test_the_nested_job_steps_through_rows_9_5_and_10_0_with_their_chains_inside():
    """The nested forcing chains' job (jobs.NESTED_JOB) compiles the kernels of all four rows only if its first
    position is a step of row 9.5 (plain chains inside the runs) and its second of row 10.0 (multiple forcing
    chains inside: the forcing searches' kernels, the dynamic ones' too); a change to the grader that moves them
    leaves those kernels to the first hardest puzzle again. Its plan lists the searches inside."""
    from engine.grade.finders.chains import nested

    rows = []
    for text in jobs.NESTED_POSITIONS:
        cands = np.array([int(text[i:i + 3], 16) for i in range(0, len(text), 3)], np.int64)
        row, hint, links = nested.search(cands, 3)
        assert links  # explained: the chains and what each state's chain inside was
        rows.append(nested.ROWS[row][1])
    assert rows == [95, 100]
    assert jobs.NESTED_JOB in jobs.all_job_ids()
    recorded = plan.load()
    kernels = {recorded["overloads"][k][0] for k in recorded["jobs"][jobs.NESTED_JOB]}
    assert {"engine.grade.kernels.chains.nested:_kept", "engine.grade.kernels.chains.nested:_collect",
            "engine.grade.kernels.chains.plain:_plain_search_in"} <= kernels


def test_every_planned_overload_is_a_kernel_of_the_engine_taking_that_many_arguments():
    """A plan that names a kernel that is gone, or gives a kernel a signature of another length, is stale:
    record it again (python -m engine.warmup.record)."""
    for kernel, text, seconds in plan.load()["overloads"]:
        module, _, qualname = kernel.partition(":")
        fn = getattr(import_module(module), qualname)
        assert hasattr(fn, "compile"), kernel
        parameters = inspect.signature(fn.py_func).parameters
        assert len(signature.parse(text)) <= len(parameters), (kernel, text)
        assert seconds >= 0


def test_the_plans_calls_are_the_codes_calls():
    recorded = plan.load()
    kernels = {k for k, _, _ in recorded["overloads"]}
    assert {k: v for k, v in plan.static_calls(kernels).items() if v} == recorded["calls"]


def _synthetic(calls: dict[str, list[str]], seconds: dict[str, float]) -> dict:
    names = sorted(seconds)
    return {"overloads": [[n, "()", seconds[n]] for n in names], "jobs": {"j@2": list(range(len(names)))},
            "calls": calls}


def test_tasks_wait_for_their_callees_and_the_longest_chain_ranks_first():
    # top calls a and b; a calls leaf; b is cheap: the chain leaf -> a -> top is the longest
    made = _synthetic({"m:top": ["m:a", "m:b"], "m:a": ["m:leaf"]},
                      {"m:top": 2.0, "m:a": 3.0, "m:b": 0.5, "m:leaf": 1.0})
    tasks = {t.kernel: t for t in plan.tasks(["j@2"], made)}
    names = list(tasks)
    assert {names[k] for k in tasks["m:top"].callees} == {"m:a", "m:b"}
    assert {names[k] for k in tasks["m:leaf"].callers} == {"m:a"}
    assert tasks["m:leaf"].rank == 6.0 and tasks["m:a"].rank == 5.0 and tasks["m:top"].rank == 2.0
    assert tasks["m:b"].rank == 2.5
    skipped = plan.tasks(["j@2"], made, skip=lambda k, signature: k == "m:a")
    assert [t.kernel for t in skipped] == ["m:b", "m:leaf", "m:top"]


def test_a_missing_or_broken_plan_plans_nothing(tmp_path):
    (tmp_path / "plan.json").write_text("{not json")
    broken = plan.load(tmp_path / "plan.json")
    assert broken["jobs"] == {} and plan.tasks(["grade@3"], broken) == []
    assert not plan.known(["grade@3"], broken)
    assert plan.load(tmp_path / "nowhere.json")["overloads"] == []


def test_job_ids_name_a_job_and_a_box_size():
    assert jobs.parse_job_id("keys:d4@3") == ("keys:d4", 3)
    for bad in ("grade", "grade@7", "nothing@3", "grade@x"):
        with pytest.raises(ValueError, match="not a warm-up job"):
            jobs.parse_job_id(bad)
    with pytest.raises(ValueError):
        warmup.prepare(["grade@9"])  # a box size, not a grid size: a bug of the caller's, said before any work


# ---- compiling on every core, from an empty cache ----------------------------------------------------------------

def _env(home: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "CATALOGUE_"))}
    env["XDG_CACHE_HOME"] = str(home)
    return env


_PREPARE = r"""
import json, sys
from engine.warmup import prepare
seen = []
# workers whatever the plan's seconds: a fast host records this job below WORKERS_FROM_SECONDS
report = prepare(sys.argv[1:], progress=lambda p: seen.append([p.done, p.total, p.seconds_left, p.workers]),
                 workers_from=0.0)
print(json.dumps({"report": report.__dict__, "progress": seen}))
"""


def _prepare(home: Path, *job_ids: str) -> dict:
    out = subprocess.run([sys.executable, "-c", _PREPARE, *job_ids], env=_env(home), capture_output=True, text=True,
                         timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def _kernel_files(home: Path) -> set[str]:
    return {str(p.relative_to(home)) for p in home.rglob("*") if p.suffix in (".nbi", ".nbc")}


def _whole_kernels(home: Path, job: str) -> list[str]:
    """The kernels of ``job`` whose every overload in the plan is filed under ``home``: a kernel with one overload
    filed and the next still compiling is not done, and the next run still counts it (its files are named
    ``<package>/<file>.<qualname>-<line>.py<ver>.<k>.nbc``, one a filed overload)."""
    recorded = plan.load()
    wanted: dict[str, int] = {}
    for k in recorded["jobs"][job]:
        kernel = recorded["overloads"][k][0]
        wanted[kernel] = wanted.get(kernel, 0) + 1
    filed: dict[tuple[str, str], int] = {}
    for p in home.rglob("*.nbc"):
        where = (p.parent.name, p.name.split("-")[0])
        filed[where] = filed.get(where, 0) + 1
    out = []
    for kernel, overloads in wanted.items():
        module, _, qualname = kernel.partition(":")
        package, _, file = module.rpartition(".")
        if filed.get((package, f"{file}.{qualname}"), 0) >= overloads:
            out.append(kernel)
    return out


@pytest.mark.slow
def test_workers_compile_a_job_from_an_empty_cache_and_nothing_is_left_to_compile_here(tmp_path):
    first = _prepare(tmp_path, "generate:wfc@2")
    report, seen = first["report"], first["progress"]
    assert report["missing"] == ["generate:wfc@2"] and report["workers"] >= 1 and report["failed"] == []
    assert report["kernels"] == report["planned"] >= 5
    assert report["compiled_here"] == 0  # the plan foresaw every overload: the job only loaded them here
    assert [s[0] for s in seen] == sorted(s[0] for s in seen) and seen[-1][0] == seen[-1][1] == report["planned"]
    assert seen[0][2] is None and any(s[2] is not None for s in seen[1:])  # measured once a kernel is done
    files = _kernel_files(tmp_path)
    again = _prepare(tmp_path, "generate:wfc@2")["report"]
    assert again["missing"] == [] and again["planned"] == 0 and again["compiled_here"] == 0
    assert _kernel_files(tmp_path) == files


#: the two 4x4 boards both entry points key (the d4 keys: the smallest job, whose kernels are compiled in a few
#: seconds from an empty cache; the compile on the workers is test_workers_compile_a_job_from_an_empty_cache...)
BOARDS_4 = ("1234341221434321", "2143341212344321")

_COUNTING = r"""
from numba.core.event import install_recorder
with install_recorder("numba:compile") as compiled:
    import numpy as np
    from engine.formats import from_line
    from engine.keys import key_texts
    key_texts(np.stack([from_line(line) for line in %r]), 2, "d4")
print(sum(1 for _, e in compiled.buffer if e.data["dispatcher"].py_func.__module__.startswith("engine.")))
""" % (BOARDS_4,)


@pytest.mark.slow
def test_the_cli_and_the_library_find_each_others_kernels(tmp_path):
    """One cache for every entry point: the Python API after the CLI compiles nothing, and so does the CLI after
    the Python API (no kernel file is added)."""
    cli = tmp_path / "cli-first"
    boards = tmp_path / "boards.txt"
    boards.write_text("".join(f"{line}\n" for line in BOARDS_4))
    key = [sys.executable, "-m", "catalogue", "key", str(boards)]
    subprocess.run(key, env=_env(cli), capture_output=True, text=True, check=True, timeout=900)
    out = subprocess.run([sys.executable, "-c", _COUNTING], env=_env(cli), capture_output=True, text=True,
                         check=True, timeout=900)
    assert out.stdout.strip() == "0"

    lib = tmp_path / "library-first"
    out = subprocess.run([sys.executable, "-c", _COUNTING], env=_env(lib), capture_output=True, text=True,
                         check=True, timeout=900)
    assert int(out.stdout.strip()) > 0
    files = _kernel_files(lib)
    subprocess.run(key, env=_env(lib), capture_output=True, text=True, check=True, timeout=900)
    assert _kernel_files(lib) == files


@pytest.mark.slow
def test_ctrl_c_during_the_compile_stops_at_once_and_keeps_what_is_done(tmp_path):
    """The first progress line, then Ctrl-C once the first kernel is in the cache: exit 130 within 2 s; the next
    run compiles only what is left, and the one after loads everything. The job is the 4x4 generator's (12
    kernels, 5.5 s recorded on a chain of calls): the Ctrl-C comes with most of it still to do, on any machine."""
    env = _env(tmp_path)
    # a terminal's Ctrl-C: SIGINT as a shell leaves it (pytest-xdist's workers ignore it, and a child inherits that)
    command = [sys.executable, "-m", "catalogue", "compile", "generate", "--size", "4"]
    process = subprocess.Popen(command, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    first = process.stderr.readline()
    assert first.startswith("catalogue: compiling the kernels for generate on ") and first.rstrip().endswith(
        "to compile"), first
    total = int(first.rsplit(":", 1)[1].split()[0])
    deadline = time.monotonic() + 300
    while not _whole_kernels(tmp_path, "generate:wfc@2"):  # the first kernel finished and kept, all its overloads
        assert process.poll() is None and time.monotonic() < deadline, "no kernel was kept before the compile ended"
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    process.wait(timeout=30)
    assert time.perf_counter() - sent < 2.0
    assert process.returncode == 130
    assert process.stderr.read().strip().splitlines()[-1] == "catalogue: interrupted"
    kept = _kernel_files(tmp_path)
    assert kept

    out = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr
    line = next(x for x in out.stderr.splitlines() if " to compile" in x)
    assert 0 < int(line.rsplit(":", 1)[1].split()[0]) < total
    assert kept <= _kernel_files(tmp_path)
    out = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0 and out.stdout.startswith("the kernels for generate (4x4) were compiled already")


_HERE = r"""
import sys
from engine.warmup import prepare
print("started", flush=True)
try:
    prepare(["generate:wfc@4"], workers_from=1e9)  # every kernel compiled here, none on workers
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(130)
except BaseException as e:
    print(f"{type(e).__name__}: {e}", flush=True)
    sys.exit(1)
"""


@pytest.mark.slow
def test_ctrl_c_while_kernels_compile_here_is_the_interrupt_whenever_it_comes(tmp_path):
    """A compile in this process (a job of a few seconds, which needs no workers): a Ctrl-C in the middle of
    numba's work once came out as numba's RuntimeError about a half-made library, was lost and the compile went on,
    or (once, under load) killed the process with a segmentation fault (engine/warmup/interrupts.py: the job in
    hand now finishes first). At moments spread over the compile, it is KeyboardInterrupt each time."""
    for k, delay in enumerate((0.2, 0.7, 1.2, 1.7)):
        home = tmp_path / str(k)  # an empty cache each time: everything compiles
        process = subprocess.Popen([sys.executable, "-c", _HERE], env=_env(home), stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True,
                                   preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        assert process.stdout.readline().strip() == "started"
        time.sleep(delay)
        if process.poll() is not None:  # (done before the Ctrl-C: a fast host; nothing to see at this moment)
            continue
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
        assert (process.returncode, out.strip()) == (130, "interrupted"), (delay, out, err[-2000:])


def test_a_worker_that_fails_leaves_its_kernel_to_the_caller():
    """A task naming a kernel that does not exist: the worker answers with the error, the others go on."""
    tasks = [Task("engine.bits:no_such_kernel", ["(int64)"], 1.0),
             Task("engine.bits:digit_of", ["(int64)"], 1.0)]
    seen: list[Progress] = []
    failed = compile_tasks(tasks, workers=2, progress=seen.append)
    assert len(failed) == 1 and failed[0].startswith("engine.bits:no_such_kernel: AttributeError")
    assert seen[-1].done == seen[-1].total == 2


def test_compiled_ready_asks_the_cache_or_this_process(tmp_path):
    """What the web hint asks before it lets the compiled grader choose: loaded here (the tests graded already), or
    in the kernel cache; with the JIT off, never (the kernels would run as Python)."""
    import numpy as np

    from engine.grade import grade_many

    grade_many(np.zeros((1, 16), np.int8), 2)
    assert warmup.compiled_ready()
    script = "from engine.warmup import compiled_ready as r; print(r())"
    for env, expected in (({"NUMBA_CACHE_DIR": str(tmp_path / "empty")}, "False"),
                          ({"NUMBA_DISABLE_JIT": "1"}, "False"), ({}, "True")):
        out = subprocess.run([sys.executable, "-c", script], env={**os.environ, **env}, capture_output=True,
                             text=True, timeout=120)
        assert out.stdout.strip() == expected, (env, out.stderr[-1000:])


_DEFERRED = r"""
import signal
from engine.warmup.interrupts import Noted
with Noted(defer=True) as noted:
    signal.raise_signal(signal.SIGINT)  # the first: noted, not raised
    print("held", type(noted.raised).__name__, flush=True)
    try:
        signal.raise_signal(signal.SIGINT)  # a second: at once
    except KeyboardInterrupt:
        print("second raised", flush=True)
    try:
        noted.reraise()
    except KeyboardInterrupt:
        print("first raised", flush=True)
print("restored", signal.getsignal(signal.SIGINT) is signal.default_int_handler, flush=True)
"""


def test_a_deferred_interrupt_waits_for_its_caller_and_a_second_one_does_not():
    """engine.warmup.interrupts.Noted(defer=True), in a process of its own (only a main thread's handlers are
    wrapped): the first SIGINT raises nothing until reraise(), a second raises at once, and the handler is Python's
    own again afterwards."""
    out = subprocess.run([sys.executable, "-c", _DEFERRED], capture_output=True, text=True, timeout=60,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as from a terminal
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split("\n")[:4] == ["held KeyboardInterrupt", "second raised", "first raised", "restored True"]
