"""catalogue.batches.batch_map: the per-grid results, in file order, from batch calls on chunks of same-size grids."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from catalogue.batches import _windows, batch_map
from catalogue.background import background_map


def entry(i: int, box: int | None):
    """A stand-in for a file entry: a parsed grid of box size ``box``, or an unreadable entry (None)."""
    return SimpleNamespace(index=i) if box is None else SimpleNamespace(index=i, grid=SimpleNamespace(box=box))


def mixed(n: int = 300):
    boxes = [3, 3, 2, None, 4, 3, 2, 2, 5, None, 3]
    return [entry(i, boxes[i * 7 % len(boxes)]) for i in range(n)]


def one(e):
    return ("unreadable", e.index) if not hasattr(e, "grid") else ("one", e.index, e.grid.box)


def test_results_are_one_per_entry_in_file_order():
    items = mixed()
    calls = []

    def many(group):
        assert len({e.grid.box for e in group}) == 1  # one box size a call
        assert [e.index for e in group] == sorted(e.index for e in group)
        calls.append(len(group))
        return [("one", e.index, e.grid.box) for e in group]

    sizes = {2: 8, 3: 5, 4: 3, 5: 2}
    got = list(batch_map(one, many, items, "t", sizes=sizes))
    assert got == [one(e) for e in items]
    assert sum(calls) == sum(hasattr(e, "grid") for e in items) and max(calls) <= 8 and len(calls) > 10


def test_only_batchable_entries_reach_many():
    items = mixed(100)
    skip = {e.index for e in items if e.index % 3 == 0}

    def many(group):
        assert all(e.index not in skip and hasattr(e, "grid") for e in group)
        return [("one", e.index, e.grid.box) for e in group]

    got = list(batch_map(one, many, items, "t", batchable=lambda e: hasattr(e, "grid") and e.index not in skip))
    assert got == [one(e) for e in items]


def test_a_refused_group_is_done_again_one_by_one():
    items = mixed(60)

    def many(group):
        if any(e.index == 18 for e in group):
            raise KeyError("18 refused")  # e.g. a key search that outgrew its limit
        return [("many", e.index) for e in group]

    got = list(batch_map(one, many, items, "t", retry=(KeyError,), sizes={2: 10, 3: 10, 4: 10, 5: 10}))
    refused = [i for i, g in enumerate(got) if g[0] == "one"]
    assert 18 in refused and len(refused) < 20  # only the group that held it
    assert all(g[1] == e.index for g, e in zip(got, items))


def test_other_errors_reach_the_caller():
    def many(group):
        raise ValueError("a bug")

    with pytest.raises(ValueError, match="a bug"):
        list(batch_map(one, many, mixed(20), "t", retry=(KeyError,)))


def test_without_many_it_is_background_map():
    items = mixed(40)
    assert list(batch_map(one, None, items, "t")) == list(background_map(one, items, "t")) == [one(e) for e in items]


def test_windows_cover_the_file_in_about_a_chunk_of_work_each():
    items = [entry(i, 3) for i in range(25)] + [entry(25 + i, 5) for i in range(3)] + [entry(28, None)]
    windows = list(_windows(items, {2: 20, 3: 10, 5: 1}.__getitem__, 1 / 20))
    assert [i for w in windows for i in w] == list(range(len(items)))
    assert [len(w) for w in windows] == [10, 10, 6, 1, 1, 1]  # 25x25 grids one at a time


def test_chunks_start_small_and_grow_while_the_work_is_cheap():
    """catalogue.pace: the first chunk of a size is 1/32 of its most, each next one up to four times the last."""
    items = [entry(i, 3) for i in range(5000)]
    calls = []

    def many(group):
        calls.append(len(group))
        return [("one", e.index, e.grid.box) for e in group]

    assert list(batch_map(one, many, items, "t", sizes={3: 1024}, threads=1)) == [one(e) for e in items]
    most = -(-5000 // 16)  # a file cut into at least 16 chunks
    assert calls[:4] == [most // 32, most // 32 * 4, most // 32 * 16, most] and max(calls) == most


class Slow:
    """Stands in for engine.grade.Later: a result to finish by calling it."""

    calls: list = []

    def __init__(self, index: int):
        self.index = index

    def __call__(self):
        Slow.calls.append(self.index)
        return ("later", self.index)


@pytest.mark.parametrize("threads", [1, 2])
def test_later_results_are_called_once_each_and_come_in_file_order(threads):
    items = [entry(i, 3) for i in range(400)]
    Slow.calls = []

    def many(group):
        return [Slow(e.index) if e.index % 7 == 3 else ("one", e.index, 3) for e in group]

    got = list(batch_map(one, many, items, "t", later=Slow, threads=threads))
    assert got == [("later", i) if i % 7 == 3 else ("one", i, 3) for i in range(400)]
    assert sorted(Slow.calls) == [i for i in range(400) if i % 7 == 3]
