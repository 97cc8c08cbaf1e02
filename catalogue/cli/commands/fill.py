"""catalogue fill: add N new unique boards, with carved, graded puzzles, to the catalogue (the main job).

The command only parses options, draws the progress bar and prints the summary; the work is
:func:`catalogue.pipeline.run.fill`. Progress and messages go to stderr (the bar only when stderr is a terminal);
the summary goes to stdout.
"""
from __future__ import annotations

import logging
import os
import sys
from typing import Annotated, Optional

import typer

from ...choices import (
    Equivalence,
    Level,
    Method,
    Symmetry,
    check_regions,
    grid_kind,
)
from ...config import DEFAULT_QUEUE_SIZE, SEED_MAX, default_workers, draw_seed
from ...console import report
from ...errors import EXIT_RUNTIME, UserError
from ..options import (
    CheckersOption,
    DbOption,
    DiagonalsOption,
    GeneratorsOption,
    GridSizeOption,
    OutOption,
    QueueSizeOption,
    RegionsOption,
    ShapeOption,
)

log = logging.getLogger("catalogue")


def _progress(display, count: int):
    """The callback the run sends its snapshots to: moves the display's bar (a no-op without a terminal)."""
    bar = []  # the line becomes a bar at the first snapshot, once the kernels are ready

    def progress(snapshot: dict) -> None:
        if not bar:
            bar.append(display.bar(count, duplicates=0, contradictions=0))
        update = bar[0]
        elapsed = snapshot["elapsed"]
        update(snapshot["accepted"], final=snapshot.get("final", False), duplicates=snapshot["duplicates"],
               contradictions=snapshot["contradictions"],
               rate=snapshot["accepted"] / elapsed if elapsed > 0 else 0.0)
    return progress


def _surplus_reason(status: str) -> str:
    """Why generated boards were neither stored nor counted as duplicates."""
    if status == "exhausted":
        return "not checked: the run stopped when the space looked exhausted"
    return "not needed: the count was already covered"


def format_summary(s, width: int | None = None) -> str:
    """The end-of-run summary (stdout): counts, numbers, time, seed, and each stage's throughput as a table that
    fits ``width`` columns (catalogue.tables.table_text)."""
    from ...english import count, numbers, rate as per_second
    from ...tables import table_text

    lines = [
        f"status          {s.status} (run {s.run_id})",
        f"accepted        {s.accepted:,} of {count(s.requested, 'new board')} ({numbers(s.first_number, s.last_number, s.number_runs)})",
        f"duplicates      {s.duplicates:,}",
        f"contradictions  {s.contradictions:,} (generator restarts)",
        f"generated       {s.generated:,}" + (f" ({s.surplus:,} {_surplus_reason(s.status)})" if s.surplus else ""),
    ]
    if s.dropped:
        lines.append(f"in flight       {s.dropped:,} boards were still in the pipeline when it stopped (not stored)")
    if s.off_level:
        lines.append(f"off level       {s.off_level:,} of {s.accepted:,} puzzles did not reach the level within the "
                     f"tries (stored with the closest level)")
    rate = s.accepted / s.elapsed if s.elapsed > 0 else 0.0
    lines.append(f"elapsed         {s.elapsed:.2f} s, {per_second(rate, 'boards')} (kernels loaded in "
                 f"{s.warm_seconds:.2f} s)")
    lines.append(f"seed            {s.seed}")
    rows = [{"stage": name, "actors": st["actors"], "in": st["in"], "out": st["out"],
             "out/s": f"{st['per_second']:,.1f}", "capacity/s": f"{st['capacity_per_second']:,.1f}",
             "busy s": f"{st['busy_seconds']:.1f}", "cpu s": f"{st.get('cpu_seconds', 0.0):.1f}"}
            for name, st in s.stage_stats.items()]
    fields = ("stage", "actors", "in", "out", "out/s", "capacity/s", "busy s", "cpu s")
    table = table_text(rows, fields, width=width, right=fields[4:]) if rows else ""
    write = s.stage_stats.get("write")
    if write is not None:  # where the writer's time went
        table += f"write: database {write.get('db_seconds', 0):.2f} s, files {write.get('file_seconds', 0):.2f} s\n"
    return "\n".join(lines) + "\n\n" + table.rstrip("\n")


