"""The parts of nested forcing chains, each against an independent twin.

The searches a nested run uses collect every conclusion instead of keeping the best: the best of the collection
must be the one the grader's own search keeps, the plain search must hold the chains-and-cycles row's step, and
every conclusion on a grid that still holds the solution must agree with it. A forcing chain that rests on none of
the run's removals must also be found on the grid before the run: that is why Sudoku Explainer leaves it out.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine import solve
from engine.formats import from_line
from engine.geometry import geometry
from engine.grade.finders.chains.inside import Inside
from engine.grade.finders.chains.nested import FOUND_ROWS, _Search
from engine.grade.kernels.chains import cycles as cy, forcing as fo
from engine.grade.kernels.chains.forcing import H_KIND, H_SOURCE, H_TARGET, H_WHERE
from engine.grade.kernels.chains.implications import _propagate
from engine.grade.kernels.chains.nested import _collect, _cycle_hints, _kept
from engine.grade.kernels.chains.reuse import _differs, _forbidden
from engine.grade.kernels.chains.rule_parents import _rule_parents
from engine.grade.kernels.chains.fresh_links import _concluding
from engine.grade.kernels.chains.plain import (_plain_search, _plain_search_in, _plain_search_walking, _plain_walk,
                                              _walk_space)
from engine.grade.kernels.chains.walk import links
from engine.grade.kernels.chains.slots import BITS, _reset, _workspace, parents_of
from engine.grade.kernels.chains.space import _search_space
from engine.grade.kernels.state import grader_units
from engine.grade.state import State

from test_grade_chains import ESCARGOT, ESCARGOT_STUCK

def _map_order(states, n: int) -> list[int]:
    """The twin of engine.grade.kernels.chains.nested._hashmap_order: off states in the order Sudoku Explainer's
    hint yields them (cells by ``index mod capacity`` of a Java ``HashMap``, 16 doubled past three quarters full,
    each cell's digits upwards)."""
    cells = len({(s >> 1) // n for s in states})
    cap = 16
    while cells * 4 > cap * 3:
        cap *= 2
    return sorted(states, key=lambda s: (((s >> 1) // n) & (cap - 1), s))


def hints(rows, work: np.ndarray, n: int):
    """The twin of engine.grade.kernels.chains.nested._cycle_hints (and of _kept's sifting): the collected
    conclusions ``rows`` (sorted) on ``work`` as Sudoku Explainer's hints, ``(row, the off states it adds)``, a
    cycle's rows as one hint, and of hints that remove the same candidates only the first."""
    cycles: dict[tuple[int, int], list[int]] = {}
    for row in rows:
        if row[H_KIND] == fo.CYCLE:
            cycles.setdefault((int(row[H_SOURCE]), int(row[H_WHERE])), []).append(int(row[H_TARGET]))
    seen = set()
    for row in rows:
        target = int(row[H_TARGET])
        if row[H_KIND] == fo.CYCLE:
            states = cycles.pop((int(row[H_SOURCE]), int(row[H_WHERE])), None)
            if states is None:  # the cycle's other rows: done with its first
                continue
        elif target & 1:  # placed: the cell's other candidates go
            p = target >> 1
            c = p // n
            states = [2 * (c * n + e) for e in range(n) if work[c] >> e & 1 and e != p % n]
        else:
            states = [target]
        key = frozenset(states)
        if key not in seen:
            seen.add(key)
            yield row, np.array(_map_order(states, n), np.int32)


GEO = geometry(3)
CELL_HOUSES = grader_units(GEO)
SOLUTION = np.asarray(solve(from_line(ESCARGOT)).solution).reshape(-1)
STUCK = np.array(ESCARGOT_STUCK, np.int64)


def _rows(found):
    return found[1:found[0, 0] + 1]


def _plain(cands):
    found = np.zeros((FOUND_ROWS, fo.HINT_SIZE), np.int64)
    _plain_search(cands, GEO.houses, CELL_HOUSES, 9, found)
    return _rows(found)


def _agrees(target: int) -> bool:
    """Whether a conclusion (a state that holds) agrees with the solution."""
    p = target >> 1
    return (SOLUTION[p // 9] == p % 9 + 1) == bool(target & 1)


class _Stalls(_Search):
    """A nested search that, where a run would look for chains inside, keeps the run's grid and looks no further."""

    compiled_looks = False  # (every stall comes to nest)

    def nest(self, w: int, *_) -> bool:
        self.grids.append(self.ws[7].copy())
        return False


def _true_runs(limit: int):
    """The grids where dynamic runs from candidates of the solution first look for chains inside (so they still
    hold the solution)."""
    search = _Stalls(0, STUCK, 3)
    search.grids = []
    for c in range(81):
        if STUCK[c] and len(search.grids) < limit:
            p = c * 9 + int(SOLUTION[c]) - 1
            search.run(search.free, 2 * p + 1)
    return search.grids


def test_the_plain_search_holds_the_chains_and_cycles_step():
    """On grids a run has left: every conclusion agrees with the solution, and the best rated is the one the
    chains-and-cycles row keeps (its target, or for a cycle its eliminations)."""
    assert not len(_plain(STUCK))  # stuck: no plain chain left, as the grader found
    checked = 0
    for work in _true_runs(4):
        rows = _plain(work)
        hint = np.empty(cy.C_SIZE, np.int64)
        elim = np.zeros(81 * 9, np.int8)
        cy._cycles_hint(work, GEO.houses, CELL_HOUSES, GEO.peers, 9, hint, elim)
        assert all(_agrees(int(t)) for t in rows[:, fo.H_TARGET])
        assert (hint[cy.C_TENTHS] == cy.NO_HINT) == (len(rows) == 0)
        if len(rows):
            best = rows[rows[:, fo.H_TENTHS] == hint[cy.C_TENTHS]]
            assert len(best) and min(best[:, fo.H_COMPLEXITY]) == hint[cy.C_COMPLEXITY]
            if hint[cy.C_KIND] == cy.FORCING:
                assert hint[cy.C_TARGET] in best[:, fo.H_TARGET]
            else:
                assert set(2 * np.flatnonzero(elim)) <= set(rows[rows[:, fo.H_KIND] == fo.CYCLE][:, fo.H_TARGET])
            checked += 1
    assert checked


def _stall_grids(limit: int, step: int = 3) -> list:
    """Grids where runs from every ``step``-th candidate, on or off, first look for chains inside."""
    search = _Stalls(0, STUCK, 3)
    search.grids = []
    for p in range(0, 81 * 9, step):
        if STUCK[p // 9] >> (p % 9) & 1 and len(search.grids) < limit:
            search.run(search.free, 2 * p + (p % 2))
    return search.grids


def _listed(inside) -> list:
    """What a search inside concluded (engine.grade.finders.chains.inside.Inside), as lists to compare."""
    return [(r.tolist(), s.tolist(), q.tolist()) for r, s, q in inside]


@pytest.mark.slow
@pytest.mark.parametrize("producer", [fo.MULTIPLE, fo.DYNAMIC])
def test_collecting_keeps_what_the_search_keeps(producer):
    """The first of the collected conclusions in Sudoku Explainer's order is the one the search keeps."""
    cands = _true_runs(1)[0]
    kept = np.empty(fo.HINT_SIZE, np.int64)
    fo._forcing_hint(producer, cands, GEO.houses, CELL_HOUSES, 9, kept)
    found = np.zeros((FOUND_ROWS, fo.HINT_SIZE), np.int64)
    ws, memo = _search_space(cands, 9)
    fo._forcing_search(producer, cands, GEO.houses, CELL_HOUSES, 9, np.empty(fo.HINT_SIZE, np.int64), found, ws,
                       memo)
    rows = _rows(found)
    assert len(rows) and all(_agrees(int(t)) for t in rows[:, fo.H_TARGET])
    order = np.lexsort((rows[:, fo.H_SORT], rows[:, fo.H_COMPLEXITY], rows[:, fo.H_TENTHS]))
    assert rows[order[0]].tolist() == kept.tolist()


@pytest.mark.slow
def test_rule_parents_are_the_runs_removals_and_a_chain_without_any_was_there_before():
    rested = 0
    for work in _true_runs(6):
        rows = _plain(work)
        before = {int(t) for t in _plain(STUCK)[:, fo.H_TARGET]}
        out = np.empty(2 * 81 * 9, np.int32)
        for row in rows:
            assert _agrees(int(row[fo.H_TARGET]))
            k = _rule_parents(fo.STATIC, row, *_Search(0, STUCK, 3).no_slots, STUCK, work, GEO.houses, CELL_HOUSES,
                              9, out)
            for q in out[:k].tolist():  # an off state of a candidate the run removed
                c, d = (q >> 1) // 9, (q >> 1) % 9
                assert not q & 1 and STUCK[c] >> d & 1 and not work[c] >> d & 1
            if k:
                rested += 1
            elif row[fo.H_KIND] == fo.UNARY:  # resting on no removal, the chain is there before the run
                assert int(row[fo.H_TARGET]) in before
    assert rested


@pytest.mark.slow
def test_what_a_search_inside_finds_is_remembered_and_the_same_as_searching_again():
    """The memo of searches inside (keyed by the grid) changes nothing: the nested row's conclusion found with
    every search inside made afresh is the one found with all of them remembered."""
    inside: dict = {}
    first = _Search(0, STUCK, 3, inside)
    best = first.search()
    remembered = len(inside)
    assert best[fo.H_TENTHS] != fo.NO_HINT and remembered
    again = _Search(0, STUCK, 3, inside)  # every search inside now comes from the memo
    assert again.search().tolist() == best.tolist() and len(inside) == remembered
    assert again.links(best) == first.links(best)

    class _Afresh(_Search):  # the twin: nothing remembered
        compiled_looks = False

        def inside(self, producer, work, grid=None):
            self.inside_memo.clear()
            return super().inside(producer, work, grid)

    fresh = _Afresh(0, STUCK, 3)
    assert fresh.search().tolist() == best.tolist() and fresh.links(best) == first.links(best)


def test_the_plain_search_finds_what_three_full_walks_a_candidate_find():
    """The plain search reuses a candidate's cycle walk as its forcing walk, meets halfway and skips the states a
    complete walk proved chainless: every row, in order, must be the one of its twin that walks everything."""
    from engine.grade.kernels.chains.plain import _plain_search_walking

    from test_grade_plus import PLATINUM_BLONDE_4

    grids = []
    for start in (STUCK, np.array(PLATINUM_BLONDE_4, np.int64)):
        search = _Stalls(0, start, 3)  # where runs from any candidate, on or off, stall: false runs find chains
        search.grids = [start]
        for p in range(81 * 9):
            if start[p // 9] >> (p % 9) & 1 and len(search.grids) < 80:
                search.run(search.free, 2 * p + (p % 2))
        grids += search.grids
    rows = 0
    for cands in grids:
        twin = np.zeros((FOUND_ROWS, fo.HINT_SIZE), np.int64)
        _plain_search_walking(cands, GEO.houses, CELL_HOUSES, 9, twin)
        assert _plain(cands).tolist() == _rows(twin).tolist()
        rows += len(_rows(twin))
    assert rows > 150


@pytest.mark.parametrize("producer", [fo.MULTIPLE, fo.DYNAMIC, fo.DYNAMIC_PLUS])
def test_a_search_inside_that_keeps_the_best_on_each_state_keeps_what_collecting_all_keeps(producer):
    """Searches inside collect only the best conclusion on each state (the nested run keeps only the first of the
    conclusions that remove the same candidates): what the run gets must be what collecting every conclusion
    gives, on the grids where runs from every candidate stall."""
    class _All(_Search):
        best_by_state = False

    conclusions = 0
    for work in _stall_grids(25, 7):
        fast, twin = (_listed(kind(0, STUCK, 3).inside(producer, work)) for kind in (_Search, _All))
        assert fast == twin
        conclusions += len(twin)
    assert conclusions > 40


@pytest.mark.parametrize("producer", [fo.MULTIPLE, fo.DYNAMIC, fo.DYNAMIC_PLUS])
def test_searches_inside_that_share_one_workspace_find_what_fresh_ones_find(producer):
    """Every search inside runs in its thread's one workspace, left full of the last search's runs: what each finds
    (conclusions, the states they add, their rule parents) must be what a search in a fresh workspace finds."""
    class _Fresh(_Search):
        def workspace(self, work):
            return _search_space(work, self.n)

    conclusions = 0
    for work in _stall_grids(30, 5):
        shared, fresh = (_listed(kind(0, STUCK, 3).inside(producer, work)) for kind in (_Search, _Fresh))
        assert shared == fresh
        conclusions += len(fresh)
    assert conclusions > 40


def test_collecting_multiple_chains_in_the_cells_and_houses_that_may_conclude_collects_them_all():
    """A search inside of multiple forcing chains looks only where the closures say a conclusion may be (and at
    nothing when they say none is): the rows it collects must be every row the search of every cell and house
    collects, in the same order, on grids where runs stall (with and without the table of the best on each
    state)."""
    n, rows = 9, 0
    for work in _stall_grids(60, 2):
        for table in (0, FOUND_ROWS):
            got = []
            for collect in (True, False):
                found = np.zeros((FOUND_ROWS + 2 * 81 * 9, fo.HINT_SIZE), np.int64)
                found[0, 1] = table
                found[FOUND_ROWS:, fo.H_TENTHS] = fo.NO_HINT
                ws, memo = _search_space(work, n)
                if collect:
                    _collect(fo.MULTIPLE, work, GEO.houses, CELL_HOUSES, n, found, ws, memo, np.zeros(0, np.int8),
                             np.zeros((0, 0), np.int64))
                else:  # the twin: every cell and house
                    fo._forcing_search(fo.MULTIPLE, work, GEO.houses, CELL_HOUSES, n,
                                       np.empty(fo.HINT_SIZE, np.int64), found, ws, memo)
                got.append(_rows(found).tolist())
            assert got[0] == got[1]
            rows += len(got[1])
    assert rows > 0


@pytest.mark.parametrize("producer", [fo.STATIC, fo.MULTIPLE, fo.DYNAMIC, fo.DYNAMIC_PLUS])
def test_what_a_search_inside_keeps_is_what_sorting_and_sifting_in_python_keeps(producer):
    """The compiled sifting of a search's conclusions (engine.grade.kernels.chains.nested._kept: Sudoku
    Explainer's order, the first of those that remove the same candidates, only those that rest on the run's
    removals) against the same done in Python with the hints of the plain search's rows (for the plain search,
    what the search inside keeps, with cycles or without; for the forcing searches, what _kept keeps)."""
    search = _Search(0, STUCK, 3)
    n, kept, cycles = 9, 0, 0
    for work in _stall_grids(25 if producer != fo.STATIC else 400, 7 if producer != fo.STATIC else 1):
        found = search.found
        found[0, 0] = 0
        found[0, 1] = 0
        ws, memo = _search_space(work, n)
        if producer == fo.STATIC:
            _plain_search(work, GEO.houses, CELL_HOUSES, n, found)
            cycles += bool((_rows(found)[:, fo.H_KIND] == fo.CYCLE).any())
        else:
            fo._forcing_search(producer, work, GEO.houses, CELL_HOUSES, n, np.empty(fo.HINT_SIZE, np.int64), found,
                               ws, memo)
        rows = _rows(found)
        twin = []
        out = np.empty(2 * 81 * 9, np.int32)
        for row, states in hints(rows[np.lexsort((rows[:, fo.H_SORT], rows[:, fo.H_COMPLEXITY], rows[:, fo.H_TENTHS]))],
                                  work, n):
            k = _rule_parents(producer, row, ws, memo, STUCK, work, GEO.houses, CELL_HOUSES, n, out)
            if k:
                twin.append((row.tolist(), states.tolist(), out[:k].tolist()))
        if producer == fo.STATIC:  # the search inside's own way: compiled, or (cycles) grouped in Python first
            got = _listed(_Search(0, STUCK, 3).inside(producer, work))
        else:
            got = _listed(Inside(*_kept(producer, found, ws, memo, STUCK, work, GEO.houses, CELL_HOUSES, n,
                                        np.zeros(0, np.int32), np.zeros(0, np.int64), _walk_space(81, n))))
        assert got == twin
        kept += len(twin)
    assert kept > (40 if producer != fo.STATIC else 10)
    assert producer != fo.STATIC or cycles  # the grids with cycles were met too


def test_plain_searches_inside_spared_where_no_chain_can_rest_on_the_run_lose_nothing():
    """The plain search inside is skipped on a grid where no strong link's cause holds one of the run's removals
    (engine.grade.kernels.chains.rule_parents._plain_rests_nowhere): what every search inside keeps must be what searching
    every grid keeps, and the test must meet grids of both kinds. The searches share one walk space too: each
    grid's rows must be those of a search in a fresh one."""
    from engine.grade.kernels.chains.rule_parents import _plain_rests_nowhere

    class _Always(_Search):
        spares = False

    search, twin = _Search(0, STUCK, 3), _Always(0, STUCK, 3)
    spared = kept = 0
    for work in _stall_grids(400, 1):
        spared += bool(_plain_rests_nowhere(STUCK, work, GEO.houses, CELL_HOUSES, 9))
        got, want = (_listed(x.inside(fo.STATIC, work)) for x in (search, twin))
        assert got == want
        kept += len(want)
        fresh = _plain(work).tolist()
        search.found[0, 0] = search.found[0, 1] = 0
        _plain_search_in(work, GEO.houses, CELL_HOUSES, 9, search.found, search.walk, search.sees, search.before)
        assert _rows(search.found).tolist() == fresh
    assert spared > 5 and kept > 5


def _walked(cands) -> list:
    """The plain search's rows by its twin: three full walks a candidate and pass, nothing skipped."""
    found = np.zeros((FOUND_ROWS, fo.HINT_SIZE), np.int64)
    _plain_search_walking(cands, GEO.houses, CELL_HOUSES, 9, found)
    return _rows(found).tolist()


def _spared(work, before) -> list:
    """The plain search's rows with the walks ``before`` allows spared (engine.grade.kernels.chains.fresh_links)."""
    found = np.zeros((FOUND_ROWS, fo.HINT_SIZE), np.int64)
    _plain_search_in(work, GEO.houses, CELL_HOUSES, 9, found, _walk_space(81, 9), cy.cycle_sees(GEO.houses,
                     CELL_HOUSES, 81), before)
    return _rows(found).tolist()


def test_plain_walks_that_meet_no_fresh_link_are_spared_and_lose_nothing():
    """On a run's grid, the plain search makes forcing walks only from the states the fresh strong links say have
    a chain (engine.grade.kernels.chains.fresh_links): on every stall grid of the stuck Escargot its rows must be
    the twin's (every walk, nothing skipped), and the test must meet grids with conclusions."""
    search = _Search(0, STUCK, 3)
    assert search.before is search.cands and not _walked(STUCK)  # the step's grid: nothing to conclude there
    concluded = 0
    for work in _stall_grids(300, 2):
        rows = _spared(work, search.before)
        assert rows == _walked(work)
        concluded += bool(rows)
    assert concluded >= 5


def test_the_states_with_a_forcing_chain_are_those_the_fresh_links_name():
    """Which states force their own opposite, found from the fresh strong links alone (two walks a link), must be
    exactly those whose full forcing walk reaches the opposite, in the X pass and the XY pass, on every stall grid
    of the stuck Escargot; the test must meet states with a chain and grids with none."""
    walk = _walk_space(81, 9)
    with_chain = without = 0
    for work in _stall_grids(120, 2):
        table = links(work, GEO.houses, CELL_HOUSES, 9)
        for pas, ylinks in ((cy.X_PASS, False), (cy.XY_PASS, True)):
            got = np.zeros(2 * 81 * 9, np.int8)
            _concluding(STUCK, work, table, GEO.houses, CELL_HOUSES, 9, ylinks, True, got, walk)
            want = np.zeros_like(got)
            for s in range(2 * 81 * 9):
                p = s >> 1
                if work[p // 9] >> (p % 9) & 1:
                    hit, _ = _plain_walk(s, pas, False, table, walk)
                    want[s] = hit >= 0
            assert got.tolist() == want.tolist()
            with_chain += int(want.sum())
            without += not want.any()
    assert with_chain > 20 and without > 20


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 80), st.integers(0, 8)), max_size=60))
def test_sparing_walks_loses_nothing_on_any_part_of_a_stuck_grid(removals):
    """Any grid made by removing candidates from the stuck Escargot (as a run does; a cell keeps its last one) has
    the same plain conclusions with the walks spared as with every walk."""
    work = STUCK.copy()
    for c, d in removals:
        if work[c] & ~(1 << d):
            work[c] &= ~(1 << d)
    assert _spared(work, STUCK) == _walked(work)


_BOUNDED = []  # a row 10.0 search on the stuck Escargot, made once (its step grid's closures)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 80), st.integers(0, 8)), max_size=60))
def test_the_step_grids_closures_prove_only_what_the_grids_own_prove(removals):
    """The multiple forcing chains' bound from the step grid's closures (static_miss._bound_miss) on any grid made
    by removing candidates from the stuck Escargot: where it says the search finds nothing, the grid's own
    closures say so too (static_miss._static_miss, which the search's twins hold to the search)."""
    from engine.grade.kernels.chains.static_miss import _static_miss

    if not _BOUNDED:
        _BOUNDED.append(_Search(1, STUCK, 3))
    work = STUCK.copy()
    for c, d in removals:
        if work[c] & ~(1 << d):
            work[c] &= ~(1 << d)
    if _BOUNDED[0].bound_miss(work):
        assert _static_miss(work, GEO.houses, CELL_HOUSES, 9)


def test_multiple_searches_inside_spared_by_the_step_grids_closures_lose_nothing():
    """Row 10.0's multiple search inside is spared where the step grid's closures prove it finds nothing: on the
    stuck Escargot's stall grids, what it keeps must be what the search without the bound keeps, and the bound
    must prove most of the grids the grids' own closures prove."""
    from engine.grade.kernels.chains.static_miss import _static_miss

    class _Unbounded(_Search):
        bounds = False

    search, twin = _Search(1, STUCK, 3), _Unbounded(1, STUCK, 3)
    proved = own = kept = 0
    for work in _stall_grids(300, 1):
        assert _listed(search.search_inside(fo.MULTIPLE, work)) == _listed(twin.search_inside(fo.MULTIPLE, work))
        kept += len(twin.search_inside(fo.MULTIPLE, work))
        proved += search.bound_miss(work)
        own += bool(_static_miss(work, GEO.houses, CELL_HOUSES, 9))
    assert kept > 5 and own > 50 and proved >= 0.8 * own


def test_nothing_is_spared_where_the_steps_own_grid_has_a_plain_conclusion():
    """The sparing holds only where the step's grid has no plain conclusion: a nested search on a grid with one (a
    stall grid of the stuck Escargot where a plain chain concludes) spares nothing."""
    grid = next(work for work in _stall_grids(300, 2) if _walked(work))
    assert _Search(0, grid, 3).before.size == 0


@pytest.mark.parametrize("producer", [fo.STATIC, fo.MULTIPLE, fo.DYNAMIC])
def test_what_an_earlier_step_found_inside_narrowed_to_a_later_steps_grid_is_what_searching_there_finds(producer):
    """A later step's search inside a grid an earlier step searched takes the earlier result with the rule parents
    that are still removals (engine.grade.finders.chains.inside._narrowed): on every stall grid of the stuck
    Escargot, with a later step's grid made by putting back a random part of the run's removals, it must be what
    searching on that grid keeps, and the test must meet conclusions dropped and rule parents thinned."""
    from engine.grade.finders.chains.inside import NOTHING, _narrowed

    rng = np.random.default_rng(48)
    dropped = thinned = 0
    earlier = _Search(0, STUCK, 3)
    for work in _stall_grids(60, 5):
        gone = STUCK & ~work
        later = work | (gone & rng.integers(0, 1 << 9, gone.size))  # each removal kept or put back
        found = earlier.search_inside(producer, work)
        want = _Search(0, later, 3).search_inside(producer, work)
        got = _narrowed(found, later, 9) if len(found) else NOTHING
        assert _listed(got) == _listed(want)
        dropped += len(found) - len(want)
        thinned += len(found.parents) - len(want.parents) > len(found) - len(want)
    assert dropped > 0 and thinned > 0


def test_a_full_store_drops_its_oldest_searches_inside_and_changes_no_step(monkeypatch):
    """With room for 64 searches inside, the thread's store keeps the 64 searched last, in the order searched (a
    step searches each grid once: the step's own memo answers the rest), and the step is the one an unbounded
    store gives."""
    from engine.grade.finders.chains import nested, searches_inside

    nested._STORE.found = nested.fresh_store()
    row, hint, links = nested.search(STUCK.copy(), 3)
    everything = list(nested._STORE.found)
    assert len(everything) > 64
    monkeypatch.setattr(searches_inside, "STORED", 64)
    nested._STORE.found = nested.fresh_store()
    row2, hint2, links2 = nested.search(STUCK.copy(), 3)
    assert list(nested._STORE.found) == everything[-64:]
    assert (row2, hint2.tolist(), links2) == (row, hint.tolist(), links)


def _after(cands: np.ndarray, hint: np.ndarray) -> np.ndarray:
    """The candidates left once the nested step ``hint`` is made on ``cands`` (a copy)."""
    from engine.grade.finders.chains.steps import conclusion

    cands = cands.copy()
    placements, eliminations = conclusion(int(hint[fo.H_TARGET]), 9)
    for c, d in eliminations:
        cands[c] &= ~(1 << (d - 1))
    for c, d in placements:  # the digit placed, and gone from the cell's houses
        for h in np.flatnonzero((GEO.houses == c).any(axis=1)):
            cands[GEO.houses[h]] &= ~(1 << (d - 1))
        cands[c] = 1 << (d - 1)
    return cands


def test_searches_inside_remembered_from_step_to_step_change_no_step(monkeypatch):
    """The thread's store of searches inside, kept from one step to the next, gives the steps that searching
    afresh gives: three nested steps from the stuck Escargot, each conclusion and its chains, with fewer
    searches inside made."""
    from engine.grade.finders.chains import nested

    monkeypatch.setattr(_Search, "compiled_looks", False)  # (every plain search inside made in Python, counted)
    made = []
    search_inside = _Search.search_inside
    monkeypatch.setattr(_Search, "search_inside", lambda self, *a: made.append(1) or search_inside(self, *a))

    def three_steps(remember: bool):
        nested._STORE.found = nested.fresh_store()
        cands, steps = STUCK.copy(), []
        for _ in range(3):
            if not remember:
                nested._STORE.found = nested.fresh_store()
            row, hint, links = nested.search(cands, 3)
            steps.append((row, hint.tolist(), links))
            cands = _after(cands, hint)
        return steps

    got = three_steps(True)
    remembered, made[:] = len(made), []
    assert got == three_steps(False) and remembered < len(made)


def test_outer_searches_in_the_threads_kept_workspace_find_what_searches_in_their_own_find(monkeypatch):
    """nested.search keeps its outer searches' workspace from search to search (outer_space): three nested steps
    from the stuck Escargot, with a search on the Escargot as given between each two (another grid, more
    candidates: a workspace made again larger), give the steps that searches in workspaces of their own give."""
    from engine.grade.finders.chains import nested
    from engine.grade.finders.chains.steps import conclusion

    start = State.from_puzzle(np.asarray(from_line(ESCARGOT), np.int64).reshape(-1), 3).to_arrays()[1]

    def steps():
        cands, out = STUCK.copy(), []
        for _ in range(3):
            nested._STORE.found = nested.fresh_store()
            row, hint, links = nested.search(cands, 3)
            out.append((row, hint.tolist(), links))
            nested._STORE.found = nested.fresh_store()
            other = nested.search(start, 3)
            out.append(other if other is None else (other[0], other[1].tolist(), other[2]))
            placements, eliminations = conclusion(int(hint[fo.H_TARGET]), 9)
            for c, d in eliminations:
                cands[c] &= ~(1 << (d - 1))
            for c, d in placements:
                for h in np.flatnonzero((GEO.houses == c).any(axis=1)):
                    cands[GEO.houses[h]] &= ~(1 << (d - 1))
                cands[c] = 1 << (d - 1)
        return out

    made = []
    outer_space = nested.outer_space
    monkeypatch.setattr(nested, "outer_space", lambda *a: made.append(1) or outer_space(*a))
    kept = steps()
    assert len(made) >= 6 and nested._STORE.outer[0] is outer_space(STUCK, 9)[0]
    monkeypatch.setattr(nested, "outer_space", nested._own_space)
    assert kept == steps()


def test_the_stable_order_is_numpys_stable_argsort():
    from hypothesis import given, settings, strategies as st

    from engine.grade.kernels.chains.nested import _stable_order

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.integers(0, 6), max_size=70) | st.lists(st.integers(-2**62, 2**62), max_size=70))
    def check(values):
        key = np.array(values, np.int64)
        assert _stable_order(key).tolist() == np.argsort(key, kind="stable").tolist()

    check()


def _run_on(grid, seed):
    """A dynamic run from ``seed`` on ``grid`` in a fresh workspace: its states, each with its parents in order."""
    ws = _workspace(1, 81, 9)
    _reset(ws, 0)
    _propagate(ws, 0, seed, grid, GEO.houses, CELL_HOUSES, 9, True, True, 0)
    states = {s: parents_of(ws, 0, s) for s in range(2 * 81 * 9) if int(ws[18][0, s // BITS]) >> (s % BITS) & 1}
    return states, ws[18][0].copy()


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 80), st.integers(0, 8)), max_size=25),
       st.lists(st.integers(0, 2 * 81 * 9 - 1), min_size=1, max_size=12))
def test_a_run_that_reads_nothing_the_removals_changed_is_the_same_on_the_smaller_grid(removals, seeds):
    """The rule the searches inside reuse runs by (engine.grade.kernels.chains.reuse): a run on the stuck Escargot
    that :func:`_differs` passes for a grid with some candidates removed is, on that grid, the same run: the same
    states, each with the same parents in the same order."""
    work = STUCK.copy()
    for c, d in removals:
        if work[c] & ~(1 << d):
            work[c] &= ~(1 << d)
    forbidden = _forbidden(STUCK, work, GEO.houses, CELL_HOUSES, 9, 2 * 81 * 9 // 63 + 1)
    same = 0
    for seed in seeds:
        p = seed >> 1
        if not work[p // 9] >> (p % 9) & 1 or bin(int(work[p // 9])).count("1") < 2:
            continue
        states, members = _run_on(STUCK, seed)
        if not _differs(members[None], 0, *forbidden, np.zeros(forbidden[-1].size, np.int64), CELL_HOUSES, 9):
            assert _run_on(work, seed)[0] == states
            same += 1
    assume(same)


class _EveryRun(_Search):
    """The twin of a search inside that takes runs from the step's grid: it makes every run."""

    def same_runs(self, producer, work, ws, memo):
        return np.zeros(0, np.int8), np.zeros((0, 0), np.int64)


def test_dynamic_searches_inside_that_take_the_step_grids_runs_find_what_making_every_run_finds():
    """A dynamic search inside takes from the step's grid every run that is the same there (half of those on,
    most of those off, on the stuck Escargot's stall grids): what it concludes, the states each adds and their rule
    parents must be what the twin, which makes every run, finds; the test also checks that runs were taken."""
    class _Counted(_Search):
        taken = 0

        def same_runs(self, producer, work, ws, memo):
            same, base_off = super().same_runs(producer, work, ws, memo)
            _Counted.taken += int((same & 1).sum())
            return same, base_off

    conclusions = 0
    fast_search, twin_search = _Counted(0, STUCK, 3), _EveryRun(0, STUCK, 3)
    for work in _stall_grids(60, 3):
        fast = _listed(fast_search.search_inside(fo.DYNAMIC, work))
        assert fast == _listed(twin_search.search_inside(fo.DYNAMIC, work))
        conclusions += len(fast)
    assert conclusions > 40 and _Counted.taken > 1000


def test_a_step_grid_with_a_dynamic_conclusion_lends_no_runs():
    """Runs are taken from the step's grid only where its own dynamic search concludes nothing (else a run the
    same there could conclude): on the Escargot as given, which has such conclusions, the searches inside make
    every run, and find what the twin finds (the step's search leaves nothing behind in theirs)."""
    start = State.from_puzzle(np.asarray(from_line(ESCARGOT), np.int64).reshape(-1), 3).to_arrays()[1]
    search = _Search(0, start, 3)
    work = _Stalls(0, start, 3)
    work.grids = []
    p = next(p for p in range(81 * 9) if start[p // 9] >> (p % 9) & 1 and bin(int(start[p // 9])).count("1") > 1)
    work.run(work.free, 2 * p + 1)
    grid = work.grids[0] if work.grids else start
    found = _listed(search.search_inside(fo.DYNAMIC, grid))
    assert search.base_runs is False
    assert found == _listed(_EveryRun(0, start, 3).search_inside(fo.DYNAMIC, grid))


class _Looped(_Search):
    """The twin of the outer search's conclusions: candidate by candidate in Python, each piece its own call, as
    the search looked for them before kernels.chains.outer._outer_hint (runs made as they are needed)."""

    def search(self):
        from engine.grade.kernels.chains.forcing import _common, _consider, _double
        from engine.grade.kernels.chains.implications import NONE, _length_tenths
        from engine.grade.kernels.chains.slots import _ancestors, _new_conclusion
        from engine.grade.kernels.state import se_units

        ws, cands, n, base, none = self.ws, self.cands, self.n, self.base, np.zeros((0, fo.HINT_SIZE), np.int64)
        hint = np.full(fo.HINT_SIZE, fo.NO_HINT, np.int64)
        for c in range(cands.size):
            m = int(cands[c])
            card = m.bit_count()
            if card < 2:
                continue
            digits = [d for d in range(1, n + 1) if m >> (d - 1) & 1]
            for d in digits:
                p = c * n + d - 1
                w, on, off = self.on_run(p)
                if on != NONE:
                    _new_conclusion(ws)
                    cx = _ancestors(ws, w, on) + _ancestors(ws, w, off)
                    _consider(hint, none, base + _length_tenths(cx), cx, fo.CONTRADICTION, 2 * p, 2 * p + 1, c)
                wo, on2, off2 = self.off_run(p)
                if on2 != NONE and fo._worth(cands, 2 * p + 1, n):
                    _new_conclusion(ws)
                    cx = _ancestors(ws, wo, on2) + _ancestors(ws, wo, off2)
                    _consider(hint, none, base + _length_tenths(cx), cx, fo.CONTRADICTION, 2 * p + 1, 2 * p, c)
                if card >= 3:
                    _double(ws, w, wo, p, c, base, cands, n, hint, none)
                for h in se_units(self.cell_houses, c):
                    places = self.places(h, d)
                    if len(places) < 2 or places[0] != c:
                        continue
                    slots = [w] + [self.on_run(c2 * n + d - 1)[0] for c2 in places[1:]]
                    _common(ws, np.array(slots, np.int64), len(slots), fo.REGION, d, h, base, cands, n, hint, none)
            slots = np.array([self.on_run(c * n + d - 1)[0] for d in digits], np.int64)
            _common(ws, slots, card, fo.CELL, -1, c, base, cands, n, hint, none)
        return hint


@pytest.mark.slow
@pytest.mark.parametrize("row", [0, 2])
def test_the_outer_searchs_conclusions_in_one_call_are_those_of_the_loop_in_python(row):
    """The outer search's conclusions, looked for in one compiled call once every run is made, are those the loop
    in Python finds candidate by candidate: the same best (a tie keeps the same one) and the same chains, on the
    stuck Escargot and on a grid one of its nested runs left."""
    concluded = 0
    for cands in (STUCK, _true_runs(1)[0]):
        fast, twin = _Search(row, cands, 3), _Looped(row, cands, 3)
        best = fast.search()
        assert best.tolist() == twin.search().tolist()
        if best[fo.H_TENTHS] != fo.NO_HINT:
            assert fast.links(best) == twin.links(best)
            concluded += 1
    assert concluded


@pytest.mark.slow
def test_row_10_going_on_with_row_9_5s_runs_finds_what_its_own_runs_find():
    """Row 10.0's runs taken up where row 9.5's stalled (_Search.advance) give the conclusion, and the chains, that
    a row 10.0 search making its own runs gives; and the runs themselves are the same, state for state."""
    for cands in (STUCK, _true_runs(1)[0]):
        going_on = _Search(0, cands, 3)
        going_on.search()
        stalled = going_on.ws[18].copy()
        assert going_on.advance(1) and not going_on.advance(2)
        fresh = _Search(1, cands, 3)
        best = going_on.search()
        assert best.tolist() == fresh.search().tolist()
        if best[fo.H_TENTHS] != fo.NO_HINT:
            assert going_on.links(best) == fresh.links(best)
        members = going_on.ws[18]
        for memo in ("memo", "off_memo"):
            mine, theirs = getattr(going_on, memo), getattr(fresh, memo)
            assert mine.keys() == theirs.keys()
            for p, (w, on, off, row, open_) in mine.items():
                w2, on2, off2, _, open2 = theirs[p]
                assert (on, off, row, open_) == (on2, off2, 1, open2)
                assert (members[w] == fresh.ws[18][w2]).all()
        assert (members != stalled).any()  # (some runs went on)


class _LooksInPython(_Search):
    """The twin of the plain searches inside made in the compiled runs: each made in Python, from its memo."""

    compiled_looks = False


def _runs(search: _Search) -> dict:
    """Every run of an outer search: by candidate and way, its contradiction, whether it was left open, its states."""
    members = search.ws[18]
    return {(way, p): (on, off, open_, members[w].tolist())
            for way, memo in (("on", search.memo), ("off", search.off_memo))
            for p, (w, on, off, _, open_) in memo.items()}


def test_plain_searches_inside_made_where_runs_stall_give_the_runs_and_steps_python_gives(monkeypatch):
    """Rows 9.5 and 10.0 make the plain search inside in the compiled run, where it stalls, and hand Python only
    what it finds (nested_runs._run_plain, with the store's set of grids where it finds nothing: grid_set). Against the
    twin, which makes each search inside in Python: rows 9.5 and 10.0 (its own runs, and row 9.5's taken up) on
    the stuck Escargot and a stall grid, every run state for state; then four nested steps from the stuck Escargot,
    each conclusion and its chains. And most plain searches inside never reach Python."""
    from engine.grade.finders.chains import nested
    from engine.grade.finders.chains.searches_inside import SearchesInside

    for cands in (STUCK, _true_runs(1)[0]):
        for kind in (_Search, _LooksInPython):
            nested._STORE.found = nested.fresh_store()
            row0, row1, going_on = kind(0, cands, 3), kind(1, cands, 3), kind(0, cands, 3)
            best = [s.search().tolist() for s in (row0, row1, going_on)]
            assert going_on.advance(1)
            best.append(going_on.search().tolist())
            runs = [_runs(s) for s in (row0, row1, going_on)]
            if kind is _Search:
                fast_best, fast_runs = best, runs
        assert (best, runs) == (fast_best, fast_runs)

    asked: list[int] = []
    inside = SearchesInside.inside
    monkeypatch.setattr(SearchesInside, "inside", lambda self, producer, *a: asked.append(producer) or inside(
        self, producer, *a))

    def steps(compiled: bool) -> list:
        monkeypatch.setattr(nested._Search, "compiled_looks", compiled)
        nested._STORE.found = nested.fresh_store()
        cands, made = STUCK.copy(), []
        for _ in range(4):
            row, hint, links = nested.search(cands, 3)
            made.append((row, hint.tolist(), links))
            cands = _after(cands, hint)
        return made

    fast = steps(True)
    plain_fast, asked[:] = asked.count(fo.STATIC), []
    assert fast == steps(False)
    assert plain_fast * 5 < asked.count(fo.STATIC)


def _narrowed_by_numpy(inside: Inside, cands: np.ndarray, n: int) -> Inside:
    """The twin of the compiled narrowing of a remembered search inside (inside._narrowed): numpy's whole-array
    steps."""
    p = inside.parents.astype(np.int64) >> 1
    still = (cands[p // n] >> (p % n)) & 1 == 1
    if still.all():
        return inside
    counts = np.bincount(np.repeat(np.arange(len(inside)), np.diff(inside.parent_ends))[still], minlength=len(inside))
    keep = counts > 0
    sizes = np.diff(inside.state_ends)

    def ends(s):
        return np.concatenate(([0], np.cumsum(s))).astype(np.int64)

    return Inside(inside.rows[keep], inside.states[np.repeat(keep, sizes)], ends(sizes[keep]),
                  inside.parents[still], ends(counts[keep]))


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_a_remembered_search_inside_is_narrowed_as_numpy_narrows_it(data):
    """A search inside an earlier step made, on a later step's grid: the conclusions keep the rule parents the grid
    still has, in order, and go when none is left; the arrays are the ones given when nothing changed."""
    from engine.grade.finders.chains.inside import _narrowed

    n, ncells = 4, 16
    k = data.draw(st.integers(0, 5))
    sizes = data.draw(st.lists(st.integers(1, 4), min_size=k, max_size=k))
    counts = data.draw(st.lists(st.integers(1, 5), min_size=k, max_size=k))
    state = st.integers(0, 2 * ncells * n - 1)
    states = np.array(data.draw(st.lists(state, min_size=sum(sizes), max_size=sum(sizes))), np.int32)
    parents = np.array(data.draw(st.lists(state, min_size=sum(counts), max_size=sum(counts))), np.int32)
    rows = np.arange(k * fo.HINT_SIZE, dtype=np.int64).reshape(k, fo.HINT_SIZE)
    inside = Inside(rows, states, np.cumsum([0] + sizes).astype(np.int64), parents,
                    np.cumsum([0] + counts).astype(np.int64))
    cands = np.array(data.draw(st.lists(st.integers(0, 2 ** n - 1), min_size=ncells, max_size=ncells)), np.int64)
    got, want = _narrowed(inside, cands, n), _narrowed_by_numpy(inside, cands, n)
    assert (got is inside) == (want is inside)
    for name in Inside.__slots__[:-1]:
        assert getattr(got, name).tolist() == getattr(want, name).tolist(), name
    assert got.size == want.size


def test_a_plain_search_inside_groups_and_sifts_cycles_as_python_does():
    """engine.grade.kernels.chains.nested._cycle_hints against its twin, hints(): on the stall grids whose plain
    search finds cycles, the same hints in the same order, each removing the same states in the same order."""
    n, met = 9, 0
    for work in _stall_grids(400, 1):
        rows = _plain(work)
        if not (rows[:, H_KIND] == fo.CYCLE).any():
            continue
        met += 1
        got, ends, given = _cycle_hints(rows, work, n)
        twin = [(row.tolist(), states.tolist()) for row, states in hints(
            rows[np.lexsort((rows[:, fo.H_SORT], rows[:, fo.H_COMPLEXITY], rows[:, fo.H_TENTHS]))], work, n)]
        assert got[0, 0] == len(twin) == len(ends) - 1
        assert [(got[1 + i].tolist(), given[ends[i]:ends[i + 1]].tolist()) for i in range(len(twin))] == twin
    assert met >= 3  # (five of these grids have cycles)
