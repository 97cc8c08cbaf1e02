"""engine.warmup: the grader compiles in a child process only when the kernel cache lacks it."""
from __future__ import annotations

import os
import subprocess
import sys

from engine import warmup


def test_grader_cached_reads_the_cache_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert not warmup.grader_cached()
    folder = tmp_path / "engine.grade"
    folder.mkdir()
    (folder / "_fast._grade_many-147.py311.nbi").write_bytes(b"")
    assert warmup.grader_cached()
    assert warmup.start_grader_compile(3) is None  # cached: no child
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    assert warmup.grader_cached()  # numba's default cache: never a child


def test_child_compiles_into_the_shared_cache():
    """With the suite's (warm) cache the child has nothing to compile: it grades one puzzle and exits 0."""
    code = "from engine.warmup import compile_grader; compile_grader(2); compile_grader(3)"
    assert subprocess.run([sys.executable, "-c", code], timeout=600).returncode == 0


def test_finish_without_a_child():
    warmup.finish(None)


def test_the_compiled_grader_is_ready_where_it_is_loaded_or_cached(tmp_path):
    """What the web hint asks before it lets the compiled grader choose: loaded here (the tests graded already), or
    in the kernel cache; with the JIT off, never (the kernels would run as Python)."""
    import numpy as np

    from engine.grade import grade_many

    grade_many(np.zeros((1, 16), np.int8), 2)
    assert warmup.compiled_ready()
    script = "from engine import cache; cache.enable(); from engine.warmup import compiled_ready as r; print(r())"
    for env, expected in (({"NUMBA_CACHE_DIR": str(tmp_path / "empty")}, "False"),
                          ({"NUMBA_DISABLE_JIT": "1"}, "False"), ({}, "True")):
        out = subprocess.run([sys.executable, "-c", script], env={**os.environ, **env}, capture_output=True,
                             text=True, timeout=120)
        assert out.stdout.strip() == expected, (env, out.stderr[-1000:])
