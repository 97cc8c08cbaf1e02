"""catalogue check: read grids in any input format and report, for each, whether its digits conflict."""
from __future__ import annotations

from typing import Annotated

import numpy as np
import typer

from engine.formats import SYMBOLS, FormatError, Parsed
from engine.grid import Grid
from engine.vocabulary import SYMBOL_FORMATS

from ...batches import batch_map
from ...choices import InputFormat, read_input
from ...config import NODE_BUDGET
from ...console import report
from ..options import InputFormatOption, InputShapeOption, SizeOption, ThreadsOption

#: solutions are counted up to this many: one is a proper puzzle, two is enough to say it is not
COUNT_LIMIT = 2


def describe(grid: Grid, valid: bool | None = None) -> str:
    """``9x9 board``, ``complete 9x9 grid`` (filled but conflicting) or ``9x9 puzzle with 30 clues``; ``valid``
    (no conflicts) is looked up when not given."""
    n = grid.size
    if grid.is_complete():
        valid = grid.is_valid() if valid is None else valid
        return f"{n}x{n} board" if valid else f"complete {n}x{n} grid"
    return f"{n}x{n} puzzle with {grid.clue_count} clue{'s' if grid.clue_count != 1 else ''}"


#: what a count says when the search ran out of its budget before it could tell
UNDECIDED = -1


def count_solutions(parsed: Parsed, node_limit: int = NODE_BUDGET) -> int:
    """Solutions of a grid without conflicts, up to :data:`COUNT_LIMIT` (a complete board is its own one), or
    :data:`UNDECIDED` when the search gives up after ``node_limit`` nodes (0: never)."""
    if parsed.grid.is_complete():
        return 1
    from engine.solvers.fast import solve

    result = solve(parsed.grid.cells, parsed.grid.box, COUNT_LIMIT, node_limit)
    return UNDECIDED if result.gave_up else result.count


def check_line(parsed: Parsed, symbols: bool = True, solutions: int | None = None,
               node_limit: int = NODE_BUDGET) -> tuple[str, str]:
    """The grid's verdict (``valid``, ``invalid``, ``no solution``, ``several solutions`` or ``undecided``) and
    its report line.

    A grid without conflicts is valid when it has exactly one solution (``solutions``, counted up to 2 by
    :func:`count_solutions` when not given); with none or several the line says so, and so the verdict.
    Digits are shown as the input wrote them: symbols (``G`` on 16x16) in line, block and pretty input, numbers
    (``16``) in txt, rcv and json input.

    A grid with a solution has no conflicts (its givens are part of one): given ``solutions`` >= 1, the cells are
    not searched for conflicts (a Python scan, far dearer than counting the solutions: docs/benchmarks.md, "File
    commands on chunks of grids")."""
    grid = parsed.grid
    where = f"grid {parsed.index + 1} ({parsed.source}:{parsed.line})"
    invalid = [] if solutions is not None and solutions > 0 else grid.invalid_cells()
    if not invalid:
        solutions = count_solutions(parsed, node_limit) if solutions is None else solutions
        if solutions == UNDECIDED:
            return "undecided", (f"{where}: undecided: the search gave up after --node-limit {node_limit} nodes "
                                 f"(0 for none): {describe(grid, True)}")
        if solutions == 0:
            return "no solution", f"{where}: no solution: {describe(grid, True)}"
        if solutions > 1:
            return "several solutions", f"{where}: {solutions} or more solutions: {describe(grid, True)}"
        return "valid", f"{where}: valid {describe(grid, True)}"
    cells = ", ".join(f"r{r + 1}c{c + 1} {SYMBOLS[d] if symbols else d} ({why.describe()})"
                      for r, c, d, why in invalid)
    plural = "s" if len(invalid) != 1 else ""
    return "invalid", f"{where}: {len(invalid)} invalid cell{plural}: {cells}; {describe(grid, False)}"


