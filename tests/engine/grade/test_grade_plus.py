"""The rules inside a dynamic (+) run, against a plain twin of Sudoku Explainer's ``getAdvancedPotentials``.

A run's states get their parents from what the run meets first, and a chain's complexity (its rating) counts them,
so the rules must find their patterns in Sudoku Explainer's order and with its conditions, and give each pattern's
eliminations in the order its hint does (a Java ``HashMap`` keyed by the cell). The twin below is written from
Sudoku Explainer's ``Locking``, ``HiddenSet``, ``NakedSet`` and ``Fisherman`` as plainly as possible; the kernel
(:func:`engine.grade.kernels.chains.plus._advanced`) must emit the same states, in the same order, with the same
parents, wherever a run stalls. The orders of Java's ``HashMap`` and of Sudoku Explainer's ``Permutations`` below
were printed by Java 17 and by Sudoku Explainer's own class.
"""
from __future__ import annotations

import numpy as np
import pytest

from engine import solve
from engine.formats import from_line
from engine.geometry import geometry
from engine.grade.kernels.chains.nested import _hashmap_order
from engine.grade.finders.chains.nested import _Search
from engine.grade.kernels.chains import forcing as fo
from engine.grade.kernels.chains.implications import NONE, _follow, _push_off, _start
from engine.grade.kernels.chains.plus import _advanced, _emit_hint
from engine.grade.kernels.chains.slots import _has, _reset, parents_of
from engine.grade.kernels.state import grader_units

from test_grade_chains import ESCARGOT, ESCARGOT_STUCK

N = 9
GEO = geometry(3)
HOUSES = GEO.houses.tolist()
CELL_HOUSES = grader_units(GEO)
ROW, COLUMN, BOX = 0, 1, 2

PLATINUM_BLONDE = ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6..."
# Platinum Blonde after serate's first three steps (hidden single, r8c8 <> 7, r7c7 <> 9): serate's next step is a
# nested contradiction on r7c9=1 (complexity 88), before the one on r9c7=9 (complexity 96), both rated 10.4
PLATINUM_BLONDE_4 = [
    244, 412, 364, 360, 432, 216, 352, 0, 0, 241, 409, 360, 363, 435, 219, 352, 496, 0, 241, 401, 0, 0, 433, 209, 0,
    496, 480, 70, 270, 0, 0, 38, 14, 358, 366, 0, 22, 0, 268, 11, 0, 31, 0, 270, 265, 214, 158, 76, 43, 55, 0, 103,
    110, 105, 39, 7, 0, 0, 263, 71, 103, 366, 361, 0, 7, 36, 67, 0, 199, 0, 166, 225, 0, 0, 0, 259, 391, 0, 263, 390,
    385]


# -- the twin ----------------------------------------------------------------------------------------------------
def java_map_order(keys):
    """The order a Java ``HashMap`` with these small integer keys, put in this order, yields them."""
    cap = 16
    while len(keys) > cap * 3 // 4:
        cap *= 2
    return sorted(keys, key=lambda k: k % cap)  # sorted() is stable: a bucket keeps the order of its puts


def colex_pairs():
    """Sudoku Explainer's ``Permutations(2, 9)``: pairs by their higher member, then the lower."""
    return [(i, j) for j in range(1, N) for i in range(j)]


def places(grid, h, d):
    return [i for i, c in enumerate(HOUSES[h]) if grid[c] >> (d - 1) & 1]


def digits(mask):
    return [d for d in range(1, N + 1) if mask >> (d - 1) & 1]


def off(c, d):
    return 2 * (c * N + d - 1)


def locking(orig, work, values):
    for k1, k2 in ((BOX, COLUMN), (BOX, ROW), (COLUMN, BOX), (ROW, BOX)):
        for d in range(1, N + 1):
            for j in range(N):
                h1 = k1 * N + j
                pos = places(work, h1, d)
                if len(pos) < 2:
                    continue
                crossing = {int(CELL_HOUSES[HOUSES[h1][i], k2]) for i in pos}
                if len(crossing) != 1:
                    continue
                h2 = crossing.pop()
                removals = [(c, 1 << (d - 1)) for c in HOUSES[h2] if c not in HOUSES[h1] and work[c] >> (d - 1) & 1]
                parents = {off(c, d) for c in HOUSES[h1]
                           if orig[c] >> (d - 1) & 1 and not work[c] >> (d - 1) & 1 and c not in HOUSES[h2]}
                yield removals, parents


