"""The searches inside a nested run (:mod:`engine.grade.finders.chains.nested`): what each finds on the grid a run
stalls on, remembered for the step and from step to step, and spared where a proof says it finds nothing.

:class:`SearchesInside` is mixed into the outer search, whose grid (``cands``, ``n``, ``houses``,
``cell_houses``, ``shape``) and table of conclusions (``found``) it reads; :meth:`SearchesInside.set_up_inside`
makes the rest. The outer search runs, nests and concludes; this chooses, finds and keeps what a run nests.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from ...kernels.chains import forcing as fo
from ...kernels.chains.cycles import cycle_sees
from ...kernels.chains.forcing import H_TENTHS, NO_HINT
from ...kernels.chains.grid_set import FOUND_HERE, NOTHING_HERE, _note, grid_set
from ...kernels.chains.nested import _collect, _cycle_hints, _kept, _plain_inside
from ...kernels.chains.plain import _plain_search_in, _walk_space
from ...kernels.chains.reuse import _base_off, _reuse
from ...kernels.chains.space import _room_in, _search_memo, _search_space, _search_space_in, inner_space
from ...kernels.chains.static_miss import _bound_miss, _static_closures, _static_miss
from ...kernels.state import _places_table
from .inside import NO_ENDS, NO_STATES, NOTHING, Inside, _narrowed

#: the most conclusions a search inside keeps
FOUND_ROWS = 1 << 14
_NO_SAME, _NO_BASE_OFF = np.zeros(0, np.int8), np.zeros((0, 0), np.int64)
NO_GRID = np.zeros(0, np.int64)
#: the most searches inside a thread remembers from step to step (:meth:`SearchesInside.remembered`)
STORED = 1 << 13
#: this thread's: ``found``, that store, of the puzzle whose step was searched last (``grid``: that step's);
#: ``outer``, the outer searches' kept workspace (nested.outer_space)
_STORE = threading.local()


#: the bytes a store's grid set may take (grid_set: 16,384 grids of 9x9, 8,192 of 16x16)
SET_BYTES = 16 << 20


class Store(OrderedDict):
    """A thread's store of searches inside (``_STORE.found``), by shape, producer and grid. Ordered, so that the
    oldest search goes in constant time (``popitem(last=False)``): a dict finds its first key by scanning past every
    entry deleted before it, which at the store's size was a hundredth of the hardest puzzles' time. It also holds,
    by shape, the set of grids where the plain search inside finds nothing (or something), which the compiled runs
    read (:mod:`~engine.grade.kernels.chains.grid_set`): made when first asked for, and gone with the store."""

    def grid_set(self, shape: bytes, ncells: int) -> tuple:
        sets = self.__dict__.setdefault("sets", {})
        got = sets.get(shape)
        if got is None:
            capacity = 1 << max(4, (SET_BYTES // (8 * ncells)).bit_length() - 1)
            got = sets[shape] = grid_set(ncells, capacity)
        return got


def fresh_store() -> Store:
    """An empty store of searches inside (:class:`Store`)."""
    return Store()


class SearchesInside:
    """The searches inside the runs of one outer search (see the module's note)."""

    best_by_state = True  # a search inside collects only the best conclusion on each state (see inside)
    bounds = True  # the multiple search inside is spared where the step grid's closures prove it finds nothing
    spares = True  # the plain search inside is spared where none of its chains can rest on the run's removals

    def set_up_inside(self, inside: dict | None, before: np.ndarray | None) -> None:
        """Make what the searches inside need, once the grid and the table of conclusions are set: ``inside``, the
        step's memo of them (shared by its rows), and ``before``, the step's grid as :meth:`plain_before` gives it
        (None: found here)."""
        n = self.n
        # what searches inside concluded, by grid (see inside): shared by the rows of one step's search
        self.inside_memo = {} if inside is None else inside
        # the step's candidates as one integer, its bits those of ``cands``' words in turn: the store's entries keep
        # theirs, and a grid lacks none of an entry's candidates when ``bits & ~theirs`` is 0 (remembered): 0.4 us
        # against numpy's 1.7 us for the same test
        self.bits = int.from_bytes(self.cands.tobytes(), "little")
        # this thread's store of searches inside (remembered), taken once: a thread-local's attribute at every
        # search inside was a hundredth of the hardest puzzles' time (the store is replaced only between searches)
        store = getattr(_STORE, "found", None)
        if store is None:
            store = _STORE.found = fresh_store()
        self.store = store
        # the grids where the plain search inside finds nothing, or something (the store's, for this shape)
        self.seen = store.grid_set(self.shape, self.cands.size)
        # the plain searches inside: one walk space for them all, the cells each cell sees
        self.walk = _walk_space(self.cands.size, n)
        self.sees = cycle_sees(self.houses, self.cell_houses, self.cands.size)
        self.no_slots = _search_space(np.zeros(self.cands.size, np.int64), n)
        # the step's grid when its own plain search concludes nothing (as where the grader reaches these rows): the
        # plain searches inside then make only the forcing walks that conclude (kernels.chains.fresh_links)
        self.before = self.plain_before() if before is None else before
        # the dynamic search on the step's grid, whose runs the dynamic searches inside take where they are the
        # same (same_runs): None until made, False where it cannot serve
        self.base_runs: tuple | bool | None = None
        # the static closures of the step's grid (bound_miss): None until made
        self.step_closures: tuple | None = None

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
            if producer == fo.STATIC:
                self.note(work, got)
        return got

    def found_inside(self, work: np.ndarray, grid: bytes, k: int, cycles: bool) -> Inside:
        """:meth:`inside` for the plain search, which the compiled run made on ``work`` (``grid``: its bytes) and
        which left ``k`` rows in ``found`` (``cycles``: whether one is a cycle's): remembered as :meth:`inside`
        and :meth:`remembered` remember it."""
        key = (fo.STATIC, grid)
        got = self.inside_memo.get(key)
        if got is None:
            got = self.plain_rows(work, k, cycles)
            got = self.inside_memo[key] = got if len(got) else NOTHING
            self.keep(fo.STATIC, grid, got)
            self.note(work, got)
        return got

    def note(self, work: np.ndarray, got: Inside) -> None:
        """Tell the compiled runs what the plain search inside gives on ``work`` (grid_set)."""
        _note(*self.seen, work, FOUND_HERE if got.size else NOTHING_HERE)

    def remembered(self, producer: int, work: np.ndarray, grid: bytes | None = None) -> Inside:
        """:meth:`inside` as a search of an earlier step on the same ``work`` left it, when one did, else searched.
        One grid in six that a nested step searches inside was searched by an earlier step of the puzzle (a run
        reaches the same grid again once the step between removed a candidate the run removes anyway), and what
        the search finds depends on ``work`` alone; only the rule parents depend on the step's grid, the removals
        being those of ``work`` from it. A later step's grid has no candidate the earlier one lacked, so its
        removals are a part of the earlier's, and each conclusion's rule parents are the earlier ones that are
        still removals (:func:`_narrowed`): those with none are dropped, as the search would drop them. The tests'
        twin searches again."""
        grid = work.tobytes() if grid is None else grid
        hit = self.store.get((self.shape, producer, grid))
        if hit is not None and not self.bits & ~hit[0]:
            out = _narrowed(hit[1], self.cands, self.n)
        else:
            out = self.search_inside(producer, work)
        out = out if len(out) else NOTHING  # (the memos keep no empty buffers)
        self.keep(producer, grid, out)
        return out

    def keep(self, producer: int, grid: bytes, out: Inside) -> None:
        """Put what search ``producer`` found on ``grid`` in the thread's store, for this step's grid."""
        store, key = self.store, (self.shape, producer, grid)
        if key not in store and len(store) >= STORED:  # the oldest goes (the steps just before are the ones to meet)
            store.popitem(last=False)
        store[key] = (self.bits, out)

    def search_inside(self, producer: int, work: np.ndarray) -> Inside:
        """:meth:`inside`, not remembered."""
        n = self.n
        found = self.found
        if producer == fo.STATIC:  # walks of their own: no slots
            k, cycles = _plain_inside(self.spares, self.cands, work, self.houses, self.cell_houses, n, found,
                                      self.walk, self.sees, self.before)
            return self.plain_rows(work, k, cycles) if k > 0 else NOTHING  # (nothing: four grids in five)
        if producer == fo.MULTIPLE and (self.bound_miss(work) or _static_miss(work, self.houses, self.cell_houses,
                                                                            n)):
            return NOTHING  # (nine grids in ten: proved before any workspace is set up; _collect proves it too)
        iws, imemo = self.workspace(work)
        same, base_off = self.same_runs(producer, work, iws, imemo)
        # only the best conclusion on each state: the others would be dropped (the tests' twin keeps all)
        found[0, 0] = 0  # (the plain search empties the table itself)
        found[0, 1] = FOUND_ROWS if self.best_by_state else 0
        found[FOUND_ROWS:, H_TENTHS] = NO_HINT
        _collect(producer, work, self.houses, self.cell_houses, n, found, iws, imemo, same, base_off)
        if not found[0, 0]:
            return NOTHING
        # (the rows are sorted and sifted by _kept)
        return Inside(*_kept(producer, found, iws, imemo, self.cands, work, self.houses, self.cell_houses, n,
                             NO_STATES, NO_ENDS, self.walk))

    def plain_rows(self, work: np.ndarray, k: int, cycles: bool) -> Inside:
        """What the plain search inside on ``work`` gives, from the ``k`` rows it left in ``found`` (``cycles``:
        whether one is a cycle's)."""
        found, given, ends = self.found, NO_STATES, NO_ENDS
        iws, imemo = self.no_slots
        if cycles:  # a cycle's rows are one hint: grouped and sifted first (one in 14), then as the others
            found, ends, given = _cycle_hints(found[1:k + 1], work, self.n)
        return Inside(*_kept(fo.STATIC, found, iws, imemo, self.cands, work, self.houses, self.cell_houses, self.n,
                             given, ends, self.walk))

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
