"""What importing costs: names without numpy or numba, and no I/O until asked (engine.cache.enable)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

_LOADED = "import json, sys; {imports}; print(json.dumps(sorted(m for m in ('numpy', 'numba') if m in sys.modules)))"


def _heavy_modules(imports: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", _LOADED.format(imports=imports)], capture_output=True, text=True,
                         check=True, timeout=120)
    return json.loads(out.stdout)


@pytest.mark.parametrize("imports", ["import engine.vocabulary", "import engine", "import catalogue.cli",
                                     "import catalogue.choices"])
def test_names_load_without_numpy_or_numba(imports):
    assert _heavy_modules(imports) == []


def test_help_does_not_import_numba():
    script = ("import sys\nfrom catalogue.cli import main\nfor argv in (['catalogue', '--help'], "
              "['catalogue', 'query', '--help']):\n    sys.argv = argv\n    try:\n        main()\n"
              "    except SystemExit:\n        pass\nprint('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip().splitlines()[-1] == "False"


_NO_IO = """
import json, os, sys
before = dict(os.environ)
import engine
from engine import Grid, solve, canonical_key, carve, generate, grade, write  # every kernel module, none compiled
import engine.bits, engine.explore
print(json.dumps({"environ_same": dict(os.environ) == before,
                  "made": sorted(os.listdir(os.environ["XDG_CACHE_HOME"]))}))
"""


def test_importing_the_engine_does_no_io(tmp_path):
    """Without engine.cache.enable(), importing every part makes no folder and leaves the environment alone."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(XDG_CACHE_HOME=str(tmp_path / "cache"), HOME=str(tmp_path / "home"))
    (tmp_path / "cache").mkdir()
    (tmp_path / "home").mkdir()
    out = subprocess.run([sys.executable, "-c", _NO_IO], capture_output=True, text=True, env=env, check=True,
                         timeout=300)
    assert json.loads(out.stdout) == {"environ_same": True, "made": []}
    assert list((tmp_path / "home").iterdir()) == []


def test_enable_keys_the_cache_on_the_source(tmp_path, monkeypatch):
    import numba

    from engine import cache

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)  # both restored afterwards: later kernels keep the
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)  # session's cache, not tmp_path
    folder = cache.enable(tmp_path)
    assert folder == str(tmp_path / "catalogue-numba" / cache.source_digest())
    assert os.environ["NUMBA_CACHE_DIR"] == folder and os.path.isdir(folder)
    assert cache.enable() == folder  # a child process of ours finds the folder already chosen and keeps it


def _engine_import_graph() -> dict[str, set[str]]:
    """Module -> engine modules it imports anywhere in its text (lazy imports inside functions count too: a
    circle through them still ties the modules together)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    modules = {}
    for path in (root / "engine").rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        modules[".".join(parts)] = (path, is_package)
    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in modules.items():
        package = name if is_package else name.rpartition(".")[0]
        edges = graph.setdefault(name, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                source = ".".join(base + ([node.module] if node.module else []))
                targets = [source] + [f"{source}.{a.name}" for a in node.names]
            else:
                continue
            # a module's own packages are always imported before it: not an edge of a circle
            edges.update(t for t in targets if t in modules and t != name and not name.startswith(t + "."))
    return graph


def test_no_import_circle_in_the_engine():
    graph = _engine_import_graph()
    assert "engine.formats.registry" in graph["engine.formats"]  # the graph sees relative imports
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            raise AssertionError("import circle: " + " -> ".join(path[path.index(module):] + [module]))
        if module in done:
            return
        for target in sorted(graph[module]):
            visit(target, path + [module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])


_READ = """
import json, sys
from catalogue.cli import main
for argv in {argvs!r}:
    sys.argv = ["catalogue", *argv]
    try:
        main()
    except SystemExit as e:
        assert not e.code, (argv, e.code)
print(json.dumps(sorted(m for m in ("sqlalchemy", "numpy", "numba") if m in sys.modules)), file=sys.stderr)
"""


def test_reading_puzzles_loads_neither_sqlalchemy_nor_numba(tmp_path):
    """`query` (samples, offsets, scores too) and `daily` on a SQLite catalogue use the stdlib sqlite3 path."""
    from conftest import fill_sample

    db = tmp_path / "catalogue.db"
    fill_sample(f"sqlite:///{db}")
    argvs = [["query", "--db", str(db), "--sample", "2", "--seed", "1", "--offset", "1", "--min-score", "1"],
             ["daily", "--db", str(db), "--date", "2026-01-01", "--format", "json"]]
    done = subprocess.run([sys.executable, "-c", _READ.format(argvs=argvs)], capture_output=True, text=True,
                          check=True, timeout=120)
    assert json.loads(done.stderr.strip().splitlines()[-1]) == []
