"""The web API on a real uvicorn server on a free port, over real HTTP, against a real catalogue.

Most tests run the server in a thread of the test process (started and stopped per module); the `serve` command
itself runs as a real process: the port it announces, a port in use, a missing catalogue, Ctrl-C.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import running_server
from typer.testing import CliRunner

from catalogue.cli import app as cli_app

runner = CliRunner()
CLI = [sys.executable, "-c", "from catalogue.cli import main; main()"]


def get(base: str, path: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(base + path, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.fixture(scope="module")
def catalogue_db(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("web") / "c.db"
    result = runner.invoke(cli_app, ["fill", "--count", "60", "--seed", "11", "--db", str(db)])
    assert result.exit_code == 0, result.output
    return db


@pytest.fixture(scope="module")
def server(catalogue_db):
    """The base URL of the app on ``catalogue_db``, served by uvicorn in a thread on a port the OS picked."""
    with running_server(str(catalogue_db)) as base:
        yield base


def cli_json(db: Path, *args: str):
    result = runner.invoke(cli_app, [*args, "--db", str(db), "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("query, options", [
    ("limit=5", ["--limit", "5"]),
    ("min_clues=24&max_clues=26&order_by=clues&desc=true&limit=20",
     ["--min-clues", "24", "--max-clues", "26", "--order-by", "clues", "--desc", "--limit", "20"]),
    ("level=easy&limit=1000", ["--level", "easy", "--limit", "0"]),
    ("size=9&equivalence=d4&method=wfc&order_by=score", ["--size", "9", "--equivalence", "d4", "--method", "wfc",
                                                         "--order-by", "score", "--limit", "50"]),
    ("method=import", ["--method", "import"]),  # none in a fill's catalogue: an empty list, not a 400
    ("source=royle&limit=1000", ["--source", "royle", "--limit", "0"]),
])
def test_puzzles_are_what_query_prints(server, catalogue_db, query, options):
    status, body = get(server, f"/api/puzzles?{query}")
    assert status == 200
    assert body["puzzles"] == cli_json(catalogue_db, "query", *options)
    assert body["count"] == len(body["puzzles"])


def test_samples_offsets_and_scores_are_what_query_prints(server, catalogue_db):
    status, body = get(server, "/api/puzzles?sample=7&seed=3&order_by=clues&limit=1000")
    assert status == 200 and (body["sample"], body["seed"]) == (7, 3)
    assert body["puzzles"] == cli_json(catalogue_db, "query", "--sample", "7", "--seed", "3", "--order-by", "clues")
    status, body = get(server, "/api/puzzles?min_score=2&max_score=7&offset=5&limit=10")
    assert body["puzzles"] == cli_json(catalogue_db, "query", "--min-score", "2", "--max-score", "7", "--offset", "5",
                                       "--limit", "10")
    status, first = get(server, "/api/puzzles?sample=3")
    assert status == 200 and isinstance(first["seed"], int)  # a new seed, returned so the sample can be had again
    assert get(server, f"/api/puzzles?sample=3&seed={first['seed']}")[1]["puzzles"] == first["puzzles"]


def test_the_daily_puzzles_are_what_daily_prints(server, catalogue_db):
    for level in ("", "&level=easy"):
        status, body = get(server, f"/api/daily?date=2026-11-23{level}")
        assert status == 200 and body["date"] == "2026-11-23"
        args = ["daily", "--date", "2026-11-23", *(["--level", "easy"] if level else [])]
        assert body["puzzles"] == cli_json(catalogue_db, *args)
    days = {get(server, f"/api/daily?date=2026-11-{d:02d}&level=easy")[1]["puzzles"][0]["number"]
            for d in range(1, 29)}
    assert len(days) > 1, "different days, different puzzles"


def test_one_puzzle_and_one_board(server, catalogue_db):
    """One record shape: /api/puzzles/N and /api/boards/N are export's record, whose first fields are query's."""
    rows = cli_json(catalogue_db, "query", "--limit", "0")
    status, puzzle = get(server, "/api/puzzles/7")
    row = next(r for r in rows if r["number"] == 7)
    assert status == 200 and {k: puzzle[k] for k in row} == row and list(puzzle)[:len(row)] == list(row)
    status, board = get(server, "/api/boards/7")
    assert status == 200 and board == puzzle == cli_json(catalogue_db, "export", "7")


def test_stats(server, catalogue_db):
    status, body = get(server, "/api/stats")
    assert status == 200 and body["boards"] == 60 and body["puzzles"] == 60


@pytest.mark.parametrize("path, status, parameter, words", [
    ("/api/puzzles?limit=0", 400, "limit", "limit: Input should be greater than or equal to 1"),
    ("/api/puzzles?limit=abc", 400, "limit", "limit: Input should be a valid integer"),
    ("/api/puzzles?limit=99999999999999999999999", 400, "limit", "limit: Input should be less than or equal to"),
    ("/api/puzzles?level=impossible", 400, "level", "level: Input should be 'easy'"),
    ("/api/puzzles?technique=telepathy", 400, None, "technique: no technique 'telepathy'; one of: "),
    ("/api/puzzles?size=2", 400, None, "size must be a grid's rows, 3 to 25, not 2"),
    ("/api/puzzles?shape=hexagon", 400, None, "shape: 'hexagon' is not a shape"),
    ("/api/puzzles?min_clues=30&max_clues=20", 400, None, "min_clues 30 is above max_clues 20"),
    ("/api/puzzles?order_by=price", 400, None, "order_by: no sort key 'price'"),
    ("/api/puzzles?sample=0", 400, "sample", "sample: Input should be greater than or equal to 1"),
    ("/api/puzzles?seed=4", 400, None, "seed chooses a sample: give sample too"),
    ("/api/puzzles?offset=-1", 400, "offset", "offset: Input should be greater than or equal to 0"),
    ("/api/puzzles?min_score=5&max_score=2", 400, None, "min_score 5 is above max_score 2"),
    ("/api/daily?date=2026-13-40", 400, None, "date: not a date (YYYY-MM-DD): '2026-13-40'"),
    ("/api/daily?level=trivial", 400, "level", "level: Input should be 'easy'"),
    ("/api/puzzles?min_clues=-1", 400, "min_clues", "min_clues: Input should be greater than or equal to 0"),
    ("/api/puzzles/99999", 404, None, "no puzzle 99999"),
    ("/api/puzzles/-3", 404, None, "no puzzle -3"),
    ("/api/puzzles/1e3", 400, "number", "number: not a puzzle number (N, or N.K for a board's K-th puzzle): '1e3'"),
    ("/api/boards/123456789012345678901234567890", 404, None, "no board 123456789012345678901234567890"),
    ("/api/nothing", 404, None, "no such page: /api/nothing"),
])
def test_bad_requests_are_one_json_error(server, path, status, parameter, words):
    got, body = get(server, path)
    assert got == status and body["status"] == status
    assert body["error"].startswith(words), body
    assert "\n" not in body["error"] and "Traceback" not in body["error"]
    assert body.get("parameter") == parameter


def test_a_bug_is_a_500_with_one_line_and_no_traceback(server, monkeypatch, capfd):
    from catalogue.store import summary

    def broken(conn):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(summary, "stats", broken)
    status, body = get(server, "/api/stats")
    assert status == 500
    assert body["error"].startswith("internal error: ZeroDivisionError: division by zero (a bug in catalogue")
    err = capfd.readouterr().err
    assert "catalogue: GET /api/stats: internal error: ZeroDivisionError" in err and "Traceback" not in err


def test_the_openapi_document_lists_the_routes(server):
    status, spec = get(server, "/openapi.json")
    assert status == 200
    assert {"/api/puzzles", "/api/puzzles/{number}", "/api/boards/{number}", "/api/stats"} <= set(spec["paths"])
    with urllib.request.urlopen(server + "/docs", timeout=30) as page:
        assert page.status == 200 and b"swagger" in page.read().lower()


def test_it_keeps_answering_while_fill_writes(server, catalogue_db):
    # 1,000 boards in batches of 32: some 30 commits while the answers are taken
    fill = subprocess.Popen([*CLI, "fill", "--count", "1000", "--batch", "32", "--seed", "12",
                             "--db", str(catalogue_db)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seen = []
    try:
        while fill.poll() is None:
            status, body = get(server, "/api/stats")
            assert status == 200
            seen.append(body["boards"])
            status, page = get(server, "/api/puzzles?order_by=number&desc=true&limit=10")
            assert status == 200 and len(page["puzzles"]) == 10
    finally:
        _, err = fill.communicate(timeout=300)
    assert fill.returncode == 0, err
    assert seen == sorted(seen), "every answer is a consistent snapshot: the count never goes back"
    assert get(server, "/api/stats")[1]["boards"] == 1060


# -- the command ---------------------------------------------------------------------------------------------
def _start(*args: str, sigint=None, env=None) -> tuple[subprocess.Popen, str]:
    """``sigint``: the SIGINT handler the server starts with (None: this process's)."""
    setup = None if sigint is None else (lambda: signal.signal(signal.SIGINT, sigint))
    proc = subprocess.Popen([*CLI, "serve", "--port", "0", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=setup, env=env)
    line = proc.stderr.readline()
    assert line.startswith("catalogue: serving "), line + proc.stderr.read()
    return proc, line.split(" at ")[1].split("/ ")[0]


@pytest.mark.parametrize("sigint", [signal.SIG_DFL, signal.SIG_IGN], ids=["terminal", "background-job"])
def test_serve_announces_its_port_and_stops_on_ctrl_c_with_130(catalogue_db, sigint):
    """Also when it starts with SIGINT ignored, as a script's background job does (``catalogue serve &``): uvicorn
    catches the signal all the same, and the command still says it was interrupted."""
    proc, base = _start("--db", str(catalogue_db), sigint=sigint)
    try:
        assert get(base, "/api/stats")[0] == 200
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
    assert proc.returncode == 130
    assert "Traceback" not in proc.stderr.read()


def test_serve_refuses_a_port_in_use_and_a_missing_catalogue(catalogue_db, tmp_path):
    proc, base = _start("--db", str(catalogue_db))
    port = base.rsplit(":", 1)[1]
    try:
        busy = subprocess.run([*CLI, "serve", "--port", port, "--db", str(catalogue_db)], capture_output=True,
                              text=True, timeout=60)
        assert busy.returncode == 1
        assert busy.stderr == f"catalogue: cannot listen on 127.0.0.1:{port}: address already in use\n"
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
    missing = subprocess.run([*CLI, "serve", "--port", "0", "--db", str(tmp_path / "none.db")], capture_output=True,
                             text=True, timeout=60)
    assert missing.returncode == 1 and missing.stderr.startswith("catalogue: no catalogue at ")
    assert not (tmp_path / "none.db").exists()
    bad_host = subprocess.run([*CLI, "serve", "--host", "no-such-host.invalid", "--db", str(catalogue_db)],
                              capture_output=True, text=True, timeout=60)
    assert bad_host.returncode == 1 and bad_host.stderr.startswith("catalogue: --host no-such-host.invalid: ")


def test_a_catalogue_deleted_under_a_running_server_is_a_503_and_is_not_recreated(tmp_path):
    db = tmp_path / "gone.db"
    assert runner.invoke(cli_app, ["fill", "--count", "5", "--db", str(db)]).exit_code == 0
    proc, base = _start("--db", str(db))
    try:
        db.rename(tmp_path / "moved.db")
        status, body = get(base, "/api/stats")
        assert status == 503 and body["error"] == f"no catalogue at {db}: it was moved or deleted"
        assert not db.exists()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)


def test_a_puzzle_as_svg_and_pdf(server, catalogue_db):
    import xml.etree.ElementTree as ET

    rows = cli_json(catalogue_db, "query", "--limit", "0")
    record = next(r for r in rows if r["number"] == 5)
    with urllib.request.urlopen(server + "/puzzles/5.svg", timeout=30) as answer:
        assert answer.headers["content-type"].startswith("image/svg+xml")
        svg = answer.read()
    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter() if t.tag.endswith("text") and t.text]
    assert any("No. 5" in t for t in texts)
    assert "".join(t for t in texts if len(t) == 1) == record["puzzle"].replace(".", "")
    with urllib.request.urlopen(server + "/puzzles/5.pdf?solution=true", timeout=30) as answer:
        assert answer.headers["content-type"] == "application/pdf"
        pdf = answer.read()
    from io import BytesIO

    from pypdf import PdfReader

    assert pdf.startswith(b"%PDF") and len(PdfReader(BytesIO(pdf)).pages) == 2  # the puzzle, then its solution
    status, body = get(server, "/puzzles/99999.svg")
    assert status == 404 and body["error"] == "no puzzle 99999"
    status, body = get(server, "/puzzles/x.pdf")
    assert status == 400 and body["parameter"] == "number"


