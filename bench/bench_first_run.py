"""The first minutes of a new user (issue 43), side by side with another commit: the install, the first fill from an
empty kernel cache, and the first use of everything else after it.

    python bench/bench_first_run.py [--before REF] [--runs 3] [--count 1000] [--cold-pip]

Both versions are installed as the README says (a fresh virtual environment, ``pip install -e .`` of a copy of
the tree; ``--cold-pip``: with an empty pip cache, so the packages are downloaded as on a new machine), each under
a temporary folder: the checkout and the user's caches are not touched. Then ``--runs`` times, the two versions in
turn, each run in a new home folder (an empty kernel cache):

1. ``catalogue compile`` (this tree only: the README's install step), then ``catalogue fill --count N``;
2. in another new home, ``catalogue fill --count N`` alone: the compile inside the fill;
3. after that fill, in the same home, the first use of each of: ``fill --size 4``, ``--size 16``, ``--size 25``,
   ``import`` (200 9x9 puzzles), ``carve --target-clues``, ``grade --full-scale`` (16x16 puzzles), the web page's
   first hint (the server started, one ``/api/hint`` request timed), and the README's Python example.

Every figure is the whole command from the shell: wall seconds and CPU seconds of its process tree (workers
included), the median of the runs, with the load average before each. Targets (issue 43, 2 cores): a cold fill
<= 25 s wall and <= 40 s of CPU; or, with the compile in the install, install + compile + fill <= 90 s; every
other first use <= 15 s wall (the Python example <= 3 s).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SNIPPET = """
from engine import Grid, generate, carve, solve, grade
board = generate(box=3, method="wfc", seed=7)
cut = carve(board.cells, box=3, seed=7)
assert solve(Grid.puzzle(cut.puzzle), limit=2).count == 1
print(cut.clues, grade(cut.puzzle, 3).level)
"""


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def host() -> str:
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor())
    return f"{model}, {os.cpu_count()} CPUs, Python {platform.python_version()}"


def timed(cmd, env, cwd, stdin=None) -> tuple[float, float, str, int]:
    """Wall and CPU seconds of a command (its whole process tree), its output and its exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, input=stdin)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out.stdout + out.stderr, out.returncode


def copy_tree(ref: str | None, dest: Path) -> None:
    """The files of commit ``ref`` (git archive), or of this working tree (tracked and new, not ignored)."""
    dest.mkdir(parents=True)
    if ref:
        archive = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
        return
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    for name in files:
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)


def base_env(home: Path, venv: Path) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("NUMBA_", "CATALOGUE_", "VIRTUAL_ENV", "PYTHON"))}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / "cache"), PATH=f"{venv / 'bin'}:{env['PATH']}")
    return env


