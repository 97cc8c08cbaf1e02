"""The documentation: README.md and docs/ stay true to the program.

- the CLI reference (docs/cli-reference.md) is what `tools/cli_reference.py` generates from --help;
- the benchmarks page (docs/benchmarks.md) is what `tools/benchmarks_page.py` generates from bench/results/,
  and stays short (at most 20 KB);
- README.md stays short (at most 10 KiB) and its test command is the one .ci/run runs;
- docs/ stays under 300,000 bytes, every file in it counted (pages, generated pages, images);
- every command has help and is shown (`catalogue NAME`) in the README or a docs page;
- every relative link in README.md and docs/ points to a file that exists (and to a heading of it);
- the README's tour runs as written, in a fresh folder, and the Python examples marked to run do.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from catalogue.cli import app

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
README_LIMIT = 10 * 1024  # bytes
BENCHMARKS_LIMIT = 20_000  # bytes: today's figures only; their history is in git
DOCS_LIMIT = 300_000  # bytes: every file under docs/, recursively

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _pages() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


def _commands():
    group = typer.main.get_command(app)
    ctx = typer.Context(group)
    for name in group.list_commands(ctx):  # the group loads each command's module lazily
        cmd = group.get_command(ctx, name)
        assert cmd is not None, f"command {name} does not load"
        subcommands = getattr(cmd, "commands", None)
        if subcommands:
            for sub in subcommands:
                yield f"{name} {sub}"
        else:
            yield name


def _fenced_block_after(text: str, marker: str) -> str:
    """The body of the first fenced code block after the line that holds ``marker``."""
    start = text.index(marker)
    match = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M).search(text, start)
    assert match, f"no fenced block after {marker!r}"
    return match.group(1)


@pytest.mark.slow
def test_cli_reference_is_current():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "cli_reference.py"), "--check"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr.strip()


def test_vocabulary_tables_are_current():
    """The docs' tables of levels and techniques (docs/grading.md: ratings, levels, step names) and of the schema's
    migrations (docs/storage.md) are what tools/vocabulary_tables.py writes from engine.vocabulary and the
    migrations, and each is on a page."""
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "vocabulary_tables.py"), "--check"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr.strip()
    marked = "".join(page.read_text(encoding="utf-8") for page in _pages())
    for name in ("levels", "techniques", "migrations"):
        assert f"<!-- vocabulary: {name} -->" in marked, f"no page holds the {name} table"
    text = (ROOT / "docs" / "grading.md").read_text(encoding="utf-8")
    assert "| `chains-and-cycles` | 6.5 | expert | bidirectional X-cycle, " in text
    assert "| `bug` | 5.6 | expert | BUG+1, " in text
    assert text.count("\n| `hidden-single` |") == 1, "one table lists the techniques: the generated one"


def test_schema_head_named_in_docs_is_the_newest_migration():
    """Where a page shows `db upgrade` or `db current` printing the head revision, it is the newest migration's
    (catalogue.store.migrate reads it from the migrations' file names)."""
    from catalogue.store.migrate import HEAD_REVISION

    named = {(page.name, revision) for page in _pages()
             for revision in re.findall(r"\b(\d{4}) \(head\)", page.read_text(encoding="utf-8"))}
    stale = sorted(f"{name} says {revision}" for name, revision in named if revision != HEAD_REVISION)
    assert not stale, f"the head is {HEAD_REVISION}: " + ", ".join(stale)


def test_benchmarks_page_is_current():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "benchmarks_page.py"), "--check"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr.strip()
    size = (DOCS / "benchmarks.md").stat().st_size
    assert size <= BENCHMARKS_LIMIT, (f"docs/benchmarks.md is {size} bytes; at most {BENCHMARKS_LIMIT}: keep only "
                                      "the newest figure of each line in bench/results/; git keeps the rest")


def test_readme_is_short():
    size = README.stat().st_size
    assert size <= README_LIMIT, f"README.md is {size} bytes; at most {README_LIMIT}: move text into docs/"


def test_docs_are_small():
    """Every file under docs/ together, images and generated pages included: one place per fact keeps it short."""
    sizes = {path: path.stat().st_size for path in DOCS.rglob("*") if path.is_file()}
    total = sum(sizes.values())
    largest = ", ".join(f"{path.relative_to(ROOT)} {size:,}" for path, size in
                        sorted(sizes.items(), key=lambda item: -item[1])[:3])
    assert total <= DOCS_LIMIT, (f"docs/ holds {total:,} bytes; at most {DOCS_LIMIT:,}: tell each fact on one page "
                                 f"and link to it from the others (largest: {largest})")


def test_readme_test_command_is_the_one_ci_runs():
    text = README.read_text(encoding="utf-8")
    venv = "python3 -m venv .venv && . .venv/bin/activate"
    command = "pip install -e '.[test]' && python -m pytest"
    assert f"\n{venv} && {command}\n" in text, "README's test command changed: keep it and .ci/run in step"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert command in ci and "python3 -m venv .venv" in ci and ". .venv/bin/activate" in ci


