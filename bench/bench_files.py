"""Writing a catalogue's board files (``N.txt``): plain writes, as the writer does, against the two safer ways it
could take, a ``fsync`` after each file and a temporary file renamed over each.

    python bench/bench_files.py [--count 50000] [--runs 3] [--dir PATH]

Each run writes ``--count`` board files into a new folder (under ``--dir``, default the temp folder: put it on the
disk the catalogue lives on) and removes it after; printed per way: the median wall and CPU seconds, the slowest
and quickest run, and the ratio to plain writes. Why the writer takes plain writes (and what repairs a file cut
short by a crash instead): catalogue/store/files.py and docs/storage.md.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import _common  # noqa: F401  (the repository on sys.path)
import numpy as np

from catalogue.store.files import board_path, write_files
from engine.formats.batch import txt_files
from engine.generators import get_generator


def synced(out: Path, numbers, payloads) -> None:
    for number, payload in zip(numbers, payloads):
        path = board_path(out, number)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            os.write(fd, payload)
            os.fsync(fd)
        finally:
            os.close(fd)


def renamed(out: Path, numbers, payloads) -> None:
    for number, payload in zip(numbers, payloads):
        path = board_path(out, number)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_bytes(payload)
        os.replace(temporary, path)


WAYS = {"plain writes (the writer's)": write_files, "fsync each": synced, "temporary file and rename": renamed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()))
    args = parser.parse_args()
    boards, _, _ = get_generator("backtrack").generate_array(3, args.count, 1)
    payloads = list(txt_files(np.asarray(boards), 3))  # what the writer writes: bytes, a board a file
    numbers = list(range(args.count))
    print(f"{args.count:,} board files into {args.dir}, median of {args.runs} runs; load average "
          f"{os.getloadavg()[0]:.2f}")
    print(f"{'way':<30} {'wall s':>8} {'CPU s':>7} {'runs (wall s)':>22} {'x plain':>8}")
    # the ways take turns, run by run, each after os.sync(): the dirty pages one way leaves are written back
    # before the next is timed, not during it (without it, each way paid for the writes of the one run before it)
    walls: dict = {name: [] for name in WAYS}
    cpus: dict = {name: [] for name in WAYS}
    for _ in range(args.runs):
        for name, write in WAYS.items():
            out = Path(tempfile.mkdtemp(prefix="bench-files-", dir=args.dir))
            try:
                os.sync()
                w, c = time.perf_counter(), time.process_time()
                write(out, numbers, payloads)
                walls[name].append(time.perf_counter() - w)
                cpus[name].append(time.process_time() - c)
            finally:
                shutil.rmtree(out)
    plain = statistics.median(walls[next(iter(WAYS))])
    for name in WAYS:
        wall = statistics.median(walls[name])
        runs = ", ".join(f"{x:.1f}" for x in walls[name])
        print(f"{name:<30} {wall:>8.2f} {statistics.median(cpus[name]):>7.2f} {runs:>22} {wall / plain:>8.1f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
