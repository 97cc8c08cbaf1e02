"""`catalogue import` through the CLI on real files and real catalogues (a SQLite file and PostgreSQL): numbering
and files of new boards, puzzles on known boards, the same puzzle (again, rotated, relabelled), rejected lines,
stdin, mixed formats, verify, the consistency check, the migration, and Ctrl-C."""
from __future__ import annotations

import json
import signal
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from consistency import assert_consistent
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.store.migrate import HEAD_REVISION
from engine.formats import from_line, to_line

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "data"
CLI = [sys.executable, "-c", "from catalogue.cli import main; main()"]
runner = CliRunner()


def run(*args, url: str, out: Path, input: str | None = None):
    return runner.invoke(app, [*args, "--db", url, "--out", str(out)], input=input)


def read(*args, url: str):
    """A read command (no --out)."""
    result = runner.invoke(app, [*args, "--db", url])
    assert result.exit_code == 0, result.output
    return result


def import_json(*args, url: str, out: Path, input: str | None = None) -> dict:
    result = run("import", *args, "--format", "json", url=url, out=out, input=input)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def rows(url: str, sql: str) -> list:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(text(sql)).all()
    finally:
        engine.dispose()


def unique_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, puzzle) of the lines of data/minimal-9x9.txt (``puzzle:count:solution``), all unique."""
    out = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if line and not line.startswith("#"):
            out.append((number, line.split(":")[0]))
    return out


def write_puzzles(path: Path, puzzles) -> Path:
    path.write_text("".join(p + "\n" for p in puzzles))
    return path


MINIMAL = unique_lines(DATA / "minimal-9x9.txt")


def is_minimal(line: str) -> bool:
    """Every clue taken out alone leaves several solutions (counted to 2 by the solver, one count per clue)."""
    from engine.solvers.fast import count_many

    cells = from_line(line)
    clues = np.flatnonzero(cells)
    without = np.repeat(cells[None, :], len(clues), axis=0)
    without[np.arange(len(clues)), clues] = 0
    return bool((count_many(without, 3, 2) >= 2).all())


def test_new_boards_are_numbered_contiguously_with_files_and_verify_says_ok(catalogue_url, tmp_path):
    out = tmp_path / "boards"
    first = write_puzzles(tmp_path / "first.txt", [p for _, p in MINIMAL[:40]])
    second = write_puzzles(tmp_path / "second.txt", [p for _, p in MINIMAL[40:]])
    s1 = import_json(str(first), url=catalogue_url, out=out)
    assert (s1["added"], s1["new_boards"], s1["first_number"], s1["last_number"]) == (40, 40, 0, 39)
    s2 = import_json(str(second), url=catalogue_url, out=out)
    n = len(MINIMAL)
    assert (s2["new_boards"], s2["first_number"], s2["last_number"]) == (n - 40, 40, n - 1)
    board_rows = assert_consistent(catalogue_url, out)
    assert len(board_rows) == n and sorted(p.name for p in out.glob("*.txt")) == sorted(f"{i}.txt" for i in range(n))
    stored = rows(catalogue_url, "SELECT p.puzzle, p.source, p.source_line, p.minimal, p.level, p.nodes, b.method "
                                 "FROM puzzles p JOIN boards b ON b.number = p.board_number ORDER BY p.id")
    assert [r.puzzle for r in stored] == [p for _, p in MINIMAL]
    assert [(r.source, r.source_line) for r in stored[:2]] == [("first.txt", 1), ("first.txt", 2)]
    # the first 60 were carved without symmetry (minimal); the symmetric ones need not be minimal for one clue
    assert all(bool(r.minimal) for r in stored[:60])
    assert [bool(r.minimal) for r in stored] == [is_minimal(r.puzzle) for r in stored]
    assert all(r.level is not None and r.nodes is not None and r.method == "import" for r in stored)
    verify = run("verify", url=catalogue_url, out=out)
    assert verify.exit_code == 0 and verify.stdout.rstrip().endswith("ok"), verify.output
    runs = rows(catalogue_url, "SELECT method, status, generated, accepted, duplicates FROM runs ORDER BY id")
    assert [tuple(r) for r in runs] == [("import", "completed", 40, 40, 0), ("import", "completed", n - 40, n - 40, 0)]


def test_minimal_is_computed_not_assumed(tmp_path):
    url, out = f"sqlite:///{tmp_path / 'c.db'}", tmp_path / "boards"
    line = next(line for line in (DATA / "minimal-9x9.txt").read_text().splitlines() if not line.startswith("#"))
    puzzle, _, solution = line.split(":")
    extra = puzzle.index(".")
    more = puzzle[:extra] + solution[extra] + puzzle[extra + 1:]  # one clue more: unique, not minimal
    s = import_json(str(write_puzzles(tmp_path / "p.txt", [puzzle, more])), url=url, out=out)
    assert (s["new_boards"], s["on_known_boards"]) == (1, 1)
    got = rows(url, "SELECT clues, minimal, carve_checks FROM puzzles ORDER BY id")
    assert [(r.clues, bool(r.minimal)) for r in got] == [(81 - puzzle.count("."), True),
                                                         (82 - puzzle.count("."), False)]


@pytest.fixture
def filled(catalogue_url, tmp_path):
    """A catalogue that fill made: 6 boards of 9x9, each with its carved puzzle."""
    out = tmp_path / "boards"
    result = run("fill", "--count", "6", "--seed", "3", "--generators", "1", "--checkers", "1",
                 url=catalogue_url, out=out)
    assert result.exit_code == 0, result.output
    return catalogue_url, out


def test_puzzles_carved_from_known_boards_are_attached_to_them(filled, tmp_path):
    from engine.carve import carve_many

    url, out = filled
    boards = rows(url, "SELECT number, board FROM boards ORDER BY number")
    cells = np.stack([from_line(b.board) for b in boards])
    carved = [to_line(r.puzzle) for r in carve_many(cells, 3, list(range(100, 100 + len(boards))))]
    s = import_json(str(write_puzzles(tmp_path / "carved.txt", carved)), url=url, out=out)
    assert (s["new_boards"], s["on_known_boards"], s["already_known"]) == (0, len(boards), 0)
    per_board = rows(url, "SELECT board_number, count(*) AS n FROM puzzles GROUP BY board_number ORDER BY 1")
    assert [(r.board_number, r.n) for r in per_board] == [(b.number, 2) for b in boards]
    assert_consistent(url, out)
    query = read("query", "--format", "json", "--limit", "100", url=url)
    listed = json.loads(query.stdout)
    assert len(listed) == 2 * len(boards)  # an imported puzzle on a known board is its own row
    stats = read("stats", "--format", "json", url=url)
    summary = json.loads(stats.stdout)
    assert summary["boards"] == len(boards) and summary["puzzles"] == 2 * len(boards)
    assert [r["method"] for r in summary["runs"]] == ["wfc", "import"]
    read("export", "0", url=url)
    # the fill's own puzzles are known: importing them adds nothing
    fill_puzzles = [r.puzzle for r in rows(url, "SELECT puzzle FROM puzzles WHERE source IS NULL")]
    again = import_json(str(write_puzzles(tmp_path / "fill.txt", fill_puzzles)), url=url, out=out)
    assert (again["added"], again["already_known"]) == (0, len(boards))


def test_the_same_file_twice_adds_nothing(catalogue_url, tmp_path):
    out = tmp_path / "boards"
    path = write_puzzles(tmp_path / "p.txt", [p for _, p in MINIMAL[:20]] + [MINIMAL[0][1]])  # a repeat inside
    s1 = import_json(str(path), url=catalogue_url, out=out)
    assert (s1["added"], s1["already_known"]) == (20, 1)
    s2 = import_json(str(path), url=catalogue_url, out=out)
    assert (s2["added"], s2["already_known"], s2["first_number"]) == (0, 21, None)
    assert len(assert_consistent(catalogue_url, out)) == 20


def test_a_batch_stored_in_several_slices_numbers_and_dedupes_as_one(tmp_path):
    """A batch of 9x9 puzzles (2,048) is stored in slices of STORE_ROWS, each its own transaction: repeats of
    puzzles stored by an earlier slice of the same batch are known, new boards are numbered in file order, and
    every board has its file, as when the batch was one transaction."""
    from catalogue.pipeline.importer import STORE_ROWS

    symbols = "123456789"
    puzzles = [p for _, p in MINIMAL]
    for shift in range(1, 4):  # relabelled copies: other puzzles under d4, on other boards
        table = dict(zip(symbols, symbols[shift:] + symbols[:shift]))
        puzzles += ["".join(table.get(c, c) for c in p) for _, p in MINIMAL]
    distinct = len(puzzles)
    assert distinct > STORE_ROWS
    rotated = ["".join(p[9 * (8 - c) + r] for r in range(9) for c in range(9)) for p in puzzles[:STORE_ROWS + 20]]
    path = write_puzzles(tmp_path / "p.txt", puzzles + rotated + puzzles[:5])
    url, out = f"sqlite:///{tmp_path / 'c.db'}", tmp_path / "boards"
    summary = import_json(str(path), url=url, out=out)
    assert (summary["added"], summary["new_boards"], summary["already_known"]) == (distinct, distinct,
                                                                                  STORE_ROWS + 25)
    assert (summary["first_number"], summary["last_number"]) == (0, distinct - 1)
    assert [r.puzzle for r in rows(url, "SELECT puzzle FROM puzzles ORDER BY board_number")] == puzzles
    assert len(assert_consistent(url, out)) == distinct


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A SQLite catalogue holding the first 10 puzzles of data/minimal-9x9.txt under d4, another under full."""
    tmp = tmp_path_factory.mktemp("stored")
    path = write_puzzles(tmp / "p.txt", [p for _, p in MINIMAL[:10]])
    urls = {}
    for equivalence in ("d4", "full"):
        url = f"sqlite:///{tmp / equivalence}.db"
        s = import_json(str(path), "--equivalence", equivalence, url=url, out=tmp / f"{equivalence}-boards")
        assert s["added"] == 10
        urls[equivalence] = url
    return tmp, urls


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.integers(0, 9), seed=st.integers(0, 2**32 - 1), equivalence=st.sampled_from(["d4", "full"]))
def test_a_transformed_copy_of_a_stored_puzzle_adds_nothing(stored, which, seed, equivalence):
    from engine.keys import d4_group

    tmp, urls = stored
    cells = from_line(MINIMAL[which][1])
    rng = np.random.default_rng(seed)
    move = d4_group(3)[int(rng.integers(8))]
    image = move.apply(cells)
    if equivalence == "full":  # relabel the digits too, and swap two rows inside a band
        labels = np.concatenate([[0], rng.permutation(9) + 1]).astype(np.int8)
        image = labels[image].reshape(9, 9)
        band = int(rng.integers(3)) * 3
        image[[band, band + 1]] = image[[band + 1, band]]
        image = image.reshape(-1)
    path = write_puzzles(tmp / f"copy-{equivalence}.txt", [to_line(image)])
    s = import_json(str(path), "--equivalence", equivalence, url=urls[equivalence], out=tmp / f"{equivalence}-boards")
    assert (s["added"], s["already_known"]) == (0, 1), (MINIMAL[which][1], to_line(image))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), equivalence=st.sampled_from(["d4", "full"]))
