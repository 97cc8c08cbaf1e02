"""Help that teaches: every command's help is reachable with -h, opens with one whole sentence, carries an
Examples block whose commands really run, names no history, and the root's list costs no command import.

The examples are run in the order `catalogue --help` lists the commands, in one temporary folder holding a link
to the repository's data/ folder: fill's example makes demo.db, which the examples of query, export, stats,
verify and db then read; generate's example makes boards.txt. An example that needs the shell (a pipe, a
redirection, a glob, quotes, a server started with ``&``) runs in bash, with the installed ``catalogue`` script;
a plain ``catalogue ARGS`` line runs its argv through CliRunner in this process, from the same folder and with
the same environment (a process of its own cost 0.3 to 3 s of CPU, mostly imports and kernel loading, for each of
some 50 lines).
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from catalogue.cli import COMMANDS, app

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent  # the venv's bin, which holds the `catalogue` script
HISTORY = re.compile(r"\bseeds? 00\d\b|\bissue\b|\bthis turn\b", re.I)
#: what makes an example line the shell's to run: anything bash would read otherwise than as plain words
SHELL_SYNTAX = re.compile(r"""[|&;<>()$`*?\[\]{}~\\'"!#]""")


def _env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CATALOGUE_")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env.update(extra)
    return env


def _all_commands() -> list[tuple[list[str], object]]:
    """(words, click command) for the root, every command and every subcommand, in --help order."""
    group = typer.main.get_command(app)
    ctx = typer.Context(group)
    out = [([], group)]
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        assert cmd is not None, name
        out.append(([name], cmd))
        for sub, subcmd in (getattr(cmd, "commands", None) or {}).items():
            out.append(([name, sub], subcmd))
    return out


COMMAND_WORDS = [words for words, _ in _all_commands()]


def _help(words: list[str], flag: str = "--help") -> str:
    env = {k: None for k in os.environ if k.startswith("CATALOGUE_")}
    result = CliRunner().invoke(app, [*words, flag], prog_name="catalogue", env=env, color=False)
    assert result.exit_code == 0, (words, flag, result.output)
    return result.output


def first_sentence(help_text: str) -> str:
    """The first paragraph of a help text, whitespace collapsed: by our rule it is one whole sentence."""
    return " ".join(help_text.strip().split("\n\n")[0].split())


def examples(help_output: str) -> list[str]:
    """The command lines of the `Examples:` block of a rendered --help."""
    lines = help_output.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == "Examples:"]
    assert len(starts) == 1, "expected one Examples: block"
    indent = len(lines[starts[0]]) - len(lines[starts[0]].lstrip())
    out = []
    for line in lines[starts[0] + 1:]:
        if not line.strip() or len(line) - len(line.lstrip()) <= indent:
            break
        out.append(line.strip())
    return out


@pytest.mark.parametrize("words", COMMAND_WORDS, ids=lambda w: " ".join(w) or "catalogue")
def test_dash_h_is_help(words):
    assert _help(words, "-h") == _help(words, "--help")


@pytest.mark.parametrize("words", COMMAND_WORDS, ids=lambda w: " ".join(w) or "catalogue")
def test_help_opens_with_one_sentence_and_has_examples(words):
    cmd = dict((tuple(w), c) for w, c in _all_commands())[tuple(words)]
    sentence = first_sentence(cmd.help)
    assert sentence.endswith(".") and ". " not in sentence, sentence
    if len(words) == 2:  # `catalogue db -h` lists its subcommands through click, which cuts at 45 characters
        assert cmd.get_short_help_str(45) == sentence, sentence
    output = _help(words)
    found = examples(output)
    assert 1 <= len(found) <= 4 and all(line.startswith(("catalogue ", "curl ")) for line in found), found
    assert not HISTORY.search(output), HISTORY.search(output).group(0)


@pytest.mark.parametrize("words", COMMAND_WORDS, ids=lambda w: " ".join(w) or "catalogue")
def test_help_fits_80_columns_and_shows_no_typer_internals(words):
    env = {**{k: None for k in os.environ if k.startswith("CATALOGUE_")}, "COLUMNS": "80"}
    output = CliRunner().invoke(app, [*words, "--help"], prog_name="catalogue", env=env, color=False).output
    too_long = [line for line in output.splitlines() if len(line) > 80]
    assert not too_long, too_long
    internals = re.findall(r"<(?:int|float|str|list)[^>]*>|\{[A-Z_.]+\}|\bx[<>]=-?\d+", output)
    assert not internals, internals


def test_the_root_list_is_each_commands_first_sentence():
    for words, cmd in _all_commands():
        if len(words) == 1:
            assert COMMANDS[words[0]][1] == first_sentence(cmd.help), words
    listed = _help([]).split("Commands:\n", 1)[1]
    for name, (_, summary) in COMMANDS.items():
        assert re.search(rf"^  {name} +{re.escape(summary.split()[0])}", listed, re.M), name
    assert "..." not in listed


_LOADED = """
import json, sys
from catalogue.cli import main
sys.argv = ["catalogue", *{argv!r}]
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m == "numba" or m.startswith("catalogue.cli.commands."))),
      file=sys.stderr)
"""


@pytest.mark.parametrize("argv", [["--help"], ["-h"], ["query", "--help"], ["export", "-h"], ["stats", "--help"]])
def test_help_imports_no_numba(argv):
    done = subprocess.run([sys.executable, "-c", _LOADED.format(argv=argv)], capture_output=True, text=True,
                          env=_env(), timeout=120)
    loaded = json.loads(done.stderr.strip().splitlines()[-1])
    assert "numba" not in loaded
    if len(argv) == 1:  # the root's list comes from COMMANDS: no command module at all
        assert loaded == []


def test_show_completion_prints_a_script(tmp_path):
    # through bash, as a user would run it (typer detects the shell from the parent process); `; true` keeps
    # bash from replacing itself with catalogue
    done = subprocess.run(["bash", "-c", "catalogue --show-completion bash; true"], capture_output=True,
                          text=True, env=_env(SHELL="/bin/bash", HOME=str(tmp_path)), timeout=120)
    assert "_catalogue_completion" in done.stdout and "complete " in done.stdout, done.stderr


def test_install_completion_and_complete_a_command(tmp_path):
    done = subprocess.run(["bash", "-c", "catalogue --install-completion bash; true"], capture_output=True,
                          text=True, env=_env(SHELL="/bin/bash", HOME=str(tmp_path)), timeout=120)
    assert "completion installed" in done.stdout, done.stdout + done.stderr
    assert "catalogue" in (tmp_path / ".bashrc").read_text()
    # what bash then asks on TAB: command names come from the static table
    done = subprocess.run(["catalogue"], capture_output=True, text=True, timeout=120,
                          env=_env(_CATALOGUE_COMPLETE="complete_bash", COMP_WORDS="catalogue q", COMP_CWORD="1"))
    assert done.stdout.split() == ["query"], done.stdout + done.stderr


def _start_in_background(line: str, cwd: Path, env: dict) -> subprocess.Popen:
    """An example ending in ``&`` (a server), started as the shell would, and waited for until it says it serves."""
    proc = subprocess.Popen(["bash", "-c", f"exec {line}"], cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    first = proc.stderr.readline()
    assert first.startswith("catalogue: serving "), f"`{line}`: {first}{proc.stderr.read() if proc.poll() else ''}"
    return proc


def _run_here(line: str, env: dict) -> tuple[int, str]:
    """A plain ``catalogue ARGS`` example (no shell syntax), run in this process: its exit code and stderr."""
    argv = shlex.split(line)
    assert argv[0] == "catalogue", line
    result = CliRunner().invoke(app, argv[1:], prog_name="catalogue", env=env, color=False)
    assert result.exception is None or isinstance(result.exception, SystemExit), (line, result.exc_info)
    return result.exit_code, result.stderr


@pytest.mark.slow
def test_every_example_runs(tmp_path, monkeypatch):
    """Each example line of every --help, run in one folder, in --help order, exits 0: by bash when it uses the
    shell, else through CliRunner."""
    (tmp_path / "data").symlink_to(ROOT / "data", target_is_directory=True)
    env = _env(COLUMNS="80")
    # the same environment for the lines run here: no CATALOGUE_* variable, 80 columns
    here = {**{k: None for k in os.environ if k.startswith("CATALOGUE_")}, "COLUMNS": "80"}
    monkeypatch.chdir(tmp_path)
    ran = []
    in_bash = 0
    for words in COMMAND_WORDS:
        background = []  # `catalogue serve ... &`: a server the command's next examples talk to
        try:
            for line in examples(_help(words)):
                if line.endswith("&"):
                    background.append(_start_in_background(line[:-1], tmp_path, env))
                    ran.append(line)
                    continue
                if SHELL_SYNTAX.search(line) or not line.startswith("catalogue "):
                    done = subprocess.run(["bash", "-o", "pipefail", "-c", line], cwd=tmp_path, env=env,
                                          capture_output=True, text=True, timeout=600)
                    code, stderr = done.returncode, done.stderr
                    in_bash += 1
                else:
                    code, stderr = _run_here(line, here)
                assert code == 0, (f"catalogue {' '.join(words)} --help: `{line}` exited "
                                   f"{code}:\n{stderr[-2000:]}")
                ran.append(line)
        finally:
            for proc in background:
                proc.send_signal(signal.SIGINT)
                proc.wait(timeout=30)
    assert len(ran) >= 2 * len(COMMAND_WORDS)
    assert in_bash >= 10  # the pipes, redirections, globs and the server: the installed script, run by bash
    assert shutil.which("catalogue", path=env["PATH"]).startswith(str(BIN))
