"""The long fuzz run: the test suite's fuzzer (tests/fuzz) for as many cases as asked, with a summary.

    python bench/fuzz.py [--cases 10000] [--seed 1] [--show 5]

Each case draws a hostile file (tests/fuzz/fuzz_inputs.py: random bytes, unicode, mutated samples, each format's
edge cases, deep nesting, huge numbers, long lines; BOMs and CRLF/CR endings), runs one of the file commands on
it in this process (``check``, ``solve``, ``solve --count-solutions``, ``key``, ``key -e full``, ``carve``,
``grade``; as a file or on stdin, with a random ``--input-format`` and ``--size`` now and then), and two readers
on its text (the one detected, and one forced at random). The rules checked are tests/fuzz/fuzz_harness.py's. Prints cases
per command, exit codes, input families, tracebacks (must be 0), the rules broken (the first few, with the
input), the resident size (after a warm-up, and its peak), wall and CPU time. Exit 1 if any rule was broken.
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common  # noqa: E402,F401  (first: the repository on the path, the kernel cache enabled)

# appended, not prepended: tests/engine would hide the engine package
sys.path += [str(_common.ROOT / "tests"), str(_common.ROOT / "tests" / "fuzz")]

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from engine.formats import FORMATS  # noqa: E402
from fuzz_harness import (COMMANDS, INPUT_FORMATS, RSS_GROWTH_BOUND, SIZES, Memory, Tally,  # noqa: E402
                          reader_problems, run_command)
from fuzz_inputs import inputs  # noqa: E402


#: examples per hypothesis run (see the loop in main)
BATCH = 500


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=5, help="broken rules printed in full")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="catalogue-fuzz-"))
    wall, cpu = time.perf_counter(), time.process_time()
    memory = Memory()
    memory.warm(tmp)
    warm_seconds = time.perf_counter() - wall
    tally = Tally()
    reader_failures: list = []
    state = {"done": 0, "readers": 0}

    draws = given(case=inputs(), command=st.sampled_from(list(COMMANDS)), via=st.sampled_from(["file", "stdin"]),
                  input_format=st.sampled_from(("auto",) * 4 + INPUT_FORMATS),
                  size=st.sampled_from((None,) * 4 + SIZES), forced=st.sampled_from(FORMATS))

    def one(case, command, via, input_format, size, forced):
        family, data = case
        tally.add(run_command(command, data, tmp, via, input_format, size), family, data)
        text = data.decode("utf-8", errors="replace")
        for fmt in (None, forced):  # the reader detection picks, and one forced (the suite forces all of them)
            found = reader_problems(text, fmt, None)
            state["readers"] += 1
            if found:
                reader_failures.append((fmt, family, data[:300], found))
        memory.sample()
        state["done"] += 1

    for batch in range(-(-args.cases // BATCH)):
        # batches of BATCH examples, each with its own seed: hypothesis keeps a record of every example of a run
        # (to avoid repeats), which over 10,000 examples grew the process by ~100 MB that were not ours to measure
        n = min(BATCH, args.cases - batch * BATCH)
        run = settings(max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck))(
            draws(one))
        seed(args.seed * 1_000_003 + batch)(run)()
        print(f"  {state['done']:,} cases, {time.perf_counter() - wall:,.0f} s, resident "
              f"{memory.peak / 2**20:,.0f} MiB at most", file=sys.stderr, flush=True)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    failures = tally.failures + reader_failures
    print(f"fuzz: {state['done']:,} command cases and {state['readers']:,} reader calls "
          f"(python bench/fuzz.py --cases {args.cases} --seed {args.seed})")
    print("  cases per command: " + ", ".join(f"{c} {n:,}" for c, n in sorted(tally.cases.items())))
    print("  exit codes: " + ", ".join(f"{code}: {n:,}" for code, n in sorted(tally.exits.items())))
    print("  input families: " + ", ".join(f"{f} {n:,}" for f, n in sorted(tally.families.items())))
    print(f"  tracebacks: {tally.tracebacks}; rules broken: {len(tally.failures)} by commands, "
          f"{len(reader_failures)} by readers")
    print(f"  resident size: {memory.baseline / 2**20:,.0f} MiB after the warm-up, peak {memory.peak / 2**20:,.0f}"
          f" MiB (growth {memory.growth / 2**20:,.0f} MiB, bound {RSS_GROWTH_BOUND // 2**20} MiB); "
          f"ru_maxrss {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MiB")
    print(f"  time: {wall:,.0f} s wall ({warm_seconds:,.0f} s warm-up), {cpu:,.0f} s CPU; slowest case "
          f"{tally.slowest[0]:.2f} s ({tally.slowest[1]})")
    for failure in failures[:args.show]:
        print(f"  BROKEN: {failure}")
    return 1 if failures or memory.growth >= RSS_GROWTH_BOUND else 0


if __name__ == "__main__":
    os.environ.setdefault("COLUMNS", "120")
    sys.exit(main())