def test_a_new_puzzle_of_a_turned_board_is_stored_the_boards_way(tmp_path_factory, seed, equivalence):
    """Another puzzle whose solution is a stored board rotated (and relabelled, under full) goes on that board, its
    clues turned to agree with the board as stored."""
    from engine.carve import carve_many
    from engine.keys import d4_group

    tmp = tmp_path_factory.mktemp("turned")
    url, out = f"sqlite:///{tmp / 'c.db'}", tmp / "boards"
    line = next(line for line in (DATA / "minimal-9x9.txt").read_text().splitlines() if not line.startswith("#"))
    puzzle, _, solution = line.split(":")
    rng = np.random.default_rng(seed)
    move = d4_group(3)[int(rng.integers(1, 8))]
    turned = move.apply(from_line(solution))
    if equivalence == "full":
        turned = np.concatenate([[0], rng.permutation(9) + 1]).astype(np.int8)[turned]
    other = to_line(carve_many(turned[None, :], 3, [seed])[0].puzzle)
    s = import_json(str(write_puzzles(tmp / "p.txt", [puzzle, other])), "--equivalence", equivalence, url=url,
                    out=out)
    if s["already_known"]:  # the carving happened to give an image of the first puzzle: nothing to turn
        return
    assert (s["new_boards"], s["on_known_boards"]) == (1, 1)
    assert_consistent(url, out)  # every puzzle's clues agree with its board
    stored = [r.puzzle for r in rows(url, "SELECT puzzle FROM puzzles ORDER BY id")]
    assert stored[0] == puzzle and stored[1] != other