def hidden_pairs(orig, work, values):
    for kind in (BOX, COLUMN, ROW):
        for j in range(N):
            h = kind * N + j
            if sum(1 for c in HOUSES[h] if values[c] == 0) <= 4:
                continue
            for i1, i2 in colex_pairs():
                d1, d2 = i1 + 1, i2 + 1
                p1, p2 = places(work, h, d1), places(work, h, d2)
                if len(p1) < 2 or len(p2) < 2 or len(set(p1) | set(p2)) != 2:
                    continue
                pair = 1 << i1 | 1 << i2
                removals = [(HOUSES[h][i], work[HOUSES[h][i]] & ~pair) for i in p1 if work[HOUSES[h][i]] & ~pair]
                parents = {off(c, d) for i, c in enumerate(HOUSES[h]) if i not in p1 for d in (d1, d2)
                           if orig[c] >> (d - 1) & 1}
                yield removals, parents


def naked_pairs(orig, work, values):
    for kind in (BOX, COLUMN, ROW):
        for j in range(N):
            h = kind * N + j
            if sum(1 for c in HOUSES[h] if values[c] == 0) < 4:
                continue
            for ia, ib in colex_pairs():
                a, b = HOUSES[h][ia], HOUSES[h][ib]
                if len(digits(work[a])) < 2 or len(digits(work[b])) < 2 or len(digits(work[a] | work[b])) != 2:
                    continue
                m = work[a] | work[b]
                removals = [(c, work[c] & m) for c in HOUSES[h] if c not in (a, b) and work[c] & m]
                parents = {off(c, d) for c in (a, b) for d in digits(orig[c] & ~m)}
                yield removals, parents


def x_wings(orig, work, values):
    for base, cover in ((COLUMN, ROW), (ROW, COLUMN)):
        for l1, l2 in colex_pairs():
            for d in range(1, N + 1):
                if sum(1 for v in values if v == d) + 4 > N:
                    continue
                p1, p2 = places(work, base * N + l1, d), places(work, base * N + l2, d)
                if len(p1) < 2 or len(p2) < 2 or len(set(p1) | set(p2)) != 2:
                    continue
                removals = [(HOUSES[cover * N + i][x], 1 << (d - 1)) for i in p1 for x in range(N)
                            if x not in (l1, l2) and work[HOUSES[cover * N + i][x]] >> (d - 1) & 1]
                parents = {off(c, d) for line in (l1, l2) for i, c in enumerate(HOUSES[base * N + line])
                           if orig[c] >> (d - 1) & 1 and not work[c] >> (d - 1) & 1 and i not in p1}
                yield removals, parents


def twin(orig, work, values, present):
    """Sudoku Explainer's rules on a stalled run: ``[(off state, its parents)]`` of the first productive rule (a
    pattern with eliminations and a parent), its states already in the run left out; None when none is."""
    present = set(present)
    for rule in (locking, hidden_pairs, naked_pairs, x_wings):
        out, productive = [], False
        for removals, parents in rule(orig, work, values):
            if not removals or not parents:
                continue
            productive = True
            masks = dict(removals)
            for c in java_map_order([c for c, _ in removals]):
                for d in digits(masks[c]):
                    if off(c, d) not in present:
                        present.add(off(c, d))
                        out.append((off(c, d), parents))
        if productive:
            return out
    return None


# -- the kernel, where runs stall --------------------------------------------------------------------------------
def stalls(cands, seeds):
    """Each time a dynamic run from ``seeds`` has nothing left to follow: ``(work, present, emitted)``, emitted
    being what the kernel added (``[(state, parents)]``, or None when no rule was productive)."""
    s = _Search(0, cands, 3)
    ws = s.ws
    out = []
    for seed in seeds:
        w = s.free
        _reset(ws, w)
        _start(ws, w, seed, s.cands, s.houses, s.cell_houses)
        for _ in range(50):
            on, _off = _follow(ws, w, s.cands, s.houses, s.cell_houses, N, True, True)
            if on != NONE:
                break
            work = ws[7].copy()
            present = {t for t in range(2 * cands.size * N) if _has(ws, w, t)}
            added = _advanced(ws, w, s.cands, ws[7], s.houses, s.cell_houses, N, ws[12], ws[13])
            emitted = None if added < 0 else [
                (int(t), set(parents_of(ws, w, int(t))))
                for t in ws[12][:added]]
            out.append((work, present, emitted))
            if added <= 0:
                break
            _push_off(ws, ws[12], added)
    return out


