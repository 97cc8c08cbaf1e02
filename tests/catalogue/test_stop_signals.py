"""SIGTERM and Ctrl-C stop every command within 2 s, whatever a kernel is doing, with one line and exit 130, and
keep what was accepted (docs/reliability.md, "Stopping: Ctrl-C and SIGTERM").

Real processes of the installed ``catalogue`` script, as a shell, systemd or a CI runner starts them: each case
starts a command on an input that keeps it busy, waits until it is working (its first answer on stdout, its first
board file, its first regraded chunk in the database, a request in the server's hands), sends the signal and
times the exit. The 25x25 cases keep a kernel busy far longer than the 2 s (an endless search, nested chains, a
carving of 200 removal orders, a relaxation toward --level, a search that runs to its node budget), in a
worker thread the signal cannot interrupt; the 9x9 cases stop a stream of short kernel calls.

The cases run two at a time, once per module (:func:`stops`), and each test asserts on its own case: about 30 s
in all on two warm cores.
"""
from __future__ import annotations

import http.client
import random
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from concurrent.futures import Future
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Optional

import pytest
from typer.testing import CliRunner

from catalogue.cli import app
from consistency import assert_consistent
from paths import DATA
from puzzles import NEVER_ENDS_25

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

#: the bound every command is held to, from the signal to the end of the process
STOP_WITHIN = 2.0
#: the exit code after either signal (catalogue.errors.EXIT_INTERRUPTED and EXIT_TERMINATED)
EXIT_STOPPED = 130
#: how long a case may take to start working (kernels load in about a second when the cache is warm)
READY_WITHIN = 120.0

_SCRIPT = shutil.which("catalogue", path=str(Path(sys.executable).parent))
CLI = [_SCRIPT] if _SCRIPT else [sys.executable, "-m", "catalogue"]

#: a minimal 25x25 puzzle that grades in a tenth of a second, also with --full-scale (a naked triple at most)
QUICK_25 = (
    ".K.4..6.I1...3D.......FHP.E...HM........BC8IG...A7.13H.F7.8EB5PML...........86D.......H4K9...3...GBC.C7"
    ".....N......PL.4K..MJ5....L.....6.7...OEM.NHB5..4.F.1.K........P2..CG9EJ..B253.AC.L.....87G............"
    ".OH...8G..N69.AD....M.NA8.BJ.K2ID...F.......6..8........MLJI...C..D7.B.LM.........H.4..K1F2.C9K.O...1N."
    "B...9.E.3L......4..5...9LGP.EB3M...7.....C..1..K837...I.......J6.G..E..M4P.......FIB..1A.O...K..O.5..GP"
    "..8..9...I...J.5.6CD1.A3F.........N.....A.I.....JC..E74..HPB...L.2.......4...KGJ5..7C.6......6...K.EA.P"
    "...HFG...O.....J83FH.1..N.......7.MFG..J......3..C.9.1PE.8.D1D..2P9L.4.....6K..J.....OA..P......B6.HL.."
    "ED..3.K")
#: its solution: a 25x25 board to carve
BOARD_25 = (
    "AKJ4BL62I18GC3D5MN79OEFHP5EPL9HM4K3ONJF2BC8IGD61A7I13HGF7C8EB5PMLOADJ62K49NN86DM5AJOP7H4K92F13EILGBC2C7O"
    "FGBDN9AI1E6PLH4K38MJ5G3DKL9PI426J7CF1OEMANHB58748FO1LK6NHA35MDP2BICG9EJH6B253EACDL9NP1J87G4KMOFIPI1JC7F"
    "OHME48GBKN695AD23LEM9NA8GBJ5K2IDOH3FCL47P1669G8E4OH5F1KMLJI2PNCB3D7AB7LM3DJ6PIN85HA4GOK1F2EC9KJOAD21NMB"
    "C7F9GE63L854IPH42I5HAC9LGP6EB3MDJF78ONK1CPF1NEK8372DOI49HA5BLJ6MGDHEC8M4PGJ5L9N7FIB631AKO23FK74OH52LGPB"
    "68C19ANMIJDEJB5P6CD17A3FHOI8EK2M9NLG4MOAGIKNF96JC21E74LDHPB583LN291I3EB84MDAKGJ5PO7CH6F8LNB762MDK9EAJP3"
    "5IHFG1C4O95CEKJ83FHD1L4NABGO26P7IMFGH6JBI7AOM3K2CN941PE58LD1DM32P9LE4IOG756KC8JHFANBOA4IPN5G1CFB68HL7ME"
    "DJ932K")
