"""catalogue grade: how hard each puzzle in a file is for a person, and with --steps how a person solves it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import numpy as np
import typer

from engine.formats import FormatError, Parsed, conflict_errors
from engine.vocabulary import JSON_FORMATS, LINE, TABLE

from ...batches import batch_map
from ...choices import InputFormat, read_entries
from ...console import report
from ...output import Spool, write_records
from ...signals import Held
from ..options import (
    InputFormatOption,
    InputShapeOption,
    SizeOption,
    ThreadsOption,
    format_option,
    grid_formats,
    record_formats,
)

if TYPE_CHECKING:  # the grader (numba) loads when the command runs, so `catalogue --help` does not import it
    from engine.grade import Grade


#: the record formats, and line: 'level score hardest' per puzzle (the hardest step's name is the rest of the line:
#: it may hold spaces, as in 'forcing X-chain')
GradeFormatOption = format_option(record_formats("A record per puzzle"),
                                  grid_formats("its grade on a line, 'level score hardest'", (LINE,)))

#: the fields of a record in every record format (`explanation` too with --steps, and in json and ndjson
#: `step_data`: each step as data); the table shows TABLE_FIELDS. `score` is Sudoku Explainer's ER; `ep` and `ed`
#: its other two figures; `hardest` the hardest step's own name, `technique` the row that made it
RECORD_FIELDS = ("index", "source", "line", "clues", "level", "score", "ep", "ed", "hardest", "technique",
                 "step_count", "steps", "needs_guessing")
TABLE_FIELDS = ("index", "line", "clues", "level", "score", "hardest", "step_count")


def _stuck_note(entry: Parsed, g: Grade, full_scale: bool) -> str:
    blanks = int((entry.grid.cells == 0).sum()) - sum(len(s.placements) for s in g.steps)
    note = f"no technique makes progress now: the other {blanks} cells need guessing"
    if entry.grid.box >= 4 and not full_scale:  # say what was left out, and how to ask for it
        note += " (the dynamic forcing chains were not tried on this size: --full-scale tries them)"
    return note


def explanation(entry: Parsed, g: Grade, full_scale: bool = False) -> list[str]:
    """The numbered steps, and where the logic stops when the puzzle needs guessing."""
    lines = [f"{i}. {s.explanation}" for i, s in enumerate(g.steps, start=1)]
    if g.needs_guessing:
        lines.append(_stuck_note(entry, g, full_scale))
    return lines


def record(entry: Parsed, g: Grade, steps: bool, full_scale: bool = False) -> dict:
    rec = {"index": entry.index + 1, "source": entry.source, "line": entry.line, "clues": entry.grid.clue_count,
           "level": g.level, "score": g.score, "ep": g.ep, "ed": g.ed, "hardest": g.hardest,
           "technique": g.technique, "step_count": g.step_count, "steps": g.steps_by_technique, "needs_guessing": g.needs_guessing}
    if steps:
        rec["step_data"] = [s.as_dict() for s in g.steps]
        rec["explanation"] = [s.explanation for s in g.steps]
        if g.needs_guessing:
            rec["explanation"].append(_stuck_note(entry, g, full_scale))
    return rec


def grade_entry(entry: Parsed, steps: bool, uniqueness: bool = True, full_scale: bool = False) -> Grade | str:
    """The grade, or the one line to report instead (conflicting givens, no solution).

    Runs in a worker thread (see the command), so it returns its message rather than printing it: the caller
    prints in file order.
    """
    from engine.grade import Contradiction, grade

    clashes = conflict_errors(entry)
    if clashes:
        return f"{entry.source}:{entry.line}: conflicting givens: {clashes[0].message}"
    try:
        return grade(entry.grid.cells, entry.grid.box, explain=steps, uniqueness=uniqueness, full_scale=full_scale)
    except Contradiction as e:
        return f"{entry.source}:{entry.line}: {e}"


def grade_entries(group: list[Parsed], uniqueness: bool = True, full_scale: bool = False) -> list:
    """The grades of puzzles of one box size from one call of the compiled grader (no steps): the grades
    :func:`grade_entry` gives, a puzzle for the nested forcing chains as an :class:`engine.grade.Later` (graded
    when called: batch_map spreads them over the threads). Raises :class:`~engine.grade.Contradiction` when one
    conflicts or has no solution (the caller then grades the group one by one, which says which and why)."""
    from engine.grade import grade_many

    return grade_many(np.stack([p.grid.cells for p in group]), group[0].grid.box, uniqueness=uniqueness,
                      full_scale=full_scale, later=True)


def register(app: typer.Typer) -> None:
    @app.command("grade")
    def grade_command(
        path: Annotated[str, typer.Argument(help="File of puzzles (any input format), or - for stdin.",
                                            show_default=False)],
        steps: Annotated[bool, typer.Option("--steps", help="Also print every step, explained the way a person "
                                                            "would follow it.")] = False,
        output_format: GradeFormatOption = TABLE,
        uniqueness: Annotated[bool, typer.Option(
            "--uniqueness/--no-uniqueness",
            help="Use the techniques that assume the puzzle has one solution (unique rectangles and loops, BUG), "
                 "as Sudoku Explainer does. --no-uniqueness grades without them, for puzzles whose uniqueness is "
                 "not given.")] = True,
        full_scale: Annotated[bool, typer.Option(
            "--full-scale",
            help="On 16x16 and 25x25 also try the dynamic forcing chains (plain and +), which those sizes leave "
                 "out by default for their cost (a second or more a puzzle instead of milliseconds; minutes for "
                 "some 25x25 puzzles), so that a puzzle that needs them is rated instead of needing guessing. 4x4 "
                 "and 9x9 always try them.")]
        = False,
        input_format: InputFormatOption = InputFormat.auto,
        size: SizeOption = None,
        shape: InputShapeOption = None,
        threads: ThreadsOption = 0,
    ) -> None:
        """Grade every puzzle in a file the way a person would solve it.

        The grader works the way Sudoku Explainer does: at each step the first technique of its table that makes
        progress (singles, direct and plain locked candidates, subsets, fish, wings, unique rectangles and loops,
        BUG, aligned exclusion, cycles and forcing chains up to nested ones, rated by length; a puzzle that needs
        nested forcing chains takes seconds to minutes). The score is
        Sudoku Explainer's ER, the hardest step (EP and ED, its other two figures, are in the csv and json
        records); the level follows from it: easy, medium, hard, expert, or extreme past 7.5 (forcing chains
        beyond the simple ones) and when no technique gets through and the puzzle needs guessing. Unique
        rectangles, loops and BUG assume the puzzle has one solution: grade puzzles that may have several with
        --no-uniqueness. On 16x16 and 25x25 the dynamic forcing chains are left out unless --full-scale asks
        for them. Grids that cannot be read, conflict or have no solution get one line on stderr; the others are
        still graded, and the exit code is then 1. See docs/grading.md.

        \b
        Examples:
          catalogue grade data/samples/puzzles_9x9.sdm
          catalogue grade data/samples/puzzle_9x9.pretty --steps
          catalogue grade data/samples/puzzles_4x4.json --format json
        """
        # what is printed after the puzzles (the records, or the table and with --steps its explanations), kept
        # on disk rather than in memory (catalogue.output.Spool): a row a puzzle
        records, explained = Spool(), Spool()
        failed = False
        # file order, so stderr lines for bad grids come between the grades of their neighbours
        entries = read_entries(path, input_format, size, what="puzzle", shape=shape)
        def graded_one(entry):
            return entry if isinstance(entry, FormatError) else grade_entry(entry, steps, uniqueness, full_scale)

        def graded_group(group):
            return grade_entries(group, uniqueness, full_scale)
        from engine.grade import Contradiction, Later

        # a chunk of puzzles per call of the compiled grader (one by one with --steps: the explaining path), in
        # worker threads, so Ctrl-C stops at once; chunks as big as their cost allows, the nested forcing chains
        # one puzzle per thread (see batch_map)
        grades = batch_map(graded_one, None if steps else graded_group, entries, "grade", label="grading",
                           retry=(Contradiction,), threads=threads, later=Later)
        # a Ctrl-C (or SIGTERM) keeps what was graded: the grades so far are written as a finished run's would be
        stop: KeyboardInterrupt | None = None
        graded = 0
        # a stop signal between writing a grade and counting it waits for the count, so the last line's count is
        # what was written (it came one short when SIGTERM fell between the two)
        held = Held()
        try:
            for entry, g in zip(entries, grades):
                if isinstance(entry, FormatError):
                    report(str(entry))
                    failed = True
                    continue
                if isinstance(g, str):
                    report(g)
                    failed = True
                    continue
                held.hold()
                try:
                    if output_format == LINE:
                        typer.echo(f"{g.level} {g.score:.1f} {g.hardest}")
                    else:
                        records.append(record(entry, g, steps, full_scale))
                        if steps and output_format == TABLE:
                            explained.append((f"\n#{entry.index + 1} (line {entry.line}): {g.level}, score "
                                              f"{g.score:.1f}, hardest {g.hardest}", explanation(entry, g, full_scale)))
                    graded += 1
                finally:
                    held.release()
                if output_format == LINE:
                    for text_line in explanation(entry, g, full_scale) if steps else ():
                        typer.echo(f"  {text_line}")
        except KeyboardInterrupt as e:
            stop = e
            grades.close()  # its bar off the terminal now, before the last line (it was left there, stale)
        if output_format != LINE and (records or output_format != TABLE):
            fields = RECORD_FIELDS
            if steps:
                fields += ("explanation", "step_data") if output_format in JSON_FORMATS else (
                    "explanation",)
            write_records(records, fields, output_format.value, table_fields=TABLE_FIELDS)
        for head, lines in explained:
            typer.echo(head)
            for text_line in lines:
                typer.echo(f"  {text_line}")
        if stop is not None:
            from ...errors import stopped_by

            what, code = stopped_by(stop)
            report(f"{what}: {graded:,} of {len(entries):,} puzzles graded, written above", error=True)
            raise typer.Exit(code)
        if failed:
            raise typer.Exit(1)