def test_rejected_lines_are_reported_with_file_and_line_and_counted(tmp_path):
    url, out = f"sqlite:///{tmp_path / 'c.db'}", tmp_path / "boards"
    good = MINIMAL[0][1]
    several = "." * 81
    conflict = "55" + good[2:]
    no_solution = next(p for p in (DATA / "puzzles-9x9.txt").read_text().splitlines()[9:10])
    lines = [good, several, conflict, "12x4", no_solution, MINIMAL[1][1]]
    path = write_puzzles(tmp_path / "mixed.txt", lines)
    result = run("import", str(path), url=url, out=out)
    assert result.exit_code == 0, result.output  # rejected lines do not fail the import
    err = result.stderr.splitlines()
    assert f"catalogue: {path}:2: several solutions" in err
    assert any(line.startswith(f"catalogue: {path}:3: conflicting clues: r1c1 and r1c2 both hold 5") for line in err)
    assert any(line.startswith(f"catalogue: {path}:4:") for line in err)
    # in file order: the unreadable line 4 among the others, not after the batch they came in
    reported = [int(line[len(f"catalogue: {path}:"):].split(":")[0]) for line in err
                if line.startswith(f"catalogue: {path}:")]
    assert reported == [2, 3, 4, 5]
    assert "added           2 puzzles: 2 on new boards, 0 on known boards\nnew boards      numbers 0..1\n" in result.stdout
    assert "rejected        4 (unreadable 1, conflicting clues 1, no solution 1, several solutions 1)" in result.stdout


