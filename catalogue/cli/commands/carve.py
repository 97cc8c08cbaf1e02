"""catalogue carve: carve each complete board of a file into a unique (by default minimal) puzzle.

Output rules (data on stdout, messages on stderr):

* one puzzle per input board, in file order: a line each for ``--format line`` (default), a picture each for
  ``block``/``pretty`` with a blank line between;
* board k of the file (0-based, unreadable entries counted) is carved with seed ``--seed + k``, so a file carves
  the same way every time and one board can be redone alone with its seed;
* an entry that is not a complete valid board gets one stderr line naming ``file:line``; the other boards are
  still carved and the exit code is 1 at the end;
* when ``--clues`` or ``--target-clues`` is not reached the puzzle is still printed (it is unique) and a stderr
  line says how many clues it kept; that is not an error (exit 0);
* ``--format csv|tsv|json|ndjson`` prints one record per puzzle instead (the puzzle in line format and every
  metric, named as in the catalogue database);
* ``--metrics`` adds a table per puzzle (clues, removal tests, attempts, whether minimal, carve time and the fast
  solver's metrics on the puzzle): on stderr for ``line`` (stdout stays one puzzle per line), after the pictures
  on stdout for ``block``/``pretty``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Optional, Sequence

import numpy as np
import typer

from engine.formats import FormatError, Parsed, conflict_errors, to_line
from engine.vocabulary import LINE, MIN_CLUES, RECORD_FORMATS

from ...batches import batch_map
from ...choices import CarveOrder, InputFormat, Symmetry, read_entries
from ...console import report
from ...errors import UsageError, UserError
from ...output import GridStream, Spool, write_records
from ...tables import terminal_width
from ..options import (
    InputFormatOption,
    InputShapeOption,
    SizeOption,
    ThreadsOption,
    format_option,
    grid_formats,
    record_formats,
)

if TYPE_CHECKING:  # the carver (numba) loads when the command runs, so `catalogue --help` does not import it
    from engine.carve import CarveResult


#: the puzzles in a grid format, or a record per puzzle
CarveFormatOption = format_option(grid_formats("How to print the puzzles"),
                                  record_formats("a record per puzzle with its metrics"))


#: records (csv, tsv, json, ndjson) carry every field, under the catalogue database's names where it has them;
#: the --metrics table shows all but the puzzle. `target_reached` is None without --clues / --target-clues
RECORD_FIELDS = ("source", "line", "carve_seed", "clues", "minimal", "target_reached", "carve_checks", "attempts",
                 "carve_seconds", "nodes", "guesses", "backtracks", "checks", "max_depth", "solve_seconds", "puzzle")


def board_problem(parsed: Parsed, clues: Optional[int], target: Optional[int]) -> str | None:
    """Why this entry cannot be carved (one line naming file:line), or None."""
    where = f"{parsed.source}:{parsed.line}"
    grid = parsed.grid
    clashes = conflict_errors(parsed)
    if clashes:
        return f"{where}: not a valid board: {clashes[0].message}"
    blanks = grid.cells.size - grid.clue_count
    if blanks:
        return f"{where}: not a complete board: {blanks} blank cell{'s' if blanks != 1 else ''} (carve needs a board)"
    for flag, value in (("--clues", clues), ("--target-clues", target)):
        if value is not None and value > grid.cells.size:
            n = grid.size
            return f"{where}: {flag} {value} is more than the {n * n} cells of a {n}x{n} board"
    return None


def record(parsed: Parsed, seed: int, r: CarveResult, targeted: bool) -> dict:
    m = r.metrics
    return {"source": parsed.source, "line": parsed.line, "carve_seed": int(seed), "clues": int(r.clues),
            "minimal": bool(r.minimal), "target_reached": bool(r.target_reached) if targeted else None,
            "carve_checks": int(r.checks), "attempts": int(r.attempts_used), "carve_seconds": float(r.seconds),
            "nodes": int(m.nodes), "guesses": int(m.guesses), "backtracks": int(m.backtracks), "checks": int(m.checks),
            "max_depth": int(m.max_depth), "solve_seconds": float(m.seconds), "puzzle": to_line(r.puzzle)}


def metrics_table(records: Sequence[dict], width: Optional[int] = None) -> str:
    """The --metrics table of the puzzles' records (:func:`record`)."""
    from ...tables import table_text

    return table_text(records, RECORD_FIELDS[:-1], width=width).rstrip("\n")


#: boards per kernel call, by box size: small enough for the progress bar to move (a 25x25 board can take
#: seconds), large enough that the call costs nothing
CHUNK = {2: 512, 3: 256, 4: 16, 5: 1}


def carve_group(group: list[Parsed], seed: int, options: dict) -> list[tuple[int, CarveResult]]:
    """Carve boards of one box size in one kernel call: (seed, result) each. Board k of the file has the seed
    ``seed + k`` whatever the chunks, so the puzzles do not depend on them."""
    from engine.carve import carve_many

    seeds = [seed + p.index for p in group]
    results = carve_many(np.stack([p.grid.cells for p in group]), group[0].grid.box, seeds, **options)
    return list(zip(seeds, results))


