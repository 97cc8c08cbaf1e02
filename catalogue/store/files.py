"""The board files ``<folder>/N.txt``: how they are written, checked and rebuilt.

The database holds every board; the files are derived from it. So the writer writes them with plain writes, after
the batch's commit, without a temp file and without fsync. Measured for 50,000 files, plain writes were several
times cheaper than a temp file and a rename each, and an fsync each dearer still (docs/benchmarks.md, Filling).
Paying that 50,000 times buys nothing the
database does not already give: a file lost or torn by a crash is rewritten from its row.

What makes the recovery cheap is a watermark: after writing the files of a batch, the writer records
``runs.files_through`` (the highest number whose file this run wrote, in the next batch's transaction and at the
end). A run that ended cleanly wrote all its files. So at open time only two kinds of boards can lack a good file:
those of runs left ``running`` (killed, or still going in another process) or ``failed``, above their own
watermark. :func:`check_at_open` checks exactly those (a few batches at most) and rewrites what is missing or
torn; :func:`check_files` with ``full=True`` checks every file and lists the folder for strays.

File names come from integer board numbers only (:func:`board_path`), never from user text.
"""
from __future__ import annotations

import json
import operator
import os
import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.engine import Engine

from engine.formats import from_line, to_txt

from ..errors import UserError
from . import plainfile
from .models import Board, Run

#: how many numbers past the last board the open-time check probes for strays (a full listing is `verify`'s job)
STRAY_PROBE = 8
#: how often check_files calls its progress callback, in files
PROGRESS_EVERY = 1000
#: statuses after which a run has written every file of its boards
CLEAN_STATUSES = ("completed", "interrupted", "exhausted")


def board_path(out: Path, number: int) -> Path:
    """``out/N.txt`` for board number N; only a non-negative integer makes a name."""
    number = operator.index(number)  # rejects str, float, ...: names never come from user text
    if number < 0:
        raise ValueError(f"board numbers are 0 or more, got {number}")
    return Path(out) / f"{number}.txt"


# -- writing --------------------------------------------------------------------------------------------------
def write_files(out: Path, numbers: Iterable[int], payloads: Iterable[bytes], *, replace: bool = False) -> None:
    """Plain writes, no temp file, no fsync (see the module docstring for the measurements and the reason), of
    plain files only (:mod:`catalogue.store.plainfile`): new boards' files are made, never written over what is
    there; ``replace`` rewrites the catalogue's own files (a torn one)."""
    out = Path(out)
    for number, payload in zip(numbers, payloads):
        plainfile.write(board_path(out, number), payload, replace=replace)


def expected_bytes(board_line: str, shape: str) -> bytes:
    """What board ``board_line``'s N.txt holds (``engine.formats.to_txt`` and a final newline): the grid of the
    shape whose spec the row stores, under a ``# shape`` line for every shape but square boxes."""
    from ..shapes import kernel_shape

    box = kernel_shape(shape)
    return (to_txt(from_line(board_line, box), box) + "\n").encode("ascii")


# -- checking -------------------------------------------------------------------------------------------------
@dataclass
class FileReport:
    checked: int = 0
    missing: list[int] = field(default_factory=list)
    torn: list[int] = field(default_factory=list)  # present but not the board's text (short, empty, other)
    strays: list[str] = field(default_factory=list)  # files named like a board file with no such board
    #: what is not a plain file where a board's file goes (``5.txt: a symbolic link``): never read, written or
    #: repaired; the user moves it away
    foreign: list[str] = field(default_factory=list)
    #: boards whose row cannot make a file (not a board: verify's database check says why); not checked, not written
    unreadable: list[int] = field(default_factory=list)
    repaired: int = 0
    closed_runs: list[int] = field(default_factory=list)  # dead `running` runs marked interrupted
    settled: list[int] = field(default_factory=list, repr=False)  # runs whose files were checked here
    _rows: dict[int, tuple[str, int]] = field(default_factory=dict, repr=False)

    @property
    def problems(self) -> int:
        return len(self.missing) + len(self.torn) + len(self.foreign)

    def describe(self) -> str:
        parts = []
        if self.missing:
            parts.append(f"{len(self.missing)} missing ({_sample(self.missing)})")
        if self.torn:
            parts.append(f"{len(self.torn)} torn ({_sample(self.torn)})")
        if self.unreadable:
            parts.append(f"{len(self.unreadable)} not checked (rows that are not boards: "
                         f"{_sample(self.unreadable)})")
        if self.foreign:
            parts.append(f"{len(self.foreign)} not plain files ({', '.join(sorted(self.foreign)[:5])}"
                         f"{', ...' if len(self.foreign) > 5 else ''})")
        if self.strays:
            parts.append(f"{len(self.strays)} stray ({', '.join(sorted(self.strays)[:5])}"
                         f"{', ...' if len(self.strays) > 5 else ''})")
        return ", ".join(parts) if parts else "all good"


def _sample(numbers: list[int]) -> str:
    shown = ", ".join(f"{n}.txt" for n in sorted(numbers)[:5])
    return shown + (", ..." if len(numbers) > 5 else "")


def _check_rows(out: Path, rows, report: FileReport, progress=None, total: int = 0) -> None:
    for number, line, shape in rows:
        report.checked += 1
        if progress is not None and report.checked % PROGRESS_EVERY == 0:
            progress(report.checked, total)
        try:
            want = expected_bytes(line, shape)
        except (ValueError, TypeError, ZeroDivisionError):  # a row that is not a board: the database check names it
            report.unreadable.append(number)
            continue
        try:
            got = plainfile.read(board_path(out, number), len(want))  # never more than one byte too many
        except plainfile.NotPlainFile as e:
            report.foreign.append(f"{number}.txt: {e.what}")
            continue
        if got is None:
            report.missing.append(number)
            report._rows[number] = (line, shape)
            continue
        if got != want:
            report.torn.append(number)
            report._rows[number] = (line, shape)