#: a minimal 25x25 puzzle whose grading with the dynamic chains (--full-scale) takes seconds (7 s on a 2026 core)
LONG_25 = (
    ".6AF7......OI.2JC....EG...O..G.3M8......NK...A.D.9.......9.O..EHB7....PL6...P..8.D.7L..9JGBO.........IJ"
    "L3........F.4EG..52N.....KCE9NI........6.O..A8....1IA.BM.H.D26.......4GJ57.GA..J1.9.MEF.......3..P...F."
    "....1.K..E.CIB..O.D.....C.P3.8.A..5.M47..1L...........F..G48.E3I.OHJ5..........K6..IG.D1..FPCN....625C4"
    "JD..........193.3B.24.G.P7........H..K...ILK51....BCE.....2NF.....6D3..H4LO8.........C...2P.K...M.....8"
    "6.C.NI.P...4LC52..7..6..KL......1J..AF.9O..5N.2..I4.7.8A.G.....L.4........F3.9.572JH..NM......6..N.4.7."
    "325AHEC...F.E8..2O.G...M.......5.P14.79..F...NG.8....K.D3...N.5.K....P.....91.MEB....A..M..E..4LD23...."
    "..68...")
SYMBOLS_9, SYMBOLS_25 = "123456789", "123456789ABCDEFGHIJKLMNOP"

#: the server with a request that never ends: /api/hint sleeps in its request thread (a thread nobody can
#: cancel, as a kernel would be) after leaving a mark; the rest is the script's own entry point
SLOW_SERVER = """\
import sys, time
from pathlib import Path
import catalogue.web.hint as hint
mark = Path(sys.argv.pop(1))
def stuck(*args, **kwargs):
    mark.touch()
    time.sleep(600)
hint.hint = stuck
from catalogue.entry import main
main()
"""


def relabelled(puzzle: str, symbols: str, rng: random.Random) -> str:
    """The puzzle with its symbols permuted: another puzzle under d4, the default equivalence."""
    image = list(symbols)
    rng.shuffle(image)
    table = dict(zip(symbols, image))
    return "".join(table.get(c, c) for c in puzzle)


def minimal_9x9() -> list[tuple[str, str]]:
    """(puzzle, solution) of data/minimal-9x9.txt's 100 puzzles."""
    rows = [line.split(":") for line in (DATA / "minimal-9x9.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    return [(row[0], row[2]) for row in rows]


def write_inputs(folder: Path) -> None:
    """The files the cases read: big 9x9 files (a stream of short kernel calls for several seconds), and 25x25
    files whose first answer comes at once and whose next grid keeps a kernel busy."""
    nine = minimal_9x9()
    rng = random.Random(49)
    # sized for about a second of work after the first answer (grading is slower than solving)
    (folder / "puzzles9.txt").write_text("".join(f"{p}\n" for p, _ in nine) * 400)
    (folder / "grade9.txt").write_text("".join(f"{p}\n" for p, _ in nine) * 200)
    (folder / "boards9.txt").write_text("".join(f"{s}\n" for _, s in nine) * 100)
    # six batches of 2,048: after the signal the slice in hand is stored, never the whole file
    distinct = [relabelled(p, SYMBOLS_9, rng) for _ in range(120) for p, _ in nine]
    (folder / "import9.txt").write_text("".join(f"{p}\n" for p in distinct))
    first, board = nine[0]
    (folder / "endless25.txt").write_text(f"{first}\n{NEVER_ENDS_25}\n")
    (folder / "grade25.txt").write_text(f"{first}\n{LONG_25}\n")
    (folder / "carve25.txt").write_text(f"{board}\n{BOARD_25}\n")
    quick = [relabelled(QUICK_25, SYMBOLS_25, rng) for _ in range(6)]
    endless = [NEVER_ENDS_25] + [relabelled(NEVER_ENDS_25, SYMBOLS_25, rng) for _ in range(3)]
    # three quick puzzles (the first three batches, a puzzle each: a batch's size follows the cost of the last,
    # catalogue.pace), one that grades for seconds with --full-scale (regrade25's: its grading is under way when
    # regrade25's signal comes, the quick ones' written) and three quick ones (the next batch), then the endless
    # puzzle four times, whose searches run to the node budget (seconds each) when import25's signal comes
    (folder / "import25.txt").write_text("".join(f"{p}\n" for p in [*quick[:3], LONG_25, *quick[3:], *endless]))


# -- readiness ----------------------------------------------------------------------------------------------------
def answered(case: "Case") -> bool:
    """Its first answer is on stdout: the kernels are loaded and work."""
    return case.out.exists() and case.out.stat().st_size > 0


def stored_a_board(case: "Case") -> bool:
    return any((case.dir / "boards").glob("*.txt"))


def stored_four_boards(case: "Case") -> bool:
    """import25's three quick puzzles and the long one (what regrade25 regrades) are stored."""
    return (case.dir / "boards").is_dir() and sum(1 for _ in (case.dir / "boards").glob("*.txt")) >= 4


def stored_a_batch(case: "Case") -> bool:
    """More than a batch of 9x9 puzzles is stored (2,048; stored in slices of 256): the signal comes in the middle
    of the next, and what is kept is enough for regrade9 to be busy when its own signal comes."""
    return (case.dir / "boards").is_dir() and sum(1 for _ in (case.dir / "boards").iterdir()) > 2500


def regraded(case: "Case") -> bool:
    """A chunk of changed grades is written (every stored score was made -1)."""
    return rows(case.db, "SELECT count(*) FROM puzzles WHERE score <> -1")[0][0] > 0


def in_a_request(case: "Case") -> bool:
    return (case.dir / "in-request").exists()


def serving(case: "Case") -> bool:
    return True  # after serve() has had its answer and left the connection open


def rows(db: Path, query: str) -> list:
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)) as conn:
        return conn.execute(query).fetchall()