def register(app: typer.Typer) -> None:
    @app.command("fill")
    def fill(
        count: Annotated[int, typer.Option("--count", "-n", min=1, help="How many NEW unique boards to add.")],
        size: GridSizeOption = None,
        shape: ShapeOption = None,
        diagonals: DiagonalsOption = False,
        regions: RegionsOption = None,
        method: Annotated[Method, typer.Option(help="Board generator.")] = Method.wfc,
        equivalence: Annotated[Equivalence, typer.Option(
            help="When two boards are the same: d4 (rotations and flips), full (every validity-preserving "
                 "transformation and relabelling), none (cell for cell).")] = Equivalence.d4,
        generators: GeneratorsOption = None,
        checkers: CheckersOption = None,
        queue_size: QueueSizeOption = DEFAULT_QUEUE_SIZE,
        batch: Annotated[Optional[int], typer.Option(
            min=1, show_default=False,
            help="Boards per kernel call and per database transaction (default: 256 up to 9x9, 16 for 16x16, "
                 "1 for 25x25).")] = None,
        seed: Annotated[Optional[int], typer.Option(
            min=0, max=SEED_MAX, show_default=False,
            help="Run seed, 0 .. 2**63-1 (default: a random one, printed and stored).")] = None,
        symmetry: Annotated[Symmetry, typer.Option(help="Symmetry of the clue pattern of carved puzzles.")
                            ] = Symmetry.none,
        target_clues: Annotated[Optional[int], typer.Option(
            min=0, metavar="K", show_default=False, help="Try several removal orders and keep the fewest clues, "
                                                         "stopping early at K or fewer.")] = None,
        level: Annotated[Optional[Level], typer.Option(
            show_default=False, help="Carve again (new removal orders) until each puzzle has this grade; a carving "
                                     "graded harder gets clues of its board back (not minimal then).")] = None,
        level_tries: Annotated[int, typer.Option(min=1, help="Carvings per board at most, with --level.")] = 20,
        give_up_after: Annotated[int, typer.Option(
            min=1, help="Stop after this many duplicates in a row: the space of classes looks exhausted.")
        ] = 10_000,
        db: DbOption = None,
        out: OutOption = None,
    ) -> None:
        """Add new unique boards, with carved puzzles, to the catalogue.

        Adds COUNT boards that are new under the equivalence, each with a carved minimal puzzle, its solver metrics
        and its grade; board N is also written to N.txt in the catalogue's board folder. Numbers continue from the
        catalogue's last board. Ctrl-C stops cleanly (everything accepted is kept, exit 130); a second Ctrl-C quits
        at once.

        \b
        Examples:
          catalogue fill --count 20 --db demo.db
          catalogue fill -n 10 --size 4 --seed 7 --db demo.db
          catalogue fill -n 100 --shape 2x3 --db kids.db
          catalogue fill -n 5 --shape jigsaw --regions random --db jigsaw.db
        """
        from ...kernels import ready
        from ...pipeline.options import FillOptions
        from ...pipeline.run import fill as run_fill
        from ...progress import Display
        from ...store import Catalogue

        # the shape before anything else: options that make none are one usage line (a random layout is drawn
        # from the run's seed, so it is drawn here when none was given, and the run stores it)
        check_regions(shape, regions)
        if regions == "random" and seed is None:
            seed = draw_seed()
        from engine.shape import Shape

        kind = grid_kind(size, shape, diagonals, regions, seed or 0)
        # made once: the run validates it, the actors read it, the run row stores it (with the seed drawn here
        # when none was given, so the stored command line repeats this very run)
        options = FillOptions(
            count=count, shape=(Shape.square(kind) if isinstance(kind, int) else kind).spec, method=method.value, equivalence=equivalence.value, seed=seed,
            symmetry=symmetry.value, target_clues=target_clues, level=level.value if level else None,
            level_tries=level_tries, batch=batch, generators=generators or default_workers(),
            checkers=checkers or default_workers(), queue_size=queue_size, give_up_after=give_up_after)
        # one transient display for both phases (kernels, then the bar): nothing of it is left above the summary
        display = Display("fill", extra="dup {task.fields[duplicates]:,} contra {task.fields[contradictions]:,}")
        with display, Catalogue.open(db, out) as catalogue:
            log.info("kernel cache folder: %s", os.environ.get("NUMBA_CACHE_DIR", "numba's default"))
            summary = run_fill(catalogue, options, progress=_progress(display, count),
                               prepare=lambda jobs: ready(jobs, display, "fill"))
        log.info("kernels ready in %.2f s; run %.2f s", summary.warm_seconds, summary.elapsed)
        recovered = summary.recovered
        if recovered is not None:
            if recovered.repaired:
                report(f"recovered {recovered.repaired} board files left missing or torn by an earlier run: "
                       f"{recovered.describe()}")
            if recovered.closed_runs:
                report(f"closed run{'s' if len(recovered.closed_runs) > 1 else ''} "
                       f"{', '.join(map(str, recovered.closed_runs))} left running by a process that died")
            if recovered.strays:
                report(f"{len(recovered.strays)} stray files past the last board in {catalogue.folder} "
                       f"({', '.join(recovered.strays[:3])}): run `catalogue verify` to list them")
        from ...tables import terminal_width

        typer.echo(format_summary(summary, terminal_width(sys.stdout)))
        if summary.stuck:  # a thread that would not stop would keep the process alive: leave without it
            report(summary.error or "the run failed")
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(1)
        if summary.message:
            report(summary.message)
        if summary.status == "failed":
            raise UserError(summary.error or "the run failed")
        if summary.level_missed and summary.status != "interrupted":
            # the boards are stored; the run did not give what was asked. Not after a stop, which cut the tries
            # short (the summary counts the puzzles off level): its own line says what stopped it
            report(summary.level_missed)
        if summary.status == "interrupted":
            from ...english import count
            from ...signals import stop_words

            what, code = stop_words()  # "terminated" after SIGTERM
            report(f"{what}: {count(summary.accepted, 'board')} saved with their files", error=True)
            raise typer.Exit(code)
        if summary.level_missed:
            raise typer.Exit(EXIT_RUNTIME)
