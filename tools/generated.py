"""The command line the docs' generators share: write their pages, or check that the pages are current.

    python tools/NAME.py           # (re)write the pages
    python tools/NAME.py --check   # exit 1 with one line naming the first stale page (tests/test_docs.py)
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]


def main(render: Callable[[], dict[Path, str]], tool: str, description: str, argv: list[str] | None = None) -> int:
    """``render()`` gives each page's path and text; write those that changed, or with ``--check`` say the first
    stale one (and how to regenerate it) and return 1."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help="exit 1 if a page is stale, write nothing")
    args = parser.parse_args(argv)
    for target, text in render().items():
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current == text:
            continue
        if args.check:
            print(f"{target.relative_to(ROOT)} is stale: run `python {tool}` to regenerate it", file=sys.stderr)
            return 1
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        print(f"wrote {target.relative_to(ROOT)} ({len(text.encode())} bytes)", file=sys.stderr)
    return 0
