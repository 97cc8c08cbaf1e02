"""Running a file command's work on many grids: one compiled call per chunk of same-size grids, results in file order.

The file commands (``check``, ``key``, ``solve``, ``grade``, ``carve``) each had a per-grid function (``one``: the
result for one entry of the file, or the message to report). A single kernel call costs about twice a batch item
(most of a single ``fast.solve`` on a minimal 9x9 puzzle was dispatch and wrapping: docs/benchmarks.md, Solving),
so :func:`batch_map` hands the grids that need a kernel to the command's batch function (``many``), a chunk at a time,
and yields exactly what ``one`` would have, entry by entry, in file order. ``one`` stays the path for everything
else (unreadable entries, conflicting givens, solvers without a batch form) and the twin the tests compare with.

Chunks: the file is cut into windows of consecutive entries worth about one chunk of work each; inside a window the
grids are grouped by box size, one ``many`` call per size. How many grids of a size a chunk holds follows what the
last chunk of that size cost (:class:`catalogue.pace.Pace`: about half a second of a thread's work, at most
:data:`CHUNK`, less in a file too small for :data:`STEPS` chunks), so a clump of hard puzzles goes a few at a time:
the bar keeps moving, every thread has work, and Ctrl-C loses little. Windows are cut as the worker threads take
them, in :func:`~catalogue.background.background_map`, so Ctrl-C still stops at once.
"""
from __future__ import annotations

import time
from typing import Callable, Iterator, Sequence

from .background import background_map
from .pace import Pace
from .time_left import Ledger, estimate

#: the most grids a batch call holds, by box size: about 10-100 ms of kernel time for the slowest command (grading) on 9x9,
#: less than a second on 16x16 and 25x25 (a 25x25 solve or carve can take seconds: one grid at a time there)
CHUNK = {2: 2048, 3: 1024, 4: 64, 5: 4}
#: a file is cut into at least this many windows when it can be, so the bar moves on an input of a few hundred
#: grids too (the tests' 800 puzzles made a single chunk, and the bar went from nothing to done)
STEPS = 16


def _windows(items: Sequence, size: Callable[[int], int], least: float) -> Iterator[range]:
    """Consecutive ranges of ``items``, each about one chunk of work: a grid of box size b weighs 1/size(b), asked
    as the range is cut; an unreadable entry weighs ``least``."""
    start, work = 0, 0.0
    box_of = getattr(items, "box_of", None)  # Entries: the box sizes are known without making the entries
    boxes = (box_of(i) for i in range(len(items))) if box_of else (
        getattr(getattr(item, "grid", None), "box", 0) for item in items)
    for i, box in enumerate(boxes):
        work += 1.0 / size(box) if box else least
        if work >= 1.0 - 1e-9:  # ten 0.1s make 0.9999999999999999
            yield range(start, i + 1)
            start, work = i + 1, 0.0
    if start < len(items):
        yield range(start, len(items))


def _parsed(item) -> bool:
    return hasattr(item, "grid")  # a Parsed entry, not a FormatError


