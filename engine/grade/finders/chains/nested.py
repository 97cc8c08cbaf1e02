"""Nested forcing chains: Sudoku Explainer's last rows (9.5 and up), where a chain may use other chains.

A dynamic forcing chain (:mod:`engine.grade.kernels.chains.forcing`) follows single-candidate rules from an assumption;
its "+" form also uses locked candidates, pairs and X-Wings on the grid the run has left. A *nested* one, when
nothing is left to follow, also looks for whole forcing chains on that grid, and removes what they conclude.
Sudoku Explainer has four such rows, each tried only when the one before finds nothing:

====  ======  ===================================================================
row   rating  chains inside a run (after locked candidates, pairs, X-Wings)
====  ======  ===================================================================
2     9.5     plain forcing chains (a candidate on forces itself off, or off on)
3     10.0    plain, then multiple (cell and region) forcing chains
4     10.5    dynamic forcing chains
4+    10.5    dynamic forcing chains (+)
====  ======  ===================================================================

Each adds the length bonus of its complexity, which counts every distinct chain inside it with its own
complexity (so the ratings of the hardest puzzles climb past 11). A chain inside counts only if it rests on the
run's removals (:mod:`engine.grade.kernels.chains.rule_parents`); it then adds every conclusion of its kind found on the run's
grid, in the order Sudoku Explainer sorts them (rating, complexity, kind).

The outer search is the dynamic one of :func:`engine.grade.kernels.chains.forcing._forcing_search`, its runs made
here in Python because they call searches that themselves run chains: numba compiles no recursion it can cache. The
runs' steps, the searches inside and the conclusions (:mod:`engine.grade.kernels.chains.outer`) are compiled, and
cost what Sudoku Explainer's do: seconds to minutes a step, on the few puzzles
(none of a thousand random minimal ones) that need these rows. The grader's compiled path stops before them and
hands such a puzzle to the step path (:func:`engine.grade.grader.grade_many`).
"""
from __future__ import annotations

import threading

import numpy as np

from ....geometry import geometry
from ...kernels.chains import forcing as fo
from ...kernels.chains.forcing import H_COMPLEXITY, H_KIND, H_SORT, H_TENTHS, HINT_SIZE, NO_HINT
from ...kernels.chains.implications import NONE
from ...kernels.chains.nested import _add_kept, _collect, _kept, _plain_inside, _run_on
from ...kernels.chains.outer import _outer_hint, _resume
from ...kernels.chains.reuse import _base_off, _reuse
from ...kernels.chains.cycles import cycle_sees
from ...kernels.chains.plain import _plain_search_in, _walk_space
from ...kernels.chains.static_miss import _bound_miss, _static_closures, _static_miss
from ...kernels.chains.slots import _nested_workspace
from ...kernels.chains.space import _room_in, _search_memo, _search_space, _search_space_in, inner_space
from ...kernels.state import _places_table, grader_units, se_units
from .inside import NO_ENDS, NO_STATES, NOTHING, Inside, _narrowed, hints
from .nested_steps import Explained

#: Sudoku Explainer's nested rows, tried in order: (name, rating in tenths, the searches a run may use)
ROWS = (
    ("forcing chains", 95, (fo.STATIC,)),
    ("multiple forcing chains", 100, (fo.STATIC, fo.MULTIPLE)),
    ("dynamic forcing chains", 105, (fo.DYNAMIC,)),
    ("dynamic forcing chains (+)", 105, (fo.DYNAMIC_PLUS,)),
)
#: the most conclusions a search inside keeps, and the most nested chains one outer search records
FOUND_ROWS = 1 << 14
NESTS = 1 << 18
_NO_FOUND = np.zeros((0, HINT_SIZE), np.int64)
_NO_SAME, _NO_BASE_OFF = np.zeros(0, np.int8), np.zeros((0, 0), np.int64)
NO_GRID = np.zeros(0, np.int64)
#: the seed of :meth:`_Search.run` that goes on with a run an earlier row left stalled
RESUME = -2
#: the most searches inside a thread remembers from step to step (:meth:`_Search.remembered`)
STORED = 1 << 13
_STORE = threading.local()  # found: that store, of the puzzle whose step was searched last (grid: that step's)


