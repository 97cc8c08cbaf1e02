"""Chains rated the way Sudoku Explainer rates them: the length scale, sound steps, chains a person can check.

The search is one compiled kernel shared by both grading paths, so its twin here is independent reasoning: every
step is checked against the puzzle's solution, every link of a static chain against the rule that allows it on
the grid of that moment, and the explaining and fast paths must give the same grade.
"""
from __future__ import annotations

import numpy as np
import pytest

from engine import solve
from engine.formats import from_line
from engine.grade import grade, grade_many, next_step
from engine.grade.kernels.chains.implications import _length_tenths
from engine.grade.state import State, tables
from engine.grade.techniques import BY_NAME
from engine.vocabulary import STEP_NAMES
from puzzles import NEEDS_DYNAMIC_16

# puzzles of the top1465 list and the forum's hardest, rated by Sudoku Explainer's serate (classic techniques)
HARD = {
    # puzzle: (serate's ER, the row whose step it is)
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........": 9.0,
    "7.8...3.....6.1...5.........4.....263...8.......1...9..9.2....4....7.5...........": 9.6,
    "......41.9..3.....3...5.....48..7..........52.1.......6..2....5.7....8......9....": 8.3,
}
ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."
CHAIN_ROWS = {"chains-and-cycles", "nishio", "multiple-forcing-chains", "dynamic-forcing-chains",
              "dynamic-forcing-chains-plus", "nested-forcing-chains"}


def test_the_length_scale():
    """0.1 more each time the chain's states minus two pass 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128 ..."""
    steps = [4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256]
    for complexity in range(1, 300):
        assert _length_tenths(complexity) == sum(complexity - 2 > s for s in steps), complexity


def _solution(puzzle):
    return np.asarray(solve(puzzle).solution).reshape(-1).tolist()


def _check_link(before: State, a, b) -> None:
    """One link of a static chain, on the grid ``before`` the step: what makes ``a`` force ``b``."""
    t = before.t
    (ca, da, on_a), (cb, db, on_b) = a, b
    assert on_a != on_b, (a, b)
    if on_a:  # on -> off: the cell's other candidates, or the digit's places in a house
        assert (ca == cb and da != db) or (da == db and before.sees(ca, cb)), (a, b)
        assert before.has(cb, db)
    elif ca == cb:  # off -> on in one cell: it had only these two candidates
        assert before.cands[ca] == (1 << (da - 1)) | (1 << (db - 1)), (a, b)
    else:  # off -> on in a house: the digit had only these two places there
        assert da == db
        houses = [h for h in range(3 * t.n) if ca in t.houses[h] and cb in t.houses[h]]
        assert any(sum(before.has(c, da) for c in t.houses[h]) == 2 for h in houses), (a, b)


@pytest.mark.slow
@pytest.mark.parametrize("line", list(HARD))
def test_hard_puzzles_are_rated_without_guessing_and_every_step_is_sound(line):
    puzzle = from_line(line)
    solution = _solution(puzzle)
    g = grade(puzzle, 3, guided=False)  # the slow twin, every row's Python finder in turn
    assert g.solved and not g.needs_guessing
    assert abs(g.score - HARD[line]) <= 0.11 or g.technique not in CHAIN_ROWS  # uniqueness steps can shift a path
    assert grade_many(puzzle[None], 3)[0] == g  # the fast path makes the same steps
    _check_steps(State.from_puzzle(puzzle, 3), g.steps, solution)


def _check_steps(state: State, steps, solution) -> None:
    """Every step agrees with the solution, and every chain's every link follows on the grid before its step."""
    for step in steps:
        for c, d in step.placements:
            assert solution[c] == d, step.explanation
        for c, d in step.eliminations:
            assert solution[c] != d, step.explanation
        if step.technique in CHAIN_ROWS:
            assert step.links and 6.5 <= step.rating < 12
            for chain in step.links:
                assert chain[0] != chain[-1] or step.technique == "chains-and-cycles"
            if step.technique in ("chains-and-cycles", "multiple-forcing-chains"):
                for chain in step.links:
                    for a, b in zip(chain, chain[1:]):
                        _check_link(state, a, b)
            else:
                for chain, why in zip(step.links, step.reasons or [()] * len(step.links)):
                    _check_dynamic_chain(state, chain, why)
            assert "->" in step.explanation
            assert step.as_dict()["links"][0][0].keys() == {"cell", "digit", "on"}
        state.apply(step)