def test_there_are_commands():
    names = set(_commands())
    assert {"fill", "query", "export", "stats", "verify", "db upgrade", "db current", "generate", "solve",
            "check", "carve", "key", "grade", "explore"} <= names


def test_every_command_has_help_and_is_documented():
    text = "\n".join(page.read_text(encoding="utf-8") for page in _pages() if page.name != "cli-reference.md")
    runner = CliRunner()
    for name in _commands():
        result = runner.invoke(app, [*name.split(), "--help"])
        assert result.exit_code == 0, (name, result.output)
        assert "Usage" in result.output and len(result.output.splitlines()) > 3, name
        assert f"catalogue {name}" in text, f"neither README.md nor docs/ shows `catalogue {name}`"


def test_version():
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.startswith("catalogue ")


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub makes of a page's headings: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    headings = re.findall(r"^#{1,6} (.+)$", text, re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def test_relative_links_point_to_files_and_headings():
    broken = []
    for page in _pages():
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue  # a URL
            file, _, anchor = target.partition("#")
            path = (page.parent / file).resolve() if file else page
            if not path.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and path.suffix == ".md" and anchor not in _anchors(path):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, "broken links: " + ", ".join(broken)


def test_docs_index_links_every_page():
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    linked = {(DOCS / target.split("#", 1)[0]).resolve() for target in LINK.findall(index)}
    missing = [str(p.relative_to(ROOT)) for p in sorted(DOCS.rglob("*.md"))
               if p != DOCS / "README.md" and p.resolve() not in linked]
    assert not missing, f"docs/README.md does not link: {', '.join(missing)}"


@pytest.mark.slow
def test_readme_tour_runs_as_written(tmp_path):
    """The block after the `<!-- tour` comment, run by bash in an empty folder; every command must exit 0."""
    tour = _fenced_block_after(README.read_text(encoding="utf-8"), "<!-- tour")
    assert "catalogue fill" in tour and "cd " in tour
    env = {key: value for key, value in os.environ.items() if not key.startswith("CATALOGUE_")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    script = "set -euo pipefail\nset -x\n" + tour
    result = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=900)
    assert result.returncode == 0, f"the tour failed (exit {result.returncode}):\n{result.stderr[-3000:]}"
    assert (tmp_path / "tour" / "data" / "catalogue.db").exists()
    assert not (tmp_path / "data").exists(), "the tour wrote outside its folder"


#: runs the blocks given as a JSON list on stdin, one after another, each in a namespace of its own as a script
#: of its own would (a block of `>>>` lines as a doctest); prints, last, the JSON list of [index, what failed]
_RUN_BLOCKS = r"""
import doctest, json, sys, traceback
failed = []
for k, code in enumerate(json.loads(sys.stdin.read())):
    try:
        if code.lstrip().startswith(">>>"):
            runner = doctest.DocTestRunner()
            runner.run(doctest.DocTestParser().get_doctest(code, {}, "example", None, 0))
            if runner.failures:
                failed.append([k, "the doctest failed (its report is above)"])
        else:
            exec(compile(code, f"<block {k}>", "exec"), {"__name__": "__main__"})
    except SystemExit as stop:  # a script's sys.exit(): 0 is success
        if stop.code not in (0, None):
            failed.append([k, f"exit {stop.code}"])
    except BaseException:
        failed.append([k, traceback.format_exc()])
print(json.dumps(failed))
"""


@pytest.mark.slow
def test_python_examples_run():
    """Every ```python block after a `<!-- runs` comment in README.md and docs/ runs from the repository root
    (a block of `>>>` lines runs as a doctest). The blocks run in one new Python process, each in a namespace of
    its own (a process each cost 1.5 s of CPU, mostly imports and kernel loading)."""
    import json

    marker = re.compile(r"<!-- runs[^>]*-->\n```python\n(.*?)^```", re.S | re.M)
    blocks = [(page, code) for page in _pages() for code in marker.findall(page.read_text(encoding="utf-8"))]
    assert len(blocks) >= 4
    result = subprocess.run([sys.executable, "-c", _RUN_BLOCKS], input=json.dumps([code for _, code in blocks]),
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{result.stdout[-2000:]}{result.stderr[-2000:]}"
    failed = json.loads(result.stdout.strip().splitlines()[-1])
    for k, what in failed:
        page, code = blocks[k]
        pytest.fail(f"{page.relative_to(ROOT)}:\n{code}\n{what[-2000:]}\n{result.stdout[-2000:]}")


def test_the_record_fields_are_the_codes():
    """docs/commands/query.md lists the one record shape: the fields of RECORD_FIELDS, in order."""
    from catalogue.store.fields import RECORD_FIELDS

    text = (ROOT / "docs" / "commands" / "query.md").read_text(encoding="utf-8")
    listed = text.split("<!-- record fields -->", 1)[1].split("\n\n", 1)[0]
    assert re.findall(r"`([a-z_]+)`", listed) == list(RECORD_FIELDS)
