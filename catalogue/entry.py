"""The ``catalogue`` command's entry point: as little as possible before Ctrl-C is ours.

Why a module of its own: the script pip writes imports its entry point's module first, and everything that module
imports at its top (typer, click, rich: a noticeable wait) runs before any handler of ours; a Ctrl-C in that
window printed a Python traceback (``KeyboardInterrupt`` inside ``import hashlib``). This module imports nothing,
so a Ctrl-C at any moment after Python found this module ends with ``catalogue: interrupted`` and exit 130. SIGTERM
is made to take the same road on the first line (:mod:`catalogue.signals`: ``catalogue: terminated``, exit 130).
"""
from __future__ import annotations

import sys


def main() -> None:
    try:
        from . import signals

        signals.install()  # before the imports below: SIGTERM during them is one line too
        from .cli import main as run
    except KeyboardInterrupt as stop:  # SIGTERM's Terminated (catalogue.errors) names itself and its exit code
        sys.stderr.write(f"catalogue: {getattr(stop, 'what', 'interrupted')}\n")
        raise SystemExit(getattr(stop, "code", 130)) from None
    run()


if __name__ == "__main__":
    main()