def register(app: typer.Typer) -> None:
    @app.command()
    def carve(
        path: Annotated[str, typer.Argument(help="File of complete boards (one or many), or - for stdin.",
                                            show_default=False)],
        seed: Annotated[int, typer.Option(help="Seed of the random removal order; board k of the file uses "
                                               "seed + k.")] = 0,
        symmetry: Annotated[Symmetry, typer.Option(
            case_sensitive=False, help="Keep the clue pattern symmetric: rot180, rot90 (quarter turn), mirror "
                                       "(left-right), diagonal (main diagonal).")] = Symmetry("none"),
        order: Annotated[Optional[CarveOrder], typer.Option(
            case_sensitive=False, show_default=False,
            help="Order of removals: random, or spread (the clue whose cells see the most clues first, ties in "
                 "the random order: the clues left are spread evenly, and a removal test, a search for a second "
                 "solution, ends much sooner in a grid with no nearly empty region; that matters on big grids, "
                 "where each test is dear) [default: random up to 9x9, spread on 16x16 and 25x25].")] = None,
        clues: Annotated[Optional[int], typer.Option(min=0, show_default=False,
                                                     help="Stop at exactly this many clues (unique, not "
                                                          "minimal).")] = None,
        target_clues: Annotated[Optional[int], typer.Option(min=0, show_default=False,
                                                            help="Try up to --attempts orders, keep the fewest "
                                                                 "clues, stop once at most this many.")] = None,
        attempts: Annotated[Optional[int], typer.Option(min=1, show_default=False,
                                                        help="Removal orders to try per board, fewest clues "
                                                             "wins [default: 1, or 20 with --target-clues].")] = None,
        node_limit: Annotated[Optional[int], typer.Option(min=0, show_default=False,
                                                          help="Nodes one removal test may take before its clue "
                                                               "is kept (0 = no limit) [default: 2000 on 25x25 "
                                                               "and sides over 21, 20000 on sides 17-21, else no "
                                                               "limit].")] = None,
        output_format: CarveFormatOption = LINE,
        metrics: Annotated[bool, typer.Option("--metrics", help="Add a table per puzzle: clues, tests, time and "
                                                                 "the fast solver's metrics (stderr with "
                                                                 "line output).")] = False,
        input_format: InputFormatOption = InputFormat.auto,
        size: SizeOption = None,
        shape: InputShapeOption = None,
        threads: ThreadsOption = 0,
    ) -> None:
        """Carve each complete board of a file into a unique puzzle.

        The puzzle is minimal unless --clues is given: clues are removed one at a time (in a random order from
        --seed, or in the spread order: see --order) while the puzzle keeps exactly one solution. Exit 1 when any entry is not a complete valid board (the others are
        still carved).

        \b
        Examples:
          catalogue generate --count 3 --seed 1 > boards.txt
          catalogue carve boards.txt > puzzles.txt
          catalogue carve boards.txt --symmetry rot180 --order spread --format pretty
          catalogue carve boards.txt --target-clues 24 --metrics
        """
        if clues is not None and target_clues is not None:
            raise UsageError("--clues (stop at exactly K) and --target-clues (fewest over attempts) do not go "
                             "together")
        entries = read_entries(path, input_format, size, what="board", shape=shape)
        if not entries.grids:
            more = f" (and {len(entries) - 1} more unreadable)" if len(entries) > 1 else ""
            raise UserError(f"{entries[0]}{more}")
        options = dict(symmetry=symmetry.value, clues=clues, target_clues=target_clues, attempts=attempts,
                       node_limit=node_limit, order=None if order is None else order.value)
        # a chunk of boards per kernel call, in a worker thread, so Ctrl-C stops a long 25x25 carve at once (see
        # batch_map, which makes the kernels ready first: a board's time is its carve, not a compile or a cache
        # load); entries that are not boards are not carved
        def is_board(entry) -> bool:
            return isinstance(entry, Parsed) and board_problem(entry, clues, target_clues) is None

        def carved_one(entry):  # the same puzzle as in a chunk: a board's seed is seed + its index
            if not isinstance(entry, Parsed):
                return None
            problem = board_problem(entry, clues, target_clues)  # (said in its place in the file: a string)
            return problem if problem is not None else carve_group([entry], seed, options)[0]

        carved = batch_map(carved_one, lambda group: carve_group(group, seed, options), entries, "carve",
                           label="carving", sizes=CHUNK, unit="boards", batchable=is_board, threads=threads)
        targeted = clues is not None or target_clues is not None
        # the records and the --metrics table, printed after the puzzles: kept on disk rather than in memory
        # (catalogue.output.Spool), a row a board
        rows = Spool()
        records = output_format in RECORD_FORMATS
        keep = records or metrics
        failed = entries.grids < len(entries)
        printed = 0
        stream = GridStream(output_format.value)
        for entry, answer in zip(entries, carved):  # file order, messages between puzzles
            if isinstance(entry, FormatError):
                report(str(entry))
                continue
            if isinstance(answer, str):  # not a board that can be carved
                failed = True
                report(answer)
                continue
            board_seed, r = answer
            if keep:
                rows.append(record(entry, board_seed, r, targeted))
            if not r.target_reached:
                wanted = f"exactly {clues}" if clues is not None else f"{target_clues} or fewer"
                n, target = entry.grid.size, clues if clues is not None else target_clues
                fewest = MIN_CLUES.get(n)
                why = (f" (no {n}x{n} puzzle with one solution has fewer than {fewest} clues)"
                       if fewest is not None and target < fewest else "")
                report(f"{entry.source}:{entry.line}: could not reach {wanted} clues in {r.attempts_used} "
                       f"attempt{'s' if r.attempts_used != 1 else ''}; kept {r.clues}{why}")
            if records:
                continue  # printed together below
            typer.echo(stream.text(r.puzzle, entry.grid.box))
            printed += 1
        if records:
            write_records(rows, RECORD_FIELDS, output_format.value)
        elif metrics and rows:
            import sys

            to_stderr = output_format == LINE
            table = metrics_table(rows, terminal_width(sys.stderr if to_stderr else sys.stdout))
            typer.echo(table if to_stderr else "\n" + table, err=to_stderr)
        if failed:
            raise typer.Exit(1)
