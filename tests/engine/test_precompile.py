"""Kernels compiled ahead of time (engine.precompile) serve another install of the same source, and only when they
fit: the same source, numba, Python and a CPU this machine runs. Otherwise the cache behaves as without a bundle."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from engine import bundle, cache, precompile
from engine._cache_locator import package_folder

ENGINE = Path(cache.__file__).resolve().parent

# a child that keys two 4x4 boards (d4) as a first run would, and reports what numba compiled and what it used;
# the d4 keys are the smallest job (one kernel), so that compiling them without the bundle costs little; the
# boards are the warm-up job's own (engine.warmup.jobs), so the call has the types the bundle compiled
_FIRST_RUN = r"""
import json, os, sys
from engine import cache
folder = cache.enable()
from numba.core.event import install_recorder
with install_recorder("numba:compile") as compiled:
    from engine.warmup.jobs import _boards
    from engine.keys import key_texts
    keys = key_texts(_boards(2), 2, "d4")
print(json.dumps({"folder": folder, "compiled": len(compiled.buffer), "cpu": os.environ.get("NUMBA_CPU_NAME"),
                  "engine": cache.__file__, "keys": keys}))
"""


def _clean_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(extra)
    return env


def _first_run(root: Path, home: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", _FIRST_RUN], capture_output=True, text=True, timeout=600, check=True,
                         env=_clean_env(PYTHONPATH=str(root), XDG_CACHE_HOME=str(home)), cwd=root)
    return json.loads(out.stdout)


def test_package_folder_names_the_kernel_by_package_not_by_place():
    assert package_folder(ENGINE / "grade" / "kernels" / "driver.py") == "engine.grade.kernels"
    assert package_folder(ENGINE / "bits.py") == "engine"
    assert package_folder(Path(sys.executable)) is None


@pytest.mark.slow
def test_a_bundle_built_in_one_place_loads_in_another_without_compiling(tmp_path):
    """Build a (small) bundle in one copy of the engine, install it with another copy elsewhere: a first run there
    compiles nothing, uses the bundle's CPU target, and makes the same keys as the suite's own kernels."""
    built, installed = tmp_path / "built", tmp_path / "installed"
    shutil.copytree(ENGINE, built / "engine", ignore=shutil.ignore_patterns("__pycache__", "_bundle"))
    env = _clean_env(PYTHONPATH=str(built))
    code = ("from pathlib import Path; from engine import precompile; "
            f"precompile.build(Path({str(built / 'engine' / '_bundle')!r}), sizes=(4,), "
            "jobs=('keys:d4', 'generate:pattern'))")  # on the workers, as every build is
    subprocess.run([sys.executable, "-c", code], check=True, timeout=600, env=env, cwd=built)
    manifest = json.loads((built / "engine" / "_bundle" / "manifest.json").read_text())
    assert manifest["digest"] == cache.source_digest() and manifest["files"] > 0
    assert manifest["compiled_outside_the_plan"] == 0
    shutil.copytree(built / "engine", installed / "engine")

    first = _first_run(installed, tmp_path / "home")
    assert first["engine"].startswith(str(installed))
    assert first["compiled"] == 0
    assert first["cpu"] == manifest["cpu_name"]
    folder = Path(first["folder"])
    assert json.loads((folder / bundle.TARGET_FILE).read_text())["cpu_name"] == manifest["cpu_name"]
    assert sorted(p.name for p in folder.rglob("*.nbc")) == sorted(
        p.name for p in (installed / "engine" / "_bundle" / "kernels").rglob("*.nbc"))

    from engine.keys import key_texts
    from engine.warmup.jobs import _boards
    assert first["keys"] == key_texts(_boards(2), 2, "d4")

    # the same install whose bundle does not fit (another engine source) compiles, for this machine's CPU
    stale = json.loads((installed / "engine" / "_bundle" / "manifest.json").read_text())
    stale["digest"] = "0" * 16
    (installed / "engine" / "_bundle" / "manifest.json").write_text(json.dumps(stale))
    second = _first_run(installed, tmp_path / "home2")
    assert second["compiled"] > 0 and second["cpu"] is None
    assert not (Path(second["folder"]) / bundle.TARGET_FILE).exists()
    assert second["keys"] == first["keys"]


def _bundle(tmp_path: Path, **changes) -> Path:
    """A bundle folder whose manifest fits this machine unless ``changes`` say otherwise, with one fake kernel."""
    triple, cpu_name, needs = precompile.baseline()
    manifest = {"digest": cache.source_digest(), "numba": version("numba"), "python": bundle.python_tag(),
                "triple": triple, "cpu_name": cpu_name, "cpu_features": "", "needs": list(needs)}
    manifest.update(changes)
    made = tmp_path / "bundle"
    (made / "kernels" / "engine.grade").mkdir(parents=True)
    (made / "kernels" / "engine.grade" / "_fast.k-1.py311.nbi").write_bytes(b"index")
    (made / "manifest.json").write_text(json.dumps(manifest))
    return made


@pytest.mark.parametrize("changes, why", [({}, ""), ({"digest": "0" * 16}, "another engine source"),
                                          ({"numba": "0.1"}, "another numba version"),
                                          ({"python": "py27"}, "another Python (py27; this is py3"),
                                          ({"triple": "aarch64-unknown-linux-gnu"}, "another platform"),
                                          ({"needs": ["no-such-feature"]}, "this CPU lacks no-such-feature")])
def test_bundle_fits_only_the_same_source_numba_python_and_a_cpu_that_runs_it(tmp_path, changes, why):
    made = _bundle(tmp_path, **changes)
    fits = bundle.bundle_fits(made, cache.source_digest())
    assert (fits is not None) == (not changes)
    manifest, reason = bundle.bundle_verdict(made, cache.source_digest())
    assert (manifest is None) == bool(changes) and why in reason


def test_check_says_whether_the_bundle_fits_in_one_line(tmp_path, capsys):
    made = _bundle(tmp_path, files=3, sizes=[9])
    assert precompile.main(["--check", "--out", str(made)]) == 0
    cpu_name = precompile.baseline()[1]
    assert capsys.readouterr().out.strip().endswith(
        f"3 kernel files for sizes 9, {cpu_name}: fits this machine (a first run loads them)")
    assert precompile.main(["--check", "--out", str(tmp_path / "nowhere")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("engine.precompile: no precompiled bundle in ")


def test_bundle_fits_nothing_without_a_readable_manifest(tmp_path):
    assert bundle.bundle_fits(tmp_path, cache.source_digest()) is None
    (tmp_path / "manifest.json").write_text("{not json")
    assert bundle.bundle_fits(tmp_path, cache.source_digest()) is None
    assert "cannot be read" in bundle.bundle_verdict(tmp_path, cache.source_digest())[1]


@pytest.fixture
def restored_numba_settings(monkeypatch):
    """enable() writes os.environ and numba.config: give both back, so later tests keep the session's cache.

    The environment is put back from a snapshot, not by monkeypatch alone: a variable absent before the test and
    set by enable() is not one monkeypatch knows, and once the test deletes it through monkeypatch, monkeypatch
    would put enable()'s value back at teardown. It did: NUMBA_CPU_NAME=x86-64-v3 stayed in the worker, and every
    CLI process that later tests started there compiled all its kernels again for that CPU (minutes of the
    suite's time on a new machine)."""
    import numba

    names = ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES", "NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES")
    saved = {name: os.environ.get(name) for name in names}
    for name in ("CACHE_DIR", "CACHE_LOCATOR_CLASSES", "CPU_NAME", "CPU_FEATURES"):
        monkeypatch.setattr(numba.config, name, getattr(numba.config, name))
    monkeypatch.setattr(cache, "_chosen", cache._chosen)  # the folder this process chose stays the session's
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.delenv("NUMBA_CPU_NAME", raising=False)
    yield monkeypatch
    monkeypatch.undo()
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def test_enable_copies_a_fitting_bundle_into_a_new_folder_only(tmp_path, restored_numba_settings):
    import numba

    restored_numba_settings.setattr(bundle, "BUNDLE", _bundle(tmp_path))
    folder = Path(cache.enable(tmp_path / "cache"))
    assert (folder / "engine.grade" / "_fast.k-1.py311.nbi").read_bytes() == b"index"
    cpu = json.loads((folder / bundle.TARGET_FILE).read_text())["cpu_name"]
    assert os.environ["NUMBA_CPU_NAME"] == numba.config.CPU_NAME == cpu
    assert os.environ["NUMBA_CACHE_LOCATOR_CLASSES"].startswith("engine._cache_locator.EngineLocator,")
    assert not list(folder.rglob("*.tmp"))

    # a folder where this machine already compiled kernels keeps its own CPU target: nothing is copied
    restored_numba_settings.delenv("NUMBA_CACHE_DIR")
    restored_numba_settings.delenv("NUMBA_CPU_NAME")
    own = tmp_path / "own" / "catalogue-numba" / cache.source_digest() / "engine.keys"
    own.mkdir(parents=True)
    (own / "x.nbi").write_bytes(b"")
    folder = Path(cache.enable(tmp_path / "own"))
    assert not (folder / bundle.TARGET_FILE).exists() and not (folder / "engine.grade").exists()
    assert "NUMBA_CPU_NAME" not in os.environ


def test_a_users_own_cpu_choice_wins_over_the_bundle(tmp_path, restored_numba_settings):
    restored_numba_settings.setattr(bundle, "BUNDLE", _bundle(tmp_path))
    restored_numba_settings.setenv("NUMBA_CPU_NAME", "generic")
    folder = Path(cache.enable(tmp_path / "cache"))
    assert os.environ["NUMBA_CPU_NAME"] == "generic"
    assert not (folder / bundle.TARGET_FILE).exists()


@pytest.mark.parametrize("argv", [["--size", "7"], ["--no-such-option"], ["--size"]])
def test_usage_errors_are_one_line_and_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        precompile.main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1 and err.startswith("engine.precompile: ")
