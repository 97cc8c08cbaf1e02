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

The outer search is the dynamic one of :func:`engine.grade.kernels.chains.forcing._forcing_search`, its runs led
from here in Python because they call searches that themselves run chains: numba compiles no recursion it can cache.
The runs' steps, the searches inside and the conclusions (:mod:`engine.grade.kernels.chains.outer`) are compiled;
rows 9.5 and 10.0 make the plain search inside in the run's own call, and a row 9.5 search all its runs in one,
coming back to Python only where that search finds something (:meth:`_Search.run_on`, :meth:`_Search.made_at_once`).
They cost what Sudoku Explainer's do: seconds to minutes a step, on the few puzzles
(none of a thousand random minimal ones) that need these rows. The grader's compiled path stops before them and
hands such a puzzle to the step path (:func:`engine.grade.grader.grade_many`).
"""
from __future__ import annotations

import numpy as np

from ....geometry import geometry
from ...kernels.chains.forcing import H_TENTHS, HINT_SIZE, NO_HINT
from ...kernels.chains import forcing as fo
from ...kernels.chains.implications import NONE
from ...kernels.chains.nested import _add_kept
from ...kernels.chains.nested_runs import LOOK, NOTHING_FOUND, _resume_plain, _run_many, _run_on, _run_plain
from ...kernels.chains.outer import _outer_hint, _resume
from ...kernels.chains.slots import _nested_workspace
from ...kernels.chains.space import _room_in
from ...kernels.state import grader_units, se_units
from .inside import Inside
from .nested_steps import Explained
from .searches_inside import _STORE, FOUND_ROWS, SearchesInside, fresh_store

#: Sudoku Explainer's nested rows, tried in order: (name, rating in tenths, the searches a run may use)
ROWS = (
    ("forcing chains", 95, (fo.STATIC,)),
    ("multiple forcing chains", 100, (fo.STATIC, fo.MULTIPLE)),
    ("dynamic forcing chains", 105, (fo.DYNAMIC,)),
    ("dynamic forcing chains (+)", 105, (fo.DYNAMIC_PLUS,)),
)
#: the most nested chains one outer search records
NESTS = 1 << 18
_NO_FOUND = np.zeros((0, HINT_SIZE), np.int64)
#: the seed of :meth:`_Search.run` that goes on with a run an earlier row left stalled
RESUME = -2


class _Search(SearchesInside, Explained):
    """One outer search of row ``row`` on ``cands`` (a dynamic forcing chain search whose runs nest chains)."""

    LAST_NEST = NESTS - 1  # (Explained)
    #: a row whose first search inside is the plain one makes it in the compiled run, where the run stalls
    #: (nested_runs._run_plain); the tests' twin (False) makes each in Python, from its memo
    compiled_looks = True

    def __init__(self, row: int, cands: np.ndarray, box: int, inside: dict | None = None,
                 before: np.ndarray | None = None, shared: bool = False):
        """``inside`` and ``before``: the memo of searches inside and the step's grid, as the step's first row
        left them (:meth:`~.searches_inside.SearchesInside.set_up_inside`); ``shared``: see ``self.ws``."""
        geo = geometry(box)
        self.box = box
        self.n, self.houses = geo.size, geo.houses
        self.cell_houses = grader_units(geo)
        self.shape = self.houses.tobytes()  # (the thread's workspace for searches inside: inner_space)
        self.cands = np.array(cands, np.int64)  # (a copy: the thread's store keeps it, see remembered)
        self.row, self.base, self.inner = row, ROWS[row][1], ROWS[row][2]
        self.plain_first = self.compiled_looks and self.inner[0] == fo.STATIC
        n = self.n
        self.free = 2 * n + 1  # the first slot for a run (_outer_slots)
        # ``shared``: the thread's workspace and table of conclusions (outer_space), else the search's own
        self.ws, self.found = (outer_space if shared else _own_space)(self.cands, n)
        # the runs from each candidate on, and off (made)
        self.memo: dict[int, tuple[int, int, int, int, bool]] = {}
        self.off_memo: dict[int, tuple[int, int, int, int, bool]] = {}
        self.place_lists: dict[int, list[int]] = {}
        self.nests = 0
        # what the nested chains were, to explain the states they add: (first id, producer, Inside, grid) for
        # each search inside whose chains a run took, their ids from the first on
        self.blocks: list[tuple[int, int, Inside, np.ndarray]] = []
        self.set_up_inside(inside, before)

    # -- runs ---------------------------------------------------------------------------------------------------
    def run(self, w: int, seed: int) -> tuple[int, int, bool]:
        """Empty slot ``w`` and fill it with the states ``seed`` forces, nesting chains (with :data:`RESUME`, go on
        with the run an earlier row left stalled there): ``(on, off, open)``, ``on`` and ``off`` a candidate forced
        both ways or NONE, ``open`` whether the run ended where the searches inside found nothing to add (a later
        row's may)."""
        ws, cands, n, houses, cell_houses = self.ws, self.cands, self.n, self.houses, self.cell_houses
        if seed == RESUME:  # its grid again; the rules of a "+" run found nothing there, so the searches inside go on
            on, off, stalled, cycles = NONE, NONE, True, False
            if self.plain_first:
                seen = _resume_plain(ws, w, cands, houses, cell_houses, n, self.seen[0], self.seen[1])
            else:
                _resume(ws, w, cands, houses, cell_houses, n)
                seen = LOOK
        else:
            on, off, stalled, seen, cycles = self.run_on(w, seed)
        return self.go_on(w, on, off, stalled, seen, cycles)

    def go_on(self, w: int, on: int, off: int, stalled: bool, seen: int, cycles: bool) -> tuple[int, int, bool]:
        """:meth:`run` from where the run in slot ``w`` is: ``(on, off, stalled)`` as :meth:`run_on` left it, and
        what it said of the plain search inside (``seen``, ``cycles``)."""
        while on == NONE and stalled:
            if seen == NOTHING_FOUND and len(self.inner) == 1:  # (row 9.5: no other search inside to try)
                return NONE, NONE, True
            if not self.nest(w, seen, cycles):
                return NONE, NONE, True
            on, off, stalled, seen, cycles = self.run_on(w, -1)
        return int(on), int(off), False

    def run_on(self, w: int, seed: int) -> tuple[int, int, bool, int, bool]:
        """Follow the run in slot ``w`` (from ``seed``, or on when it is -1) until it stalls or ends: ``(on, off,
        stalled, seen, cycles)``, ``seen`` and ``cycles`` what the plain search inside found on the grid it stalled
        on when this row makes it in the compiled run (nested_runs._run_plain), else LOOK."""
        if self.plain_first:
            return _run_plain(self.ws, w, seed, self.cands, self.houses, self.cell_houses, self.n, self.spares,
                              self.found, self.walk, self.sees, self.before, *self.seen)
        on, off, stalled = _run_on(self.ws, w, seed, self.cands, self.houses, self.cell_houses, self.n)
        return on, off, stalled, LOOK, False

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

    def advance(self, row: int) -> bool:
        """Make this the search of row ``row`` if that row's searches inside begin with this row's (row 10.0's with
        row 9.5's plain one), and say whether it did: each of its runs is then this row's run followed further, from
        the first stall where this row's searches inside found nothing to add, so the runs are taken up there
        (:meth:`made`) instead of made again. Row 10.0's runs took a third of the time of row 9.5's."""
        if ROWS[row][2][:len(self.inner)] != self.inner:
            return False
        self.row, self.base, self.inner = row, ROWS[row][1], ROWS[row][2]
        self.plain_first = self.compiled_looks and self.inner[0] == fo.STATIC
        return True

    def nest(self, w: int, seen: int = LOOK, cycles: bool = False) -> bool:
        """The first search inside that rests on the run's removals adds its conclusions to slot ``w`` as off
        states; whether any was new. ``seen`` and ``cycles``: what the compiled run found with the plain search
        inside (:meth:`run_on`)."""
        ws = self.ws
        # the run's grid as it is in the workspace, not a copy: the searches inside only read it, in a workspace of
        # their own, and most of them are remembered (one copy a stall was a fiftieth of the hardest puzzles' time)
        work = ws[7]
        grid = work.tobytes()
        for producer in self.inner:
            if producer != fo.STATIC or seen == LOOK:
                inside = self.inside(producer, work, grid)
            elif seen == NOTHING_FOUND:
                continue
            else:
                inside = self.found_inside(work, grid, seen, cycles)
            if not inside.size:  # nothing it concludes rests on the run's removals: the next search inside
                continue
            first = self.nests + 1
            new = _add_kept(ws, w, inside.rows, inside.states, inside.state_ends, inside.parents,
                            inside.parent_ends, first, NESTS - 1)
            # (the last id is shared once the table is full: what it explains is then unknown)
            if first < NESTS - 1:
                self.blocks.append((first, producer, inside, work.copy()))
            self.nests = min(self.nests + inside.size, NESTS - 1)
            return new > 0
        return False

    # -- the search ---------------------------------------------------------------------------------------------
    def search(self) -> np.ndarray:
        """The best conclusion (a hint record; H_TENTHS is NO_HINT when none), as _forcing_search keeps it: every
        run made first, then their conclusions in one call (kernels.chains.outer._outer_hint)."""
        cands, n = self.cands, self.n
        # each candidate's runs on and off (slot, on, off), six entries from 6p, in a list: a tuple written into a
        # numpy row costs 1.3 us, into a list's slice 0.17 us (timeit, EPYC-3)
        runs = [NONE] * (cands.size * n * 6)
        seeds = []  # the runs to make, in order: from each candidate on, then off unless it is its cell's only one
        for c in range(cands.size):
            m = int(cands[c])
            alone = m.bit_count() < 2
            while m:
                d = (m & -m).bit_length() - 1
                m &= m - 1
                p = c * n + d
                if alone and not self.in_region(c, d + 1):  # (one candidate: no chain of its own, only a region's)
                    continue
                seeds.append(2 * p + 1)
                if not alone:
                    seeds.append(2 * p)
        if self.plain_first and not self.memo and not self.off_memo:
            self.made_at_once(seeds)
        for seed in seeds:
            p = seed >> 1
            if seed & 1:
                runs[6 * p:6 * p + 3] = self.on_run(p)
            else:
                runs[6 * p + 3:6 * p + 6] = self.off_run(p)
        hint = np.full(HINT_SIZE, NO_HINT, np.int64)
        _outer_hint(self.ws, np.array(runs, np.int64).reshape(-1, 6), cands, self.houses, self.cell_houses, n,
                    self.base, hint, _NO_FOUND, np.empty(n, np.int64), np.empty(n, np.int64))
        return hint

    def made_at_once(self, seeds: list[int]) -> None:
        """Make the runs from ``seeds`` as :meth:`made` makes them, in its slots and memos, in one compiled call
        (nested_runs._run_many) that hands back only the runs Python must go on with (the plain search inside found
        something where they stalled): a fresh search of a row that looks inside with the plain search first."""
        at = np.array(seeds, np.int64)
        out = np.empty((at.size, 3), np.int64)
        first, i = self.free, 0
        self.free += at.size
        while True:
            i = _run_many(self.ws, at, first, i, out, self.cands, self.houses, self.cell_houses, self.n, self.spares,
                          self.found, self.walk, self.sees, self.before, *self.seen, len(self.inner) == 1)
            if i == at.size:
                break
            on, off, open_ = self.go_on(first + i, NONE, NONE, True, int(out[i, 0]), bool(out[i, 1]))
            out[i] = on, off, open_
            i += 1
        row = self.row
        for i, (seed, (on, off, open_)) in enumerate(zip(seeds, out.tolist())):
            (self.memo if seed & 1 else self.off_memo)[seed >> 1] = (first + i, on, off, row, bool(open_))

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
        _STORE.found = fresh_store()
    _STORE.grid = np.array(cands, np.int64)
    before = None  # (found by the first row's search, then passed on)
    s = None
    for row in range(len(ROWS)):
        if s is None or not s.advance(row):  # (row 10.0 goes on with row 9.5's runs)
            s = _Search(row, cands, box, inside, before, shared=True)
        before = s.before
        hint = s.search()
        if hint[H_TENTHS] != NO_HINT:
            return row, hint, s.links(hint) if explain else None
    return None
