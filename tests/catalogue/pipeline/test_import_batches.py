"""catalogue.pipeline.import_batches.batches: one size a batch, file order, each batch as big as ``size`` says
when it is filled (the import's pace: catalogue.pace)."""
from __future__ import annotations

from types import SimpleNamespace

from catalogue.pipeline.import_batches import Source, batch_size, batches


def entry(line: int, box: int):
    return SimpleNamespace(line=line, grid=SimpleNamespace(box=box))


def test_each_batch_takes_the_size_asked_when_it_is_filled():
    entries = [entry(i, 3) for i in range(100)]
    asked = iter([3, 3, 3, 5, 5, 5, 5, 5] + [50] * 200)  # a size is asked for each entry put in a batch
    got = list(batches([Source("f", "f", entries)], lambda box: next(asked)))
    assert [len(b.parsed) for b in got] == [3, 5, 50, 42]
    assert [e.line for b in got for e in b.parsed] == list(range(100))


def test_sizes_are_asked_per_box_and_batches_keep_one_size():
    entries = [entry(i, 3 if i % 4 else 2) for i in range(40)]
    sizes = {2: 4, 3: 7}
    got = list(batches([Source("f", "f", entries)], sizes.__getitem__))
    assert all(len({e.grid.box for e in b.parsed}) == 1 and len(b.parsed) <= sizes[b.box] for b in got)
    assert sorted(e.line for b in got for e in b.parsed) == list(range(40))
    assert batch_size(3) == 2048  # the default: the most a 9x9 batch holds


def computed(n: int, later: set[int]):
    """A batch as compute leaves it: ``n`` rows (entries at lines 1..n), the rows in ``later`` still to grade (a
    callable standing in for engine.grade.Later), one rejected entry and one already stored."""
    import numpy as np

    from catalogue.pipeline.import_batches import Batch

    entries = [entry(i + 1, 3) for i in range(n)]
    rejected, known = entry(n + 1, 3), entry(n + 2, 3)
    batch = Batch(Source("f", "f", []), 3, [*entries, rejected, known], rejected=[(rejected, "no solution", "")],
                  known=1, boards=[{"row": i} for i in range(n)], puzzles=[{"row": i} for i in range(n)],
                  puzzle_keys=[f"k{i}" for i in range(n)], solutions=np.arange(n), entries=list(entries))
    batch.later = {k: (lambda k=k: SimpleNamespace(level="extreme", score=10.0 + k, hardest="nested",
                                                   technique="nested", steps_by_technique={})) for k in later}
    return batch


def test_finish_grades_the_later_rows_while_there_is_time():
    from catalogue.pipeline.import_stages import finish

    batch = finish(computed(6, {1, 4}))  # no limit: every row graded, nothing left
    assert batch.rest is None and not batch.later
    assert [p.get("score") for p in batch.puzzles] == [None, 11.0, None, None, 14.0, None]


def test_out_of_time_the_rows_from_the_next_later_one_are_a_batch_of_their_own():
    from catalogue.pipeline.import_stages import finish, pieces

    batch = finish(computed(8, {1, 4, 6}), seconds=0)  # time for the first only
    assert [p["row"] for p in batch.puzzles] == [0, 1, 2, 3] and batch.puzzles[1]["score"] == 11.0
    rest = batch.rest
    assert [p["row"] for p in rest.puzzles] == [4, 5, 6, 7] and sorted(rest.later) == [0, 2]
    assert list(rest.solutions) == [4, 5, 6, 7] and rest.puzzle_keys == ["k4", "k5", "k6", "k7"]
    # what the batch decided stays with it, counted once: its rows, the rejected line and the stored one
    assert [e.line for e in batch.parsed] == [1, 2, 3, 4, 9, 10] and [e.line for e in rest.parsed] == [5, 6, 7, 8]
    assert batch.known == 1 and len(batch.rejected) == 1 and rest.known == 0 and not rest.rejected
    # the rest in pieces for both workers, each with its own rows and at most one grade to make
    parts = pieces(rest, 3)
    assert [[p["row"] for p in part.puzzles] for part in parts] == [[4, 5], [6, 7]]
    assert [sorted(part.later) for part in parts] == [[0], [0]]
    assert [finish(part).puzzles[0].get("score") for part in parts] == [14.0, 16.0]
    assert all(part.rest is None for part in parts)


def test_pieces_hold_at_most_one_grade_to_make_and_at_most_the_rows_asked():
    """Each puzzle for the nested forcing chains (seconds to minutes) goes in a piece of its own, with the
    ordinary rows after it up to the next one, so the bar moves and a Ctrl-C keeps them one by one; and no piece
    holds more than ``rows`` rows."""
    from catalogue.pipeline.import_stages import finish, pieces

    rest = finish(computed(12, {0, 1, 2, 5, 9}), seconds=0).rest  # rows 1..11; to grade: 1, 2, 5, 9
    parts = pieces(rest, 4)
    assert [[p["row"] for p in part.puzzles] for part in parts] == [[1], [2, 3, 4], [5, 6, 7, 8], [9, 10, 11]]
    assert [sorted(part.later) for part in parts] == [[0], [0], [0], [0]]
    parts = pieces(finish(computed(12, {0, 1, 2, 5, 9}), seconds=0).rest, 2)
    assert [[p["row"] for p in part.puzzles] for part in parts] == [[1], [2, 3], [4, 5], [6, 7], [8, 9], [10, 11]]
    assert [len(part.later) for part in parts] == [1, 1, 1, 0, 1, 0]


def test_a_piece_given_back_without_grades_to_make_is_ready_as_it_is():
    """The rows a batch gave back are computed already: a piece of them with no grade still to make is not
    computed again (no kernels are there to do it), and one with a grade to make gets it."""
    from catalogue.pipeline.import_stages import advance, finish, pieces

    parts = pieces(finish(computed(6, {1, 2}), seconds=0).rest, 1)
    assert [sorted(part.later) for part in parts] == [[0], [], [], []]
    for part in parts:
        rows = [dict(p) for p in part.puzzles]
        assert advance(part, None, "d4", 1, None) is part
        assert [p["row"] for p in part.puzzles] == [r["row"] for r in rows] and not part.later
    assert parts[0].puzzles[0]["score"] == 12.0
