"""Each technique on small hand-made candidate states: where it must fire (exact step) and where it must not.

States are built directly: every cell blank with every candidate, then a few cells get chosen candidates and a
few digits are confined to chosen cells. Each technique's ``find`` is called on its own, so easier techniques
that would also apply to these artificial states do not get in the way.
"""
from __future__ import annotations

import numpy as np
import pytest

from engine.geometry import geometry
from engine.grade.kernels import driver
from engine.grade.kernels.misses import new_memo
from engine.grade.state import State, tables
from engine.grade.techniques import BY_NAME, FULL_HOUSE_COUNTER, INDEX, NCOUNTERS
from engine.grade.kernels.state import grader_units
from engine.vocabulary import SYMBOLS


def cell(name: str, box: int = 3) -> int:
    r, c = name[1:].split("c")
    return (int(r) - 1) * box * box + int(c) - 1


def make(box: int = 3, cands: dict[str, str] | None = None, only: dict[int, list[str]] | None = None) -> State:
    """A state with every cell blank and every candidate, then ``cands={"r1c1": "12"}`` gives cells exactly
    those candidates (digits as characters, or comma-separated numbers above 9) and ``only={5: [...]}`` leaves
    digit 5 in the listed cells and nowhere else."""
    t = tables(box)
    state = State(t, [0] * t.ncells, [t.all_digits] * t.ncells)
    for name, digits in (cands or {}).items():
        values = digits.split(",") if "," in digits else list(digits)
        state.cands[cell(name, box)] = sum(1 << (int(d) - 1) for d in values)
    for digit, names in (only or {}).items():
        keep = {cell(nm, box) for nm in names}
        for c in range(t.ncells):
            if c not in keep:
                state.cands[c] &= ~(1 << (digit - 1))
    return state


def names(cells, box: int = 3) -> list[str]:
    t = tables(box)
    return [t.cell_name(c) for c in cells]


def test_hidden_single_in_a_box_before_a_row():
    # 5 has one place in box 6 (r4c7) and is everywhere outside the box, so rows and columns have no single
    state = make(only={5: ["r4c7"] + [f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10)
                                      if not (r in (4, 5, 6) and c in (7, 8, 9))]})
    step = BY_NAME["hidden-single"].find(state)
    assert step.explanation == "r4c7: hidden single 5 in box 6"
    assert step.placements == ((cell("r4c7"), 5),) and step.rating == 1.2


def test_hidden_single_in_a_row():
    state = make(only={8: ["r2c9"] + [f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10) if r != 2]})
    step = BY_NAME["hidden-single"].find(state)
    assert step.explanation == "r2c9: hidden single 8 in row 2" and step.rating == 1.5


def _kernel_step(state: State, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One step of the technique's compiled kernel alone on ``state``: (cells, cands, counters) after it."""
    g = geometry(state.t.box)
    cells, cands = state.to_arrays()
    counts = np.zeros(NCOUNTERS, np.int64)
    driver._solve(INDEX[name], INDEX[name] + 1, 1, driver.enabled_rows(), counts, np.zeros(driver.NRATINGS), cells,
                  cands, g.houses, g.peers, grader_units(g), g.size, int(np.count_nonzero(cells == 0)),
                  new_memo(cells.size))
    return cells, cands, counts


def test_a_column_before_a_row():
    """Sudoku Explainer's order: boxes, then columns, then rows."""
    everywhere = [f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10)]
    state = make(only={8: ["r2c9"] + [nm for nm in everywhere if nm[1] != "2"],
                       3: ["r5c4"] + [nm for nm in everywhere if nm[3] != "4"]})
    step = BY_NAME["hidden-single"].find(state)
    assert step.explanation == "r5c4: hidden single 3 in column 4" and step.rating == 1.5
    cells, _, counts = _kernel_step(state, "hidden-single")
    assert counts[INDEX["hidden-single"]] == 1 and cells[cell("r5c4")] == 3 and cells[cell("r2c9")] == 0