def test_no_solution_is_a_reason_of_its_own(tmp_path):
    url, out = f"sqlite:///{tmp_path / 'c.db'}", tmp_path / "boards"
    good = MINIMAL[0][1]
    solution = (DATA / "minimal-9x9.txt").read_text().splitlines()[4].split(":")[2]
    # one more clue that conflicts with no clue but differs from the only solution: no solution is left
    blank = good.index(".")
    wrong = [d for d in "123456789" if d != solution[blank]]
    broken = None
    for d in wrong:
        candidate = good[:blank] + d + good[blank + 1:]
        from engine.formats import conflict_pairs, parse
        parsed = parse(candidate, "x")[0]
        if not conflict_pairs(parsed.grid):
            broken = candidate
            break
    assert broken is not None
    s = import_json(str(write_puzzles(tmp_path / "p.txt", [broken])), url=url, out=out)
    assert s["rejected"] == {"no solution": 1} and s["added"] == 0


def test_stdin_and_source_names(tmp_path):
    url, out = f"sqlite:///{tmp_path / 'c.db'}", tmp_path / "boards"
    s = import_json("-", url=url, out=out, input=MINIMAL[0][1] + "\n" + MINIMAL[1][1] + "\n")
    assert s["added"] == 2 and s["sources"] == ["<stdin>"]
    named = import_json("-", "--source", "royle-17", url=url, out=out, input="\n" + MINIMAL[2][1] + "\n")
    assert named["added"] == 1
    got = rows(url, "SELECT source, source_line FROM puzzles ORDER BY id")
    assert [tuple(r) for r in got] == [("<stdin>", 1), ("<stdin>", 2), ("royle-17", 2)]
    bad = run("import", "-", url=url, out=out, input="nonsense\n")
    assert bad.exit_code == 1 and bad.stderr.startswith("catalogue: <stdin>:1")  # nothing readable at all


