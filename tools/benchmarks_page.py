"""Write docs/benchmarks.md from the measured results in bench/results/.

    python tools/benchmarks_page.py           # (re)write docs/benchmarks.md
    python tools/benchmarks_page.py --check   # exit 1 with one line if the file is stale

The figures live in bench/results/ as data, one TOML file per area (its name sets the page's order) and
hosts.toml for the machines; this script only lays them out, so a new measurement is an edit of one results file
and a rerun. The page holds today's figures; their history is the git log of bench/results/.

An area file has `title` (the section heading: other pages link to its anchor, so keep it), an optional `about`
sentence, and one `[[line]]` table a measurement, with:

    label       what was measured
    value       a number, a [low, high] range (of runs, or of the cases the label names), or text ("4 of 30")
    unit        after the value ("/s" joins it: 1,788/s); per CPU second unless it says wall
    note        optional: more figures of the same run
    target      optional: the target set for it
    peer, peer_value, ratio
                optional: what ran side by side, its figure, and how many times its speed we ran
    command     what reproduces it, from the repository root ("(no script: ...)" when nothing does)
    host, load  a key of hosts.toml, and the load average before the run ("-": not recorded)
    date, commit
                when, and the commit that recorded the figure
"""
from __future__ import annotations

import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
TARGET = ROOT / "docs" / "benchmarks.md"

HEADER = """\
# Benchmarks

Generated from [bench/results/](../bench/results/) by `python tools/benchmarks_page.py` (a test checks it is fresh):
edit an area's file there, never this page; older figures: `git log -p bench/results/`. **figure**: per
CPU second (one core) unless it says wall, medians of repeated runs; a range spans runs made in turn or the cases
named; the target in brackets. **beside**: the peer run side by side, and our speed as a multiple of its (above x1:
faster). **command**: from the repository root ("same": as above; peers and lists not shipped:
[bench/README.md](../bench/README.md)). **host, load**: the machine (below) and the load average before the run (-:
none). **date, commit**: the code measured is at or before the commit.

Hosts: shared 2-core VMs; rates move with the host and its neighbours: compare ratios
of one run. Python 3.11, numba 0.68, warm kernel caches unless said cold.
"""

COLUMNS = ("what", "figure", "beside", "command", "host, load", "date, commit")


def _number(value) -> str:
    """A figure as the runs printed it: thousands separated; a pair [low, high] is a range."""
    if isinstance(value, list):
        return "-".join(_number(v) for v in value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return f"{value:,}"


def _ratio(value) -> str:
    """x0.80, x1.47-1.51, x1,408: how many times the peer's speed (two decimals below 1, as the runs printed)."""
    if isinstance(value, list):
        return "x" + "-".join(_ratio(v)[1:] for v in value)
    if isinstance(value, float) and value < 1:
        return f"x{value:.2f}"
    return f"x{_number(value)}"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ").strip()


def _cells(line: dict, hosts: dict) -> list[str]:
    unit = line["unit"]
    # "1,788/s" and "100 %" read as one figure; an empty unit leaves the number alone
    figure = _number(line["value"]) + (unit if unit.startswith("/") else f" {unit}" if unit else "")
    if "note" in line:
        figure += f"; {line['note']}"
    if "target" in line:
        figure += f" (target {line['target']})"
    beside = "-"
    if "peer" in line:
        beside = line["peer"]
        if "peer_value" in line:
            beside += f" {_number(line['peer_value'])}"
        if "ratio" in line:
            beside = f"{_ratio(line['ratio'])} {beside}"
    host = hosts[line["host"]]["name"]  # a KeyError here names a host missing from hosts.toml
    command = line["command"]
    if not command.startswith("("):  # "(no script: ...)" is words, not a command to copy
        command = f"`{command}`"
    return [line["label"], figure, beside, command, f"{host}, {line['load']}", f"{line['date']}, {line['commit']}"]


def _hosts_table(hosts: dict) -> str:
    rows = ["| host | CPU | cores | measured |", "|---|---|---|---|"]
    for host in hosts.values():
        rows.append(f"| {host['name']} | {host['cpu']} | {host['cores']} | {host['when']} |")
    return "\n".join(rows)


def _area(data: dict, hosts: dict) -> str:
    parts = [f"## {data['title']}\n"]
    if "about" in data:
        parts.append(data["about"].strip() + "\n")
    parts.append("| " + " | ".join(COLUMNS) + " |")
    parts.append("|" + "---|" * len(COLUMNS))
    above: list[str] = []
    for line in data["line"]:
        cells = _cells(line, hosts)
        # lines of one run share their command, host and date: "same" keeps the page short and the run visible
        shown = [c if i < 3 or not above or c != above[i] else "same" for i, c in enumerate(cells)]
        parts.append("| " + " | ".join(_cell(c) for c in shown) + " |")
        above = cells
    return "\n".join(parts) + "\n"


def render() -> str:
    hosts = tomllib.loads((RESULTS / "hosts.toml").read_text(encoding="utf-8"))
    parts = [HEADER, "## Hosts\n", _hosts_table(hosts) + "\n"]
    for path in sorted(RESULTS.glob("[0-9]*.toml")):  # 01-solving.toml, 02-...: the file names set the order
        parts.append(_area(tomllib.loads(path.read_text(encoding="utf-8")), hosts))
    return "\n".join(parts).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    from generated import main as generate

    return generate(lambda: {TARGET: render()}, "tools/benchmarks_page.py", __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