def test_a_full_house_comes_first():
    """A house's last blank cell (Sudoku Explainer's full house, 1.0) before any other hidden single, even one in
    a box; it counts as a hidden single, apart, in both paths."""
    box1 = [f"r{r}c{c}" for r in (1, 2, 3) for c in (1, 2, 3)]
    state = make(only={5: ["r2c2"] + [f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10)
                                      if f"r{r}c{c}" not in box1]})
    for c, d in enumerate((1, 2, 3, 4, 5, 6, 7, 8)):  # row 9 is full but for r9c9, which must be 9
        state.place(cell(f"r9c{c + 1}"), d)
    step = BY_NAME["hidden-single"].find(state)
    assert step.explanation == "r9c9: full house 9 in row 9" and step.rating == 1.0
    cells, _, counts = _kernel_step(state, "hidden-single")
    assert counts[FULL_HOUSE_COUNTER] == 1 and cells[cell("r9c9")] == 9 and cells[cell("r2c2")] == 0
    after = state.copy()
    after.apply(step)
    assert BY_NAME["hidden-single"].find(after).explanation == "r2c2: hidden single 5 in box 1"


def test_hidden_single_not_when_every_digit_has_two_places():
    assert BY_NAME["hidden-single"].find(make()) is None


def test_naked_single():
    step = BY_NAME["naked-single"].find(make(cands={"r2c3": "7", "r5c5": "4"}))
    assert step.explanation == "r2c3: naked single 7" and step.placements == ((cell("r2c3"), 7),)
    assert BY_NAME["naked-single"].find(make(cands={"r2c3": "17"})) is None


def test_pointing():
    box1 = [f"r{r}c{c}" for r in (1, 2, 3) for c in (1, 2, 3)]
    rest = [f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10) if f"r{r}c{c}" not in box1]
    step = BY_NAME["pointing"].find(make(only={4: ["r1c1", "r1c2"] + rest}))
    assert step.explanation == ("pointing 4 in box 1 (r1c1, r1c2) along row 1: removes 4 from "
                                "r1c4, r1c5, r1c6, r1c7, r1c8, r1c9")
    assert sorted(step.eliminations) == [(cell(f"r1c{c}"), 4) for c in range(4, 10)]
    # nothing left to remove in the row: no step
    assert BY_NAME["pointing"].find(make(only={4: ["r1c1", "r1c2"] + [nm for nm in rest if nm[1] != "1"]})) \
        is None


def test_pointing_along_a_column():
    everywhere = [f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10)]
    state = make(only={6: ["r4c5", "r6c5"] + [nm for nm in everywhere if nm[1] not in "456"]})
    step = BY_NAME["pointing"].find(state)
    assert "along column 5" in step.explanation and step.houses == (2 * 9 + 4, 9 + 4)
    assert sorted(names(c for c, _ in step.eliminations)) == ["r1c5", "r2c5", "r3c5", "r7c5", "r8c5", "r9c5"]


def test_claiming():
    others = [f"r{r}c{c}" for r in range(2, 10) for c in range(1, 10)]
    step = BY_NAME["claiming"].find(make(only={3: ["r1c1", "r1c3"] + others}))
    assert step.explanation == ("claiming 3 in row 1 (r1c1, r1c3) inside box 1: removes 3 from "
                                "r2c1, r2c2, r2c3, r3c1, r3c2, r3c3")
    # spread over two boxes: no claim
    assert BY_NAME["claiming"].find(make(only={3: ["r1c1", "r1c4"] + others})) is None


def test_naked_pair_in_a_row():
    step = BY_NAME["naked-pair"].find(make(cands={"r1c1": "12", "r1c5": "12"}))
    assert step.technique == "naked-pair" and step.rating == 3.0
    assert step.explanation.startswith("naked pair 1,2 in r1c1, r1c5 (row 1): removes 1 from r1c2, r1c3")
    assert sorted(step.eliminations) == sorted((cell(f"r1c{c}"), d) for c in (2, 3, 4, 6, 7, 8, 9) for d in (1, 2))


