"""`catalogue book` on 1,000 puzzles: a whole process from the shell (wall and CPU, median of --runs), and the
in-process split between laying the pages out (catalogue.publish.layout) and writing the PDF (reportlab).

The catalogue is bench_query.py's (valid 9x9 boards, carved-looking puzzles, grades), built once in a temporary
folder unless --db names one.

    python bench/bench_book.py [--count 1000] [--runs 3] [--db URL|PATH]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import _common  # noqa: F401  (the repository on sys.path, the numba cache)
from bench_query import build, median_seconds

CASES = [("4 per page", ["--per-page", "4"]),
         ("4 per page + solutions", ["--per-page", "4", "--solutions"]),
         ("6 per page + solutions", ["--per-page", "6", "--solutions"]),
         ("1 per page", ["--per-page", "1"])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--db", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        build(url, args.count)
        catalogue = str(Path(sys.executable).parent / "catalogue")
        out = Path(tmp) / "book.pdf"
        print(f"catalogue book --count {args.count}: median of {args.runs} runs, whole process")
        print(f"{'case':<26} {'wall s':>8} {'CPU s':>8} {'pages':>6} {'MB':>6} {'ms/puzzle':>10}")
        for name, extra in CASES:
            argv = [catalogue, "book", "--db", url, "-o", str(out), "--count", str(args.count), *extra]
            wall, cpu = median_seconds(argv, args.runs)
            pages = out.read_bytes().count(b"/Type /Page\n")
            print(f"{name:<26} {wall:8.2f} {cpu:8.2f} {pages:6d} {out.stat().st_size / 1e6:6.2f} "
                  f"{wall / args.count * 1000:10.2f}")

        from catalogue.publish import book_pages
        from catalogue.publish.pdf import write_pdf
        from catalogue.store import Catalogue

        with Catalogue.open(url, create=False) as cat:
            records = list(cat.puzzles().limit(args.count))
        layouts, writes = [], []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            pages = book_pages(records, 4, True)
            t1 = time.perf_counter()
            write_pdf(pages)
            layouts.append(t1 - t0)
            writes.append(time.perf_counter() - t1)
        print(f"in process, 4 per page + solutions: layout {statistics.median(layouts):.2f} s, "
              f"PDF writing {statistics.median(writes):.2f} s (medians)")


if __name__ == "__main__":
    main()