@pytest.mark.slow
def test_ai_escargot_gets_the_dynamic_chains_sudoku_explainer_finds():
    """serate's first steps past Nishio on AI Escargot: three dynamic (+) contradictions rated 10.0 (9.0 and the
    length bonus of 101-121 states), on r8c6=2, r8c6=9 and r2c6=1."""
    steps, solved = _up_to_nested(from_line(ESCARGOT))
    plus = [s for s in steps if s.technique == "dynamic-forcing-chains-plus"]
    assert [(s.eliminations, s.rating) for s in plus[:3]] == [
        (((7 * 9 + 5, 2),), 10.0), (((7 * 9 + 5, 9),), 10.0), (((1 * 9 + 5, 1),), 10.0)]
    assert tables(3).cell_name(7 * 9 + 5) == "r8c6"


def test_a_puzzle_with_several_solutions_is_never_said_to_have_none():
    """A uniqueness technique on a puzzle with several solutions can remove every candidate of a cell; the grade is
    then made again without those techniques, in both paths: guessing, never "no solution"."""
    from engine.grade.grader import skipped
    from naive.grade import random_board
    import random

    rng = random.Random(7)
    checked = 0
    for _ in range(10):
        board = random_board(3, rng)
        puzzle = board.copy()
        puzzle[rng.sample(range(81), 56)] = 0  # 25 random clues: almost always several solutions
        fast = grade_many(puzzle[None], 3)[0]
        slow = grade(puzzle, 3, guided=False)
        assert (fast.score, fast.hardest, fast.solved) == (slow.score, slow.hardest, slow.solved)
        checked += 1
    assert checked == 10
    assert skipped(3, False) == ("unique-loop", "bug") and skipped(3) == ()
    assert "dynamic-forcing-chains" in skipped(4) and "nishio" not in skipped(4)


def test_big_grids_leave_out_the_dynamic_chains():
    """16x16: Nishio and multiple forcing chains run, the dynamic ones do not (too slow there): a puzzle that needs
    them is graded as needing guessing. Both paths take their rows from the same list."""
    from engine.carve import carve
    from engine.grade.grader import techniques_for
    from naive.grade import minimal_puzzles

    (puzzle, _), = minimal_puzzles(1, 4, seed=3, carve=carve)
    fast = grade_many(puzzle[None], 4)[0]
    assert not {"dynamic-forcing-chains", "dynamic-forcing-chains-plus"} & set(fast.steps_by_technique)
    names = [t.name for t in techniques_for(4)]
    assert {"chains-and-cycles", "nishio", "multiple-forcing-chains"} <= set(names)
    assert "dynamic-forcing-chains" not in names and "dynamic-forcing-chains-plus" not in names
    assert "dynamic-forcing-chains" in [t.name for t in techniques_for(3)]


