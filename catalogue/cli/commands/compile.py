"""catalogue compile: compile the engine's kernels ahead of the commands that need them."""
from __future__ import annotations

import os
import time
from typing import Annotated, Optional

import typer

from engine import vocabulary

from ...choices import Equivalence, Method, _choices, check_size
from ...errors import UsageError
from ...kernels import COMMAND_JOBS

#: the commands that have kernels to compile
Command = _choices("Command", tuple(COMMAND_JOBS), "Commands with compiled kernels (catalogue/kernels.py).")


def _check_sizes(values: Optional[list[int]]) -> Optional[list[int]]:
    for value in values or ():
        check_size(value)
    return values


def register(app: typer.Typer) -> None:
    @app.command("compile")
    def compile_(
        commands: Annotated[Optional[list[Command]], typer.Argument(
            metavar="COMMAND", show_default=False,
            help=f"The commands to compile for: {', '.join(COMMAND_JOBS)} [default: fill].")] = None,
        sizes: Annotated[Optional[list[int]], typer.Option(
            "--size", metavar="N", callback=_check_sizes, show_default=False,
            help="Grid size (4, 9, 16 or 25 rows); repeat for several [default: 9].")] = None,
        method: Annotated[Method, typer.Option(help="The generator fill and generate will use.")] = Method.wfc,
        equivalence: Annotated[Equivalence, typer.Option(
            "--equivalence", "-e", help="The equivalence fill, import and key will use.")] = Equivalence.d4,
        everything: Annotated[bool, typer.Option(
            "--all", help="Every command, every generator and equivalence, every size, and the nested forcing "
            "chains (minutes).")] = False,
        workers: Annotated[int, typer.Option(
            min=0, help="Compile processes (0: one per core).")] = 0,
    ) -> None:
        """Compile the engine's kernels now, for the commands and grid sizes given.

        The first command that needs a kernel compiles it, once per install: tens of seconds on every core
        (docs/benchmarks.md says how long on two cores); later runs, of any command or from Python, load it in
        about a second from one cache folder. This does it ahead of time, with the same progress: after an install, for
        a machine image, or before a demo. Ctrl-C stops at once (exit 130); the kernels finished are kept.

        \b
        Examples:
          catalogue compile
          catalogue compile import grade --size 9 --size 16
          catalogue compile --all
        """
        from ...kernels import jobs_for, ready
        from ...progress import Display

        if everything and (commands or sizes):
            raise UsageError("--all compiles every command for every size: give no COMMAND and no --size with it")
        names = list(COMMAND_JOBS) if everything else list(dict.fromkeys(c.value for c in commands or [Command.fill]))
        boxes = [b for b in vocabulary.BOX_SIZES] if everything else sorted({_box(s) for s in sizes or [9]})
        methods = vocabulary.METHODS if everything else (method.value,)
        equivalences = vocabulary.EQUIVALENCES if everything else (equivalence.value,)
        jobs = list(dict.fromkeys(job for name in names for m in methods for e in equivalences
                                  for job in jobs_for(name, boxes, method=m, equivalence=e)))
        if everything:  # (no command's jobs: the hardest puzzles' rows compile when one is met, catalogue.kernels)
            from engine.warmup.jobs import NESTED_JOB

            jobs.append(NESTED_JOB)
        started = time.perf_counter()
        with Display("compile") as display:
            # one command named on the line, which must fit 80 columns with the spinner and the time elapsed
            result = ready(jobs, display, names[0] if len(names) == 1 else "", workers=workers or None)
        seconds = time.perf_counter() - started
        what = f"{', '.join(names)} ({', '.join(f'{b * b}x{b * b}' for b in boxes)})"
        if result.kernels or result.compiled_here:
            cores = max(1, result.workers)
            typer.echo(f"compiled {result.kernels or result.compiled_here} kernels for {what} in {seconds:.1f} s "
                       f"on {cores} core{'s' if cores > 1 else ''}")
        else:
            typer.echo(f"the kernels for {what} were compiled already: loaded in {seconds:.1f} s")
        typer.echo(f"kernel cache: {os.environ.get('NUMBA_CACHE_DIR', 'numba default')}")


def _box(size: int) -> int:
    from engine.geometry import box_for_size

    return box_for_size(size)