def test_imported_puzzles_are_found_again_by_source_and_method(filled, tmp_path):
    """An import onto a fill's catalogue: `--source` finds each file's puzzles (on new and on known boards), `--method
    import` the boards that came with them, in every command that selects puzzles and in the API's filters; the
    records carry source and source_line in every format."""
    from engine.carve import carve_many

    url, out = filled
    boards = rows(url, "SELECT number, board FROM boards ORDER BY number")
    cells = np.stack([from_line(b.board) for b in boards[:2]])
    known = [to_line(r.puzzle) for r in carve_many(cells, 3, [100, 101])]  # two puzzles on known boards
    import_json(str(write_puzzles(tmp_path / "known.txt", known)), url=url, out=out)
    import_json(str(write_puzzles(tmp_path / "new.txt", [p for _, p in MINIMAL[:3]])), "--source", "royle",
                url=url, out=out)

    def query(*args) -> list[dict]:
        return json.loads(read("query", "--format", "json", "--limit", "0", *args, url=url).stdout)

    every = query()
    assert {(r["source"], r["method"]) for r in every} == {(None, "wfc"), ("known.txt", "wfc"), ("royle", "import")}
    assert [(r["source"], r["source_line"]) for r in query("--source", "royle")] == [("royle", n) for n in (1, 2, 3)]
    assert [r["number"] for r in query("--source", "known.txt")] == [b.number for b in boards[:2]]
    assert [r["puzzle"] for r in query("--method", "import")] == [p for _, p in MINIMAL[:3]]
    assert query("--source", "nowhere") == []
    csv = read("query", "--format", "csv", "--source", "royle", url=url).stdout.splitlines()
    assert csv[0].split(",")[-4:] == ["source", "source_line", "puzzle", "solution"]
    assert csv[1].split(",")[-4:-2] == ['"royle"', "1"]
    daily = read("daily", "--source", "royle", "--format", "json", url=url)
    assert {r["source"] for r in json.loads(daily.stdout)} <= {"royle"}
    bad = runner.invoke(app, ["query", "--method", "imported", "--db", url])
    assert bad.exit_code == 2 and "one of: wfc, backtrack, pattern, import" in bad.stderr



def test_mixed_formats_and_sizes(tmp_path):
    url, out = f"sqlite:///{tmp_path / 'c.db'}", tmp_path / "boards"
    samples = DATA / "samples"
    files = [samples / "puzzles_4x4.json", samples / "puzzle_9x9.pretty", samples / "puzzles_16x16.sdm",
             samples / "puzzle_9x9.rcv", samples / "puzzles_4x4.block"]
    result = run("import", *map(str, files), "--format", "json", url=url, out=out)
    assert result.exit_code == 0, result.output
    s = json.loads(result.stdout)
    assert s["added"] >= 4 and s["read"] == s["added"] + s["already_known"] + sum(s["rejected"].values())
    sizes = {r.size for r in rows(url, "SELECT DISTINCT size FROM boards")}
    assert sizes == {4, 9, 16}
    sources = {r.source for r in rows(url, "SELECT DISTINCT source FROM puzzles")}
    assert {"puzzles_4x4.json", "puzzle_9x9.pretty", "puzzles_16x16.sdm"} <= sources
    assert_consistent(url, out)
    assert run("verify", url=url, out=out).exit_code == 0


def test_the_migration_adds_and_removes_the_source_columns(catalogue_url, tmp_path):
    from sqlalchemy import inspect

    from catalogue.store import Catalogue
    from catalogue.store.migrate import downgrade

    out = tmp_path / "boards"
    import_json(str(write_puzzles(tmp_path / "p.txt", [MINIMAL[0][1]])), url=catalogue_url, out=out)
    with Catalogue.open(catalogue_url, out) as cat:
        engine = cat.engine
        assert downgrade(engine, catalogue_url, "0004") == (HEAD_REVISION, "0004")
        assert {"source", "source_line"}.isdisjoint(c["name"] for c in inspect(engine).get_columns("puzzles"))
        assert cat.upgrade() == ("0004", HEAD_REVISION)
        assert {"source", "source_line"} <= {c["name"] for c in inspect(engine).get_columns("puzzles")}
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM puzzles WHERE source IS NULL")).scalar() == 1