def test_the_full_scale_tries_the_dynamic_chains_on_big_grids():
    """``full_scale=True``: the dynamic chains (plain and +) on 16x16 and 25x25 too, never the nested ones (their
    outer search is Python); no change on 4x4 and 9x9. A position that needs them is rated instead of needing
    guessing, the same by the compiled path and the step path (guided: each step's row named by the kernel is
    found by that row's Python finder, strictly, in the tests). The plain step path (every row's finder at every
    step) agreed step for step when this was built, in 94 s: too slow to repeat here."""
    from engine.grade.grader import skipped, techniques_for

    assert skipped(4, full_scale=True) == skipped(5, full_scale=True) == ("nested-forcing-chains",)
    assert skipped(3, full_scale=True) == skipped(3) == () and skipped(2, False, True) == skipped(2, False)
    names = [t.name for t in techniques_for(4, full_scale=True)]
    assert {"dynamic-forcing-chains", "dynamic-forcing-chains-plus"} <= set(names)
    assert "nested-forcing-chains" not in names
    assert len(techniques_for(3, full_scale=True)) == len(techniques_for(3))

    puzzle = from_line(NEEDS_DYNAMIC_16, 4)
    default = grade_many(puzzle[None], 4)[0]
    assert default.needs_guessing and default.level == "extreme"
    fast = grade_many(puzzle[None], 4, full_scale=True)[0]
    assert fast.solved and fast.technique == "dynamic-forcing-chains" and round(fast.score, 1) == 9.1
    assert grade(puzzle, 4, explain=False, full_scale=True) == fast
    steps = grade(puzzle, 4, full_scale=True)
    assert (steps.score, steps.ep, steps.ed, steps.hardest, steps.steps_by_technique) == (
        fast.score, fast.ep, fast.ed, fast.hardest, fast.steps_by_technique)
    assert steps.solved and all(s.technique != "nested-forcing-chains" for s in steps.steps)
    assert next_step(puzzle, 4, full_scale=True).as_dict() == steps.steps[0].as_dict()
    solution = _solution(puzzle)  # every placement is the solution's
    for s in steps.steps:
        for cell, digit in s.placements:
            assert solution[cell] == digit


@pytest.mark.slow
@pytest.mark.parametrize("seed, hardest", [(3, "nishio"), (21, "multiple-forcing-chains")])
def test_big_grids_rate_nishio_and_multiple_chains_soundly(seed, hardest):
    """Minimal 16x16 puzzles that need Nishio or multiple forcing chains are rated without guessing, both paths make
    the same steps, every step agrees with the board, and every link of a chain follows on the grid before it."""
    from engine.carve import carve
    from naive.grade import minimal_puzzles

    (puzzle, board), = minimal_puzzles(1, 4, seed=seed, carve=carve)
    g = grade(puzzle, 4, guided=False)
    assert g.solved and not g.needs_guessing and g.technique == hardest
    assert grade_many(puzzle[None], 4)[0] == g
    _check_steps(State.from_puzzle(puzzle, 4), g.steps, board)


# AI Escargot where every row up to dynamic (+) forcing chains is stuck (candidates per cell, bit d-1 for digit d)
ESCARGOT_STUCK = [
    0, 178, 170, 152, 28, 0, 42, 0, 44, 88, 0, 40, 281, 0, 272, 105, 104, 0, 202, 194, 0, 0, 13, 133, 0, 78, 13, 202,
    194, 0, 0, 97, 35, 0, 232, 41, 328, 0, 12, 336, 0, 304, 104, 124, 0, 0, 450, 134, 339, 337, 0, 193, 212, 21, 0,
    434, 162, 218, 376, 178, 170, 0, 312, 402, 0, 0, 402, 308, 180, 162, 178, 0, 402, 434, 0, 155, 313, 179, 0, 186,
    312]


def _check_dynamic_chain(before: State, chain, why) -> None:
    """Every state of a dynamic or nested chain follows, on the grid ``before`` the step, from the state before it
    and the others its reason names: what a reader is told. An off state from an on state (its cell, or a peer
    with the digit); an on state, once its off parents are gone, the cell's last candidate or the digit's last
    place in a house; an off state from off states, a pattern's (its words given) that brute force confirms on the
    grid less those parents; an off state a chain inside concluded, that chain's conclusion."""
    t = before.t
    for i in range(1, len(chain)):
        reason = why[i] if why else None
        parents = (chain[i - 1],) + (reason.also if reason else ())
        cell, digit, on = chain[i]
        gone = {(c, d) for c, d, _ in parents}
        if reason is not None and reason.inner is not None:
            assert not on and (cell, digit) in reason.inner.eliminations + tuple(
                (c, d) for c, _ in reason.inner.placements for d in range(1, t.n + 1)), chain[i]
            assert reason.inner.links and reason.inner.rating >= 6.5
        elif on:
            assert not any(p[2] for p in parents), chain[i]
            left = [d for d in range(1, t.n + 1) if before.has(cell, d) and (cell, d) not in gone]
            last_place = any(all(c == cell or not before.has(c, digit) or (c, digit) in gone for c in t.houses[h])
                             for h in t.cell_houses[cell])
            assert left == [digit] or last_place, (chain[i], parents)
        elif chain[i - 1][2]:
            assert len(parents) == 1, (chain[i], parents)
            c, d, _ = chain[i - 1]
            assert (c == cell and d != digit) or (d == digit and before.sees(c, cell)), (chain[i - 1], chain[i])
        else:
            assert reason is not None and reason.rule, (chain[i], parents)
            assert _ruled_out(before, gone, cell, digit), (chain[i], reason.rule)


