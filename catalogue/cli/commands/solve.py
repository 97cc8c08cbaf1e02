"""catalogue solve: solve or count every puzzle of a file, or watch one solver at work.

Output rules (data on stdout, messages on stderr):

* ``--format line`` (default) prints one solution line per solved puzzle and nothing else on stdout, so the
  output can be piped; ``block``/``pretty`` print each solution as a picture, a blank line between puzzles;
  ``csv``/``tsv``/``json`` (one array)/``ndjson`` print a record per puzzle (status, count, the solver's metrics,
  puzzle and solution), with the same columns in each format, named as in the catalogue database.
* ``--count-solutions`` prints the number of solutions, up to ``--max-solutions`` (default 2), one line per
  puzzle. (``--count`` and ``--limit``, their old names, still work but are hidden: elsewhere ``--count`` is how
  many to make and ``--limit`` how many to show.)
* A puzzle that fails gets one stderr line naming ``file:line`` and prints nothing on stdout; the other puzzles
  are still solved and the exit code is 1 at the end. Failing means: its givens conflict (the line names the
  cells and the house they share), it has no solution (without ``--count-solutions``; with it, 0 is an answer), the node
  limit stopped the search ("gave up after N nodes"), or it could not be read.
* ``--metrics`` adds a table of the solver's metrics per puzzle: on stdout after the solutions for ``block`` and
  ``pretty``; on stderr for ``line`` and ``--count-solutions``, whose stdout must stay one value per line; records
  always carry them.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Annotated, Optional, Sequence

import numpy as np
import typer

from engine.formats import FormatError, Parsed, conflict_errors, to_line
from engine.solvers import DEFAULT_SOLVER, get_solver
from engine.solvers.base import METRIC_NAMES, SolveResult
from engine.vocabulary import LINE, RECORD_FORMATS

from ...batches import batch_map
from ...choices import InputFormat, SolverName, read_entries
from ...config import NODE_BUDGET
from ...console import report
from ...errors import UsageError, UserError
from ...output import GridStream, Spool, write_records
from ...tables import terminal_width
from ...watch import watch
from ..options import (
    InputFormatOption,
    InputShapeOption,
    SizeOption,
    ThreadsOption,
    format_option,
    grid_formats,
    record_formats,
)

#: the solutions in a grid format, or a record per puzzle; None (the default) is line, and lets --watch be given
SolveFormatOption = format_option(grid_formats("How to print the solutions"),
                                  record_formats("a record per puzzle with its metrics"), default=LINE)


#: the fields of a record (csv, tsv, json, ndjson), named as in the catalogue database (solve_seconds); the
#: --metrics table shows all but the grids and the message. Metrics are None where nothing was searched
RECORD_FIELDS = ("source", "line", "solver", "status", "count", *METRIC_NAMES[:-1], "solve_seconds", "puzzle",
                 "solution", "message")
TABLE_FIELDS = RECORD_FIELDS[:-3]


@dataclass
class Outcome:
    """One puzzle's result, ready to print."""

    parsed: Parsed
    result: SolveResult | None  # None when the givens conflict (nothing to search)
    problem: str | None  # the stderr line when this puzzle fails

    @property
    def where(self) -> str:
        return f"{self.parsed.source}:{self.parsed.line}"

    def status(self, counting: bool) -> str:
        if self.result is None:
            return "conflicting givens"
        if self.result.gave_up:
            return "gave up"
        if counting:
            return "counted"
        return "solved" if self.result.count else "no solution"


def solve_one(parsed: Parsed, solver: str, limit: int, node_limit: int, counting: bool) -> Outcome:
    clashes = conflict_errors(parsed)
    if clashes:
        return Outcome(parsed, None, f"{parsed.source}:{parsed.line}: conflicting givens: {clashes[0].message}")
    grid = parsed.grid
    return outcome(parsed, get_solver(solver)(grid.cells, grid.box, limit, node_limit), counting, node_limit)