@pytest.mark.slow
def test_ctrl_c_keeps_the_committed_batches(tmp_path):
    from engine.carve import carve_many
    from engine.generators import get_generator

    # four batches of 9x9 puzzles (catalogue.pipeline.import_batches.DEFAULT_BATCH: 2,048), the last half full:
    # after the Ctrl-C at most the batch being written and the two computed ahead are stored, never all four
    boards, seeds, _ = get_generator("backtrack").generate_array(3, 3 * 2048 + 1024, 5)
    puzzles = [to_line(r.puzzle) for r in carve_many(boards, 3, np.asarray(seeds, dtype=np.int64))]
    path = write_puzzles(tmp_path / "many.txt", puzzles)
    proc = subprocess.Popen([*CLI, "import", str(path), "--db", str(tmp_path / "c.db"), "--out",
                             str(tmp_path / "boards")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as from a terminal
    deadline = time.monotonic() + 120
    while not any((tmp_path / "boards").glob("*.txt")) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "status          interrupted" in stdout and "catalogue: interrupted:" in stderr
    url = f"sqlite:///{tmp_path / 'c.db'}"
    board_rows = assert_consistent(url, tmp_path / "boards")
    assert 0 < len(board_rows) < len(puzzles)
    status, accepted = rows(url, "SELECT status, accepted FROM runs")[0]
    assert status == "interrupted" and accepted == len(board_rows)
    # importing again (here, the interrupted one was the real process) stores the rest, and only the rest
    s = import_json(str(path), url=str(tmp_path / "c.db"), out=tmp_path / "boards")
    assert (s["already_known"], s["added"]) == (len(board_rows), len(puzzles) - len(board_rows))
    assert len(assert_consistent(url, tmp_path / "boards")) == len(puzzles)


@pytest.mark.skipif(shutil.which("qqwing") is None, reason="QQWing is not installed (apt-get install qqwing)")
def test_qqwing_csv_and_commented_lines_import(tmp_path):
    """What QQWing writes with --csv (a header, then puzzle,solution,) and a puzzle followed by a # comment."""
    url = f"sqlite:///{tmp_path / 'c.db'}"
    made = subprocess.run(["qqwing", "--generate", "3", "--csv", "--solution"], capture_output=True, text=True,
                          check=True).stdout
    assert made.startswith("Puzzle,Solution,")
    (tmp_path / "q.csv").write_text(made)
    (tmp_path / "noted.txt").write_text(made.splitlines()[1].split(",")[0] + "  # from QQWing\n")
    summary = import_json(str(tmp_path / "q.csv"), str(tmp_path / "noted.txt"), url=url, out=tmp_path / "boards")
    assert (summary["read"], summary["rejected"], summary["added"], summary["already_known"]) == (4, {}, 3, 1)
    found = json.loads(read("query", "--source", "q.csv", "--format", "json", url=url).stdout)
    expected = [line.split(",")[:2] for line in made.splitlines()[1:]]
    assert sorted((r["puzzle"], r["solution"]) for r in found) == sorted(map(tuple, expected))
    assert [(r["source"], r["source_line"]) for r in found] == [("q.csv", 2), ("q.csv", 3), ("q.csv", 4)]


@pytest.mark.slow
def test_the_nested_forcing_chains_out_of_time_are_stored_in_order_with_their_grades(tmp_path, monkeypatch):
    """Out of time at once (BATCH_SECONDS 0), a batch stores the rows up to its second puzzle that needs the nested
    forcing chains; the rest follow as batches of their own (catalogue.pipeline.import_stages.finish): numbered in
    file order, each graded as grade_many grades it."""
    import catalogue.pipeline.importer as importer
    from engine.grade import grade_many

    monkeypatch.setattr(importer, "BATCH_SECONDS", 0.0)
    # AI Escargot and Inkala's 2010 puzzle: nested chains at 10.5 and 10.7, a second or two each (Golden Nugget
    # would take twenty, twice)
    hardest = [line.split()[0] for line in (ROOT / "bench" / "hardest.txt").read_text().splitlines()][0:4:3]
    puzzles = [p for _, p in MINIMAL[:40]] + hardest[:1] + [p for _, p in MINIMAL[40:60]] + hardest[1:] + [
        p for _, p in MINIMAL[60:80]]
    url, out = f"sqlite:///{tmp_path / 'c.db'}", tmp_path / "boards"
    summary = import_json(str(write_puzzles(tmp_path / "p.txt", puzzles)), url=url, out=out)
    assert (summary["added"], summary["new_boards"]) == (len(puzzles), len(puzzles))
    stored = rows(url, "SELECT board_number, source_line, puzzle, level, score, hardest FROM puzzles "
                       "ORDER BY board_number")
    assert [r.source_line for r in stored] == list(range(1, len(puzzles) + 1))
    assert [r.puzzle for r in stored] == puzzles
    expected = grade_many(np.stack([from_line(p, 3) for p in puzzles]), 3)
    assert [(r.level, r.score, r.hardest) for r in stored] == [(g.level, g.score, g.hardest) for g in expected]
    assert min(stored[40].score, stored[61].score) >= 9.0  # (the nested forcing chains: 9.5 and up)
    assert len(assert_consistent(url, out)) == len(puzzles)


@pytest.mark.slow
def test_a_file_of_hard_puzzles_moves_the_bar_puzzle_by_puzzle(tmp_path):
    """Seven of the hardest list (the nested forcing chains, a second or so each): the first batch keeps the first,
    the rest are graded in pieces, one hard puzzle each, on both workers, and stored in file order as each is done:
    the bar moves through the file. (Submitted last to first, the workers took the last piece first while the
    first was waited for: the bar stood at 1 until the end.)"""
    from catalogue.choices import InputFormat, read_entries
    from catalogue.pipeline.import_batches import Source
    from catalogue.pipeline.importer import import_sources
    from catalogue.store import Catalogue

    names = ("AI Escargot", "Arto Inkala's 2010", "Platinum Blonde", "Cheese", "Fata Morgana", "Red Dwarf")
    rows_ = [line.split("\t") for line in (ROOT / "bench" / "hardest-sample.tsv").read_text().splitlines()
             if line[:1] in ".123456789"]
    hard = [row[0] for row in rows_ if row[4].startswith(names) or row[3] == "8.0"]
    assert len(hard) == 7
    path = write_puzzles(tmp_path / "hard.txt", hard)
    entries = read_entries(str(path), InputFormat.auto, what="puzzle")
    seen = []  # (seconds, done) of each move of the bar
    with Catalogue.open(f"sqlite:///{tmp_path / 'c.db'}", tmp_path / "boards") as catalogue:
        began = time.perf_counter()
        summary = import_sources(catalogue, [Source(label=str(path), stored_as="hard.txt", entries=entries,
                                                    count=len(entries), boxes=frozenset(entries.boxes))],
                                 progress=lambda done, total, left=None: seen.append(
                                     (time.perf_counter() - began, done)))
    assert summary.new_boards == 7 and seen[-1][1] == 7
    # the moves after the first batch's and before the last spread through the run, not a burst at its end
    between = [t for t, done in seen if 1 < done < 7]
    assert len(between) >= 3 and max(between) - min(between) >= 0.25 * (seen[-1][0] - seen[0][0]), seen


def test_copies_in_one_batch_are_known_without_being_graded(tmp_path, monkeypatch):
    """A puzzle, its exact copy and its rotation (the same d4 key) in one file: one is stored and graded, the two
    others are counted known without a grade of their own (a hard collection's copies cost seconds each)."""
    from catalogue.pipeline import import_stages

    graded = []
    made = import_stages.Kernels.__init__

    def counting(self):
        made(self)
        grade = self.grade_many
        self.grade_many = lambda cells, box: graded.append(len(cells)) or grade(cells, box)

    monkeypatch.setattr(import_stages.Kernels, "__init__", counting)
    puzzle = MINIMAL[0][1]
    grid = np.asarray(from_line(puzzle, 3)).reshape(9, 9)
    rotated = to_line(np.rot90(grid).reshape(-1), 3)
    url = f"sqlite:///{tmp_path / 'c.db'}"
    summary = import_json(str(write_puzzles(tmp_path / "p.txt", [puzzle, MINIMAL[1][1], puzzle, rotated])),
                          url=url, out=tmp_path / "boards")
    assert (summary["added"], summary["already_known"]) == (2, 2)
    assert sum(graded) == 2  # the first of the three, and the other puzzle
    assert [r.source_line for r in rows(url, "SELECT source_line FROM puzzles ORDER BY source_line")] == [1, 2]


def test_full_on_a_shape_whose_puzzles_have_no_full_key_is_refused_before_anything_is_stored(tmp_path):
    url = f"sqlite:///{tmp_path / 'c.db'}"
    source = tmp_path / "p.txt"
    board = "1358246724761853316257844587321657348621682143757213654886457132"
    source.write_text("# shape 2x4\n" + "." * 5 + board[5:] + "\n")
    result = run("import", str(source), "--equivalence", "full", url=url, out=tmp_path / "boards")
    assert result.exit_code == 2
    assert result.stderr == ("catalogue: --equivalence full on shape 2x4: the full keys of shape 2x4 are for "
                             "complete grids, and its puzzles have none; use d4 or none\n")
    assert not (tmp_path / "boards").exists()
