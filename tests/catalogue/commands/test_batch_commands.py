"""The file commands on chunks of grids (catalogue.batches) print exactly what they printed one grid at a time.

The twin is the per-grid path itself: each command's ``batch_map`` replaced by ``background_map(one, ...)``, which
is how the commands ran before the batch kernels (one solve, key, grade or carve call per entry). A file mixing
4x4, 9x9 and 16x16 puzzles and boards, unreadable lines, wrong sizes, conflicting givens, puzzles without a
solution and with several, must give the same stdout, stderr and exit code both ways, with chunks small enough
that the file spans many of them and a chunk holds several sizes.
"""
from __future__ import annotations

import json
import random

import pytest
from paths import DATA
from typer.testing import CliRunner

from catalogue import batches
from catalogue.background import background_map
from catalogue.cli import app
from catalogue.cli.commands import carve, check, grade, key, solve

COMMANDS = (check, key, solve, grade, carve)


def _field(path, k):
    return [line.strip().split(":")[k] for line in open(path, encoding="utf-8")
            if line.strip() and not line.startswith("#")]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> str:
    nine, four, sixteen = DATA / "puzzles-9x9.txt", DATA / "puzzles-4x4.txt", DATA / "puzzles-16x16.txt"
    grids = (_field(nine, 0) + _field(four, 0) + _field(sixteen, 0)[:4] + _field(DATA / "minimal-9x9.txt", 0)[:30]
             + [s for s in _field(nine, 2) if s][:4] + [s for s in _field(four, 2) if s][:4])
    rng = random.Random(11)
    rng.shuffle(grids)
    lines = []
    for i, g in enumerate(grids):
        lines.append(g)
        if i % 13 == 4:
            lines.append(g[:-2] + "x.")  # unreadable
        if i % 19 == 6:
            lines.append(g[:12])  # no size
    path = tmp_path_factory.mktemp("batch") / "mixed.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def per_grid(one, many, items, name, label=None, **options):
    """The path before batches: ``one`` on every entry."""
    return background_map(one, items, name, label=label)


@pytest.fixture
def small_chunks(monkeypatch):
    for table in (batches.CHUNK, carve.CHUNK):
        for box, size in {2: 5, 3: 4, 4: 2, 5: 1}.items():
            monkeypatch.setitem(table, box, size)


def twin_run(monkeypatch, args):
    runner = CliRunner()
    batched = runner.invoke(app, args)
    with monkeypatch.context() as m:
        for module in COMMANDS:
            m.setattr(module, "batch_map", per_grid)
        alone = runner.invoke(app, args)
    return batched, alone


def _no_seconds(text: str) -> list:
    records = json.loads(text)
    for r in records:
        r.pop("solve_seconds", None)
        r.pop("carve_seconds", None)
    return records


CASES = [
    ["check"], ["key"], ["key", "-e", "full"], ["key", "-e", "none", "--format", "csv"],
    ["solve"], ["solve", "--count-solutions", "--max-solutions", "3"], ["solve", "--format", "pretty"],
    ["solve", "--solver", "mrv"], ["solve", "--node-limit", "40"],
    ["grade"], ["grade", "--format", "line"], ["grade", "--steps", "--format", "line"],
    ["carve", "--seed", "3"],
]


@pytest.mark.parametrize("args", CASES, ids=[" ".join(a) for a in CASES])
def test_same_output_as_one_grid_at_a_time(args, mixed, monkeypatch, small_chunks):
    batched, alone = twin_run(monkeypatch, [*args, mixed])
    assert alone.exit_code == 1  # the file has unreadable lines
    assert (batched.exit_code, batched.stdout, batched.stderr) == (alone.exit_code, alone.stdout, alone.stderr)
    assert batched.stdout.strip()


@pytest.mark.parametrize("args", [["solve", "--format", "json"], ["solve", "--count-solutions", "--format", "json"],
                                  ["carve", "--format", "json"]])
def test_records_agree_but_for_the_shared_time(args, mixed, monkeypatch, small_chunks):
    batched, alone = twin_run(monkeypatch, [*args, mixed])
    assert (batched.exit_code, batched.stderr) == (alone.exit_code, alone.stderr)
    assert _no_seconds(batched.stdout) == _no_seconds(alone.stdout)
    assert all(r["solve_seconds"] is None or r["solve_seconds"] >= 0 for r in json.loads(batched.stdout))


def test_results_are_in_file_order(mixed, small_chunks):
    result = CliRunner().invoke(app, ["check", mixed])
    numbers = [int(line.split()[1]) for line in result.stdout.splitlines()]
    lines = [int(line.split(")")[0].split(":")[-1]) for line in result.stdout.splitlines()]
    assert numbers == sorted(numbers) and lines == sorted(lines) and len(set(lines)) == len(lines)
    text = open(mixed, encoding="utf-8").read().splitlines()
    sizes = {len(text[n - 1]) for n in lines}
    assert sizes == {16, 81, 256}  # the file really mixes sizes


def test_the_batch_path_is_taken(mixed, monkeypatch):
    calls = []
    real = solve.solve_group

    def spy(group, *args):
        calls.append(len(group))
        return real(group, *args)

    monkeypatch.setattr(solve, "solve_group", spy)
    result = CliRunner().invoke(app, ["solve", mixed])
    assert result.exit_code == 1 and calls and max(calls) > 5 and sum(calls) > 100  # every grid read, in chunks


THREAD_CASES = [["check"], ["key", "-e", "full"], ["solve", "--count-solutions"], ["grade"],
                ["grade", "--steps", "--format", "line"], ["carve", "--seed", "3"]]


@pytest.mark.parametrize("args", THREAD_CASES, ids=[" ".join(a) for a in THREAD_CASES])
def test_threads_change_nothing_but_the_time(args, mixed, small_chunks):
    """--threads N (and CATALOGUE_THREADS): the windows go to N threads in turn, the output is the file's order
    and the same, messages of bad lines included; more threads than cores too."""
    runner = CliRunner()
    one = runner.invoke(app, [*args, "--threads", "1", mixed])
    three = runner.invoke(app, [*args, "--threads", "3", mixed])
    by_env = runner.invoke(app, [*args, mixed], env={"CATALOGUE_THREADS": "3"})
    assert one.exit_code == 1 and one.stdout.strip()
    assert (one.exit_code, one.stdout, one.stderr) == (three.exit_code, three.stdout, three.stderr)
    assert (one.exit_code, one.stdout, one.stderr) == (by_env.exit_code, by_env.stdout, by_env.stderr)


def test_the_threads_asked_for_are_the_threads_used(mixed, monkeypatch):
    """0 (the default) is one per core; a number is that many."""
    import os

    asked = []
    real = batches.background_map

    def spy(fn, items, name, **options):
        asked.append(options.get("threads"))
        return real(fn, items, name, **options)

    monkeypatch.setattr(batches, "background_map", spy)
    for threads, expected in (("0", os.cpu_count()), ("2", 2), ("5", 5)):
        asked.clear()
        assert CliRunner().invoke(app, ["grade", "--threads", threads, mixed]).exit_code == 1
        assert asked == [expected]
    result = CliRunner().invoke(app, ["grade", "--threads", "-1", mixed])
    assert result.exit_code == 2 and "--threads" in result.stderr
