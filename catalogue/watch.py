"""The live view of a solve (seed 001's LandscapeDisplay, seed 002's iterative output), for ``solve --watch``.

Every solver reports its moves as events ``(cell, digit)``, digit 0 meaning the cell was emptied again: the
plain-Python solvers through their ``on_event`` hook as they run, the compiled ``fast`` solver through
:func:`engine.solvers.fast.trace`, which records its moves so they can be replayed here.

On a terminal the board is redrawn in place (rich ``Live``), givens in blue and placed digits in red as in seed
001, with ``delay`` milliseconds after each move, and ends with "Solved!" or "No solution!". When stdout is not
a terminal (a file, a pipe, a test) there is no animation: as seed 002 asks, the grid is printed each time a band
(a row of boxes) becomes complete for the first time, then the final grid. A band can be emptied again by
backtracking and refilled; printing only its first completion keeps the output to at most ``box`` snapshots,
and the final grid is the authoritative one.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, TextIO

import numpy as np
from rich.console import Console
from rich.live import Live
from rich.text import Text

from engine.formats import to_block
from engine.solvers import get_solver
from engine.solvers.base import SolveResult

GIVEN_STYLE = "bold blue"
PLACED_STYLE = "red"
BLANK_STYLE = "dim"
#: events recorded by the fast solver's trace when no node limit bounds them
DEFAULT_MAX_EVENTS = 200_000


@dataclass
class Outcome:
    result: SolveResult
    events: int  # moves shown


class WatchedGrid:
    """The grid as the view shows it, updated move by move; knows which bands are complete."""

    def __init__(self, cells: np.ndarray, box: int):
        self.box = box
        self.n = box * box
        self.cells = [int(v) for v in cells]
        self.givens = [v != 0 for v in self.cells]
        band_cells = self.box * self.n
        self.filled = [sum(1 for v in self.cells[b * band_cells:(b + 1) * band_cells] if v) for b in range(box)]
        self.reported = [f == band_cells for f in self.filled]  # complete from the start: nothing to report
        self.nodes = 0
        self.backtracks = 0

    def apply(self, cell: int, digit: int) -> int | None:
        """Record one move; returns the band it completed for the first time, if any."""
        before = self.cells[cell]
        self.cells[cell] = digit
        band = cell // (self.box * self.n)
        if digit:
            self.nodes += 1
            if before:  # a digit replaced by the next one to try (the stack solver's pop): one take-back
                self.backtracks += 1
            else:
                self.filled[band] += 1
        else:
            self.backtracks += 1
            self.filled[band] -= 1
        if digit and not self.reported[band] and self.filled[band] == self.box * self.n:
            self.reported[band] = True
            return band
        return None

    def text(self) -> str:
        return to_block(np.array(self.cells, dtype=np.int8), self.box)

    def rich(self, status: str) -> Text:
        """The board in block layout, givens and placed digits in their colours, then a status line."""
        out = Text()
        run, run_style = "", ""
        cell = 0
        for ch in self.text():  # to_block's layout; each symbol in it is the next cell in reading order
            if ch in " |-+\n":
                style = BLANK_STYLE if ch in "|-+" else run_style  # spaces join whatever run they are in
            else:
                v = self.cells[cell]
                style = GIVEN_STYLE if self.givens[cell] else (PLACED_STYLE if v else BLANK_STYLE)
                cell += 1
            if style != run_style and run:  # one span per run of a style keeps the terminal output small
                out.append(run, style=run_style)
                run = ""
            run, run_style = run + ch, style
        out.append(run, style=run_style)
        out.append("\n" + status)
        return out


def _events(solver: str, cells: np.ndarray, box: int, node_limit: int,
            on_event: Callable[[int, int], None]) -> SolveResult:
    """Run ``solver`` on ``cells``, passing each move to ``on_event``; returns the solve's result."""
    if solver == "fast":
        from engine.solvers import fast
        result = fast.solve(cells, box, 1, node_limit)
        max_events = 2 * node_limit if node_limit else DEFAULT_MAX_EVENTS
        for cell, digit in fast.trace(cells, box, max_events):
            on_event(int(cell), int(digit))
        return result
    return get_solver(solver)(cells, box, 1, node_limit, on_event=on_event)


def verdict(result: SolveResult) -> str:
    if result.gave_up:
        return f"Gave up after {result.metrics.nodes} nodes!"
    return "Solved!" if result.count else "No solution!"


def watch(cells: np.ndarray, box: int, solver: str = "stack", node_limit: int = 0, delay_ms: int = 10,
          out: TextIO | None = None, terminal: bool | None = None, title: str = "") -> Outcome:
    """Show ``solver`` working on ``cells``: animated on a terminal, band snapshots otherwise."""
    console = Console(file=out, highlight=False)
    interactive = console.is_terminal if terminal is None else terminal
    view = WatchedGrid(cells, box)
    shown = 0

    if not interactive:
        def snapshot(cell: int, digit: int) -> None:
            nonlocal shown
            shown += 1
            band = view.apply(cell, digit)
            if band is not None:
                rows = f"rows {band * box + 1}-{(band + 1) * box}"
                console.print(f"band {band + 1} complete ({rows}) after {view.nodes} nodes:\n{view.text()}\n",
                              markup=False)

        if title:
            console.print(title, markup=False)
        result = _events(solver, cells, box, node_limit, snapshot)
        final = result.solution if result.solution is not None else np.array(view.cells, dtype=np.int8)
        console.print(f"{verdict(result)} {_summary(result)}\n{to_block(final, box)}", markup=False)
        return Outcome(result, shown)

    pause = delay_ms / 1000.0

    class _Frame:  # rendered by Live's refresh thread from the current state, so moves only mutate the grid
        def __rich__(self) -> Text:
            return view.rich(f"{title}  {solver}: {view.nodes} nodes, {view.backtracks} backtracks")

    def animate(cell: int, digit: int) -> None:
        nonlocal shown
        shown += 1
        view.apply(cell, digit)
        if pause:
            time.sleep(pause)

    with Live(_Frame(), console=console, refresh_per_second=30, transient=False) as live:
        result = _events(solver, cells, box, node_limit, animate)
        if result.solution is not None:
            view.cells = [int(v) for v in result.solution]
        style = "bold green" if result.count else "bold red"
        final = view.rich("")
        final.append(f"{verdict(result)} ", style=style)
        final.append(_summary(result, timed=not pause))  # with a delay, the solve's time is mostly the pauses
        live.update(final, refresh=True)
    return Outcome(result, shown)


def _summary(result: SolveResult, timed: bool = True) -> str:
    m = result.metrics
    took = f", {m.seconds * 1000:.1f} ms of solving" if timed else ""
    return f"({m.nodes} nodes, {m.backtracks} backtracks{took})"
