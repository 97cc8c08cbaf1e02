"""``catalogue import`` of 49,158 puzzles into a new SQLite catalogue: puzzles per wall and CPU second.

    python bench/bench_import.py                       # the stand-in set, 3 timed runs (a few minutes)
    python bench/bench_import.py --runs 1              # one timed run
    python bench/bench_import.py --puzzles FILE        # your own file, e.g. Gordon Royle's 49,158 17-clue list

The target is the 17-clue list (49,158 puzzles) in under a minute. That list is not shipped with this project and
is not downloaded here, so without ``--puzzles`` the benchmark makes a stand-in of the same length: 49,158 distinct
minimal puzzles carved by the engine from random boards (one random removal order each: about 24 clues; they are
easier for the solver than 17-clue puzzles, and have more clues to test for minimality). It is written once to
``--cache`` and reused. Each run imports the whole file into a fresh catalogue through the command's library
function (reading and parsing included), after a warm-up that loads the kernels; the figures are medians over the
runs, with the load average before and after (the 2 cores are shared). A last run imports the same file again into
the filled catalogue (every puzzle already known).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _common import timed  # noqa: E402,F401  (puts the repository on the path and enables the kernel cache)

COUNT = 49_158


def stand_in(path: Path, count: int, seed: int = 17) -> Path:
    """``count`` distinct minimal 9x9 puzzles, one per line, carved from random boards (made once, then reused)."""
    if path.exists() and sum(1 for _ in path.open()) == count:
        return path
    from engine.carve import carve_many
    from engine.formats.batch import lines
    from engine.generators import get_generator
    from engine.keys import key_texts

    generate = get_generator("backtrack").generate_array
    seen: set[str] = set()
    out: list[str] = []
    batch = 0
    while len(out) < count:
        boards, seeds, _ = generate(3, 4096, seed * 1_000_003 + batch)
        results = carve_many(boards, 3, np.asarray(seeds, dtype=np.int64))
        puzzles = np.stack([r.puzzle for r in results])
        for key, text in zip(key_texts(puzzles, 3, "d4"), lines(puzzles)):
            if key not in seen and len(out) < count:
                seen.add(key)
                out.append(text)
        batch += 1
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out) + "\n")
    return path


def import_once(path: Path, db: Path, quiet_sources) -> tuple[float, float, object]:
    from catalogue.pipeline.importer import import_sources
    from catalogue.store import Catalogue

    with Catalogue.open(str(db)) as catalogue:
        w, c = time.perf_counter(), time.process_time()
        summary = import_sources(catalogue, quiet_sources(path), equivalence="d4", command="bench")
        return time.perf_counter() - w, time.process_time() - c, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzles", type=Path, help="a file of puzzles (default: the stand-in set)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "catalogue-bench")
    args = parser.parse_args()

    from catalogue.choices import InputFormat, read_input
    from catalogue.pipeline.import_batches import Source
    from catalogue.kernels import jobs_for
    from engine.warmup import prepare

    path = args.puzzles or stand_in(args.cache / f"stand-in-{COUNT}.txt", COUNT)

    def sources(p: Path):  # reading and parsing are part of the timed work, as in the command
        entries, _ = read_input(str(p), InputFormat.auto, None, what="puzzle")
        return [Source(label=str(p), stored_as=p.name, entries=entries)]

    prepare(jobs_for("import", {3}, equivalence="d4"))  # the kernels loaded (or compiled) before any timing
    print(f"file: {path} ({'stand-in: ' if args.puzzles is None else ''}{sum(1 for _ in path.open()):,} lines); "
          f"cpus: {os.cpu_count()}; load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    walls, cpus = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):
            db = Path(tmp) / f"run{run}.db"
            wall, cpu, summary = import_once(path, db, sources)
            walls.append(wall)
            cpus.append(cpu)
            print(f"run {run + 1}: {wall:.2f} s wall, {cpu:.2f} s CPU: {summary.read:,} read, {summary.added:,} "
                  f"added ({summary.new_boards:,} new boards), {summary.known:,} known, "
                  f"{sum(summary.rejected.values()):,} rejected")
        again_wall, again_cpu, again = import_once(path, Path(tmp) / "run0.db", sources)
    n = summary.read
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    print(f"import, median of {args.runs}: {wall:.2f} s wall, {cpu:.2f} s CPU = {n / wall:,.0f} puzzles/s wall, "
          f"{n / cpu:,.0f} puzzles/CPU s")
    print(f"import again (all known): {again_wall:.2f} s wall, {again_cpu:.2f} s CPU = {n / again_wall:,.0f} "
          f"puzzles/s wall; {again.known:,} known, {again.added:,} added")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