def batch_map(one: Callable, many: Callable | None, items: Sequence, name: str, label: str | None = None, *,
              batchable: Callable = _parsed, retry: tuple[type[BaseException], ...] = (),
              sizes: dict[int, int] = CHUNK, unit: str = "grids", threads: int = 1,
              jobs: list[str] | None = None, later: type | tuple[type, ...] = ()) -> Iterator:
    """Yield ``one(item)`` for each of ``items`` (file entries), in order, computed in a worker thread.

    ``many(group)`` takes a list of parsed entries (``item.grid``) of one box size and returns their results, the
    same as ``[one(x) for x in group]``; it gets the items ``batchable(item)`` accepts (by default every entry that
    was read), the others go to ``one``. ``many=None`` means one at a time throughout. When ``many`` raises one
    of ``retry`` (a grid of the group the batch function refuses: a key search that outgrew its limit, a puzzle
    without solution for the grader), that group is done again with ``one``, which says which grid and why.
    With ``label``, a big input shows a bar over the items (counted in ``unit``) (``catalogue.progress.item_bar``), as
    :func:`~catalogue.background.background_map` does. ``threads`` (0: one per core) take the windows in turn: the
    kernels release the GIL, so a file is done on every core, and the results still come in file order. Before
    the first grid, the kernels the command ``name`` needs for the sizes in ``items`` are made ready (compiled on
    every core the first time, catalogue/kernels.py), or those of ``jobs`` when given.

    ``later``: the type of a result ``many`` leaves to be finished by calling it (:class:`engine.grade.Later`: a
    puzzle for the nested forcing chains, seconds to minutes where its neighbours took milliseconds). Those at the
    head of a chunk are called by its thread while the chunk has had less than its time (the first always); the
    others are called one per thread once the chunk comes, each yielded (and counted on the bar) as soon as it and
    every result before it are done: the bar and the time left move with each one, and a Ctrl-C keeps every
    result yielded before it.
    """
    from .config import default_workers
    from .kernels import jobs_for, ready_for_later, ready_to_count, sizes_of

    threads = threads or default_workers()
    if jobs is None:
        jobs = jobs_for(name, sizes_of(items))
    if many is None:
        yield from background_map(one, items, name, label=label, threads=threads, jobs=jobs)
        return

    cap = max(1, -(-len(items) // STEPS))
    pace = Pace(lambda box: max(1, min(sizes.get(box, 1), cap)))
    ledger = Ledger()  # what the first pass found ahead, for the bar's time left (catalogue.time_left)

    def finished(result):  # a later result, called and timed (its kernels made ready first, once)
        ready_for_later(getattr(step, "display", None), result)
        started = time.perf_counter()
        value = result()
        ledger.took(time.perf_counter() - started)
        return value

    def settled(answer):  # a later one with several solutions: its grade now, which calling it gives at once
        if later and isinstance(answer, later) and hasattr(answer, "worth_nesting"):
            ready_to_count(getattr(step, "display", None), answer)
            if not answer.worth_nesting():
                return answer()
        return answer

    def work(window: range) -> list:
        chunk = items[window.start:window.stop]  # each entry made once (Entries makes them when asked for)
        results: list = [None] * len(window)
        groups: dict[int, list[int]] = {}
        for k, item in enumerate(chunk):
            if batchable(item):
                groups.setdefault(item.grid.box, []).append(k)
            else:
                results[k] = one(item)
        for ks in groups.values():
            group = [chunk[k] for k in ks]
            started = time.perf_counter()
            try:
                answers = many(group)
            except retry:
                answers = [one(item) for item in group]
            answers = [settled(a) for a in answers]
            seconds = time.perf_counter() - started
            pace.measured(group[0].grid.box, len(group), seconds)
            ledger.seen(len(group), sum(1 for a in answers if later and isinstance(a, later)), seconds)
            for k, answer in zip(ks, answers, strict=True):
                results[k] = answer
        # the later ones at the head of the chunk, while it has time (the first always): nothing done waits behind
        # them, and a file of nothing but hard grids then goes a grid a chunk, on every thread; the others are
        # finished once the chunk comes (below), so that no result before them is held back
        started, head = time.perf_counter(), 0
        while head < len(results) and later and isinstance(results[head], later) and (
                head == 0 or time.perf_counter() - started < pace.target):
            results[head] = finished(results[head])
            head += 1
        if head:
            pace.measured(chunk[0].grid.box, head, time.perf_counter() - started)
        return results

    from contextlib import nullcontext

    from .progress import item_bar

    bar = item_bar(label, len(items), unit=unit, jobs=jobs, what=name) if label is not None else nullcontext(None)
    begun = time.perf_counter()

    def moved(done: int) -> None:
        if step is not None:  # the time left by kind once a hard item is done, else the bar's own pace
            left = estimate(done, len(items), time.perf_counter() - begun, threads, ledger) if ledger.finished \
                else None
            step(done, left=left)

    with bar as step:
        done = 0
        for results in background_map(work, _windows(items, pace.size, 1.0 / max(map(pace.biggest, sizes))), name,
                                      threads=threads):
            todo = [i for i, r in enumerate(results) if later and isinstance(r, later)]
            if not todo:
                yield from results
                done += len(results)
            else:  # one per thread, each yielded once it and those before it are done
                pos = 0
                for i, value in zip(todo, background_map(finished, [results[i] for i in todo], f"{name}-later",
                                                         threads=threads)):
                    yield from results[pos:i]
                    yield value
                    done += i + 1 - pos
                    pos = i + 1
                    moved(done)
                yield from results[pos:]
                done += len(results) - pos
            moved(done)
