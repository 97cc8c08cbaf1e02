"""Write docs/cli-reference.md from the ``--help`` of every ``catalogue`` command and subcommand.

    python tools/cli_reference.py           # (re)write docs/cli-reference.md
    python tools/cli_reference.py --check   # exit 1 with one line if the file is stale

The help texts are rendered with typer's test runner at a fixed width of 100 columns, without colour and with
every CATALOGUE_* environment variable unset, so the file depends only on the code.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "docs" / "cli-reference.md"
WIDTH = 100

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


def _help(words: list[str]) -> str:
    from typer.testing import CliRunner

    from catalogue.cli import app

    env = {key: None for key in os.environ if key.startswith("CATALOGUE_")}
    env["COLUMNS"] = str(WIDTH)
    result = CliRunner().invoke(app, [*words, "--help"], prog_name="catalogue", env=env, color=False,
                                terminal_width=WIDTH)
    if result.exit_code != 0:
        raise SystemExit(f"cli_reference: catalogue {' '.join(words)} --help exited {result.exit_code}")
    return "\n".join(line.rstrip() for line in result.output.strip("\n").splitlines())


def render() -> str:
    parts = [HEADER]
    entries = list(_commands())
    parts.append("## Commands\n")
    for words, _ in entries[1:]:
        title = " ".join(["catalogue", *words])
        anchor = title.replace(" ", "-")
        indent = "  " * (len(words) - 1)
        parts.append(f"{indent}- [`{title}`](#{anchor})")
    parts.append("")
    for words, _ in entries:
        title = " ".join(["catalogue", *words])
        level = "#" * (2 + max(len(words) - 1, 0))
        parts.append(f"{level} {title}\n")
        parts.append("```\n" + _help(words) + "\n```\n")
    return "\n".join(parts).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    from generated import main as generate

    sys.path.insert(0, str(ROOT))
    return generate(lambda: {TARGET: render()}, "tools/cli_reference.py", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
