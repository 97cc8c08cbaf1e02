"""One list for each name: every command's ``--format`` offers whole lists of engine.vocabulary (grid formats,
record formats, summary formats), lists them in its help, and names no format in its code; so a format added to
the vocabulary is a choice, and in the help, of every command that prints its kind with no other edit. The test of
that last claim adds a grid format and a record format to a copy of the vocabulary, in a process of its own.

This module imports no part of the catalogue at its top: that process imports it after the swap."""
from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import typer
import typer.main

from engine import vocabulary

ROOT = Path(__file__).resolve().parents[3]
COMMANDS = ROOT / "catalogue" / "cli" / "commands"
#: a format name that is no format's: a literal in a command's code is allowed only here (file, name, why)
NOT_FORMATS = {("book.py", "svg")}  # the book's -o kind, named by the file's extension, not a --format choice


def offered() -> dict[str, tuple[str, ...]]:
    """What the vocabulary offers each command's ``--format``, in the order its help lists them: whole lists, but
    for the single names a command prints apart (key's keys and grade's grades a line each, LINE; generate's
    array of grids, JSON; export's board file, TXT, first)."""
    v = vocabulary  # (the module imported: the swapped one in the process with new formats)
    records, grids, summary = v.RECORD_FORMATS, v.GRID_FORMATS, v.SUMMARY_FORMATS
    return {
        "query": (*records, *grids), "daily": (*records, *grids),
        "solve": (*grids, *records), "carve": (*grids, *records),
        "generate": (*grids, v.JSON), "export": tuple(dict.fromkeys((v.TXT, *v.WRITE_FORMATS))),
        "key": (v.LINE, *records), "grade": (*records, v.LINE), "explore": records,
        "import": summary, "regrade": summary, "stats": summary,
    }


def _options():
    """(command, option, choices, help, help record) of every ``--format`` and ``--input-format``."""
    from catalogue.cli import app

    group = typer.main.get_command(app)
    ctx = typer.Context(group)
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        for sub, subcmd in (getattr(cmd, "commands", None) or {name: cmd}).items():
            sub_ctx = typer.Context(subcmd, info_name=sub, parent=ctx)
            for param in subcmd.params:
                option = next((o for o in ("--format", "--input-format") if o in getattr(param, "opts", ())), None)
                if option:
                    choices = [getattr(c, "value", c) for c in param.type_descriptor.choices]
                    yield sub, option, choices, param.help or "", param.get_help_record(sub_ctx)[1]


def problems() -> tuple[list[str], dict[str, list[str]]]:
    """What is wrong with the commands' format options against the vocabulary imported, and each command's
    ``--format`` choices."""
    found, choices_of = [], {}
    expected = offered()
    for name, option, choices, help_text, record in _options():
        if option == "--input-format":
            if tuple(choices) != ("auto", *vocabulary.FORMATS):
                found.append(f"{name} --input-format: {choices}, not auto and {vocabulary.FORMATS}")
            continue
        choices_of[name] = choices
        want = expected.get(name)
        if want is None:
            found.append(f"{name}: a --format this test does not know: add it to offered()")
        elif tuple(choices) != want:
            found.append(f"{name}: choices {choices}; the vocabulary offers {list(want)}")
        listed = {word for group in re.findall(r"\(([^()]*)\)", help_text) for word in group.split(", ")}
        unlisted = [c for c in choices if c not in listed]
        if unlisted:
            found.append(f"{name}: the help lists no {unlisted}: {help_text!r}")
        default = re.search(r"\[default: ([^];]+)", record)
        if default is None or default[1] not in choices:
            found.append(f"{name}: the help names no default among its choices: {record!r}")
    found += [f"{name}: no --format" for name in expected if name not in choices_of]
    return found, choices_of


def test_every_command_offers_and_lists_the_formats_of_its_kinds():
    found, _ = problems()
    assert found == []