def check_files(engine: Engine, out: Path, full: bool = True,
                progress: Callable[[int, int], None] | None = None) -> FileReport:
    """Every board's file against its row, and the folder listed for strays (``full``), or the open-time check.

    ``progress(checked, total)``, if given, is called every :data:`PROGRESS_EVERY` files and once at the end."""
    if not full:
        return _check_recent(engine, out)
    out = Path(out)
    report = FileReport()
    with engine.connect() as conn:
        total = conn.execute(select(func.count()).select_from(Board)).scalar() if progress is not None else 0
        rows = conn.execution_options(yield_per=2000).execute(
            select(Board.number, Board.board, Board.shape).order_by(Board.number))
        _check_rows(out, rows, report, progress, total)
        if progress is not None:
            progress(report.checked, total)
        numbers = set(conn.execute(select(Board.number)).scalars())
    if out.is_dir():
        for entry in os.scandir(out):
            stem, dot, ext = entry.name.rpartition(".")
            if ext == "txt" and dot and stem.isdigit() and (str(int(stem)) != stem or int(stem) not in numbers):
                report.strays.append(entry.name)
    return report


def run_alive(parameters: str) -> bool | None:
    """Whether a run's process is still going: True/False on the host that started it (pid recorded at start),
    None (unknown) for a run started on another host or without a pid."""
    try:
        info = json.loads(parameters or "{}")
    except ValueError:
        return None
    pid, host = info.get("pid"), info.get("host")
    if not isinstance(pid, int) or host != socket.gethostname():
        return None
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process holds that pid now: ours is gone
        return False
    return True


def _check_recent(engine: Engine, out: Path) -> FileReport:
    """The cheap check: boards above the watermark of runs that did not end cleanly, plus a stray probe."""
    out = Path(out)
    report = FileReport()
    with engine.connect() as conn:
        runs = conn.execute(select(Run.id, Run.status, Run.parameters)
                            .where(Run.status.not_in(CLEAN_STATUSES))).all()
        alive = {r.id: run_alive(r.parameters) if r.status == "running" else False for r in runs}
        # a live run writes its own files; one of unknown fate (another host) is checked, never closed
        suspect = [r.id for r in runs if alive[r.id] is not True]
        if suspect:
            rows = conn.execute(
                select(Board.number, Board.board, Board.shape).join(Run, Board.run_id == Run.id)
                .where(Run.id.in_(suspect),
                       or_(Run.files_through.is_(None), Board.number > Run.files_through))
                .order_by(Board.number)).all()
            _check_rows(out, rows, report)
        top = conn.execute(select(func.max(Board.number))).scalar()
    first = -1 if top is None else top
    for number in range(first + 1, first + 1 + STRAY_PROBE):
        if plainfile.lkind(board_path(out, number)) is not None:  # a link counts, dangling or not
            report.strays.append(board_path(out, number).name)
    report.settled = [r.id for r in runs if alive[r.id] is False]
    return report


def repair(engine: Engine, out: Path, report: FileReport) -> int:
    """Rewrite every missing or torn file of the report from its row; strays, and what is not a plain file, are
    only reported, never deleted or written through."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for todo, replace in ((sorted(report.missing), False), (sorted(report.torn), True)):
        write_files(out, todo, [expected_bytes(*report._rows[n]) for n in todo], replace=replace)
    report.repaired = len(report.missing) + len(report.torn)
    return report.repaired


def refuse_strangers(out: Path, report: FileReport) -> None:
    """Before a run writes new boards: one line naming what is already where they go (strays past the last board,
    links, FIFOs, devices), which the run would not write over; the user moves it away first."""
    found = [*report.foreign, *(f"{name}: {plainfile.lkind(Path(out) / name)}" for name in report.strays)]
    if found:
        raise UserError(f"{out}: {len(found)} file{'s' if len(found) > 1 else ''} the catalogue did not write "
                        f"where its board files go ({', '.join(found[:3])}{', ...' if len(found) > 3 else ''}): "
                        f"move them away first; the catalogue never writes over them")


def settle_runs(engine: Engine, run_ids: list[int]) -> list[int]:
    """Raise the watermark of runs whose files were just made whole, so later opens do not check them again.

    A run left ``running`` by a dead process is closed as ``interrupted`` (with the count of boards it stored);
    returns the ids of the runs closed that way.
    """
    closed = []
    for run_id in run_ids:
        with engine.begin() as conn:
            top = conn.execute(select(func.max(Board.number)).where(Board.run_id == run_id)).scalar()
            count = conn.execute(select(func.count()).select_from(Board).where(Board.run_id == run_id)).scalar()
            conn.execute(update(Run).where(Run.id == run_id).values(files_through=top))
            done = conn.execute(update(Run).where(and_(Run.id == run_id, Run.status == "running"))
                                .values(status="interrupted", accepted=count))
            if done.rowcount:
                closed.append(run_id)
    return closed


def check_at_open(engine: Engine, out: Path) -> FileReport:
    """What every command that writes the catalogue runs first: find and rewrite what a crash left behind."""
    report = _check_recent(engine, out)
    if report.problems:
        repair(engine, out, report)
    report.closed_runs = settle_runs(engine, report.settled)
    return report
