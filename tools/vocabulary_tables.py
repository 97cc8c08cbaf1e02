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


def _level(rating: float) -> str:
    """The level whose band holds ``rating`` (the last takes the rest)."""
    return next((level for level, limit in vocabulary.LEVEL_LIMITS if rating <= limit), vocabulary.LEVELS[-1])


def _not_tried(technique: str) -> str:
    """When the grader leaves ``technique`` out."""
    when = []
    if technique in vocabulary.UNIQUENESS_TECHNIQUES:
        when.append("with `--no-uniqueness`")
    if technique in vocabulary.FULL_SCALE_ROWS:
        when.append("on 16x16 and up, without `--full-scale`")
    elif technique in vocabulary.BIG_GRID_SKIPS:
        when.append("on 16x16 and up")
    if technique in vocabulary.STEP_PATH_ONLY:
        when.append("by the compiled path")
    return "; ".join(when)


def techniques() -> str:
    """Each technique row in the order they are tried: its base rating, the level of that rating, the names of
    the steps it makes (what a grade's ``hardest`` says) and when it is not tried; then guessing."""
    lines = ["| row (`technique`) | base rating | level | its steps (`hardest`) | not tried |", "|---|---|---|---|---|"]
    for technique, rating in vocabulary.TECHNIQUE_TABLE:
        shown = str(rating)
        if technique == "hidden-single":
            shown += (f"; {vocabulary.HIDDEN_SINGLE_IN_BOX_RATING} in a box, {vocabulary.FULL_HOUSE_RATING} a full "
                      "house")
        names = ", ".join(name for name in vocabulary.STEP_NAMES[technique] if name)
        lines.append(f"| `{technique}` | {shown} | {_level(rating)} | {names} | {_not_tried(technique)} |")
    guessing = vocabulary.GUESSING
    lines.append(f"| `{guessing}` | {vocabulary.GUESSING_RATING} | {vocabulary.LEVELS[-1]} | {guessing} | |")
    return "\n".join(lines) + "\n"


def levels() -> str:
    """The levels and the highest ER of each (the last takes the rest, and guessing)."""
    lines = ["| level | ER |", "|---|---|"]
    for level, limit in vocabulary.LEVEL_LIMITS:
        lines.append(f"| `{level}` | up to {limit} |")
    lines.append(f"| `{vocabulary.LEVELS[-1]}` | above {vocabulary.LEVEL_LIMITS[-1][1]}, or guessing |")
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
TABLES = {"techniques": techniques, "levels": levels, "migrations": migrations}


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