def check_lines(group: list[Parsed], symbols: bool = True, node_limit: int = NODE_BUDGET) -> list[tuple[str, str]]:
    """:func:`check_line` of grids of one box size, their solutions counted in one batch call (same counts as
    :func:`count_solutions`: up to :data:`COUNT_LIMIT`, a board is its own one, conflicting givens count 0, a
    search out of budget is :data:`UNDECIDED`)."""
    from engine.solvers.fast import metrics_many

    counts, stats = metrics_many(np.stack([p.grid.cells for p in group]), group[0].grid.box, COUNT_LIMIT,
                                 node_limit)
    nodes, gave_up = stats[:, 0].tolist(), stats[:, -1].tolist()  # the first metric and the last: out of nodes
    # 9x9's band kernel takes no node limit (its searches take microseconds): a count it ran past a small
    # --node-limit is made again alone (check_line counts it), which gives up where the limit says
    return [check_line(p, symbols, None if node_limit and not out and used > node_limit
                       else UNDECIDED if out else count, node_limit)
            for p, count, used, out in zip(group, counts.tolist(), nodes, gave_up)]


def summary(verdicts: dict[str, int], unreadable: int) -> str:
    """``3 grids: 1 valid, 1 invalid, 1 without a solution`` (only the kinds that occur, valid always)."""
    total = sum(verdicts.values()) + unreadable
    parts = [f"{verdicts['valid']} valid"]
    for verdict, words in (("invalid", "invalid"), ("no solution", "without a solution"),
                           ("several solutions", f"with {COUNT_LIMIT} or more solutions"),
                           ("undecided", "undecided within --node-limit")):
        if verdicts[verdict]:
            parts.append(f"{verdicts[verdict]} {words}")
    if unreadable:
        parts.append(f"{unreadable} unreadable")
    return f"{total} grid{'s' if total != 1 else ''}: {', '.join(parts)}"


def register(app: typer.Typer) -> None:
    @app.command()
    def check(
        path: Annotated[str, typer.Argument(help="File of grids to check, or - for stdin.", show_default=False)],
        input_format: InputFormatOption = InputFormat.auto,
        size: SizeOption = None,
        shape: InputShapeOption = None,
        threads: ThreadsOption = 0,
        node_limit: Annotated[int, typer.Option(min=0, help="Give up counting a grid's solutions after this many "
                                                            "nodes of search (0 = never): the grid is then "
                                                            "undecided.")] = NODE_BUDGET,
    ) -> None:
        """Check every grid in a file for conflicting digits and for exactly one solution.

        Lists each invalid cell with its reason (row, column and/or box conflict) and says whether the grid is a
        board or a puzzle with K clues. A puzzle is valid only with exactly one solution: "no solution" and "2 or
        more solutions" are reported too, and "undecided" when the search runs out of --node-limit. Exit 0 if
        every grid is valid, 1 if any is invalid, has no solution or several, is undecided, or cannot be read (read errors go to stderr as file:line:column: message).

        \b
        Examples:
          catalogue check data/samples/puzzles_9x9.sdm
          catalogue check --size 9 data/samples/puzzle_9x9.rcv
          catalogue generate --count 3 | catalogue check -
        """
        entries, fmt = read_input(path, input_format, size, shape=shape)
        verdicts = dict.fromkeys(("valid", "invalid", "no solution", "several solutions", "undecided"), 0)
        unreadable = 0

        symbols = fmt in SYMBOL_FORMATS

        def checked(entry):
            return None if isinstance(entry, FormatError) else check_line(entry, symbols, node_limit=node_limit)

        # solutions counted a chunk of grids per kernel call, in a worker thread so Ctrl-C stops a long count at
        # once (see batch_map); the lines are those of check_line, grid by grid, in file order
        for entry, result in zip(entries, batch_map(checked, lambda group: check_lines(group, symbols, node_limit), entries,
                                                    "check", label="checking", threads=threads)):
            if result is None:
                unreadable += 1
                report(str(entry))
                continue
            verdict, line = result
            verdicts[verdict] += 1
            typer.echo(line)
        report(summary(verdicts, unreadable))
        if unreadable or verdicts["valid"] < len(entries):
            raise typer.Exit(1)