class _Search(Explained):
    """One outer search of row ``row`` on ``cands`` (a dynamic forcing chain search whose runs nest chains)."""

    best_by_state = True  # a search inside collects only the best conclusion on each state (see inside)
    bounds = True  # the multiple search inside is spared where the step grid's closures prove it finds nothing
    spares = True  # the plain search inside is spared where none of its chains can rest on the run's removals
    LAST_NEST = NESTS - 1  # (Explained)

    def __init__(self, row: int, cands: np.ndarray, box: int, inside: dict | None = None,
                 before: np.ndarray | None = None, shared: bool = False):
        geo = geometry(box)
        self.box = box
        self.n, self.houses = geo.size, geo.houses
        self.cell_houses = grader_units(geo)
        self.shape = self.houses.tobytes()  # (the thread's workspace for searches inside: inner_space)
        self.cands = np.array(cands, np.int64)  # (a copy: the thread's store keeps it, see remembered)
        # what searches inside concluded, by grid (see inside): shared by the rows of one step's search
        self.inside_memo = {} if inside is None else inside
        self.row, self.base, self.inner = row, ROWS[row][1], ROWS[row][2]
        n = self.n
        self.free = 2 * n + 1  # the first slot for a run (_outer_slots)
        # ``shared``: the thread's workspace and table (outer_space), else the search's own
        self.ws, self.found = (outer_space if shared else _own_space)(self.cands, n)
        # the runs from each candidate on, and off (made)
        self.memo: dict[int, tuple[int, int, int, int, bool]] = {}
        self.off_memo: dict[int, tuple[int, int, int, int, bool]] = {}
        self.place_lists: dict[int, list[int]] = {}
        # the plain searches inside: one walk space for them all, the cells each cell sees
        self.walk = _walk_space(self.cands.size, n)
        self.sees = cycle_sees(self.houses, self.cell_houses, self.cands.size)
        self.nests = 0
        self.no_slots = _search_space(np.zeros(self.cands.size, np.int64), n)
        # the conclusions a search inside collects: one table for every call (its count, found[0, 0], is reset),
        # then a row per state for the best conclusion on it so far (found[0, 1] says where those start;
        # engine.grade.kernels.chains.forcing._consider)
        # what the nested chains were, to explain the states they add: (first id, producer, Inside, grid) for
        # each search inside whose chains a run took, their ids from the first on
        self.blocks: list[tuple[int, int, Inside, np.ndarray]] = []
        # the step's grid when its own plain search concludes nothing (as where the grader reaches these rows): the
        # plain searches inside then make only the forcing walks that conclude (kernels.chains.fresh_links)
        self.before = self.plain_before() if before is None else before
        # the dynamic search on the step's grid, whose runs the dynamic searches inside take where they are the
        # same (same_runs): None until made, False where it cannot serve
        self.base_runs: tuple | bool | None = None
        # the static closures of the step's grid (bound_miss): None until made
        self.step_closures: tuple | None = None

    # -- runs ---------------------------------------------------------------------------------------------------
    def run(self, w: int, seed: int) -> tuple[int, int, bool]:
        """Empty slot ``w`` and fill it with the states ``seed`` forces, nesting chains (with :data:`RESUME`, go on
        with the run an earlier row left stalled there): ``(on, off, open)``, ``on`` and ``off`` a candidate forced
        both ways or NONE, ``open`` whether the run ended where the searches inside found nothing to add (a later
        row's may)."""
        ws, cands, n, houses, cell_houses = self.ws, self.cands, self.n, self.houses, self.cell_houses
        if seed == RESUME:  # its grid again; the rules of a "+" run found nothing there, so the searches inside go on
            _resume(ws, w, cands, houses, cell_houses, n)
            on, off, stalled = NONE, NONE, True
        else:
            on, off, stalled = _run_on(ws, w, seed, cands, houses, cell_houses, n)
        while on == NONE and stalled:
            if not self.nest(w):
                return NONE, NONE, True
            on, off, stalled = _run_on(ws, w, -1, cands, houses, cell_houses, n)
        return int(on), int(off), False

    def on_run(self, p: int) -> tuple[int, int, int]:
        """The slot holding the run from candidate ``p`` on, with its contradiction (``(on, off)``, NONE for none)."""
        return self.made(p, 2 * p + 1, self.memo)

    def off_run(self, p: int) -> tuple[int, int, int]:
        """:meth:`on_run` for the run from candidate ``p`` off."""
        return self.made(p, 2 * p, self.off_memo)

    def made(self, p: int, seed: int, memo: dict) -> tuple[int, int, int]:
        """The run from ``seed`` in its own slot, made once (the workspace has a slot for each: _outer_slots) and
        followed for this row: a run an earlier row left open goes on from where it stalled (:meth:`advance`).
        ``memo``: (slot, on, off, the row it was followed for, open) by candidate."""
        got = memo.get(p)
        if got is not None and got[3] == self.row:
            return got[0], got[1], got[2]
        if got is None:
            w = self.free
            self.free += 1
            on, off, open_ = self.run(w, seed)
        else:
            w, on, off, _, open_ = got
            if open_:
                on, off, open_ = self.run(w, RESUME)
        memo[p] = (w, on, off, self.row, open_)
        return w, on, off

    def advance(self, row: int) -> None:
        """Make this the search of row ``row``, whose searches inside begin with this row's (row 10.0's with row
        9.5's plain one): each of its runs is then this row's run followed further, from the first stall where this
        row's searches inside found nothing to add, so the runs are taken up there (:meth:`made`) instead of made
        again. Row 10.0's runs took a third of the time of row 9.5's."""
        assert ROWS[row][2][:len(self.inner)] == self.inner
        self.row, self.base, self.inner = row, ROWS[row][1], ROWS[row][2]

    def nest(self, w: int) -> bool:
        """The first search inside that rests on the run's removals adds its conclusions to slot ``w`` as off
        states; whether any was new."""
        ws = self.ws
        work = ws[7].copy()
        grid = work.tobytes()
        for producer in self.inner:
            inside = self.inside(producer, work, grid)
            if not len(inside):  # nothing it concludes rests on the run's removals: the next search inside
                continue
            first = self.nests + 1
            new = _add_kept(ws, w, inside.rows, inside.states, inside.state_ends, inside.parents,
                            inside.parent_ends, first, NESTS - 1)
            # (the last id is shared once the table is full: what it explains is then unknown)
            if first < NESTS - 1:
                self.blocks.append((first, producer, inside, work))
            self.nests = min(self.nests + len(inside), NESTS - 1)
            return new > 0
        return False

    def inside(self, producer: int, work: np.ndarray, grid: bytes | None = None) -> Inside:
        """What search ``producer`` concludes on the run's grid ``work`` that rests on the run's removals, in Sudoku
        Explainer's order (:class:`~engine.grade.finders.chains.inside.Inside`). A pure function of ``work`` (the
        grid the runs start from is the step's), remembered for the step: the same grids recur (each nested row runs
        the rows before it again, so row 10.0's runs look inside with the plain search first exactly as row 9.5's
        did, and runs from different candidates meet on the same grid). ``grid``: ``work.tobytes()``, if made."""
        grid = work.tobytes() if grid is None else grid
        key = (producer, grid)
        got = self.inside_memo.get(key)
        if got is None:
            got = self.inside_memo[key] = self.remembered(producer, work, grid)
        return got

    def remembered(self, producer: int, work: np.ndarray, grid: bytes | None = None) -> Inside:
        """:meth:`inside` as a search of an earlier step on the same ``work`` left it, when one did, else searched.
        One grid in six that a nested step searches inside was searched by an earlier step of the puzzle (a run
        reaches the same grid again once the step between removed a candidate the run removes anyway), and what
        the search finds depends on ``work`` alone; only the rule parents depend on the step's grid, the removals
        being those of ``work`` from it. A later step's grid has no candidate the earlier one lacked, so its
        removals are a part of the earlier's, and each conclusion's rule parents are the earlier ones that are
        still removals (:func:`_narrowed`): those with none are dropped, as the search would drop them. The tests'
        twin searches again."""
        store = getattr(_STORE, "found", None)
        if store is None:
            store = _STORE.found = {}
        key = (self.shape, producer, work.tobytes() if grid is None else grid)
        hit = store.get(key)
        if hit is not None and not (self.cands & ~hit[0]).any():
            out = _narrowed(hit[1], self.cands, self.n)
        else:
            out = self.search_inside(producer, work)
            if hit is None and len(store) >= STORED:  # the oldest goes (the steps just before are the ones to meet)
                del store[next(iter(store))]
        out = out if len(out) else NOTHING  # (the memos keep no empty buffers)
        store[key] = (self.cands, out)
        return out

    def search_inside(self, producer: int, work: np.ndarray) -> Inside:
        """:meth:`inside`, not remembered."""
        n = self.n
        found = self.found
        found[0, 0] = 0
        given, ends = NO_STATES, NO_ENDS  # (the rows are sifted by _kept)
        if producer == fo.STATIC:  # walks of their own: no slots
            k = _plain_inside(self.spares, self.cands, work, self.houses, self.cell_houses, n, found, self.walk,
                              self.sees, self.before)
            if k <= 0:  # (four grids in five)
                return NOTHING
            iws, imemo = self.no_slots
            rows = found[1:k + 1]
            if (rows[:, H_KIND] == fo.CYCLE).any():  # cycles: grouped and sifted here (rare); then as the others
                listed = list(hints(rows[np.lexsort((rows[:, H_SORT], rows[:, H_COMPLEXITY], rows[:, H_TENTHS]))],
                                    work, n))
                found = np.zeros((len(listed) + 1, HINT_SIZE), np.int64)
                found[0, 0] = len(listed)
                for i, (row, _) in enumerate(listed):
                    found[1 + i] = row
                ends = np.cumsum([0] + [len(states) for _, states in listed]).astype(np.int64)
                given = np.concatenate([states for _, states in listed]).astype(np.int32)
        else:
            if producer == fo.MULTIPLE and (self.bound_miss(work) or _static_miss(work, self.houses,
                                                                                self.cell_houses, n)):
                return NOTHING  # (nine grids in ten: proved before any workspace is set up; _collect proves it too)
            iws, imemo = self.workspace(work)
            same, base_off = self.same_runs(producer, work, iws, imemo)
            # only the best conclusion on each state: the others would be dropped (the tests' twin keeps all)
            found[0, 1] = FOUND_ROWS if self.best_by_state else 0
            found[FOUND_ROWS:, H_TENTHS] = NO_HINT
            _collect(producer, work, self.houses, self.cell_houses, n, found, iws, imemo, same, base_off)
            if not found[0, 0]:
                return NOTHING
        return Inside(*_kept(producer, found, iws, imemo, self.cands, work, self.houses, self.cell_houses, n, given,
                             ends, self.walk))

    def same_runs(self, producer: int, work: np.ndarray, ws: tuple, memo: np.ndarray) -> tuple:
        """For a dynamic search inside on ``work`` in ``ws`` and ``memo``: which of its runs are those of the
        dynamic search on the step's grid, made once in the same workspace, with ``memo`` pointing at them
        (:mod:`~engine.grade.kernels.chains.reuse`; the tests' twin makes every run). Empty arrays where none
        serve: another search inside, a step's grid where that search concludes something (never where the grader
        reaches these rows, but the class is also used on others), or a workspace without room for both."""
        if producer != fo.DYNAMIC or self.base_runs is False:
            return _NO_SAME, _NO_BASE_OFF
        if self.base_runs is None:
            self.base_runs = self.make_base_runs(ws)
            if self.base_runs is False:
                return _NO_SAME, _NO_BASE_OFF
        base_memo, gens, base_off = self.base_runs
        same = np.empty(memo.shape[1] + work.size + self.houses.shape[0] * self.n, np.int8)
        if not _reuse(ws, memo, base_memo, gens, base_off, self.cands, work, self.houses, self.cell_houses, self.n,
                      same):
            self.base_runs = None  # (another search used the workspace: made again for the next one)
            return _NO_SAME, _NO_BASE_OFF
        return same, base_off

    def make_base_runs(self, ws: tuple) -> tuple | bool:
        """The dynamic search on the step's grid in ``ws``, the shared workspace of searches inside: its memo, its
        slots' generations and its runs off (:func:`same_runs`), or False."""
        n, found = self.n, self.found
        if ws[1].size < 2 * n + 1 + 2 * int(sum(int(m).bit_count() for m in self.cands)):
            return False
        ws, memo = self.workspace(self.cands)
        found[0, 0], found[0, 1] = 0, 0
        _collect(fo.DYNAMIC, self.cands, self.houses, self.cell_houses, n, found, ws, memo, _NO_SAME, _NO_BASE_OFF)
        concluded, found[0, 0] = found[0, 0], 0  # (the table is the search inside's, which called this)
        if concluded:
            return False
        base_off = _base_off(ws, self.cands, self.houses, self.cell_houses, n)
        return memo, ws[1][2 * n + 1:memo[3, 0]].copy(), base_off

    def plain_before(self) -> np.ndarray:
        """The step's grid if the plain search concludes nothing on it, else an empty grid (nothing spared)."""
        found = self.found
        found[0, 0] = found[0, 1] = 0
        _plain_search_in(self.cands, self.houses, self.cell_houses, self.n, found, self.walk, self.sees, NO_GRID)
        return self.cands if found[0, 0] == 0 else NO_GRID

    def bound_miss(self, work: np.ndarray) -> bool:
        """Whether the multiple forcing chains surely find nothing on ``work``, from the static closures of the step's
        grid (:func:`~engine.grade.kernels.chains.static_miss._bound_miss`; made once, on the search's first grid
        inside): most grids are proved so, for two fifths of what proving it from their own closures costs."""
        if not self.bounds:
            return False
        if self.step_closures is None:
            index, _, _, part, sets = _static_closures(self.cands, self.houses, self.cell_houses, self.n)
            places = np.empty((self.houses.shape[0], self.n), np.int64)
            _places_table(self.cands, self.houses, self.n, places)
            self.step_closures = (index, part, sets, places)
        return _bound_miss(self.cands, work, self.houses, self.cell_houses, self.n, *self.step_closures)

    def workspace(self, work: np.ndarray) -> tuple:
        """The workspace and memo of a search inside on ``work``: the thread's one for them all
        (:func:`~engine.grade.kernels.chains.space.inner_space`; the tests' twin makes a fresh one each time)."""
        space = inner_space(work.size, self.n, self.shape)
        slots = _room_in(work, self.n, space)
        if slots < 0:  # (a grid with more candidates than the thread's workspace has room for: one of its own)
            return _search_space_in(work, self.n, space)
        return space, _search_memo(work.size, self.n, slots)

    # -- the search ---------------------------------------------------------------------------------------------
    def search(self) -> np.ndarray:
        """The best conclusion (a hint record; H_TENTHS is NO_HINT when none), as _forcing_search keeps it: every
        run made first, then their conclusions in one call (kernels.chains.outer._outer_hint)."""
        cands, n = self.cands, self.n
        runs = np.full((cands.size * n, 6), NONE, np.int64)
        ncells = cands.size
        for c in range(ncells):
            m = int(cands[c])
            alone = m.bit_count() < 2
            while m:
                d = (m & -m).bit_length() - 1
                m &= m - 1
                p = c * n + d
                if alone and not self.in_region(c, d + 1):  # (one candidate: no chain of its own, only a region's)
                    continue
                runs[p, :3] = self.on_run(p)
                if not alone:
                    runs[p, 3:] = self.off_run(p)
        hint = np.full(HINT_SIZE, NO_HINT, np.int64)
        _outer_hint(self.ws, runs, cands, self.houses, self.cell_houses, n, self.base, hint, _NO_FOUND,
                    np.empty(n, np.int64), np.empty(n, np.int64))
        return hint

    def in_region(self, c: int, d: int) -> bool:
        """Whether digit ``d`` of cell ``c`` has another place in one of the cell's houses (a region chain then
        needs the run from it)."""
        return any(len(self.places(h, d)) > 1 for h in se_units(self.cell_houses, c))

    def places(self, h: int, d: int) -> list[int]:
        """The cells of house ``h`` where digit ``d`` may go (the region chains ask for each many times)."""
        key = h * self.n + d
        found = self.place_lists.get(key)
        if found is None:
            found = self.place_lists[key] = [int(c) for c in self.houses[h] if self.cands[c] >> (d - 1) & 1]
        return found


