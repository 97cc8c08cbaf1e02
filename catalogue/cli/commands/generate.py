"""``catalogue generate``: print complete boards made by one of the generators (or show them one at a time).

Data (the boards) goes to stdout; the run seed and WFC's contradictions go to stderr, so
``catalogue generate --count 1000 > boards.txt`` keeps a clean file. Board k (1-based) of a run is
``engine.generators.<method>.generate(box, derive_seeds(seed, count)[k - 1])``: the same as the library's
``generate_many(box, count, seed)``, so a run is remade by its ``--seed`` alone.

Contradictions (WFC's rule: "display an error message and try again"): a run ends with one line on stderr, how
many restarts in how many boards (a 20,000-board run meets about 15,000); with -v (and in --interactive), each
is told as it happens ("board 3: contradiction at r4c7 (no candidates left) after 63 of 81 cells, restarting").
"""
from __future__ import annotations

import queue
import sys
import threading
from typing import Annotated, Iterator, Optional

import typer

from engine.formats import write
from engine.generators import GenerationError, derive_seeds, get_generator
from engine.grid import Grid
from engine.vocabulary import GRID_FORMATS, JSON, LINE, PRETTY

from ...choices import Method, check_regions, grid_kind
from ...config import SEED_MAX, draw_seed
from ...console import is_verbose, report
from ...errors import UsageError, UserError
from ..options import (
    DiagonalsOption,
    GridSizeOption,
    RegionsOption,
    ShapeOption,
    format_option,
    grid_formats,
)

AHEAD = 32  # boards the worker thread may make before the printer takes them (bounded: backpressure)


#: the boards in a grid format, or in json as one array; None (the default) is line, or pretty with --interactive
GenerateFormatOption = format_option(
    grid_formats("How to print the boards", (*GRID_FORMATS, JSON), notes={JSON: "one array of objects"}),
    default=f"{LINE}; --interactive: {PRETTY}")


def _seeds(seed: int, count: Optional[int]) -> Iterator[int]:
    """The board seeds of a run: ``derive_seeds(seed, count)``, or its endless continuation when count is None
    (derive_seeds of a longer count starts with the same seeds, so both agree).

    Always made in growing blocks, never ``derive_seeds(seed, count)`` at once: ``--count 10**20`` made numpy
    refuse the array (a traceback), and ``--count 10**9`` would have asked for 8 GB before the first board.
    """
    made, block = 0, 64
    while count is None or made < count:
        fresh = derive_seeds(seed, made + block)[made:]
        if count is not None:
            fresh = fresh[:count - made]
        yield from (int(s) for s in fresh)
        made, block = made + len(fresh), block * 2


def _make(method: str, box: int, seed: int, options: dict):
    """(board, contradictions) of one seed; only WFC has contradictions to tell."""
    module = get_generator(method)
    if method == "wfc":
        return module.generate_traced(box, seed, **options)
    return module.generate(box, seed, **options), []


