"""engine.warmup: the grader compiles in a child process only when the kernel cache lacks it."""
from __future__ import annotations

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
