"""The direct techniques (pointing, claiming, hidden pair and triple that place the single they leave) and aligned
pair and triple exclusion: hand-checked positions, each against its kernel, and aligned exclusion against the
board and against an obviously correct slow twin."""
from __future__ import annotations

import random
from itertools import combinations, product

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grade.state import State, tables
from engine.grade.techniques import BY_NAME, INDEX
from engine.grade.kernels.state import grader_units
from test_grade_fast import _one_step, random_state
from test_grade_techniques import cell, make

BOX1 = [f"r{r}c{c}" for r in (1, 2, 3) for c in (1, 2, 3)]
BOX3 = [f"r{r}c{c}" for r in (1, 2, 3) for c in (7, 8, 9)]
ALL = [f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10)]


def outside(*cells_to_drop: str, keep=ALL) -> list[str]:
    return [nm for nm in keep if nm not in cells_to_drop]


def kernel_agrees(state: State, step, name: str, box: int = 3) -> None:
    """The technique's kernel alone makes the same step on ``state`` as the Python finder."""
    cells, cands = state.to_arrays()
    counts = _one_step(INDEX[name], cells, cands, box)
    assert counts[INDEX[name]] == 1
    after = state.copy()
    after.apply(step)
    assert cells.tolist() == after.cells and cands.tolist() == after.cands


def test_direct_pointing():
    # 7 in box 3 only at r2c7, r2c9 (along row 2); in box 1 at r1c1 and r2c2: the pointing leaves r1c1
    state = make(only={7: ["r2c7", "r2c9", "r1c1", "r2c2"] + outside(*BOX1, *BOX3)})
    step = BY_NAME["direct-pointing"].find(state)
    assert step.explanation == ("direct pointing 7 in box 3 (r2c7, r2c9) along row 2 leaves r1c1 as the only place "
                                "for 7 in box 1: places 7 in r1c1")
    assert step.placements == ((cell("r1c1"), 7),) and step.rating == 1.7
    assert step.eliminations == ()  # Sudoku Explainer's direct hints only place: r2c2 keeps its 7
    kernel_agrees(state, step, "direct-pointing")


def test_a_pointing_that_leaves_no_box_single_is_not_direct():
    # box 1 keeps two places off row 2 (r1c1, r1c2); column 4 is left one place (r7c4), but a column is not a box
    box3 = ["r2c7", "r2c9"]
    column4 = ["r2c4", "r7c4"]
    rest = [nm for nm in ALL if not (nm[1] <= "3" and nm[3] >= "7") and nm[3] != "4" and nm not in BOX1]
    state = make(only={7: box3 + column4 + ["r1c1", "r1c2", "r2c2"] + rest})
    assert BY_NAME["direct-pointing"].find(state) is None
    assert BY_NAME["direct-claiming"].find(state) is None
    plain = BY_NAME["pointing"].find(state)
    assert plain is not None and plain.houses == (2 * 9 + 2, 1)  # box 3 along row 2: a plain pointing
    cells, cands = state.to_arrays()
    assert not _one_step(INDEX["direct-pointing"], cells, cands, 3).any()


def test_direct_claiming():
    # 5 in column 1 only at r1c1, r3c1 (inside box 1); column 2 has it at r2c2 and r6c2: the claiming leaves r6c2
    only5 = ["r1c1", "r3c1", "r2c2", "r6c2"] + [nm for nm in ALL if nm[3] not in "12"]
    state = make(only={5: only5})
    step = BY_NAME["direct-claiming"].find(state)
    assert step.explanation == ("direct claiming 5 in column 1 (r1c1, r3c1) inside box 1 leaves r6c2 as the only "
                                "place for 5 in column 2: places 5 in r6c2")
    assert step.placements == ((cell("r6c2"), 5),) and step.rating == 1.9
    assert step.eliminations == ()
    kernel_agrees(state, step, "direct-claiming")


def test_direct_hidden_pair():
    # in box 1, 1 and 2 only at r1c1, r1c2; 3 at r1c1 and r2c2: the pair clears r1c1, leaving r2c2 for 3
    others = outside(*BOX1)
    state = make(only={1: ["r1c1", "r1c2"] + others, 2: ["r1c1", "r1c2"] + others, 3: ["r1c1", "r2c2"] + others})
    step = BY_NAME["direct-hidden-pair"].find(state)
    assert step.explanation == ("direct hidden pair 1,2 in r1c1, r1c2 (box 1) leaves r2c2 as the only place for 3 "
                                "in box 1: places 3 in r2c2")
    assert step.placements == ((cell("r2c2"), 3),) and step.rating == 2.0
    assert step.eliminations == ()  # the pair's cells keep their other candidates
    kernel_agrees(state, step, "direct-hidden-pair")
    # without a digit left with one place, a hidden pair is not direct
    state = make(only={1: ["r1c1", "r1c2"] + others, 2: ["r1c1", "r1c2"] + others})
    assert BY_NAME["direct-hidden-pair"].find(state) is None