def test_a_locked_pair_clears_the_house_it_is_found_in():
    """As Sudoku Explainer's hint: boxes are searched first, so the pair clears box 1; found again in row 1 (after
    the box step), it clears the row."""
    state = make(cands={"r1c1": "12", "r1c2": "12"})
    step = BY_NAME["naked-pair"].find(state)
    assert "(box 1)" in step.explanation
    cleared = {c for c, _ in step.eliminations}
    assert cell("r2c3") in cleared and cell("r1c9") not in cleared and cell("r2c4") not in cleared
    state.apply(step)
    step = BY_NAME["naked-pair"].find(state)
    assert "(row 1)" in step.explanation and cell("r1c9") in {c for c, _ in step.eliminations}


def test_naked_pair_not_with_three_digits():
    assert BY_NAME["naked-pair"].find(make(cands={"r1c1": "12", "r1c5": "13"})) is None


def test_naked_triple_and_quad():
    step = BY_NAME["naked-triple"].find(make(cands={"r1c2": "12", "r4c2": "23", "r9c2": "13"}))
    assert step.explanation.startswith("naked triple 1,2,3 in r1c2, r4c2, r9c2 (column 2): removes 1 from r2c2")
    quad = make(cands={"r4c4": "12", "r4c5": "23", "r5c6": "34", "r6c4": "14"})
    step = BY_NAME["naked-quad"].find(quad)
    assert step.technique == "naked-quad" and "(box 5)" in step.explanation
    assert {c for c, _ in step.eliminations} == {cell(n) for n in ("r4c6", "r5c4", "r5c5", "r6c5", "r6c6")}
    assert BY_NAME["naked-triple"].find(make(cands={"r1c2": "12", "r4c2": "23", "r9c2": "14"})) is None


def test_hidden_pair():
    row = [f"r{r}c{c}" for r in range(2, 10) for c in range(1, 10)]
    state = make(only={1: ["r1c1", "r1c5"] + row, 2: ["r1c1", "r1c5"] + row})
    step = BY_NAME["hidden-pair"].find(state)
    assert step.explanation.startswith("hidden pair 1,2 in r1c1, r1c5 (row 1): removes 3 from r1c1, r1c5;")
    assert sorted(step.eliminations) == sorted((cell(n), d) for n in ("r1c1", "r1c5") for d in range(3, 10))
    state = make(only={1: ["r1c1", "r1c5"] + row, 2: ["r1c1", "r1c6"] + row})
    assert BY_NAME["hidden-pair"].find(state) is None


def test_hidden_triple_and_quad():
    col = [f"r{r}c{c}" for r in range(1, 10) for c in range(2, 10)]
    state = make(only={4: ["r1c1", "r5c1"] + col, 5: ["r5c1", "r9c1"] + col, 6: ["r1c1", "r9c1"] + col})
    step = BY_NAME["hidden-triple"].find(state)
    assert step.explanation.startswith("hidden triple 4,5,6 in r1c1, r5c1, r9c1 (column 1): removes 1 from")
    assert {d for _, d in step.eliminations} == {1, 2, 3, 7, 8, 9}
    out = [f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10) if not (r < 4 and c < 4)]
    state = make(only={d: ["r1c1", "r2c2", "r3c3", "r1c3"] + out for d in (6, 7, 8, 9)})
    step = BY_NAME["hidden-quad"].find(state)
    assert step.technique == "hidden-quad" and {d for _, d in step.eliminations} == {1, 2, 3, 4, 5}
    _, cands, counts = _kernel_step(state, "hidden-quad")
    state.apply(step)
    assert counts[INDEX["hidden-quad"]] == 1 and cands.tolist() == state.cands


def test_x_wing():
    others = [f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10) if r not in (2, 8)]
    step = BY_NAME["x-wing"].find(make(only={7: ["r2c3", "r2c5", "r8c3", "r8c5"] + others}))
    assert step.explanation == ("X-Wing on 7 in rows 2,8 columns 3,5: removes 7 from r1c3, r1c5, r3c3, r3c5, "
                                "r4c3, r4c5, r5c3, r5c5, r6c3, r6c5, r7c3, r7c5, r9c3, r9c5")
    assert step.cells == tuple(cell(n) for n in ("r2c3", "r2c5", "r8c3", "r8c5"))
    assert BY_NAME["x-wing"].find(make(only={7: ["r2c3", "r2c5", "r8c3", "r8c6"] + others})) is None


