"""Seeds that identify or remake something fit in 53 bits (exact in JSON and JavaScript); older 63-bit seeds
still work."""
from __future__ import annotations

import json

import numpy as np
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.pipeline.stages import batch_seed, carve_seeds
from engine.generators import derive_seeds, get_generator
from engine.inputs import NEW_SEED_MASK

runner = CliRunner()
OLD_SEED = 2 ** 63 - 25  # a 63-bit seed as fills stored before seeds were 53-bit


def test_derived_seeds_are_53_bits():
    assert NEW_SEED_MASK == 2 ** 53 - 1
    for run_seed in (0, 7, 2 ** 53 - 1, OLD_SEED):
        assert int(derive_seeds(run_seed, 1000).max()) < 2 ** 53
        assert batch_seed(run_seed, 3, 11) < 2 ** 53
    board_seeds = derive_seeds(OLD_SEED, 1000) | np.int64(2 ** 62)  # even from 63-bit board seeds
    assert int(carve_seeds(board_seeds, 2).max()) < 2 ** 53


def test_every_seed_a_fill_stores_is_below_2_53(tmp_path):
    db = tmp_path / "c.db"
    for seed in ([], ["--seed", str(OLD_SEED)]):
        result = runner.invoke(app, ["fill", "--count", "6", "--size", "4", "--batch", "4", *seed, "--db", str(db),
                                     "--out", str(tmp_path / "boards")])
        assert result.exit_code == 0, result.output
    import sqlite3

    conn = sqlite3.connect(db)
    boards = [r[0] for r in conn.execute("SELECT seed FROM boards")]
    carves = [r[0] for r in conn.execute("SELECT carve_seed FROM puzzles")]
    runs = [r[0] for r in conn.execute("SELECT seed FROM runs")]
    conn.close()
    assert boards and carves and len(runs) == 2
    assert all(0 <= s < 2 ** 53 for s in boards + carves)
    assert runs[0] < 2 ** 53 and runs[1] == OLD_SEED  # a given 63-bit run seed is still accepted and stored
    # and a seed read back through JSON is the same integer
    exported = json.loads(runner.invoke(app, ["query", "--db", str(db), "--format", "json", "--limit", "0"]).stdout)
    assert exported


def test_generate_still_takes_an_old_63_bit_seed():
    first = runner.invoke(app, ["generate", "--size", "4", "--count", "2", "--seed", str(OLD_SEED)])
    again = runner.invoke(app, ["generate", "--size", "4", "--count", "2", "--seed", str(OLD_SEED)])
    assert first.exit_code == 0 and first.stdout == again.stdout and first.stdout.count("\n") == 2
    # a board stored with a 63-bit seed is remade by the library from that seed
    wfc = get_generator("wfc")
    board = wfc.generate(2, OLD_SEED)
    assert board.seed == OLD_SEED and np.array_equal(board.cells, wfc.generate(2, OLD_SEED).cells)