NEW_FORMATS = r"""
import ast, json, sys, types
from pathlib import Path

import engine
import engine.formats.registry  # (both check their readers and writers against the names as they are: a new
import catalogue.output  # format's would be written with it, in engine/formats/ and catalogue/output.py)
import engine.vocabulary as real

path = Path(real.__file__)
source = path.read_text(encoding="utf-8")
ends = {t.id: node.end_lineno for node in ast.parse(source).body if isinstance(node, ast.Assign)
        for t in node.targets if isinstance(t, ast.Name)}
lines = source.splitlines()
# a new format as its author adds it: a row of FORMAT_TABLE; a new record format: a name of RECORD_FORMATS
for after, line in sorted([(ends["FORMAT_TABLE"], 'FORMAT_TABLE = (*FORMAT_TABLE, ("zzgrid", SYMBOL))'),
                           (ends["RECORD_FORMATS"], 'RECORD_FORMATS = (*RECORD_FORMATS, "zzrecord")')],
                          reverse=True):
    lines.insert(after, line)
swapped = types.ModuleType("engine.vocabulary")
swapped.__file__ = str(path)
exec(compile("\n".join(lines), str(path), "exec"), swapped.__dict__)
sys.modules["engine.vocabulary"] = engine.vocabulary = swapped

sys.path.insert(0, sys.argv[1])
import test_format_options

found, choices = test_format_options.problems()
print(json.dumps({"problems": found, "choices": choices, "offered": test_format_options.offered()}))
"""


def test_a_new_grid_format_and_record_format_reach_every_command_with_no_other_edit():
    out = subprocess.run([sys.executable, "-c", NEW_FORMATS, str(Path(__file__).parent)], capture_output=True,
                         text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout)
    assert result["problems"] == []
    grids = {name for name, names in result["choices"].items() if "zzgrid" in names}
    records = {name for name, names in result["choices"].items() if "zzrecord" in names}
    assert grids == {"query", "daily", "solve", "carve", "generate", "export"}
    assert records == {"query", "daily", "solve", "carve", "key", "grade", "explore"}  # (summaries: table, json)


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _field_name(node: ast.AST, parents: dict) -> bool:
    """A dict key, or an item of a tuple of fields (``RECORD_FIELDS``): ``line`` is also a record's field, the
    line of the input a grid was read from."""
    parent = parents.get(node)
    if isinstance(parent, ast.Dict) and node in parent.keys:
        return True
    assign = parents.get(parent)
    return (isinstance(parent, ast.Tuple) and isinstance(assign, ast.Assign)
            and all(isinstance(t, ast.Name) and t.id.endswith("_FIELDS") for t in assign.targets))


def test_no_command_types_a_format_name():
    """Formats are named by engine.vocabulary's constants (LINE, TABLE, JSON, ...) and lists, never as text or as
    an enum member (``OutputFormat.line``), so each name is written once and a command that compares with one is
    found by a search for the constant."""
    names = {*vocabulary.WRITE_FORMATS, *vocabulary.RECORD_FORMATS}
    typed = []
    for path in sorted(COMMANDS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = _parents(tree)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and node.value in names and (path.name, node.value) not in NOT_FORMATS
                    and not _field_name(node, parents)):
                typed.append(f"{path.name}:{node.lineno}: {node.value!r}")
            elif (isinstance(node, ast.Attribute) and node.attr in names and isinstance(node.value, ast.Name)
                  and node.value.id[:1].isupper()):
                typed.append(f"{path.name}:{node.lineno}: {node.value.id}.{node.attr}")
    assert typed == []


def test_symbol_formats_are_those_that_write_a_digit_as_a_symbol():
    """FORMAT_TABLE says how each format writes a digit above 9; its writer agrees (16 is G, or 16)."""
    import numpy as np

    from engine import formats

    cells = np.zeros(256, dtype=np.int8)
    cells[0] = 16
    symbols = {name for name in vocabulary.FORMATS if "G" in formats.write(cells, name, 4)}
    assert symbols == set(vocabulary.SYMBOL_FORMATS)