def test_x_wing_with_columns_as_base():
    others = [f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10) if c not in (1, 9)]
    step = BY_NAME["x-wing"].find(make(only={2: ["r3c1", "r7c1", "r3c9", "r7c9"] + others}))
    assert step.explanation.startswith("X-Wing on 2 in columns 1,9 rows 3,7: removes 2 from r3c2")


def test_swordfish_and_jellyfish():
    others = [f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10) if r not in (1, 5, 9)]
    base = ["r1c1", "r1c4", "r5c4", "r5c7", "r9c1", "r9c7"]
    step = BY_NAME["swordfish"].find(make(only={9: base + others}))
    assert step.explanation.startswith("Swordfish on 9 in rows 1,5,9 columns 1,4,7: removes 9 from r2c1, r2c4")
    assert BY_NAME["swordfish"].find(make(only={9: base[:-1] + ["r9c8"] + others})) is None
    others = [f"r{r}c{c}" for r in range(1, 10) for c in range(1, 10) if r not in (1, 3, 5, 7)]
    base = ["r1c1", "r1c2", "r3c2", "r3c3", "r5c3", "r5c4", "r7c4", "r7c1"]
    step = BY_NAME["jellyfish"].find(make(only={1: base + others}))
    assert step.explanation.startswith("Jellyfish on 1 in rows 1,3,5,7 columns 1,2,3,4: removes 1 from r2c1")


def test_x_wing_on_16x16_and_25x25():
    for box in (4, 5):
        n = box * box
        others = [f"r{r}c{c}" for r in range(1, n + 1) for c in range(1, n + 1) if r not in (2, n)]
        state = make(box, only={n: ["r2c3", "r2c11", f"r{n}c3", f"r{n}c11"] + others})
        step = BY_NAME["x-wing"].find(state)
        symbol = SYMBOLS[n]  # the digit n as the grid writes it: G on 16x16, P on 25x25
        assert step.explanation.startswith(f"X-Wing on {symbol} in rows 2,{n} columns 3,11: removes {symbol} from "
                                           f"r1c3, r1c11")
        assert len(step.eliminations) == 2 * (n - 2)


def test_hidden_single_names_on_16x16():
    n = 16
    state = make(4, only={13: ["r10c12"] + [f"r{r}c{c}" for r in range(1, n + 1) for c in range(1, n + 1)
                                            if not (9 <= r <= 12 and 9 <= c <= 12)]})
    # 13, as the grid shows it
    assert BY_NAME["hidden-single"].find(state).explanation == "r10c12: hidden single D in box 11"


def test_xy_wing():
    state = make(cands={"r1c1": "12", "r1c5": "13", "r3c2": "23"})
    step = BY_NAME["xy-wing"].find(state)
    assert step.explanation == ("XY-Wing pivot r1c1 (1,2), pincers r1c5 (1,3), r3c2 (2,3): "
                                "removes 3 from r1c2, r1c3, r3c4, r3c5, r3c6")
    assert BY_NAME["xy-wing"].find(make(cands={"r1c1": "12", "r1c5": "13", "r3c2": "24"})) is None


def test_xyz_wing():
    step = BY_NAME["xyz-wing"].find(make(cands={"r1c1": "123", "r1c5": "13", "r2c2": "23"}))
    assert step.explanation == ("XYZ-Wing pivot r1c1 (1,2,3), pincers r1c5 (1,3), r2c2 (2,3): "
                                "removes 3 from r1c2, r1c3")
    assert BY_NAME["xyz-wing"].find(make(cands={"r1c1": "123", "r1c5": "13", "r2c2": "24"})) is None


def test_a_skyscraper_is_a_forcing_x_chain():
    """Sudoku Explainer has no skyscraper: its forcing X-chain of six states removes one candidate at a time, 6.6."""
    cells = ["r1c1", "r7c1", "r3c4", "r7c4", "r7c7", "r1c5", "r1c6", "r3c2", "r3c3"]
    step = BY_NAME["chains-and-cycles"].find(make(only={4: cells}))
    assert (step.technique, step.rating, step.eliminations, step.placements) == ("chains-and-cycles", 6.6,
                                                                                  ((cell("r1c5"), 4),), ())
    assert step.explanation == ("forcing X-chain (rated 6.6): r1c5=4 -> r3c4≠4 -> r7c4=4 -> r7c1≠4 -> r1c1=4 -> "
                                "r1c5≠4: removes 4 from r1c5")
    assert step.links == (((4, 4, True), (21, 4, False), (57, 4, True), (54, 4, False), (0, 4, True),
                           (4, 4, False)),)
    assert BY_NAME["chains-and-cycles"].find(make(only={4: cells[:5]})) is None