def test_a_hint_on_a_machine_without_the_compiled_grader_does_not_compile_it(catalogue_db, tmp_path):
    """A server on a new machine (an empty kernel cache) answers a hint with the Python searches alone rather than
    compile the grader for a minute inside the request; the step is the one the grader takes."""
    from engine.formats import from_line
    from engine.grade import next_step

    line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    kernels = tmp_path / "kernels"
    proc, base = _start("--db", str(catalogue_db), env=dict(os.environ, NUMBA_CACHE_DIR=str(kernels)))
    try:
        before = list(kernels.rglob("*_grade_many-*.nbi"))  # a precompiled bundle, where one is installed
        status, step = get(base, f"/api/hint?grid={line}")
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
    expected = next_step(from_line(line), 3, guided=False)
    assert status == 200 and (step["technique"], step["explanation"]) == (expected.technique, expected.explanation)
    if not before:
        assert not list(kernels.rglob("*_grade_many-*.nbi"))


def test_a_stuck_hint_says_what_it_left_out_on_a_big_grid(server):
    """Hints keep the default rows, which on 16x16 leave the dynamic chains out: when no technique helps there, the
    answer says so (a catalogue regraded at the full scale may rate the puzzle by them); on 9x9 it does not."""
    status, step = get(server, "/api/hint?grid=1" + "." * 255)  # one clue: nothing to deduce
    assert status == 200 and step["technique"] is None
    assert "leave out the dynamic forcing chains" in step["explanation"]
    status, step = get(server, "/api/hint?grid=1" + "." * 80)
    assert status == 200 and step["technique"] is None
    assert step["explanation"].endswith("needs guessing, or a digit entered is wrong")


