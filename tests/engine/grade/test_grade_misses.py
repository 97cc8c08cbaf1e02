"""The memo of misses (engine/grade/kernels/misses.py) changes no step: a grader that remembers each technique's last
miss makes, step by step, the same steps as one that forgets everything before each step (its slow twin). Each
puzzle has a step of the technique found while the memo held that technique's miss (Nishio, aligned pair and triple
exclusion, direct pointing, pointing, claiming, X-Wing, Swordfish); direct claiming and Jellyfish, which random
minimal puzzles almost never use (no step found with its miss held in 3,000 of them; top1465's neither, for direct
claiming), are checked on puzzles where the memo holds their misses."""
from __future__ import annotations

import numpy as np
import pytest

from engine.geometry import geometry
from engine.grade.kernels import driver
from engine.grade.kernels.misses import new_memo
from engine.grade.state import State
from engine.grade.techniques import INDEX, NCOUNTERS
from engine.grade.kernels.state import grader_units
from engine.vocabulary import STEP_PATH_ONLY, TECHNIQUES

# random minimal puzzles (seeded carvings) where Nishio misses and later finds a step while the memo holds its miss,
# so the search that looked only at the changed digits is the one that found it
NISHIO_PUZZLES = [
    "..6..8....3...21.59.......78.7.9..5........1..5.3...4..6...3.....8.7.6.92........",
    "...4...2...5...4......8.3.12...63..7.3.7...64.9.5.....96....2.......1....513.....",
    "5.....1...2..54.7..1.7...3.....9..252.........8...6...6.12..8.........5.37...1...",
    "..5......1.3..4.2.4..1.76..9.........4..2.........5.79...3...6...2...1.53..561.8.",
    ".......6.....5.8.1.83..6..28....51.9....287..2...1.38..........56...2.....147....",
    "....38..9..7.....86..7.9...........6....4123..2.3..4..9.3.54....4....1....51.....",
    "4.9..5.........6...6.4.1..3.....9.3.....7...12...3..7...1.5......6..35.48..79....",
]

# puzzles where an aligned exclusion misses and later finds a step while the memo holds its miss (top1465's for
# triples, seeded random minimal puzzles for pairs)
ALIGNED_PUZZLES = [
    ("aligned-triple-exclusion", "....2..4..7...6....1.5.....2......8....3..7..4.9.........6..1.38...9..........5.."),
    ("aligned-triple-exclusion", "..1.....7...89..........6..26..3.......5...749...........1.4.5.83.............2.."),
    ("aligned-pair-exclusion", "..4....1......237.3........6...13..7.9.4.....5.3.7..4.......65..5...689...9.....4"),
    ("aligned-pair-exclusion", "5....823.............76.4..2..1..6...8...6..9.65..4.8.3...9..1....8...75.4......."),
]


# random minimal puzzles (bench_grade's make_puzzles(3, 3000, 5)) where direct pointing finds a step while the memo
# holds its miss
DIRECT_PUZZLES = [
    "2....17..1...49.8....38...4....346...5...6......2......3.8..4..6..4....1.7..6.5..",
    "2......4..7.8....2......1.....45.7...6...3...9546.1...7.1...5...9.13........9...8",
    ".....3.....92.........7853.....2......14........3..7593..8.19....5...41..9......6",
]


# random minimal puzzles (make_puzzles(3, 3000, 5) too) where each of these rows finds a step while the memo holds
# its miss
DIGIT_ROW_PUZZLES = [
    ("pointing", "9.8....6.6..2..7....34.9.......2...18.67..3.2....9..4....9.12..17.3..4..........."),
    ("pointing", ".7......66.2.75..8.8.2..7.4.6...9...1.9.....2.578.....9...1..4....3..1......58..."),
    ("claiming", ".......3.697.18.....5..........2....4.89..5.7......96..1.5.....9...7...1.72.69.4."),
    ("claiming", ".....28.6.7.45..9..9.6...........4383...9....21...47...35...1..........2......6.."),
    ("x-wing", "..7....9852..4....3.....1..2....1....6..97..1...32.....43...6........4.9.....3.8."),
    ("x-wing", "..3.......9.6.4.8....5..9......7..4.1.8.....7..9..3.....12..7..2..78..5...4.6...2"),
    ("swordfish", "..5...7818....6....9....64...245..7.....6.4.5...7...9.....3.....8.5..31.9.1......"),
    ("swordfish", "..3.......9.6.4.8....5..9......7..4.1.8.....7..9..3.....12..7..2..78..5...4.6...2"),
]
SELDOM = ("direct-claiming", "jellyfish")


def _step(cells, cands, counts, ratings, memo):
    g = geometry(3)
    return driver._solve(0, driver.NTECHNIQUES, 1, driver.enabled_rows(STEP_PATH_ONLY), counts, ratings, cells, cands,
                         g.houses, g.peers, grader_units(g), g.size, int(np.count_nonzero(cells == 0)),
                         memo)


@pytest.mark.parametrize("technique,puzzle", [("nishio", p) for p in NISHIO_PUZZLES] + ALIGNED_PUZZLES
                         + [("direct-pointing", p) for p in DIRECT_PUZZLES]
                         + [("direct-claiming", p) for p in DIRECT_PUZZLES] + DIGIT_ROW_PUZZLES
                         + [("jellyfish", p) for t, p in DIGIT_ROW_PUZZLES if t == "swordfish"])
def test_remembering_misses_makes_the_same_steps(technique, puzzle):
    digits = np.array([0 if ch == "." else int(ch) for ch in puzzle], np.int64)
    kept = State.from_puzzle(digits, 3).to_arrays()
    fresh = State.from_puzzle(digits, 3).to_arrays()
    counts = [np.zeros(NCOUNTERS, np.int64), np.zeros(NCOUNTERS, np.int64)]
    ratings = [np.zeros(driver.NRATINGS), np.zeros(driver.NRATINGS)]
    memo = new_memo(81)
    remembered = 0  # steps of the technique found while the memo held its miss
    held_tries = 0  # steps made while it held one
    row = INDEX[technique]  # its row of the memo: its row of the table
    counter = INDEX[technique]
    for _ in range(200):
        before = counts[0].copy()
        held = memo[row, -1] != 0
        left = _step(*kept, counts[0], ratings[0], memo)
        remembered += int(held and counts[0][counter] > before[counter])
        held_tries += int(held)
        assert _step(*fresh, counts[1], ratings[1], new_memo(81)) == left
        assert np.array_equal(kept[0], fresh[0]) and np.array_equal(kept[1], fresh[1])
        assert np.array_equal(counts[0], counts[1]) and np.array_equal(ratings[0], ratings[1])
        if left == 0 or np.array_equal(before, counts[0]):
            break
    assert left == 0
    assert remembered >= 1 or (technique in SELDOM and held_tries >= 10)


def test_the_memo_has_a_row_per_row_of_the_table():
    """Row t of the table keeps its misses in row t of the memo (the driver passes ``misses[t]``): a row added to
    the table gets its own, so no two rows share one and none is written past the memo's end."""
    memo = new_memo(81)
    assert memo.shape == (len(TECHNIQUES), 82) == (driver.NTECHNIQUES, 82)
    assert not memo.any()