def test_direct_hidden_triple():
    others = outside(*BOX1)
    state = make(only={1: ["r1c1", "r1c2"] + others, 2: ["r1c2", "r1c3"] + others, 3: ["r1c1", "r1c3"] + others,
                       4: ["r1c1", "r3c3"] + others})
    step = BY_NAME["direct-hidden-triple"].find(state)
    assert step.explanation == ("direct hidden triple 1,2,3 in r1c1, r1c2, r1c3 (box 1) leaves r3c3 as the only "
                                "place for 4 in box 1: places 4 in r3c3")
    assert step.placements == ((cell("r3c3"), 4),) and step.rating == 2.5
    assert step.eliminations == ()
    kernel_agrees(state, step, "direct-hidden-triple")


def test_aligned_pair_exclusion():
    # r1c1 {1,2,4} and r1c2 {1,2,3} both see r1c5 {1,2} and r2c3 {1,3}: 1 in r1c1 leaves r1c2 only 2 (empties
    # r1c5) or 3 (empties r2c3), so 1 goes from r1c1
    state = make(cands={"r1c1": "124", "r1c2": "123", "r1c5": "12", "r2c3": "13"})
    step = BY_NAME["aligned-pair-exclusion"].find(state)
    assert step.eliminations == ((cell("r1c1"), 1),) and step.rating == 6.2
    assert step.explanation == ("aligned pair exclusion r1c1, r1c2: no choice of their digits may take every "
                                "candidate of r1c5 {1,2}, r2c3 {1,3} (they see them all), nor repeat a digit in a "
                                "house: removes 1 from r1c1")
    kernel_agrees(state, step, "aligned-pair-exclusion")


def sparse(cands: dict[str, str]) -> State:
    """A state whose only blank cells are the keys of ``cands``, with those candidates (the rest hold a digit)."""
    t = tables(3)
    state = State(t, [9] * t.ncells, [0] * t.ncells)
    for name, digits in cands.items():
        state.cells[cell(name)] = 0
        state.cands[cell(name)] = sum(1 << (int(d) - 1) for d in digits)
    return state


def test_aligned_triple_exclusion():
    # the first triple in SE's order is r1c1 {1,2}, r1c2 {2,3}, r1c3 {1,4} (row 1: three different digits), seen
    # by r1c5 {1,3} and r2c2 {2,3,4}; of the choices 124, 134, 231, 234 (the rest repeat a digit) only 124 takes
    # neither all of 13 nor all of 234
    state = sparse({"r1c1": "12", "r1c2": "23", "r1c3": "14", "r1c5": "13", "r2c2": "234"})
    step = BY_NAME["aligned-triple-exclusion"].find(state)
    assert step.rating == 7.5
    assert step.eliminations == ((cell("r1c1"), 2), (cell("r1c2"), 3), (cell("r1c3"), 1)), step.explanation
    assert step.explanation.startswith("aligned triple exclusion r1c1, r1c2, r1c3: no choice of their digits may "
                                       "take every candidate of r1c5 {1,3}, r2c2 {2,3,4}")
    kernel_agrees(state, step, "aligned-triple-exclusion")


def slow_ape(state: State) -> State | None:
    """Aligned pair exclusion the obvious way (SE's rule): the base cells and their pairs in SE's order; for each
    pair, every pair of digits, out when equal in cells that see each other or when it is all of a bivalue cell
    that sees both. The state after the first pair that removes a digit, or None."""
    t = state.t
    cands = state.cands
    size = [cands[c].bit_count() for c in range(t.ncells)]
    bases = [c for c in range(t.ncells) if size[c] >= 2 and not any(size[p] == 1 for p in t.peers[c])
             and any(size[p] == 2 for p in t.peers[c])]
    pairs = sorted(combinations(range(len(bases)), 2), key=lambda p: (p[1], p[0]))
    for i, j in pairs:
        a, b = bases[i], bases[j]
        bivalues = [e for e in range(t.ncells) if size[e] == 2 and state.sees(e, a) and state.sees(e, b)]
        if len(bivalues) < 2:
            continue
        keep_a = keep_b = 0
        for da, db in product(range(1, t.n + 1), repeat=2):
            if not (state.has(a, da) and state.has(b, db)) or (da == db and state.sees(a, b)):
                continue
            if any(cands[e] == (1 << (da - 1)) | (1 << (db - 1)) for e in bivalues):
                continue
            keep_a |= 1 << (da - 1)
            keep_b |= 1 << (db - 1)
        if cands[a] & ~keep_a or cands[b] & ~keep_b:
            after = state.copy()
            after.cands[a] &= keep_a
            after.cands[b] &= keep_b
            return after
    return None


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), box=st.sampled_from([2, 3]), blanks=st.floats(0.4, 0.8),
       thin=st.floats(0.2, 0.8))