@dataclass
class Case:
    name: str
    args: list[str]
    ready: Callable[["Case"], bool] = answered
    sig: int = signal.SIGTERM
    #: the case whose catalogue this one works on (a copy, its scores set to -1), or "" for a new catalogue
    catalogue_of: Optional[str] = None
    dir: Path = field(default=Path("."))
    result: Future = field(default_factory=Future)

    @property
    def out(self) -> Path:
        return self.dir / "stdout"

    @property
    def db(self) -> Path:
        return self.dir / "c.db"

    @property
    def id(self) -> str:
        return f"{self.name}-{signal.Signals(self.sig).name}"


@dataclass
class Stopped:
    seconds: float  #: from the signal to the end of the process
    code: int
    lines: list[str]  #: stderr after the signal
    stdout: str
    dir: Path


SIZED = [  # (name, arguments): the file commands
    ("solve9", ["solve", "puzzles9.txt"]),
    ("solve25", ["solve", "endless25.txt", "--node-limit", "0"]),
    ("check9", ["check", "puzzles9.txt"]),
    ("check25", ["check", "endless25.txt", "--node-limit", "0"]),
    ("grade9", ["grade", "grade9.txt", "--format", "line"]),
    ("grade25", ["grade", "grade25.txt", "--full-scale", "--format", "line"]),
    ("carve9", ["carve", "boards9.txt"]),
    ("carve25", ["carve", "carve25.txt", "--target-clues", "0", "--attempts", "200"]),
]
#: two lanes, each run in order (a catalogue is made before the case that reads it), side by side; Ctrl-C is
#: sent here to the commands no other test sends it to (check, grade, carve), during their long kernel
LANES = [
    [Case("import9", ["import", "import9.txt"], stored_a_batch, catalogue_of=""),
     Case("regrade9", ["regrade", "--size", "9", "--threads", "1"], regraded, catalogue_of="import9"),
     Case("fill9", ["fill", "--count", "1000000", "--seed", "1"], stored_a_board, catalogue_of=""),
     *[Case(name, args) for name, args in SIZED[:4]],
     Case(*SIZED[3], sig=signal.SIGINT),
     Case("serve", ["serve", "--port", "0"], serving, catalogue_of="import9")],
    [Case("import25", ["import", "import25.txt"], stored_four_boards, catalogue_of=""),
     Case("regrade25", ["regrade", "--size", "25", "--full-scale"], regraded, catalogue_of="import25"),
     # --level expert: each 25x25 carving is relaxed toward the level, a kernel call of seconds
     Case("fill25", ["fill", "--size", "25", "--level", "expert", "--count", "1000", "--seed", "5"],
          stored_a_board, catalogue_of=""),
     *[Case(name, args) for name, args in SIZED[4:]],
     Case(*SIZED[5], sig=signal.SIGINT),
     Case(*SIZED[7], sig=signal.SIGINT),
     Case("serve-busy", ["serve", "--port", "0"], in_a_request, catalogue_of="import9")],
]
CASES = {case.id: case for lane in LANES for case in lane}


