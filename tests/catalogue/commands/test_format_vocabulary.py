"""One output vocabulary: each grid format a command prints reads back as the same grids as ``line``
(test_format_options.py checks that every ``--format`` is built from the vocabulary). And one FillOptions: every
field is an option of ``catalogue fill``, the stored command repeats it."""
from __future__ import annotations

import dataclasses
import json
import shlex

import pytest
import typer.main
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.config import SEED_BITS
from catalogue.pipeline.options import FillOptions
from engine.formats import read_grids
from paths import DATA
from engine.vocabulary import GRID_FORMATS, JSON, LINE, TABLE

runner = CliRunner()


def _commands():
    group = typer.main.get_command(app)
    ctx = typer.Context(group)
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        for sub, subcmd in (getattr(cmd, "commands", None) or {name: cmd}).items():
            yield sub, subcmd


def _grids(text: str, fmt: str) -> list[str]:
    grids, errors = read_grids(text, "<out>", fmt, None)
    assert not errors, errors[:1]
    return ["".join(".123456789"[v] if v < 10 else "ABCDEFGHIJKLMNOP"[v - 10] for v in g.grid.cells.tolist())
            for g in grids]


@pytest.mark.parametrize("fmt", [f for f in GRID_FORMATS if f != LINE])
def test_query_and_daily_print_the_puzzles_in_every_grid_format(sample_sqlite, fmt):
    for args in (["query", "--db", sample_sqlite], ["daily", "--db", sample_sqlite, "--date", "2026-01-01"]):
        lines = runner.invoke(app, [*args, "--format", LINE])
        drawn = runner.invoke(app, [*args, "--format", fmt])
        assert lines.exit_code == drawn.exit_code == 0, drawn.stderr
        expected = lines.stdout.split()
        text = drawn.stdout
        if args[0] == "daily":  # each drawn puzzle comes under a line naming it
            heads = [line for line in text.splitlines() if " clues" in line and "number" in line]
            assert len(heads) == len(expected)
            text = "\n".join(line for line in text.splitlines() if line not in heads)
        assert _grids(text, fmt) == [p.replace("0", ".") for p in expected], (args[0], fmt)


@pytest.mark.parametrize("command", ["solve", "carve"])
def test_solve_and_carve_print_every_grid_format_and_a_table(tmp_path, command):
    puzzles = tmp_path / "p.txt"
    # two 9x9 puzzles with one solution each (carve takes their solutions: complete boards)
    solved = runner.invoke(app, ["solve", str(puzzles_file(tmp_path))])
    assert solved.exit_code == 0, solved.stderr
    puzzles.write_text(solved.stdout if command == "carve" else puzzles_file(tmp_path).read_text())
    seed = ["--seed", "3"] if command == "carve" else []
    line = runner.invoke(app, [command, str(puzzles), *seed, "--format", LINE])
    assert line.exit_code == 0, line.stderr
    for fmt in GRID_FORMATS:
        out = runner.invoke(app, [command, str(puzzles), *seed, "--format", fmt])
        assert out.exit_code == 0 and _grids(out.stdout, fmt) == line.stdout.split(), fmt
    table = runner.invoke(app, ["--quiet", command, str(puzzles), *seed, "--format", TABLE])
    assert table.exit_code == 0 and table.stdout.split()[:2] == ["source", "line"]
    rows = [row for row in table.stdout.splitlines() if row.startswith(str(puzzles))]
    assert len(rows) == len(line.stdout.split())  # a row per puzzle (its grids drawn as squares at 80 columns)


def puzzles_file(tmp_path):
    path = tmp_path / "minimal.txt"
    lines = [line.split(":")[0] for line in (DATA / "minimal-9x9.txt").read_text().splitlines()
             if line and not line.startswith("#")]
    path.write_text("".join(f"{p}\n" for p in lines[:2]))
    return path


def test_import_summary_is_a_table_or_json(tmp_path):
    path = puzzles_file(tmp_path)
    db = str(tmp_path / "c.db")
    table = runner.invoke(app, ["import", str(path), "--db", db])
    again = runner.invoke(app, ["import", str(path), "--db", db, "--format", JSON])
    assert table.exit_code == again.exit_code == 0
    assert table.stdout.startswith("status ") and json.loads(again.stdout)["already_known"] == 2


# --- FillOptions --------------------------------------------------------------------------------------------------

def test_every_fill_option_is_a_field_and_every_field_an_option():
    (fill,) = [cmd for name, cmd in _commands() if name == "fill"]
    options = {p.name for p in fill.params} - {"db", "out", "diagonals", "regions"}  # (those two make shape)
    fields = {f.name for f in dataclasses.fields(FillOptions)} - {"carve_attempts"}  # the library's alone
    assert options == fields


def test_the_seed_is_drawn_once_in_53_bits_and_the_command_repeats_the_options():
    drawn = {FillOptions(count=5).seed for _ in range(200)}
    assert len(drawn) == 200 and all(0 <= s < 2 ** SEED_BITS for s in drawn)
    options = FillOptions(count=30, size=4, seed=7, symmetry="rot180", level="easy", level_tries=3, generators=2)
    words = shlex.split(options.command())
    assert words[:2] == ["catalogue", "fill"]
    given = dict(zip(words[2::2], words[3::2]))
    assert given == {"--count": "30", "--size": "4", "--method": "wfc", "--equivalence": "d4", "--seed": "7",
                     "--symmetry": "rot180", "--level": "easy", "--level-tries": "3", "--batch": "256"}
    # what only shapes the run is stored beside it, not in the command
    assert options.parameters()["generators"] == 2 and "--generators" not in given
    assert "--level-tries" not in FillOptions(count=1, seed=1).command()