def test_a_longer_chain_rates_higher():
    """Two more links (eight states: length 6 > 4) add 0.1."""
    cells = ["r1c3", "r1c4", "r1c8", "r2c1", "r2c5", "r3c5", "r4c4", "r5c2", "r5c6", "r5c7", "r6c1", "r7c5", "r7c7"]
    step = BY_NAME["chains-and-cycles"].find(make(only={4: cells}))
    assert (step.technique, step.rating, step.eliminations) == ("chains-and-cycles", 6.7, ((cell("r1c4"), 4),))
    assert step.explanation == ("forcing X-chain (rated 6.7): r1c4=4 -> r2c5≠4 -> r2c1=4 -> r6c1≠4 -> r5c2=4 -> "
                                "r5c6≠4 -> r4c4=4 -> r1c4≠4: removes 4 from r1c4")


def test_an_x_cycle():
    """Columns 8 and 9 hold 4 twice each, in rows 3 and 9: the loop of four links turns the rows' weak links into
    strong ones, so 4 goes from every other cell that sees both ends of one (SE: 6.5, a "generalized X-Wing").
    A cycle closes through a strong link of its start that is also one of its first weak links: the walk must
    come back to that state by another way in (once per way in, as Sudoku Explainer walks)."""
    cells = ["r1c1", "r7c1", "r7c4", "r3c4", "r3c8", "r9c8", "r9c2", "r1c5", "r2c2", "r7c7", "r3c9", "r9c9"]
    step = BY_NAME["chains-and-cycles"].find(make(only={4: cells}))
    assert (step.technique, step.rating, step.placements) == ("chains-and-cycles", 6.5, ())
    assert step.eliminations == tuple((cell(name), 4) for name in ("r3c4", "r7c7", "r9c2"))
    assert step.explanation == ("bidirectional X-cycle (rated 6.5): r3c8=4 -> r3c9≠4 -> r9c9=4 -> r9c8≠4 -> "
                                "r3c8=4: removes 4 from r3c4, r7c7, r9c2")
    assert step.links[0][0] == step.links[0][-1]


def test_a_y_cycle():
    """Four bivalue cells in a rectangle, each pair sharing a digit in a house: every digit of the loop goes from
    the rest of the house its link lies in (eight states: 6.5 + 0.1)."""
    step = BY_NAME["chains-and-cycles"].find(make(cands={"r1c1": "12", "r1c5": "23", "r5c5": "34", "r5c1": "14"}))
    assert (step.technique, step.rating, step.placements) == ("chains-and-cycles", 6.6, ())
    assert step.explanation.startswith("bidirectional Y-cycle (rated 6.6): r1c1=1 -> r5c1≠1 -> r5c1=4 -> r5c5≠4 -> "
                                       "r5c5=3 -> r1c5≠3 -> r1c5=2 -> r1c1≠2 -> r1c1=1: removes 1 from r2c1")
    rest = (2, 3, 4, 6, 7, 8, 9)
    expected = ({(cell(f"r{i}c1"), 1) for i in rest} | {(cell(f"r1c{i}"), 2) for i in rest}
                | {(cell(f"r{i}c5"), 3) for i in rest} | {(cell(f"r5c{i}"), 4) for i in rest})
    assert set(step.eliminations) == expected


@pytest.mark.parametrize("finder", [BY_NAME[name].find for name in (
    "hidden-single", "naked-single", "pointing", "claiming", "naked-pair", "hidden-quad", "jellyfish", "xy-wing",
    "xyz-wing", "chains-and-cycles", "dynamic-forcing-chains")])
def test_nothing_on_a_solved_grid(finder):
    t = tables(2)
    board = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    assert finder(State(t, board, [0] * 16)) is None