def _outer_slots(cands: np.ndarray, n: int) -> int:
    """The slots of an outer search on ``cands`` (:class:`_Search`): 2n + 1 spare (the tests make runs there),
    then two per candidate, its runs on and off."""
    return 2 * n + 1 + 2 * sum(int(m).bit_count() for m in cands)


def _own_space(cands: np.ndarray, n: int) -> tuple:
    """An outer search's workspace on ``cands`` and its table of conclusions (:class:`_Search`)."""
    return (_nested_workspace(_outer_slots(cands, n), cands.size, n, NESTS),
            np.empty((FOUND_ROWS + 2 * cands.size * n, HINT_SIZE), np.int64))


def outer_space(cands: np.ndarray, n: int) -> tuple:
    """:func:`_own_space`, this thread's: kept from search to search while it has the room (a step's grid has no
    more candidates than the one before, so the first step's serves the puzzle). Made for each of them, the
    workspace (about 10 MB on 9x9, most of it first touched inside the search) cost a millisecond in its making and
    as much again in page faults, for each of the four rows of every nested step. One outer search at a time uses
    it (:func:`search` makes them in turn), as with :func:`~engine.grade.kernels.chains.space.inner_space`; a kept
    one starts afresh where it matters: its grid is forgotten (the places and positions are made again, for this
    shape), and its counters start again before they could overflow (space._room_in, which finds the room)."""
    held = getattr(_STORE, "outer", None)
    if held is None or held[0][1].size < _outer_slots(cands, n) or held[0][0].shape[1] != 2 * cands.size * n:
        held = _STORE.outer = _own_space(cands, n)
        return held
    held[0][11][:] = -1  # (basis: no grid yet)
    _room_in(cands, n, held[0])
    return held


def search(cands: np.ndarray, box: int, explain: bool = True):
    """The first nested row with a conclusion on ``cands``, and its best: ``(row, hint, links)`` or None (links
    None unless ``explain``)."""
    inside: dict = {}  # the rows' searches inside, by grid (_Search.inside)
    last = getattr(_STORE, "grid", None)
    if last is None or last.shape != cands.shape or (cands & ~last).any():  # another puzzle: its own store
        _STORE.found = {}
    _STORE.grid = np.array(cands, np.int64)
    before = None  # (found by the first row's search, then passed on)
    s = None
    for row in range(len(ROWS)):
        if s is not None and ROWS[row][2][:len(s.inner)] == s.inner:  # row 10.0 goes on with row 9.5's runs
            s.advance(row)
        else:
            s = _Search(row, cands, box, inside, before, shared=True)
        before = s.before
        hint = s.search()
        if hint[H_TENTHS] != NO_HINT:
            return row, hint, s.links(hint) if explain else None
    return None
