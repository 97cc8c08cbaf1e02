"""What importing costs: names without numpy or numba, and no I/O until a compiled part is imported."""
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


_IMPORTS = """
import json, os, sys
before = dict(os.environ)
{imports}
home = os.environ["XDG_CACHE_HOME"]
print(json.dumps({{"environ_same": dict(os.environ) == before, "cache": os.environ.get("NUMBA_CACHE_DIR"),
                  "made": sorted(os.path.relpath(os.path.join(d, f), home) for d, _, fs in os.walk(home) for f in fs),
                  "folders": sorted(os.listdir(home))}}))
"""


def _import_in_a_new_home(tmp_path, imports: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(XDG_CACHE_HOME=str(tmp_path / "cache"), HOME=str(tmp_path / "home"))
    (tmp_path / "cache").mkdir()
    (tmp_path / "home").mkdir()
    out = subprocess.run([sys.executable, "-c", _IMPORTS.format(imports=imports)], capture_output=True, text=True,
                         env=env, check=True, timeout=300)
    assert list((tmp_path / "home").iterdir()) == []
    return json.loads(out.stdout)


def test_importing_the_engine_and_its_plain_parts_does_no_io(tmp_path):
    """``import engine``, its names and its pure-Python parts make no folder and leave the environment alone."""
    found = _import_in_a_new_home(tmp_path, "import engine, engine.vocabulary, engine.grid, engine.formats, "
                                            "engine.geometry, engine.warmup; engine.Grid; engine.FORMATS")
    assert found == {"environ_same": True, "cache": None, "made": [], "folders": []}


def test_the_first_compiled_part_chooses_the_one_cache_folder_and_compiles_nothing(tmp_path):
    """Importing every kernel module chooses the folder every entry point shares, before numba fixes any kernel's
    cache location; nothing is compiled or written until a kernel runs."""
    from engine import cache

    found = _import_in_a_new_home(tmp_path, "from engine import Grid, solve, canonical_key, carve, generate, grade, "
                                            "write; import engine.bits, engine.explore")
    assert found["cache"] == str(tmp_path / "cache" / "catalogue-numba" / cache.source_digest())
    assert found["folders"] == ["catalogue-numba"] and found["made"] == []


def test_enable_keys_the_cache_on_the_source(tmp_path, monkeypatch):
    import numba

    from engine import cache

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)  # all restored afterwards: later kernels keep the
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)  # session's cache, not tmp_path
    monkeypatch.setattr(cache, "_chosen", cache._chosen)
    folder = cache.enable(tmp_path)
    assert folder == str(tmp_path / "catalogue-numba" / cache.source_digest())
    assert os.environ["NUMBA_CACHE_DIR"] == folder and os.path.isdir(folder)
    assert cache.enable() == folder  # chosen once a process: the next call without a folder keeps it
    monkeypatch.setattr(cache, "_chosen", False)
    assert cache.enable() == folder  # a child process of ours finds it in NUMBA_CACHE_DIR (named by the digest)


def _import_graph(package: str) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports anywhere in its text (lazy imports inside functions count
    too, and imports for type checkers only: a circle through them still ties the modules together)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    modules = {}
    for path in (root / package).rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        modules[".".join(parts)] = (path, is_package)
    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in modules.items():
        package_of = name if is_package else name.rpartition(".")[0]
        edges = graph.setdefault(name, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package_of.split(".")[: len(package_of.split(".")) - node.level + 1] if node.level else []
                source = ".".join(base + ([node.module] if node.module else []))
                targets = [source] + [f"{source}.{a.name}" for a in node.names]
            else:
                continue
            # importing a.b.c runs a/__init__.py and a/b/__init__.py first: those are imported too
            targets += [".".join(t.split(".")[:i]) for t in targets for i in range(1, t.count(".") + 1)]
            # a module's own packages are always imported before it: not an edge of a circle
            edges.update(t for t in targets if t in modules and t != name and not name.startswith(t + "."))
    return graph


@pytest.mark.parametrize("package, sample", [("engine", ("engine.formats", "engine.formats.registry")),
                                             ("catalogue", ("catalogue.store", "catalogue.store.catalogue"))])
def test_no_import_circle(package, sample):
    """No module of the engine, or of the catalogue, imports itself through others: each package's modules form
    layers (docs/architecture.md says which may import which)."""
    graph = _import_graph(package)
    assert sample[1] in graph[sample[0]]  # the graph sees relative imports
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


@pytest.mark.parametrize("imports", ["import catalogue.store", "import catalogue.pipeline",
                                     "import catalogue.store.catalogue, catalogue.store.insert, "
                                     "catalogue.store.regrade, catalogue.pipeline.run, catalogue.pipeline.importer"])
def test_the_store_and_the_pipeline_load_without_typer(imports):
    """The CLI (typer) is a layer above the library: the store and the pipeline are usable without it."""
    out = subprocess.run([sys.executable, "-c", f"import sys; {imports}; print('typer' in sys.modules)"],
                         capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "False"


def test_only_the_cli_imports_typer():
    """typer is imported by catalogue/cli/ alone (lazily or not), so no other layer of the program needs it."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    found = []
    for path in sorted([*(root / "catalogue").rglob("*.py"), *(root / "engine").rglob("*.py")]):
        if (root / "catalogue" / "cli") in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            found += [f"{path.relative_to(root)}:{node.lineno}" for n in names if n.split(".")[0] in ("typer", "click")]
    assert found == []


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
