"""Seed 001's experiment (engine.explore), its SVG chart (engine.explore.plot) and `catalogue explore`."""
from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import naive
from catalogue.cli import app
from engine.explore import explore, plot_svg, random_grid
from engine.explore.plot import Panel, Series, line_chart

SVG = "{http://www.w3.org/2000/svg}"
runner = CliRunner()


@settings(max_examples=40, deadline=None)
@given(box=st.sampled_from([2, 3, 4]), fraction=st.floats(0, 0.5), seed=st.integers(0, 2**32 - 1))
def test_random_grid_places_valid_clues(box, fraction, seed):
    ncells = box ** 4
    clues = int(fraction * ncells)
    grid = random_grid(box, clues, np.random.default_rng(seed))
    cells = grid.tolist()
    assert naive.is_valid(cells)
    placed = np.count_nonzero(grid)
    # every clue asked for is placed, unless every blank cell is left without a valid digit
    assert placed == clues or (placed < clues and all(not naive.candidates(cells, c)
                                                      for c in range(ncells) if cells[c] == 0))
    again = random_grid(box, clues, np.random.default_rng(seed))
    assert np.array_equal(grid, again)


def test_random_grid_stops_short_only_when_every_cell_is_blocked():
    shorts = 0
    for seed in range(40):
        cells = random_grid(2, 16, np.random.default_rng(seed)).tolist()
        placed = sum(1 for v in cells if v)
        if placed < 16:
            shorts += 1
            assert all(not naive.candidates(cells, c) for c in range(16) if cells[c] == 0)
    assert shorts > 0  # asking for every cell of a 4x4 grid usually runs into a blocked cell
    with pytest.raises(ValueError):
        random_grid(2, 17, np.random.default_rng(0))


def test_explore_tallies_agree_with_naive_on_4x4():
    result = explore([2, 5, 8], trials=12, solvers=["stack", "mrv"], node_limit=10_000, box=2, seed=7)
    assert [(r.solver, r.clues) for r in result.rows] == [(s, k) for s in ("stack", "mrv") for k in (2, 5, 8)]
    for row in result.rows:
        assert row.solved + row.none + row.timeout == row.trials == 12
        assert row.timeout == 0  # 4x4 grids never need 10,000 nodes
    for trial in result.runs:
        grid = random_grid(2, trial.clues, np.random.default_rng([7, 2, trial.clues, trial.trial]))
        count, _ = naive.count_solutions(grid.tolist(), 1)
        assert trial.outcome == ("solved" if count else "none")


def test_explore_is_deterministic_and_solvers_see_the_same_grids():
    a = explore([10, 30], trials=4, solvers=["stack"], node_limit=3000, box=3, seed=11)
    b = explore([10, 30], trials=4, solvers=["mrv", "stack"], node_limit=3000, box=3, seed=11)
    strip = [(t.clues, t.trial, t.placed, t.outcome, t.nodes) for t in a.runs]
    assert strip == [(t.clues, t.trial, t.placed, t.outcome, t.nodes) for t in b.runs if t.solver == "stack"]
    # a solver that knows the answer agrees on every grid it does not time out on
    by_key = {}
    for t in b.runs:
        by_key.setdefault((t.clues, t.trial), {})[t.solver] = t.outcome
    for outcomes in by_key.values():
        if "timeout" not in outcomes.values():
            assert outcomes["mrv"] == outcomes["stack"]


def test_timeouts_are_counted():
    result = explore([20], trials=6, solvers=["stack"], node_limit=5, box=3, seed=1)
    row = result.rows[0]
    assert row.timeout >= 1 and row.median_nodes <= 5


def test_explore_rejects_bad_arguments():
    with pytest.raises(ValueError):
        explore([82], trials=1, box=3)
    with pytest.raises(ValueError):
        explore([10], trials=0)
    with pytest.raises(ValueError):
        explore([10], trials=1, solvers=["nope"])


def test_plot_svg_is_valid_and_shows_each_series():
    result = explore([4, 8], trials=3, solvers=["stack", "mrv"], node_limit=1000, box=2, seed=3)
    root = ET.fromstring(plot_svg(result))
    assert root.tag == f"{SVG}svg"
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for label in ("has a solution (stack)", "no solution (mrv)", "timed out (stack)", "stack", "mrv"):
        assert label in texts
    assert len(list(root.iter(f"{SVG}polyline"))) == 8  # 3 outcomes x 2 solvers + median nodes x 2


