"""Every command has help, and the README documents every command."""
from pathlib import Path

import typer.main
from typer.testing import CliRunner

from catalogue.cli import app

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _commands():
    group = typer.main.get_command(app)
    ctx = typer.Context(group)
    for name in group.list_commands(ctx):  # the group loads each command's module lazily
        cmd = group.get_command(ctx, name)
        assert cmd is not None, f"command {name} does not load"
        subcommands = getattr(cmd, "commands", None)
        if subcommands:
            for sub in subcommands:
                yield f"{name} {sub}"
        else:
            yield name


def test_there_are_commands():
    names = set(_commands())
    assert {"fill", "query", "export", "stats", "verify", "db upgrade", "generate", "solve", "check", "carve", "key",
            "grade", "explore"} <= names


def test_every_command_has_help_and_is_in_the_readme():
    runner = CliRunner()
    for name in _commands():
        result = runner.invoke(app, [*name.split(), "--help"])
        assert result.exit_code == 0, (name, result.output)
        assert "Usage" in result.output and len(result.output.splitlines()) > 3, name
        assert f"catalogue {name}" in README, f"README does not show `catalogue {name}`"


def test_version():
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.startswith("catalogue ")