def solve_group(group: list[Parsed], solver: str, limit: int, node_limit: int, counting: bool) -> list[Outcome]:
    """:func:`solve_one` of puzzles of one box size, from one call of the solver's batch form (``solve.many``):
    the same counts, solutions and metrics, ``seconds`` the batch's time shared out by checks.

    A puzzle with a solution has no conflicting givens (they are part of it), nor has one whose search ran out of
    budget (conflicting givens end a search at once), so only the others are searched for conflicts (a Python
    scan that costs several solves), by :func:`solve_one`."""
    results = get_solver(solver).many(np.stack([p.grid.cells for p in group]), group[0].grid.box, limit,
                                      node_limit)

    def stands(r: SolveResult) -> bool:
        # 9x9's band kernel takes no node limit (its searches take microseconds): a search it ran past a small
        # --node-limit is made again alone, which gives up where the limit says
        over = node_limit and not r.gave_up and r.metrics.nodes > node_limit
        return (r.count > 0 or r.gave_up) and not over

    return [outcome(p, r, counting, node_limit) if stands(r) else solve_one(p, solver, limit, node_limit, counting)
            for p, r in zip(group, results)]


def outcome(parsed: Parsed, result: SolveResult, counting: bool, node_limit: int = 0) -> Outcome:
    """The outcome of a search of ``parsed`` (givens without conflicts) under a budget of ``node_limit`` nodes."""
    where = f"{parsed.source}:{parsed.line}"
    problem = None
    if result.gave_up:
        found = f" ({result.count} solution{'s' if result.count != 1 else ''} found so far)" if counting else ""
        problem = (f"{where}: gave up after {result.metrics.nodes} nodes{found}: the budget is --node-limit "
                   f"{node_limit} (0 for none)")
    elif not counting and result.count == 0:
        problem = f"{where}: no solution"
    return Outcome(parsed, result, problem)


def metrics_table(records: Sequence[dict], width: Optional[int] = None) -> str:
    """The --metrics table of the puzzles' records (:func:`record`)."""
    from ...tables import table_text

    return table_text(records, TABLE_FIELDS, width=width).rstrip("\n")


def record(o: Outcome, counting: bool, solver: str) -> dict:
    r = o.result
    m = r.metrics.as_dict() if r is not None else {}
    return {"source": o.parsed.source, "line": o.parsed.line, "solver": solver, "status": o.status(counting),
            "count": 0 if r is None else r.count, **{name: m.get(name) for name in METRIC_NAMES[:-1]},
            "solve_seconds": m.get("seconds"), "puzzle": to_line(o.parsed.grid.cells),
            "solution": None if r is None or r.solution is None else to_line(r.solution), "message": o.problem}


def run_watch(grids: list[Parsed], solver: str, node_limit: int, delay: int) -> bool:
    ok = True
    for p in grids:
        clashes = conflict_errors(p)
        if clashes:
            report(f"{p.source}:{p.line}: conflicting givens: {clashes[0].message}")
            ok = False
            continue
        shown = watch(p.grid.cells, p.grid.box, solver, node_limit, delay, title=f"{p.source}:{p.line}")
        ok = ok and shown.result.count > 0 and not shown.result.gave_up
    return ok


