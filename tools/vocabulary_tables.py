"""Write the tables the docs take from the code between their markers, so that one list is kept.

    python tools/vocabulary_tables.py           # (re)write every marked table
    python tools/vocabulary_tables.py --check   # exit 1 with one line if one is stale

A page holds a table as ``<!-- vocabulary: NAME -->``, the table, ``<!-- end vocabulary -->``; NAME is a key of
:data:`TABLES`. The tables come from ``engine.vocabulary`` and from the docstrings of the schema's migrations
(``catalogue/store/migrations/versions/``, read as text: nothing of the catalogue is imported).
``tests/test_docs.py`` runs the check.
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import vocabulary  # noqa: E402  (plain data: no compiled code is imported)

#: the pages that hold marked tables
PAGES = (ROOT / "docs" / "grading.md", ROOT / "docs" / "storage.md")
#: the schema's migrations, one file each, named by their revision (``0009_shapes.py``)
MIGRATIONS = ROOT / "catalogue" / "store" / "migrations" / "versions"
_MARKED = re.compile(r"(<!-- vocabulary: (?P<name>[a-z-]+) -->\n)(?P<body>.*?)(<!-- end vocabulary -->)", re.S)


def step_names() -> str:
    """Each technique row and the names of the steps it makes (what a grade's ``hardest`` says)."""
    lines = ["| technique (`technique`) | its steps (`hardest`) |", "|---|---|"]
    for technique in vocabulary.TECHNIQUES:
        names = ", ".join(name for name in vocabulary.STEP_NAMES[technique] if name)
        lines.append(f"| `{technique}` | {names} |")
    lines.append(f"| `{vocabulary.GUESSING}` | {vocabulary.GUESSING} |")
    return "\n".join(lines) + "\n"


def levels() -> str:
    """The levels, the highest ER of each (the last takes the rest, and guessing), and the techniques whose one step
    (its base rating) falls in each band."""
    lines = ["| level | ER | techniques whose base rating is in the band |", "|---|---|---|"]
    low = 0.0
    for level, limit in (*vocabulary.LEVEL_LIMITS, (vocabulary.LEVELS[-1], None)):
        rows = [t for t, rating in vocabulary.TECHNIQUE_TABLE if rating > low and (limit is None or rating <= limit)]
        band = f"up to {limit}" if limit is not None else f"above {low}, or guessing"
        lines.append(f"| `{level}` | {band} | {', '.join(f'`{t}`' for t in rows)} |")
        low = limit if limit is not None else low
    return "\n".join(lines) + "\n"


def migrations() -> str:
    """Each revision of the schema, oldest first, and the first line of its migration's docstring (the rest of
    the docstring says what it does to the rows stored before)."""
    lines = ["| revision | what it changes |", "|---|---|"]
    for path in sorted(MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        if not doc:
            raise SystemExit(f"vocabulary_tables: {path.relative_to(ROOT)} has no docstring")
        summary = doc.splitlines()[0].replace("``", "`")
        lines.append(f"| `{path.name[:4]}` | {summary} |")
    return "\n".join(lines) + "\n"


#: table name -> the function that writes it
TABLES = {"step-names": step_names, "levels": levels, "migrations": migrations}


def rendered(text: str) -> str:
    """``text`` with every marked table written again."""
    def table(match: re.Match) -> str:
        name = match["name"]
        if name not in TABLES:
            raise SystemExit(f"vocabulary_tables: no table named {name!r} (known: {', '.join(TABLES)})")
        return match.group(1) + TABLES[name]() + match.group(4)

    return _MARKED.sub(table, text)


def main(argv: list[str] | None = None) -> int:
    from generated import main as generate

    return generate(lambda: {page: rendered(page.read_text(encoding="utf-8")) for page in PAGES},
                    "tools/vocabulary_tables.py", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