def default_signals() -> None:
    """Ctrl-C and SIGTERM as a terminal gives them (a test run started as a script's background job would pass
    SIGINT on ignored, and the command would rightly ignore it too)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def run(case: Case, work: Path) -> Stopped:
    case.dir = work / case.id
    case.dir.mkdir()
    args = [*case.args]
    if case.catalogue_of is not None:
        if case.catalogue_of:
            source = CASES[f"{case.catalogue_of}-SIGTERM"]
            source.result.result()  # made first, in the same lane
            for suffix in ("", "-wal"):  # committed pages may still be in the write-ahead log
                if Path(f"{source.db}{suffix}").exists():
                    shutil.copy(f"{source.db}{suffix}", f"{case.db}{suffix}")
            shutil.copytree(source.dir / "boards", case.dir / "boards")
            if case.args[0] == "regrade":
                with closing(sqlite3.connect(case.db)) as conn, conn:
                    conn.execute("UPDATE puzzles SET score = -1")
        args += ["--db", str(case.db)]
        if case.args[0] in ("fill", "import"):
            args += ["--out", str(case.dir / "boards")]
    command = CLI
    if case.name == "serve-busy":
        command = [sys.executable, "-c", SLOW_SERVER, str(case.dir / "in-request")]
    err = case.dir / "stderr"
    with case.out.open("wb") as stdout, err.open("wb") as stderr:
        proc = subprocess.Popen([*command, *args], cwd=work, stdout=stdout, stderr=stderr,
                                preexec_fn=default_signals)
    RUNNING.add(proc)
    try:
        clients = serve(case, proc, err) if case.name.startswith("serve") else []
        deadline = time.monotonic() + READY_WITHIN
        while not case.ready(case):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"{case.id} ended or did not start working (exit {proc.poll()}): "
                                     f"{err.read_text()[-2000:]}")
            time.sleep(0.02)
        said = err.stat().st_size
        proc.send_signal(case.sig)
        sent = time.monotonic()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{case.id} still ran 30 s after the signal: {err.read_text()[-2000:]}") from None
        seconds = time.monotonic() - sent
        for client in clients:
            client.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        RUNNING.discard(proc)
    text = err.read_bytes()
    return Stopped(seconds, proc.returncode, [line for line in text[said:].decode().splitlines() if line.strip()],
                   case.out.read_text(), case.dir)


def serve(case: Case, proc: subprocess.Popen, err: Path) -> list:
    """Wait for the server's first line; open a connection that stays open after its answer (and, on the busy
    server, send a request that never ends)."""
    deadline = time.monotonic() + READY_WITHIN
    while "serving " not in err.read_text():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(f"serve did not start: {err.read_text()}")
        time.sleep(0.02)
    port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", err.read_text())[1])
    idle = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    idle.request("GET", "/api/stats")
    assert idle.getresponse().read()
    clients: list = [idle]
    if case.name == "serve-busy":
        busy = socket.create_connection(("127.0.0.1", port), timeout=30)
        busy.sendall(b"GET /api/hint?grid=1 HTTP/1.1\r\nHost: test\r\n\r\n")
        clients.append(busy)
    return clients


#: the processes of the cases running now: ended at the module's end whatever happened (a failed or deselected
#: test must not leave a fill running)
RUNNING: set = set()


def wanted(session) -> set[str]:
    """The cases the selected tests need (``-k``, ``-x``, a single test), and the cases whose catalogues they read."""
    ids = {item.callspec.params["case_id"] for item in session.items
           if Path(item.path).resolve() == Path(__file__).resolve() and hasattr(item, "callspec")}
    for case_id in list(ids):
        source = CASES[case_id].catalogue_of
        if source:
            ids.add(f"{source}-SIGTERM")
    return ids


@pytest.fixture(scope="module")
def stops(request, tmp_path_factory) -> Iterator[dict[str, Case]]:
    """Every case the selected tests need, run once: the two lanes side by side; each test waits for its own."""
    work = tmp_path_factory.mktemp("stops")
    write_inputs(work)
    needed = wanted(request.session)
    closing_time = threading.Event()

    def lane(cases: list[Case]) -> None:
        for case in cases:
            if case.id not in needed or closing_time.is_set():
                case.result.set_exception(AssertionError(f"{case.id} was not run"))
                continue
            try:
                case.result.set_result(run(case, work))
            except BaseException as e:  # noqa: BLE001 - the case's own test reports it
                case.result.set_exception(e)

    threads = [threading.Thread(target=lane, args=(cases,), daemon=True) for cases in LANES]
    for thread in threads:
        thread.start()
    yield CASES
    closing_time.set()
    for proc in list(RUNNING):
        proc.kill()
    for thread in threads:
        thread.join(timeout=60)


def stopped(stops, case_id: str) -> Stopped:
    return stops[case_id].result.result(timeout=600)


def verify(done: Stopped):
    """`catalogue verify` on what a writer left, run here by the test (its exit code and stderr are what count;
    the stopped process was the real one)."""
    result = CliRunner().invoke(app, ["verify", "--db", str(done.dir / "c.db")], prog_name="catalogue")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return result


def what(sig: int) -> str:
    return "terminated" if sig == signal.SIGTERM else "interrupted"


@pytest.mark.parametrize("case_id", list(CASES))
def test_the_signal_stops_the_command_within_2_s_with_one_line_and_130(stops, case_id):
    case, done = stops[case_id], stopped(stops, case_id)
    assert done.code == EXIT_STOPPED, done.lines
    assert done.seconds < STOP_WITHIN, f"{case_id} took {done.seconds:.2f} s to stop"
    assert not any("Traceback" in line or not line.startswith("catalogue: ") for line in done.lines), done.lines
    word = what(case.sig)
    if case.args[0] in ("fill", "import"):  # the orderly stop says it starts, then what it kept
        again = "SIGTERM" if case.sig == signal.SIGTERM else "Ctrl-C"
        assert done.lines[0].startswith("catalogue: stopping: ") and done.lines[0].endswith(
            f"({again} again to quit at once)"), done.lines
        assert done.lines[-1].startswith(f"catalogue: {word}: ") and len(done.lines) == 2, done.lines
    elif case.args[0] == "regrade":
        assert len(done.lines) == 1 and done.lines[0].startswith(f"catalogue: {word} after "), done.lines
    elif case.args[0] == "grade":  # what was graded is written, and the line counts it
        assert len(done.lines) == 1 and re.fullmatch(
            rf"catalogue: {word}: [\d,]+ of [\d,]+ puzzles graded, written above", done.lines[0]), done.lines
    else:
        assert done.lines == [f"catalogue: {word}"]


@pytest.mark.parametrize("case_id", ["fill9-SIGTERM", "fill25-SIGTERM", "import9-SIGTERM", "import25-SIGTERM"])
def test_fill_and_import_keep_every_board_they_accepted(stops, case_id):
    done = stopped(stops, case_id)
    kept = int(re.search(r": ([\d,]+) (boards?|puzzles?) saved", done.lines[-1])[1].replace(",", ""))
    boards = assert_consistent(f"sqlite:///{done.dir / 'c.db'}", done.dir / "boards")
    puzzles = rows(done.dir / "c.db", "SELECT count(*) FROM puzzles")[0][0]
    assert kept == (len(boards) if case_id.startswith("fill") else puzzles) > 0
    assert rows(done.dir / "c.db", "SELECT status, accepted FROM runs") == [
        ("interrupted", len(boards) if case_id.startswith("fill") else puzzles)]
    assert "status          interrupted" in done.stdout
    verified = verify(done)
    assert verified.exit_code == 0, verified.stderr


@pytest.mark.parametrize("case_id", ["grade9-SIGTERM", "grade25-SIGTERM", "grade25-SIGINT"])
def test_grade_writes_what_it_graded(stops, case_id):
    done = stopped(stops, case_id)
    graded = int(re.search(r": ([\d,]+) of", done.lines[0])[1].replace(",", ""))
    lines = done.stdout.splitlines()  # --format line: a line a puzzle, in file order
    assert len(lines) == graded and all(re.fullmatch(r"\w+ \d+\.\d .+", line) for line in lines), lines[:3]


@pytest.mark.parametrize("case_id", ["regrade9-SIGTERM", "regrade25-SIGTERM"])
def test_regrade_keeps_the_chunks_it_wrote(stops, case_id):
    done = stopped(stops, case_id)
    found = re.search(r"after ([\d,]+) of ([\d,]+) puzzles: ([\d,]+) changed grades written", done.lines[0])
    graded, matched, written = (int(group.replace(",", "")) for group in found.groups())
    # every stored score was -1, so every graded puzzle changed and was written with its chunk; the signal, sent
    # just after a chunk's commit, waits for its count (catalogue.signals.Held): the line is exact
    in_database = rows(done.dir / "c.db", "SELECT count(*) FROM puzzles WHERE score <> -1")[0][0]
    assert 0 < written == graded == in_database < matched, (done.lines, in_database)
    verified = verify(done)
    assert verified.exit_code == 0, verified.stderr