def _ruled_out(before: State, gone, cell: int, digit: int) -> bool:
    """Whether ``digit`` cannot stand in ``cell`` on the grid ``before`` less ``gone``, by brute force on one digit
    (no placement of the digit, one per row, column and box, uses the cell) or on one house (no way to fill the
    house's open cells with its missing digits puts the digit in the cell)."""
    t = before.t

    def can(c, d):
        return before.cells[c] == d or (before.cells[c] == 0 and before.has(c, d) and (c, d) not in gone)

    def template(r, cols, boxes):  # a placement of the digit in rows r.., through the cell
        if r == t.n:
            return True
        for c in t.rows[r]:
            if (can(c, digit) and t.col_of[c] not in cols and t.box_of[c] not in boxes
                    and (t.row_of[cell] != r or c == cell)):
                if template(r + 1, cols | {t.col_of[c]}, boxes | {t.box_of[c]}):
                    return True
        return False

    def fill(cells, digits):  # the house's open cells take its missing digits, one each
        if not cells:
            return True
        c, rest = cells[0], cells[1:]
        return any(fill(rest, digits - {d}) for d in digits if can(c, d) and (c != cell or d == digit))

    if not template(0, frozenset(), frozenset()):
        return True
    for h in t.cell_houses[cell]:
        open_cells = [c for c in t.houses[h] if before.cells[c] == 0]
        missing = set(range(1, t.n + 1)) - {before.cells[c] for c in t.houses[h]}
        if not fill(open_cells, frozenset(missing)):
            return True
    return False


def _up_to_nested(puzzle):
    """The step path with every row but the nested forcing chains: (steps, solved), and the state it ends in."""
    from engine.grade.grader import solve_logically, techniques_for

    state = State.from_puzzle(puzzle, 3)
    steps, solved = solve_logically(state, [t for t in techniques_for(3) if t.name != "nested-forcing-chains"])
    _up_to_nested.state = state
    return steps, solved


@pytest.mark.slow
def test_ai_escargot_is_stuck_where_the_nested_chains_start():
    """Every row before the nested forcing chains leaves AI Escargot at ESCARGOT_STUCK, still unsolved."""
    steps, solved = _up_to_nested(from_line(ESCARGOT))
    assert not solved and _up_to_nested.state.to_arrays()[1].tolist() == ESCARGOT_STUCK