def _values(cands, puzzle):
    solution = np.asarray(solve(from_line(puzzle)).solution).reshape(-1)
    return [int(solution[c]) if cands[c] == 0 else 0 for c in range(cands.size)]


@pytest.mark.parametrize("cands, puzzle", [
    (np.array(ESCARGOT_STUCK, np.int64), ESCARGOT),
    (np.array(PLATINUM_BLONDE_4, np.int64), PLATINUM_BLONDE),
], ids=["escargot", "platinum-blonde"])
def test_the_rules_inside_a_run_are_sudoku_explainers(cands, puzzle):
    values = _values(cands, puzzle)
    seeds = [2 * (c * N + d - 1) + on for c in range(81) for d in digits(int(cands[c])) for on in (1, 0)
             if len(digits(int(cands[c]))) > 1]
    seen = productive = 0
    for work, present, emitted in stalls(cands, seeds):
        expected = twin(cands.tolist(), work.tolist(), values, present)
        assert emitted == expected
        seen += 1
        productive += emitted is not None
    assert seen > 100 and productive > 20  # the rules were met, and found things, many times


def test_a_hints_eliminations_come_in_java_hashmap_order():
    # (keys put in this order, the order Java 17's HashMap<Integer, _> yields them)
    java = [([15, 16], [16, 15]), ([3, 20, 19, 40, 66], [66, 3, 19, 20, 40]), ([61, 62], [61, 62]),
            ([0, 9, 18, 27, 36, 45, 54, 63, 72, 10, 11, 12, 13], [0, 36, 72, 9, 10, 11, 12, 45, 13, 18, 54, 27, 63]),
            ([80, 64, 48, 32, 16, 0, 1, 17, 33], [80, 64, 48, 32, 16, 0, 1, 17, 33])]
    s = _Search(0, np.array(ESCARGOT_STUCK, np.int64), 3)
    for keys, order in java:
        assert java_map_order(keys) == order
        # the kernel: one digit per cell, states in the slot's order (a fresh slot each time)
        w = s.free
        _reset(s.ws, w)
        cells = np.array(keys + [0] * 32, np.int32)
        masks = np.ones(cells.size, np.int32)
        out = np.empty(64, np.int32)
        k = _emit_hint(s.ws, w, cells, masks, len(keys), N, np.zeros(1, np.int32), 0, out, 0)
        assert [int(t) // 2 // N for t in out[:k]] == order
        # a nested chain's eliminations the same way (cells of one bucket taken by index)
        states = np.array([off(c, 1) for c in keys], np.int32)
        _hashmap_order(states, 0, states.size, N)
        assert [(int(t) >> 1) // N for t in states] == java_map_order(sorted(keys))


def test_pairs_and_fish_go_in_sudoku_explainers_permutations_order():
    # Sudoku Explainer's Permutations(2, 9).nextBitNums(), printed by its own class
    se = "01 02 12 03 13 23 04 14 24 34 05 15 25 35 45 06 16 26 36 46 56 07 17 27 37 47 57 67 08 18 28 38 48 58 68 78"
    assert [f"{i}{j}" for i, j in colex_pairs()] == se.split()


@pytest.mark.slow
def test_platinum_blondes_fourth_step_is_serates():
    """serate rates Platinum Blonde 10.6; its fourth step is the nested contradiction on r7c9=1 (complexity 88),
    which ties at 10.4 with the one on r9c7=9 (complexity 96) and comes first. A hidden pair found in a row
    before its box gave r9c7=9 a complexity of 78 and sent the grading down another path (rated 10.5)."""
    from engine.grade.finders.chains.nested import search
    row, hint, _links = search(np.array(PLATINUM_BLONDE_4, np.int64), 3)
    assert row == 0
    assert (int(hint[fo.H_TENTHS]), int(hint[fo.H_COMPLEXITY]), int(hint[fo.H_KIND])) == (104, 88, fo.CONTRADICTION)
    assert int(hint[fo.H_SOURCE]) == 2 * (62 * N + 1 - 1) + 1  # r7c9=1

