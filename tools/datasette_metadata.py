"""Write the column descriptions of catalogue/datasette/metadata.json from the field list.

    python tools/datasette_metadata.py           # (re)write them
    python tools/datasette_metadata.py --check   # exit 1 with one line if the file is stale

The boards' and the puzzles' columns are described once, in :mod:`catalogue.store.fields` (the API's schemas take
the same words); the rest of the file (titles, the runs table, the saved queries) is written by hand and kept.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "catalogue" / "datasette" / "metadata.json"


def render() -> str:
    from catalogue.store.fields import FIELDS

    metadata = json.loads(TARGET.read_text(encoding="utf-8"))
    tables = metadata["databases"]["catalogue"]["tables"]
    for table in ("boards", "puzzles"):
        tables[table]["columns"] = {f.stored: f.about for f in FIELDS if f.table == table}
    return json.dumps(metadata, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(ROOT))
    from generated import main as generate

    return generate(lambda: {TARGET: render()}, "tools/datasette_metadata.py", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