@pytest.mark.parametrize("query, options", [
    ("", []), ("order_by=score&desc=true", ["--order-by", "score", "--desc"]),
    ("order_by=level", ["--order-by", "level"]),
    ("order_by=clues&level=easy", ["--order-by", "clues", "--level", "easy"]),
    ("order_by=solve_seconds&desc=true", ["--order-by", "solve_seconds", "--desc"]),
    ("sample=250&seed=3&order_by=score", ["--sample", "250", "--seed", "3", "--order-by", "score"])])
def test_pages_by_cursor_add_up_to_the_whole_list(server, catalogue_db, query, options):
    """Follow `next` from the first page to the last: the pages hold every match once, in the order `catalogue
    query --limit 0` lists them, and each page says the total."""
    whole = cli_json(catalogue_db, "query", "--limit", "0", *options)
    status, page = get(server, f"/api/puzzles?{query}&limit=97")
    seen = []
    while True:
        assert status == 200 and page["total"] == len(whole), page
        seen += page["puzzles"]
        if page["next"] is None:
            break
        status, page = get(server, page["next"])
    assert seen == whole


@pytest.mark.parametrize("path, parameter", [("/api/puzzles?min_clue=30", "min_clue"),
                                             ("/api/puzzles?levle=extreme", "levle"),
                                             ("/api/daily?levle=extreme", "levle"),
                                             ("/api/stats?verbose=1", "verbose"),
                                             ("/api/puzzles?after=1,2", "after")])
