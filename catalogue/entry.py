"""The ``catalogue`` command's entry point: as little as possible before Ctrl-C is ours.

Why a module of its own: the script pip writes imports its entry point's module first, and everything that module
imports at its top (typer, click, rich: a noticeable wait) runs before any handler of ours; a Ctrl-C in that
window printed a Python traceback (``KeyboardInterrupt`` inside ``import hashlib``). This module imports nothing,
so a Ctrl-C at any moment after Python found this module ends with ``catalogue: interrupted`` and exit 130.
"""
from __future__ import annotations

import sys


def main() -> None:
    try:
        from .cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("catalogue: interrupted\n")
        raise SystemExit(130) from None
    run()


if __name__ == "__main__":
    main()
