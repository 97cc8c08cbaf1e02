"""The workspaces of the compiled forcing searches (engine.grade.kernels.chains.forcing): one search's own, and the one
each grading thread keeps and its searches share.

A search's workspace has a slot for the run from every candidate (over 2 MB on 9x9, zeroed), and making one for each
search was a twentieth of grading puzzles that need forcing chains (the memset and the first touch of its pages; 1.1
ms each). So a grading thread makes one that the searches of all its batches share (:func:`shared_space`), and a
search on a grid it has no room for, or of a single grade, makes its own (:func:`_search_space_in`). Reuse is safe
because every slot is emptied before a run and every counter that marks states starts again before it could
overflow.
"""
from __future__ import annotations

import threading

import numpy as np

from ...._jit import wide_kernel
from ....bits import popcount
from .slots import _workspace

#: the most slot entries a call keeps for remembered runs (each slot costs about 7 entries per state)
RUN_BUDGET = 8_000_000


@wide_kernel
def _search_space(cands, n):
    """A workspace and a memo (see engine.grade.kernels.chains.forcing._on_run) for one search on ``cands``. The slots:
    0..n-1 a cell's candidates (scratch); n an off run; n+1..2n a region's places (scratch); then the remembered
    runs."""
    slots = _search_slots(cands, n)
    return _workspace(slots, cands.size, n), _search_memo(cands.size, n, slots)


@wide_kernel
def _search_slots(cands, n):
    """How many slots a search on ``cands`` has: the scratch ones, and one for the run of each candidate up to
    RUN_BUDGET."""
    ncells = cands.size
    ncands = 0
    for c in range(ncells):
        ncands += popcount(cands[c])
    return 2 * n + 1 + min(ncands, RUN_BUDGET // (7 * 2 * ncells * n))


@wide_kernel
def _search_memo(ncells, n, slots):
    """The memo of one search (see engine.grade.kernels.chains.forcing._on_run): no candidate's run remembered yet,
    ``slots`` slots."""
    memo = np.full((4, ncells * n), -1, np.int64)
    memo[3, 0] = 2 * n + 1
    memo[3, 1] = slots
    return memo


@wide_kernel
def forcing_space(ncells, n, share):
    """A workspace that the forcing searches of many grids share (each grading thread keeps one:
    :func:`shared_space`): room for the runs of any grid with up to ``share`` of every ``n`` candidates a cell
    could have (0: none; such a workspace is never used). Reuse is safe: a slot is emptied before every run
    (engine.grade.kernels.chains.slots._reset moves the slot's generation on, so the marks left in it from before count
    for nothing), and the generations and the complexity walks' stamps start again before they could overflow
    (:func:`_search_space_in`)."""
    nstates = 2 * ncells * n
    room = min(ncells * share, RUN_BUDGET // (7 * nstates)) if share else 0
    return _workspace(2 * n + 1 + room if share else 0, ncells, n)


@wide_kernel
def _search_space_in(cands, n, space):
    """:func:`_search_space` in ``space`` (:func:`forcing_space`) when it has room for this grid's runs, else in a
    workspace of its own; the memo says how many slots the search may remember, the same either way."""
    ncells = cands.size
    slots = _search_slots(cands, n)
    if _room_in(cands, n, space) >= 0:
        ws = space
    else:
        ws = _workspace(slots, ncells, n)
    return ws, _search_memo(ncells, n, slots)


@wide_kernel
def _room_in(cands, n, space):
    """How many slots a search on ``cands`` has (:func:`_search_slots`) if ``space`` has room for them, else -1.
    Where it has, a long-lived workspace, its counters start again before they could overflow (the slots'
    generations, and the stamps of the complexity walks and of nested chains, with every mark they compare
    against; a slot's membership is bits, cleared as it is emptied). (Its own kernel for the searches inside
    nested chains, which keep the thread's workspace as Python holds it: returning it from a kernel made Python
    objects of all its arrays at every search.)"""
    slots = _search_slots(cands, n)
    if space[1].size < slots:
        return -1
    if space[1].max() > (1 << 30) or space[10].max() > (1 << 30):
        space[1][:] = 1  # gen
        space[8][:] = 0  # visit
        space[10][:] = 0  # stamp
        space[17][:] = 0  # nest_seen
    return slots


_SPACES = threading.local()  # each thread's forcing workspaces, by the number of cells of a grid


def shared_space(ncells: int, n: int, batch: int, shape: bytes = b"") -> tuple:
    """The forcing workspace the searches of a batch of ``batch`` grids use (:func:`forcing_space`): this thread's
    own, kept from batch to batch, with room for grids with up to ``n // 2`` of the ``n`` candidates of every
    cell left (a search on a grid with more makes its own; on 16x16 and 25x25 the run budget caps the room
    first). Making one is dear (2 MB zeroed on 9x9), so a thread makes it once. A thread keeps
    the shared workspace of one grid size, the last it graded (a 25x25 one is about 77 MB, a 9x9 one 14 MB). A
    batch of 16 puzzles or fewer (a single grade, the web server's) gets none, and each of its searches makes
    its own workspace as it always did: a thread that grades one puzzle keeps no memory for it."""
    shared = batch > 16
    spaces = getattr(_SPACES, "by_cells", None)
    if spaces is None:
        spaces = _SPACES.by_cells = {}
    key = (ncells, shared)  # the empty one is kept too: making it was a real share of a single grade's time
    # (docs/benchmarks.md, "Grading")
    if key not in spaces:
        if shared:
            for other in [k for k in spaces if k[1]]:
                del spaces[other]
        spaces[key] = forcing_space(ncells, n, n // 2 if shared else 0)
    shapes = getattr(_SPACES, "shapes", None)
    if shapes is None:
        shapes = _SPACES.shapes = {}
    return _of_shape(spaces[key], shape, shapes, key)


def _of_shape(space: tuple, shape: bytes, shapes: dict, key) -> tuple:
    """``space``, told to make its tables again if the last search in it was on another shape of the same size
    (``shape``: the houses' bytes; 9x9 boxes, X and jigsaw layouts share one workspace). A search makes the places
    of each digit in each house and the cells' positions only when its grid differs from the last one's
    (implications._start_grid), so a search of another shape on the very same candidates would use the last
    shape's houses: forgetting that grid (ws[11], the basis) makes them again."""
    if shapes.get(key) != shape:
        space[11][:] = -1
        shapes[key] = shape
    return space


_INNER = threading.local()  # each thread's workspace for the searches inside nested chains


def inner_space(ncells: int, n: int, shape: bytes) -> tuple:
    """The forcing workspace of the searches inside nested chains (engine.grade.finders.chains.nested), this
    thread's own, with room for every candidate's run (:func:`forcing_space`). A nested step runs thousands of
    them, one for each grid a run stalls on, and a workspace made for each (2 MB zeroed on 9x9, its pages first
    touched inside the search) was 40 % of their time on the hardest puzzles. A search inside is over, its runs
    read, before the next one starts (they do not nest in each other), so one workspace serves them all. Kept for
    the last grid size the thread met; ``shape``, the houses' bytes, as :func:`shared_space` takes it."""
    space = getattr(_INNER, "space", None)
    if space is None or space[0].shape[1] != 2 * ncells * n:
        space = _INNER.space = forcing_space(ncells, n, n)
    shapes = getattr(_INNER, "shapes", None)
    if shapes is None:
        shapes = _INNER.shapes = {}
    return _of_shape(space, shape, shapes, None)