def test_an_unknown_or_bad_parameter_is_a_400_naming_it(server, path, parameter):
    status, body = get(server, path)
    assert (status, body["parameter"]) == (400, parameter) and body["error"].startswith(f"{parameter}: ")


def test_a_hint_from_the_players_candidates_moves_the_game_on(server, catalogue_db):
    """Play the hints of a hard puzzle: placements go into the grid; at the first elimination, the same grid with
    that elimination made in the candidates gets another hint, never the same one again (the page's pencil
    marks); a mark that removes a cell's last candidate is a 400 naming candidates."""
    from urllib.parse import quote

    from engine.vocabulary import SYMBOLS

    record = next(r for r in cli_json(catalogue_db, "query", "--level", "hard", "--limit", "0") if r["size"] == 9)
    grid = list(record["puzzle"])
    for _ in range(81):
        status, step = get(server, f"/api/hint?grid={''.join(grid)}")
        assert status == 200 and step["technique"] is not None, step
        if step["eliminations"]:
            break
        for p in step["placements"]:
            grid[p["cell"]] = SYMBOLS[p["digit"]]
    else:
        pytest.fail("no elimination among the hints")
    gone: dict[int, set[int]] = {}
    for e in step["eliminations"]:
        gone.setdefault(e["cell"], set()).add(e["digit"])
    fields = ["".join(SYMBOLS[d] for d in range(1, 10) if d not in gone[c]) if c in gone else "" for c in range(81)]
    status, after = get(server, f"/api/hint?grid={''.join(grid)}&candidates={quote(','.join(fields))}")
    assert status == 200 and after["technique"] is not None
    assert (after["explanation"], after["eliminations"]) != (step["explanation"], step["eliminations"])
    # a mark that leaves a blank cell nothing: its only candidate is a digit its row already holds
    blank = next(c for c in range(81) if grid[c] == "." and any(grid[c // 9 * 9 + j] != "." for j in range(9)))
    fields[blank] = next(grid[blank // 9 * 9 + j] for j in range(9) if grid[blank // 9 * 9 + j] != ".")
    status, bad = get(server, f"/api/hint?grid={''.join(grid)}&candidates={quote(','.join(fields))}")
    assert status == 400 and bad["error"] == f"candidates: r{blank // 9 + 1}c{blank % 9 + 1} has no candidate left"
    fields[blank] = "0"
    status, bad = get(server, f"/api/hint?grid={''.join(grid)}&candidates={quote(','.join(fields))}")
    assert status == 400 and bad["error"].startswith("candidates: '0' in cell")


@pytest.fixture(scope="module")
def served(catalogue_db):
    """The base URL of one real `catalogue serve` process (its own uvicorn set-up) on ``catalogue_db``, for the
    tests of what uvicorn answers itself; stopped with Ctrl-C at the module's end."""
    proc, base = _start("--db", str(catalogue_db))
    try:
        yield base
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)


@pytest.mark.parametrize("request_bytes", [b"GARBAGE\r\n\r\n", b"GET /api/stats HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
                                           b"GET /\x00 HTTP/1.1\r\n\r\n"], ids=["not-http", "bad-header", "nul"])
def test_a_request_uvicorn_cannot_parse_gets_the_json_error_too(served, request_bytes):
    """uvicorn answers these itself, before the application; the answer has the API's JSON error shape."""
    import socket

    host, port = served.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(request_bytes)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ") and b"content-type: application/json" in head.lower()
    error = json.loads(body)
    assert error["status"] == 400 and error["error"].startswith("malformed HTTP request: ")
    assert get(served, "/api/stats")[0] == 200  # and the server serves on


# -- shapes: hints on every shape ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def shaped_db(tmp_path_factory) -> Path:
    """A catalogue of 6x6 (2x3), jigsaw 9x9, X 9x9 and Latin 5x5 boards."""
    db = tmp_path_factory.mktemp("shapes") / "c.db"
    for shape in (["--shape", "2x3"], ["--shape", "jigsaw", "--regions", "random", "--size", "9"],
                  ["--shape", "3x3", "--diagonals"], ["--shape", "latin", "--size", "5"]):
        result = runner.invoke(cli_app, ["fill", "--count", "4", "--seed", "5", *shape, "--db", str(db)])
        assert result.exit_code == 0, result.output
    return db


@pytest.fixture(scope="module")
def shaped_server(shaped_db):
    with running_server(str(shaped_db)) as base:
        yield base


def _hint_of(base: str, grid: str, shape: str | None = None) -> tuple[int, dict]:
    from urllib.parse import urlencode

    return get(base, "/api/hint?" + urlencode({"grid": grid, **({"shape": shape} if shape else {})}))


@pytest.mark.parametrize("name", ["2x3", "jigsaw9", "latin5", "3x3+x"])
def test_a_hint_on_every_shape_is_a_correct_step(shaped_server, shaped_db, name):
    """Hints on a 6x6, a jigsaw, a Latin and an X puzzle, their placements made until the puzzle is solved or a step only removes
    candidates: each is the grader's next step on that shape (the record's shape, not the cell count), its digits
    the solution's and its eliminations none of them."""
    from engine.formats import from_line
    from engine.grade import next_step
    from engine.vocabulary import SYMBOLS

    from catalogue.shapes import kernel_shape

    record = cli_json(shaped_db, "query", "--shape", name, "--limit", "1")[0]
    box, grid, solution = kernel_shape(record["shape"]), list(record["puzzle"]), record["solution"]
    for _ in range(len(grid)):
        if "." not in grid:
            break
        status, step = _hint_of(shaped_server, "".join(grid), record["shape"])
        expected = next_step(from_line("".join(grid), box), box)
        assert status == 200 and (step["technique"], step["explanation"]) == (expected.technique,
                                                                              expected.explanation), step
        assert all(solution[p["cell"]] == SYMBOLS[p["digit"]] for p in step["placements"])
        assert all(solution[e["cell"]] != SYMBOLS[e["digit"]] for e in step["eliminations"])
        for p in step["placements"]:
            grid[p["cell"]] = SYMBOLS[p["digit"]]
        if not step["placements"]:  # an elimination only: the grid alone gives it again, so this is far enough
            break
    assert step["placements"] or step["eliminations"]


@pytest.mark.parametrize("grid, shape, error", [
    ("." * 36, None, "shape: a grid of 36 cells has no square boxes: give the puzzle's shape"),
    ("." * 36, "3x3", "grid: grid:1:37: expected 81 symbols for a 9x9 grid, got 36"),
    ("." * 36, "hexagon", "shape: unknown shape 'hexagon'"),
    ("xyz", None, "grid: grid:1:1: 'x' is not a symbol")])
def test_a_hint_names_what_is_wrong_with_its_grid_or_shape(shaped_server, grid, shape, error):
    status, body = _hint_of(shaped_server, grid, shape)
    assert status == 400 and body["error"].startswith(error), body


def test_the_choices_and_the_shape_filter_know_every_shape(shaped_server, shaped_db):
    status, choices = get(shaped_server, "/api/choices")
    assert status == 200 and choices["shape"] == ["2x3", "3x3+x", "jigsaw9", "latin5"]
    assert {5, 6, 9} <= set(choices["size"])
    status, page = get(shaped_server, "/api/puzzles?shape=jigsaw9&limit=100")
    assert status == 200 and page["count"] == 4 and all(p["shape"].startswith("jigsaw9:") for p in page["puzzles"])