def test_line_chart_log_axis_gaps_and_escaping():
    svg = line_chart([Panel("a < b & c", "y", [Series("s", [1, 2, 3], [1.0, None, 1000.0])], log_y=True)],
                     x_label="x", x_ticks=[1, 2, 3], title="t")
    root = ET.fromstring(svg)
    assert "a < b & c" in [t.text for t in root.iter(f"{SVG}text")]
    assert len(list(root.iter(f"{SVG}circle"))) == 2  # the None point is left out
    assert {"1", "10", "100", "1000"} <= {t.text for t in root.iter(f"{SVG}text")}
    with pytest.raises(ValueError):
        line_chart([], "x", [1])


# -- the command ------------------------------------------------------------------------------------------------
def test_cli_table():
    r = runner.invoke(app, ["explore", "--trials", "3", "--clues", "10,40", "--seed", "5", "--node-limit", "2000"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].split()[:3] == ["solver", "clues", "trials"]
    assert [line.split()[:3] for line in lines[2:]] == [["stack", "10", "3"], ["stack", "40", "3"]]
    assert r.stderr == ""  # no progress when stderr is not a terminal


def test_cli_json_csv_and_plot(tmp_path):
    plot = tmp_path / "explore.svg"
    args = ["explore", "--trials", "4", "--clues", "3,6", "--size", "4", "--seed", "2", "--solver", "stack",
            "--solver", "backtrack"]
    r = runner.invoke(app, args + ["--format", "json", "--plot", str(plot)])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["size"] == 4 and data["seed"] == 2 and len(data["rows"]) == 4
    stack_rows = [row for row in data["rows"] if row["solver"] == "stack"]
    back_rows = [row for row in data["rows"] if row["solver"] == "backtrack"]
    for s, b in zip(stack_rows, back_rows):  # the two walk the same tree: same outcomes and nodes
        assert (s["solved"], s["none"], s["median_nodes"]) == (b["solved"], b["none"], b["median_nodes"])
    assert ET.parse(plot).getroot().tag == f"{SVG}svg"
    assert f"wrote {plot}" in r.stderr
    r = runner.invoke(app, args + ["--format", "csv"])
    rows = r.stdout.splitlines()
    assert rows[0] == "solver,clues,trials,solved,none,timeout,median_nodes,median_seconds"
    assert len(rows) == 5
    assert [list(row) for row in data["rows"]] == [rows[0].split(",")] * 4  # the same names in json and csv
    table = runner.invoke(app, args).stdout.splitlines()[0].split()
    assert table == rows[0].split(",")


def test_cli_unwritable_plot_is_one_line_before_any_work(tmp_path):
    # --plot to a folder, or under a file, used to print the table and then a traceback from os.replace/mkstemp
    (tmp_path / "afile").write_text("x")
    for target in (tmp_path, tmp_path / "afile" / "x.svg"):
        r = runner.invoke(app, ["explore", "--trials", "2", "--clues", "3", "--size", "4", "--plot", str(target)])
        assert r.exit_code == 1
        assert r.stdout == ""  # refused before the experiment ran
        assert r.stderr.startswith("catalogue: ") and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_cli_plot_gets_a_normal_file_mode(tmp_path):
    plot = tmp_path / "p.svg"
    r = runner.invoke(app, ["explore", "--trials", "2", "--clues", "3", "--size", "4", "--plot", str(plot)])
    assert r.exit_code == 0, r.output
    umask = os.umask(0)
    os.umask(umask)
    assert plot.stat().st_mode & 0o777 == 0o666 & ~umask  # not mkstemp's 0600
    assert [p.name for p in tmp_path.iterdir()] == ["p.svg"]  # no temp file left


@pytest.mark.parametrize("args", [["--clues", "10,x"], ["--size", "7"], ["--clues", "82"], ["--trials", "0"],
                                  ["--solver", "nope"]])
def test_cli_usage_errors(args):
    r = runner.invoke(app, ["explore", *args])
    assert r.exit_code == 2
    assert r.stdout == ""
    assert r.stderr.startswith("catalogue: ") and r.stderr.count("\n") == 1, r.stderr


def test_cli_help():
    r = runner.invoke(app, ["explore", "--help"])
    assert r.exit_code == 0
    for option in ("--clues", "--trials", "--solver", "--node-limit", "--size", "--seed", "--plot", "--format"):
        assert option in r.stdout