def test_aligned_exclusion_is_sound_and_ape_matches_its_slow_twin(seed, box, blanks, thin):
    rng = random.Random(seed)
    state, board = random_state(box, rng, blanks, thin)
    for name, find in (("aligned-pair-exclusion", BY_NAME["aligned-pair-exclusion"].find),
                       ("aligned-triple-exclusion", BY_NAME["aligned-triple-exclusion"].find)):
        step = find(state.copy())
        cells, cands = state.to_arrays()
        fired = _one_step(INDEX[name], cells, cands, box).any()
        assert fired == (step is not None)
        if step is not None:
            for c, d in step.eliminations:
                assert board[c] != d, step.explanation
            after = state.copy()
            after.apply(step)
            assert cands.tolist() == after.cands
        if name == "aligned-pair-exclusion":
            twin = slow_ape(state)
            assert (twin is None) == (step is None)
            if twin is not None:
                assert twin.cands == cands.tolist()


def test_the_new_techniques_fire_on_random_states():
    rng = random.Random(5)
    seen = set()
    finders = {name: BY_NAME[name].find for name in ("direct-pointing", "direct-claiming", "direct-hidden-pair",
                                                     "direct-hidden-triple", "aligned-pair-exclusion",
                                                     "aligned-triple-exclusion")}
    for _ in range(40):
        state, _ = random_state(3, rng, rng.uniform(0.5, 0.75), rng.uniform(0.2, 0.7))
        seen |= {name for name, find in finders.items() if find(state.copy()) is not None}
    assert seen == set(finders)


def test_sixteen_by_sixteen_direct_pointing():
    t = tables(4)
    n = 16
    state = State(t, [0] * t.ncells, [t.all_digits] * t.ncells)
    # 9 in box 4 (rows 1-4, columns 13-16) only on row 1; in box 1 only at r1c1 and r2c2: box 1 keeps r2c2
    for c in range(t.ncells):
        r, col = divmod(c, n)
        if (r < 4 and col >= 12 and not (r == 0 and col in (12, 15))) or (r < 4 and col < 4 and c not in (0, 17)):
            state.cands[c] &= ~(1 << 8)
    step = BY_NAME["direct-pointing"].find(state)
    assert step.placements == ((17, 9),)
    kernel_agrees(state, step, "direct-pointing", box=4)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), box=st.sampled_from([2, 3]), k=st.sampled_from([2, 3]))
def test_aligned_exclusion_that_remembers_its_misses_finds_what_a_fresh_one_finds(seed, box, k):
    """A try that looks again only where cells changed since its last miss (engine/grade/kernels/misses.py) removes
    the same candidates as one that looks at every set: along a run of grids, each the last with a few candidates
    dropped (singles now and then), and across the steps the technique itself makes."""
    import numpy as np

    from engine.geometry import geometry
    from engine.grade.kernels.aligned import _aligned
    from engine.grade.kernels.misses import new_memo

    rng = random.Random(seed)
    geo = geometry(box)
    state, board = random_state(box, rng, rng.uniform(0.5, 0.8), rng.uniform(0.1, 0.5))
    _, cands = state.to_arrays()
    row = INDEX["aligned-pair-exclusion" if k == 2 else "aligned-triple-exclusion"]  # its row of the memo
    memo = new_memo(cands.size)[row]
    for _ in range(12):
        kept, fresh = cands.copy(), cands.copy()
        found = _aligned(kept, geo.peers, grader_units(geo), k, memo)
        assert found == _aligned(fresh, geo.peers, grader_units(geo), k, new_memo(cands.size)[row])
        assert np.array_equal(kept, fresh)
        cands = kept
        if not found:  # drop a few candidates that are not the board's digit
            for c in rng.sample(range(cands.size), 3):
                others = [d for d in range(geo.size) if cands[c] >> d & 1 and d + 1 != board[c]]
                if others:
                    cands[c] &= ~(1 << rng.choice(others))