@pytest.mark.slow
def test_nested_forcing_chains_on_ai_escargot():
    """Where dynamic (+) forcing chains are stuck, a dynamic chain with plain forcing chains inside (9.5) finds
    a step, as Sudoku Explainer's does at this point of its own path: sound (the solution agrees), its chains
    written out, each from an assumption to the conclusion, the rating the row's 9.5 plus the length bonus of the
    chains, those inside included."""
    puzzle = from_line(ESCARGOT)
    solution = _solution(puzzle)
    # the stuck position: a cell without candidates holds its digit
    state = State(tables(3), [0 if m else solution[c] for c, m in enumerate(ESCARGOT_STUCK)], list(ESCARGOT_STUCK))
    step = BY_NAME["nested-forcing-chains"].find(state)
    assert step is not None and step.technique == "nested-forcing-chains"
    assert step.explanation.startswith("nested forcing chains (with forcing chains inside), region forcing chains "
                                       "on 3 in column 8 (rated 10.2)")
    assert step.eliminations == ((5 * 9 + 7, 7),) and not step.placements
    assert all(solution[c] != d for c, d in step.eliminations)
    assert len(step.links) == 3  # one chain from each place of 3 in column 8
    for chain in step.links:
        assert chain[0][2] and chain[0][1] == 3 and chain[-1] == (5 * 9 + 7, 7, False)
    # every link says what it rests on: the chain found inside the run, the pattern, the other removals
    assert "[forcing chain (rated 7.2): r2c7=7 -> r2c7≠1 -> r3c9=1" in step.explanation
    assert "r3c8≠7 -> r2c1≠7 [locked candidates: the 7s of box 3 lie in row 2]" in step.explanation
    assert "r8c5=5 (and r8c1≠5, r8c6≠5, r8c8≠5)" in step.explanation
    for chain, why in zip(step.links, step.reasons):
        _check_dynamic_chain(state, chain, why)
    # (the brute force itself never rules out what the solution holds)
    assert not any(_ruled_out(state, set(), c, solution[c]) for c in range(81) if not state.cells[c])
    inner = [r.inner for why in step.reasons for r in why if r is not None and r.inner is not None]
    assert inner and all(s.technique == "chains-and-cycles" for s in inner)
    for s in inner:  # a plain chain inside: every link single, by the static rules on the run's grid
        assert all(r is None for why in s.reasons for r in why)
    data = step.as_dict()["links"]
    assert any("inner" in link and link["inner"]["links"] for chain in data for link in chain)
    assert any("rule" in link for chain in data for link in chain)


def test_the_hardest_step_is_named_as_the_literature_names_it():
    """``hardest`` is the step's own name (a forcing X-chain, BUG+1, a unique rectangle of some type), ``technique``
    the row that made it; both paths name it alike (the kernels report each step's kind beside its rating)."""
    from engine.carve import carve
    from engine.vocabulary import STEPS, TECHNIQUE_OF
    from naive.grade import minimal_puzzles

    pairs = minimal_puzzles(1500, 3, seed=11, carve=carve)
    puzzles = np.array([p for p, _ in pairs])
    grades = grade_many(puzzles, 3)
    names = {g.hardest for g in grades}
    assert all(name in STEPS and TECHNIQUE_OF[name] == g.technique for g in grades for name in [g.hardest])
    assert {"forcing X-chain", "forcing chain", "bidirectional cycle", "BUG+1", "unique rectangle type 1",
            "cell forcing chains", "region forcing chains", "XY-Wing"} <= names
    several = [i for i, g in enumerate(grades) if len(STEP_NAMES[g.technique]) > 1]
    for i in several[::6]:
        slow = grade(puzzles[i], 3)
        assert (slow.hardest, slow.technique, slow.score) == (grades[i].hardest, grades[i].technique, grades[i].score)


@pytest.mark.slow
def test_a_puzzle_past_the_compiled_path_is_graded_as_its_recorded_steps_grade_it(monkeypatch):
    """grade_many grades a puzzle that needs the nested forcing chains with the kernel's own steps and the nested
    search's (engine.grade.stuck), recording none: the grade (ER, EP, ED, the hardest step, the steps of each
    technique) is the one the guided step path's recorded steps give, on AI Escargot and Arto Inkala's 2010
    puzzle (nested steps at 10.5 and 10.7)."""
    from engine.grade import stuck
    from paths import ROOT

    made = []
    grade_stuck = stuck.grade_stuck
    monkeypatch.setattr(stuck, "grade_stuck", lambda *a: made.append(1) or grade_stuck(*a))
    for line in (ROOT / "bench" / "hardest.txt").read_text().splitlines()[0:4:3]:
        puzzle = from_line(line.split()[0])
        recorded = grade(puzzle, 3)
        fast = grade_many(puzzle[None], 3)[0]
        assert fast.as_dict() == recorded.as_dict() and (fast.ep, fast.ed) == (recorded.ep, recorded.ed)
        assert recorded.steps_by_technique.get("nested-forcing-chains") and fast.steps == []
    assert len(made) == 2