def register(app: typer.Typer) -> None:
    @app.command()
    def solve(
        path: Annotated[str, typer.Argument(help="File of puzzles (one or many), or - for stdin.", show_default=False)],
        solver: Annotated[SolverName, typer.Option(
            help="fast: compiled, with naked and hidden singles; mrv: branch on the cell with the fewest "
                 "candidates; stack: depth-first with an explicit stack, cells in reading order; backtrack: "
                 "plain recursion, cells in reading order.")] = SolverName(DEFAULT_SOLVER),
        count: Annotated[bool, typer.Option("--count-solutions", help="Print the number of solutions (up to "
                                                                       "--max-solutions) instead of a "
                                                                       "solution.")] = False,
        limit: Annotated[Optional[int], typer.Option("--max-solutions", min=1, show_default=False,
                                                     help="With --count-solutions: count up to this many "
                                                          "solutions [default: 2, so 1 means unique].")] = None,
        node_limit: Annotated[int, typer.Option(min=0, help="Give up on a puzzle after this many nodes of search "
                                                            "(0 = never); the default is seconds of CPU on "
                                                            "25x25.")] = NODE_BUDGET,
        metrics: Annotated[bool, typer.Option("--metrics", help="Add a table of the solver's metrics per "
                                                                 "puzzle (stderr with line/count output).")] = False,
        output_format: SolveFormatOption = None,
        input_format: InputFormatOption = InputFormat.auto,
        size: SizeOption = None,
        shape: InputShapeOption = None,
        watch_it: Annotated[bool, typer.Option("--watch", help="Show the solver placing and taking back digits "
                                                               "(a live board on a terminal, a grid per "
                                                               "completed band otherwise).")] = False,
        delay: Annotated[int, typer.Option(min=0, help="With --watch on a terminal: pause after each move, "
                                                       "in milliseconds.")] = 10,
        threads: ThreadsOption = 0,
    ) -> None:
        """Solve every puzzle in a file, or count its solutions.

        Exit 0 when every puzzle is answered, 1 when any has conflicting givens, no solution, hits the node limit
        or cannot be read.

        \b
        Examples:
          catalogue solve data/samples/puzzles_9x9.sdm
          catalogue solve data/samples/puzzle_9x9.pretty --format pretty --metrics
          catalogue solve data/samples/puzzles_4x4.block --count-solutions
          catalogue generate --count 2 | catalogue solve --solver mrv -
        """
        if watch_it and (count or metrics or limit is not None or output_format is not None):
            raise UsageError("--watch shows one solve at a time: it does not go with --count-solutions, "
                             "--max-solutions, --metrics or --format")
        if limit is not None and not count:
            raise UsageError("--max-solutions goes with --count-solutions (solving stops at the first solution)")
        fmt = output_format.value if output_format else LINE
        entries = read_entries(path, input_format, size, what="puzzle", shape=shape)
        errors = entries.errors  # (at most MAX_FORMAT_ERRORS + 1)
        if not entries.grids:
            more = f" (and {len(errors) - 1} more unreadable)" if len(errors) > 1 else ""
            raise UserError(f"{errors[0]}{more}")
        if watch_it:
            for e in errors:
                report(str(e))
            if not run_watch([e for e in entries if isinstance(e, Parsed)], solver.value, node_limit, delay) \
                    or errors:
                raise typer.Exit(1)
            return

        limit_used = (limit or 2) if count else 1
        records = fmt in RECORD_FORMATS
        # the records and the --metrics table, printed after the solutions: kept on disk rather than in memory
        # (catalogue.output.Spool), a row a puzzle
        rows = Spool()
        keep = records or metrics
        failed = bool(errors)
        printed = 0
        stream = GridStream(fmt)
        # file order, so stderr lines for unreadable grids come between the answers of their neighbours
        def solved(entry):
            return entry if isinstance(entry, FormatError) else solve_one(entry, solver.value, limit_used,
                                                                           node_limit, count)

        def solved_many(group):
            return solve_group(group, solver.value, limit_used, node_limit, count)
        # a chunk of puzzles per kernel call when the solver has a batch form, in a worker thread so Ctrl-C stops
        # even a long count at once (see batch_map)
        compiled = hasattr(get_solver(solver.value), "many")  # the compiled solver is the one with a batch form
        batched = compiled
        # the compiled solver's kernels are made ready (compiled the first time, on every core) before the first
        # puzzle, so its time is its solve, not a compile or a cache load; the plain-Python solvers need none
        answers = batch_map(solved, solved_many if batched else None, entries, "solve", label="solving",
                            threads=threads, jobs=None if compiled else [])
        for entry, o in zip(entries, answers):
            if isinstance(entry, FormatError):
                report(str(entry))
                continue
            if keep:
                rows.append(record(o, count, solver.value))
            if o.problem:
                failed = True
                report(o.problem)
            if records:
                continue
            if count:
                if o.result is not None and not o.result.gave_up:
                    typer.echo(str(o.result.count))
            elif o.problem is None:
                typer.echo(stream.text(o.result.solution, entry.grid.box))
                printed += 1
        if records:
            write_records(rows, RECORD_FIELDS, fmt)
        elif metrics:
            to_stderr = count or fmt == LINE
            table = metrics_table(rows, terminal_width(sys.stderr if to_stderr else sys.stdout))
            typer.echo(table if to_stderr else "\n" + table, err=to_stderr)
        if failed:
            raise typer.Exit(1)