def _boards(method: str, box: int, seeds: Iterator[int], options: dict):
    """Boards made in a daemon thread, handed over through a bounded queue.

    Why a thread: a kernel holds the main thread until it returns (a plain-WFC 25x25 board can take minutes),
    and Python only sees Ctrl-C between bytecodes of the main thread. Waiting on the queue with a timeout keeps
    the main thread free to take Ctrl-C at once (exit 130); the daemon thread dies with the process.
    """
    out: queue.Queue = queue.Queue(maxsize=AHEAD)
    stop = threading.Event()

    def work() -> None:
        try:
            for s in seeds:
                item = _make(method, box, s, options)
                while not stop.is_set():
                    try:
                        out.put(item, timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    return
            out.put(None)
        except BaseException as e:  # handed to the main thread, which reports it
            out.put(e)

    threading.Thread(target=work, name="generate", daemon=True).start()
    try:
        while True:
            try:
                item = out.get(timeout=0.1)
            except queue.Empty:
                continue
            if item is None:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()


class _Teller:
    """Tells WFC's contradictions on stderr: by default one line at the end of the run (how many restarts, in how
    many boards); each one as it happens with ``each`` (-v, and --interactive, where a person watches a board at a
    time)."""

    def __init__(self, each: bool = False) -> None:
        self.each = each
        self.total = self.boards = 0

    def board(self, number: int, board, events) -> None:
        self.boards += 1
        self.total += board.restarts
        if not self.each:
            return
        for e in events:
            report(f"board {number}: {e.describe()}, restarting")
        if board.restarts > len(events):  # events beyond those the generator kept: counted
            report(f"board {number}: {board.restarts - len(events)} more contradictions "
                   f"({board.restarts} restarts in all)")

    def close(self) -> None:
        if self.total and not (self.each and self.boards == 1):
            from ...english import count

            # one line within 80 columns, whatever the counts: what a restart is, the docs say
            report(f"{count(self.total, 'restart')} in {count(self.boards, 'board')} "
                   f"({self.total / self.boards:.2f} a board)" + ("" if self.each else ": -v tells why"))


def _show(number: int, board, fmt: str, with_count: bool) -> str:
    text = write(board.cells, fmt, board.box)
    if with_count:
        invalid = Grid(board.cells, board.box).invalid_count()
        text += (f"\n{invalid} invalid cell{'' if invalid == 1 else 's'}"
                 f"  (board {number}, seed {board.seed}, {board.restarts} restarts)")
    return text


def register(app: typer.Typer) -> None:
    @app.command()
    def generate(
        size: GridSizeOption = None,
        shape: ShapeOption = None,
        diagonals: DiagonalsOption = False,
        regions: RegionsOption = None,
        method: Annotated[Method, typer.Option(help="wfc: collapse the cell with the fewest candidates, restart "
                                                    "on a contradiction; backtrack: random depth-first search; "
                                                    "pattern: one random box shifted into the others (fast, "
                                                    "reaches few boards).")] = Method.wfc,
        count: Annotated[Optional[int], typer.Option("--count", "-n", min=1, help="How many boards to make "
                                                     "[default: 1; --interactive: until q].")] = None,
        seed: Annotated[Optional[int], typer.Option(min=0, max=SEED_MAX, help="Run seed; the same seed prints "
                                                    "the same boards [default: random, shown on stderr].")] = None,
        propagate: Annotated[Optional[bool], typer.Option("--propagate/--no-propagate", help="wfc only: "
                             "collapse naked and hidden singles after each pick [default: on for 25x25 and every "
                             "shape but square boxes].")] = None,
        locked: Annotated[Optional[bool], typer.Option("--locked/--no-locked", help="wfc only: "
                          "propagate, and also remove locked candidates (a digit whose places in one unit lie in a second unit "
                          "goes from the rest of it) [default: on for jigsaw regions].")] = None,
        shuffle: Annotated[bool, typer.Option(help="pattern only: also permute rows and columns within bands "
                                                   "and stacks (reaches more boards).")] = False,
        fmt: GenerateFormatOption = None,
        interactive: Annotated[bool, typer.Option(help="Show one board at a time with its invalid cells and "
                                                       "wait for Enter; q or end of input quits.")] = False,
    ) -> None:
        """Print complete boards made by a generator.

        One board per line, or separated by blank lines. The pretty format shows the number of invalid cells under
        each board (always 0 for a board). WFC's contradictions and restarts are reported on stderr.

        \b
        Examples:
          catalogue generate --count 3 --seed 1 > boards.txt
          catalogue generate --size 4 --method pattern --format pretty
          catalogue generate --shape 2x3 --count 2 --format block
          catalogue generate --shape jigsaw --regions random --seed 5 --format pretty
        """
        if propagate is not None and method is not Method.wfc:
            raise UsageError("--propagate/--no-propagate applies to --method wfc only")
        if locked is not None and method is not Method.wfc:
            raise UsageError("--locked/--no-locked applies to --method wfc only")
        if locked and propagate is False:
            raise UsageError("--locked is a part of propagation: it cannot go with --no-propagate")
        if shuffle and method is not Method.pattern:
            raise UsageError("--shuffle applies to --method pattern only")
        # the shape before the seed is drawn, so that options which make none say so first (a random layout is
        # drawn from the seed: its size and options are checked on the way)
        check_regions(shape, regions)
        from engine.generators import makes_every_shape, shape_methods

        shaped = " or ".join(shape_methods())
        if regions is not None and not makes_every_shape(method.value):
            raise UsageError(f"--method {method.value} makes square boxes only; jigsaw regions take --method {shaped}")
        box = None if regions == "random" and seed is None else grid_kind(size, shape, diagonals, regions, seed or 0)
        if box is not None and not isinstance(box, int) and not makes_every_shape(method.value):
            raise UsageError(f"--method {method.value} makes square boxes only; shape {box.name} takes --method "
                             f"{shaped}")
        if seed is None:
            seed = draw_seed()
            report(f"seed {seed} (use --seed {seed} to print these boards again)")
        if box is None:
            box = grid_kind(size, shape, diagonals, regions, seed)
        size = box * box if isinstance(box, int) else box.size
        options = {"propagate": propagate, "locked": locked} if method is Method.wfc else {}
        if method is Method.pattern:
            options["shuffle"] = shuffle
        if method is Method.wfc and size == 25 and propagate is False:
            report("plain WFC meets tens of thousands of contradictions per 25x25 board: seconds to minutes each")
        fmt_name = fmt.value if fmt else (PRETTY if interactive else LINE)
        total = count if (count is not None or interactive) else 1
        boards = _boards(method.value, box, _seeds(seed, total), options)
        teller = _Teller(each=is_verbose() or interactive)
        # json: one valid array of the boards' JSON objects, written board by board (closed on every exit)
        as_array = fmt_name == JSON and not interactive
        written = 0
        from ...kernels import jobs_for
        from ...progress import item_bar

        # the kernels first (compiled once, with their progress), then a bar on the terminal for a big --count
        # (never between --interactive boards)
        jobs = jobs_for("generate", [box], method=method.value) if isinstance(box, int) else []
        with item_bar("generating", None if interactive else total, unit="boards", jobs=jobs,
                      what="generate") as step:
            try:
                for number, (board, events) in enumerate(boards, start=1):
                    teller.board(number, board, events)
                    step(number)
                    text = _show(number, board, fmt_name, with_count=interactive or fmt_name == PRETTY)
                    if number > 1 and text.startswith("# shape "):
                        text = text.split("\n", 1)[1]  # a stream of boards names its shape once, first
                    elif number == 1 and fmt_name == LINE and not isinstance(box, int):
                        text = f"# shape {box.spec}\n{text}"
                    if as_array:
                        typer.echo(("[\n  " if number == 1 else ",\n  ") + text.replace("\n", "\n  "), nl=False)
                        written = number
                        continue
                    separator = "" if number == 1 or fmt_name == LINE else "\n"
                    typer.echo(separator + text)
                    if interactive and number != total and not _wait_for_enter():
                        return
            except GenerationError as e:
                raise UserError(str(e)) from None
            finally:
                boards.close()  # stops the worker thread when we leave early (q, end of input, an error)
                teller.close()
                if as_array:
                    typer.echo("\n]" if written else "[]")


def _wait_for_enter() -> bool:
    """False when the user typed q (or input ended); Ctrl-C raises KeyboardInterrupt (exit 130)."""
    typer.echo("Enter: next board, q: quit", err=True)
    line = sys.stdin.readline()
    return bool(line) and line.strip().lower() not in ("q", "quit")
