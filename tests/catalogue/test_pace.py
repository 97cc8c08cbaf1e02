"""catalogue.pace.Pace: batch sizes that follow the measured cost; catalogue.time_left: the bar's time left."""
from __future__ import annotations

import threading

from hypothesis import given
from hypothesis import strategies as st

from catalogue.pace import FIRST_SHARE, GROWTH, Pace
from catalogue.time_left import SETTLING_SECONDS, Ledger, clock, estimate, time_left

BIGGEST = {2: 4096, 3: 2048, 4: 64, 5: 4}


def test_a_size_starts_small_then_fills_the_target_time():
    pace = Pace(BIGGEST.__getitem__, target=0.5)
    assert pace.size(3) == int(2048 * FIRST_SHARE) == 64 and pace.size(5) == 1  # never below one
    pace.measured(3, 64, 0.001)  # cheap: grows, but at most GROWTH times the last
    assert pace.size(3) == 64 * GROWTH
    for _ in range(5):
        pace.measured(3, pace.size(3), 0.001)
    assert pace.size(3) == 2048  # never above the biggest
    assert pace.size(2) == int(4096 * FIRST_SHARE)  # each size on its own


def test_a_clump_of_hard_puzzles_shrinks_the_next_batch_at_once():
    pace = Pace(BIGGEST.__getitem__, target=0.5)
    pace.measured(3, 2048, 1.0)  # ordinary: 0.5 ms a puzzle
    assert pace.size(3) == 1024
    pace.measured(3, 1024, 100.0)  # nested forcing chains: about 0.1 s a puzzle
    assert pace.size(3) == 5
    pace.measured(3, 5, 50.0)  # 10 s a puzzle: one at a time
    assert pace.size(3) == 1
    pace.measured(3, 1, 0.0005)  # the clump is over: back up in steps of GROWTH
    assert pace.size(3) == GROWTH


@given(st.lists(st.tuples(st.sampled_from(sorted(BIGGEST)), st.integers(0, 5000),
                          st.floats(0, 1e4, allow_nan=False)), max_size=40))
def test_sizes_stay_between_one_and_the_biggest(measures):
    pace = Pace(BIGGEST.__getitem__)
    for box, grids, seconds in measures:
        pace.measured(box, grids, seconds)
        assert all(1 <= pace.size(b) <= BIGGEST[b] for b in BIGGEST)
        if grids:
            assert pace.size(box) <= grids * GROWTH


def test_threads_may_measure_and_ask_at_once():
    pace = Pace(BIGGEST.__getitem__)
    seen: list[int] = []

    def worker(k: int) -> None:
        for i in range(2000):
            pace.measured(3, 1 + (i + k) % 300, 0.01 * (1 + k))
            seen.append(pace.size(3))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 8000 and all(1 <= s <= 2048 for s in seen)


def test_time_left_is_the_rest_at_the_whole_runs_pace():
    assert time_left(0, 100, 10.0) is None  # nothing done: no pace yet
    assert time_left(10, 100, SETTLING_SECONDS / 2) is None  # too early to say
    assert time_left(10, 100, None) is None and time_left(10, None, 10.0) is None
    assert time_left(25, 100, 10.0) == 30.0
    assert time_left(100, 100, 10.0) == 0.0


def test_a_clump_moves_time_left_by_its_share_not_tenfold():
    """1,000 puzzles: ordinary ones (10 ms) with a clump of 50 hard ones (1 s) in the middle. The whole run's
    pace moves the time left by less than the clump's share; a pace taken over the last seconds (what the bar
    showed before) swings by two orders of magnitude."""
    costs = [0.01] * 475 + [1.0] * 50 + [0.01] * 475
    total = sum(costs)
    whole, recent = [], []
    elapsed = 0.0
    for done, cost in enumerate(costs, start=1):
        elapsed += cost
        if elapsed < SETTLING_SECONDS:
            continue
        whole.append(time_left(done, len(costs), elapsed))
        window = costs[max(0, done - 20):done]  # the last 20 puzzles' pace
        recent.append((len(costs) - done) * sum(window) / len(window))
    assert max(recent) / min(r for r in recent if r > 0) > 50
    # the estimate never exceeds the true total, and never jumps by more than the clump's cost in one puzzle
    assert all(w <= total for w in whole)
    assert max(abs(a - b) for a, b in zip(whole, whole[1:])) < 2.0


def test_clock():
    assert [clock(s) for s in (0, 4.4, 65, 3600 + 125)] == ["0:00:00", "0:00:04", "0:01:05", "1:02:05"]


def test_hard_items_found_ahead_are_priced_at_the_hard_ones_done():
    """1,000 puzzles, the first pass has seen them all in 1 s of a thread's time and found 10 hard ones; one is
    done, in 10 s: the 9 left take 45 s on two threads, whatever the ordinary ones' pace says."""
    ledger = Ledger()
    ledger.seen(1000, 10, 1.0)
    assert estimate(500, 1000, 12.0, 2, ledger) == time_left(500, 1000, 12.0)  # none done yet: the plain pace
    ledger.took(10.0)
    assert estimate(501, 1000, 12.0, 2, ledger) == 45.0


def test_the_part_not_seen_yet_is_priced_with_the_hard_share_of_the_part_seen():
    ledger = Ledger()
    ledger.seen(400, 4, 0.4)  # 1 ms a puzzle for the first pass, 1 % of them hard
    ledger.took(2.0)  # 2 s each
    # 600 unseen: 0.6 s of first pass and 6 hard ones to find (12 s); 3 hard ones known and left (6 s)
    assert abs(estimate(300, 1000, 5.0, 1, ledger) - (0.6 + 12.0 + 6.0)) < 1e-9


def test_the_ledger_counts_from_several_threads():
    ledger = Ledger()

    def worker():
        for _ in range(1000):
            ledger.seen(2, 1, 0.001)
            ledger.took(0.5)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert (ledger.scanned, ledger.found, ledger.finished) == (8000, 4000, 4000) and abs(ledger.seconds - 2000) < 1e-6