def install(src: Path, venv: Path, pip_cache: Path | None) -> float:
    """The README's install: a new virtual environment and ``pip install -e .``; its wall seconds."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    if pip_cache is not None:
        env["PIP_CACHE_DIR"] = str(pip_cache)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=env)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "-e", str(src)], check=True, env=env,
                   cwd=src, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def first_hint(env, cwd, db: Path, puzzle: str) -> tuple[float, float]:
    """Start the server, wait for its API, then time the first /api/hint (wall) and the server's CPU for it."""
    port = free_port()
    server = subprocess.Popen(["catalogue", "serve", "--db", str(db), "--port", str(port)], env=env, cwd=cwd,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(600):
            try:
                urllib.request.urlopen(f"{base}/api/stats", timeout=5).read()
                break
            except OSError:
                time.sleep(0.1)
        cpu0 = _process_cpu(server.pid)
        started = time.perf_counter()
        urllib.request.urlopen(f"{base}/api/hint?grid={puzzle}", timeout=600).read()
        return time.perf_counter() - started, _process_cpu(server.pid) - cpu0
    finally:
        server.terminate()
        server.wait(timeout=30)


def _process_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def first_uses(env, home: Path, db: Path, data: Path) -> dict[str, tuple[float, float]]:
    """After the first fill: each other first use, in turn, on the same kernel cache."""
    out: dict[str, tuple[float, float]] = {}
    for label, cmd in (("fill --size 4", ["fill", "--count", "50", "--size", "4", "--db", str(home / "c4.db")]),
                       ("fill --size 16", ["fill", "--count", "3", "--size", "16", "--db", str(home / "c16.db")]),
                       ("fill --size 25", ["fill", "--count", "1", "--size", "25", "--db", str(home / "c25.db")]),
                       ("import", ["import", str(data / "import.txt"), "--db", str(home / "ci.db")]),
                       ("carve --target-clues", ["carve", str(data / "boards.txt"), "--target-clues", "26"]),
                       ("grade --full-scale", ["grade", str(data / "p16.txt"), "--full-scale"])):
        wall, cpu, text, code = timed(["catalogue", *cmd], env, home)
        if code:
            sys.exit(f"{label} failed ({code}):\n{text[-2000:]}")
        out[label] = (wall, cpu)
    out["first hint"] = first_hint(env, home, db, (data / "hint.txt").read_text().strip())
    wall, cpu, text, code = timed([str(Path(env["PATH"].split(":")[0]) / "python"), "-c", SNIPPET], env, home)
    if code:
        sys.exit(f"the README's Python example failed:\n{text[-2000:]}")
    out["README Python example"] = (wall, cpu)
    return out


def make_data(data: Path) -> None:
    """Inputs for the first uses, made with this checkout's engine (the same files for both versions)."""
    data.mkdir(parents=True, exist_ok=True)
    code = f"""
import sys; sys.path.insert(0, {str(ROOT)!r})
from pathlib import Path
import numpy as np
from engine import carve_many, generate_many, to_line
data = Path({str(data)!r})
boards = generate_many(3, "wfc", 200, 11)
cuts = carve_many(np.stack([b.cells for b in boards]), 3, list(range(200)))
(data / "import.txt").write_text("".join(to_line(c.puzzle, 3) + "\\n" for c in cuts))
(data / "boards.txt").write_text("".join(to_line(b.cells, 3) + "\\n" for b in boards[:4]))
(data / "hint.txt").write_text(to_line(cuts[0].puzzle, 3))
rows = [line.split(":")[0] for line in Path({str(ROOT / 'data' / 'puzzles-16x16.txt')!r}).read_text().splitlines()
        if line and not line.startswith("#") and line.split(":")[1] == "1"]
(data / "p16.txt").write_text("\\n".join(rows[:2]) + "\\n")
"""
    subprocess.run([sys.executable, "-c", code], check=True)


def median(values) -> float:
    return statistics.median(values) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default="7835bcd", help="the commit to compare with (default: 7835bcd, main "
                                                           "before issue 43)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--cold-pip", action="store_true", help="install with an empty pip cache (downloads)")
    args = parser.parse_args()
    print(f"host: {host()}")
    with tempfile.TemporaryDirectory(prefix="bench-first-run-") as tmp:
        tmp = Path(tmp)
        make_data(tmp / "data")
        versions = {"before": args.before, "now": None}
        venvs, installs = {}, {}
        for name, ref in versions.items():
            src = tmp / f"src-{name}"
            copy_tree(ref, src)
            print(f"load before installing {name}: {load()}")
            venvs[name] = tmp / f"venv-{name}"
            installs[name] = install(src, venvs[name], tmp / f"pip-{name}" if args.cold_pip else None)
            print(f"install {name}: {installs[name]:.1f} s wall (pip install -e, "
                  f"{'empty' if args.cold_pip else 'warm'} pip cache)")
        rows: dict[str, dict[str, list]] = {name: {} for name in versions}

        def note(version: str, label: str, wall: float, cpu: float, extra: str = "") -> None:
            rows[version].setdefault(label, []).append((wall, cpu))
            print(f"  {version:6} {label:28} wall {wall:7.2f} s  CPU {cpu:7.2f} s {extra}", flush=True)

        for run in range(args.runs):
            for name in versions:
                venv = venvs[name]
                # a new machine has no kernels anywhere: the code before this issue also cached beside the modules
                # (numba's default, where a Python script without engine.cache.enable() compiled)
                for stale in (tmp / f"src-{name}").rglob("__pycache__/*.nb[ic]"):
                    stale.unlink()
                print(f"run {run + 1}, {name} (load {load()}):", flush=True)
                if name == "now":  # the README's install step, then the fill it runs
                    home = tmp / f"home-{name}-{run}-compiled"
                    (home / "cache").mkdir(parents=True)
                    env = base_env(home, venv)
                    wall, cpu, text, code = timed(["catalogue", "compile"], env, home)
                    if code:
                        sys.exit(f"catalogue compile failed:\n{text[-2000:]}")
                    note(name, "catalogue compile", wall, cpu)
                    wall, cpu, text, code = timed(["catalogue", "fill", "--count", str(args.count), "--seed", "1",
                                                   "--db", str(home / "c.db")], env, home)
                    note(name, f"fill {args.count} after compile", wall, cpu,
                          f"({cpu / args.count * 1e3:.2f} ms CPU a board)")
                home = tmp / f"home-{name}-{run}"
                (home / "cache").mkdir(parents=True)
                env = base_env(home, venv)
                wall, cpu, text, code = timed(["catalogue", "fill", "--count", str(args.count), "--seed", "1",
                                               "--db", str(home / "c.db")], env, home)
                if code:
                    sys.exit(f"fill failed:\n{text[-2000:]}")
                compiled = sum(1 for _ in (home / "cache").rglob("*.nbc"))
                note(name, f"cold fill {args.count}", wall, cpu, f"({compiled} kernel files)")
                for label, (wall, cpu) in first_uses(env, home, home / "c.db", tmp / "data").items():
                    note(name, label, wall, cpu)
                wall, cpu, text, code = timed(["catalogue", "fill", "--count", str(args.count), "--seed", "2",
                                               "--db", str(home / "warm.db")], env, home)
                note(name, f"warm fill {args.count}", wall, cpu, f"({cpu / args.count * 1e3:.2f} ms CPU a board)")

        print(f"\nmedians of {args.runs} runs (wall s / CPU s); host {host()}")
        labels = list(dict.fromkeys(label for version in rows.values() for label in version))
        print(f"{'':30}{'before':>20}{'now':>20}")
        for label in labels:
            cells = []
            for name in versions:
                values = rows[name].get(label, [])
                cells.append(f"{median(v[0] for v in values):8.2f} / {median(v[1] for v in values):7.2f}"
                             if values else f"{'-':>18}")
            print(f"{label:30}{cells[0]:>20}{cells[1]:>20}")
        now = rows["now"]
        readme = installs["now"] + median(v[0] for v in now["catalogue compile"]) + median(
            v[0] for v in now[f"fill {args.count} after compile"])
        print(f"\nREADME install + catalogue compile + fill {args.count}: {readme:.1f} s wall (target <= 90 s; "
              f"install {installs['now']:.1f} s)")
        cold = now[f"cold fill {args.count}"]
        print(f"cold fill {args.count}: {median(v[0] for v in cold):.1f} s wall, {median(v[1] for v in cold):.1f} s "
              f"CPU (target <= 25 s wall, <= 40 s CPU)")
        slowest = max((median(v[0] for v in now[label]), label) for label in now
                      if label not in ("catalogue compile", f"cold fill {args.count}", f"warm fill {args.count}",
                                       f"fill {args.count} after compile"))
        print(f"slowest other first use: {slowest[1]}, {slowest[0]:.1f} s wall (target <= 15 s; the README's Python "
              f"example <= 3 s: {median(v[0] for v in now['README Python example']):.1f} s)")
        print(json.dumps({"installs": installs}), file=sys.stderr)


if __name__ == "__main__":
    main()
