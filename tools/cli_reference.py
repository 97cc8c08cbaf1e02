"""Write docs/cli-reference.md from the ``--help`` of every ``catalogue`` command and subcommand.

    python tools/cli_reference.py           # (re)write docs/cli-reference.md
    python tools/cli_reference.py --check   # exit 1 with one line if the file is stale

Each command is written as Markdown from what its ``--help`` shows (click's own help records, so the words are the
same): the usage, the help's paragraphs, its examples, and a table of its options with their defaults and
environment variables. Tables, not the terminal's padded columns: the page is read in a browser.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "docs" / "cli-reference.md"

#: an option taken with the same words by this many commands is described once, under "Shared options"
SHARED = 3

HEADER = """\
# CLI reference

Generated from each command's `--help` by `python tools/cli_reference.py`; do not edit by hand.
`python tools/cli_reference.py --check` (run by `tests/test_docs.py`) fails when this file is stale.
The guides in [commands/](commands/) explain what the options do, with examples.
"""


def _commands():
    """(name words, click command) for the root, every command and every subcommand, in --help order."""
    import typer
    import typer.main

    from catalogue.cli import app

    group = typer.main.get_command(app)
    ctx = typer.Context(group)
    yield [], group
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        if cmd is None:
            raise SystemExit(f"cli_reference: command {name} does not load")
        yield [name], cmd
        for sub in getattr(cmd, "commands", {}) or {}:
            yield [name, sub], cmd.commands[sub]


def _cell(text: str) -> str:
    """Text for a table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def _records(cmd, ctx) -> list[tuple[str, str]]:
    """(name, help) of each argument and option as ``--help`` shows them (``--help`` itself left out)."""
    records = [param.get_help_record(ctx) for param in cmd.get_params(ctx)]
    return [(name, text) for name, text in filter(None, records) if name != "--help"]


def _section(words: list[str], cmd, ctx, shared: dict[tuple[str, str], str]) -> str:
    """One command as Markdown: its usage, its help's paragraphs (not its examples: the guides show them) and a
    table of its arguments and options, each as ``--help`` says it (click's own help records: name, help, default,
    environment variable), with no column padding; an option in ``shared`` links to the shared table."""
    usage = " ".join(cmd.collect_usage_pieces(ctx))
    lines = [f"`{' '.join(['catalogue', *words, usage])}`", ""]
    text = (cmd.help or "").partition("\b\n")[0]  # the examples are in --help and in the guides
    for paragraph in text.strip().split("\n\n"):
        lines += [" ".join(paragraph.split()), ""]
    rows = []
    for name, help_text in _records(cmd, ctx):
        said = shared.get((name, help_text))
        rows.append(f"| `{_cell(name)}` | {f'[{said}](#shared-options)' if said else _cell(help_text)} |")
    if rows:
        lines += ["| Option | What it does |", "|---|---|", *rows, ""]
    return "\n".join(lines)


def _contexts(entries) -> list:
    """Each command's click context (a subcommand's under its group's), as ``--help`` would make it."""
    import typer

    root = typer.Context(entries[0][1], info_name="catalogue")
    groups = {}
    out = []
    for words, cmd in entries:
        if not words:
            out.append(root)
            continue
        parent = groups[words[0]] if len(words) > 1 else root
        ctx = typer.Context(cmd, info_name=words[-1], parent=parent)
        groups.setdefault(words[0], ctx)
        out.append(ctx)
    return out


def render() -> str:
    entries = list(_commands())
    contexts = _contexts(entries)
    parts = [HEADER, "## Commands\n"]
    for words, _ in entries[1:]:
        title = " ".join(["catalogue", *words])
        parts.append(f"{'  ' * (len(words) - 1)}- [`{title}`](#{title.replace(' ', '-')})")
    parts.append("")
    # an option that several commands take with the same words (--db, --out, --threads, ...) is said once; in
    # each command's table it is a link named by its help's first words
    seen: dict[tuple[str, str], int] = {}
    for (words, cmd), ctx in zip(entries[1:], contexts[1:]):
        for record in _records(cmd, ctx):
            seen[record] = seen.get(record, 0) + 1
    shared = {record: re.split(r"[:.;,(]", record[1])[0].strip() for record, n in seen.items() if n >= SHARED}
    parts += ["## Shared options\n", "Options that several commands take, with the same meaning in each (every "
              "command also takes `-h, --help`):\n", "| Option | What it does |", "|---|---|"]
    parts += [f"| `{_cell(name)}` | {_cell(text)} |" for name, text in shared]
    parts.append("")
    for (words, cmd), ctx in zip(entries, contexts):
        title = " ".join(["catalogue", *words])
        parts.append(f"{'#' * (2 + max(len(words) - 1, 0))} {title}\n")
        parts.append(_section(words, cmd, ctx, shared))
    return "\n".join(parts).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    from generated import main as generate

    sys.path.insert(0, str(ROOT))
    return generate(lambda: {TARGET: render()}, "tools/cli_reference.py", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
