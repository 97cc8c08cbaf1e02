"""The board folder belongs to its catalogue: real catalogues, real folders, the CLI as a person runs it (in this
process, through typer's CliRunner, from the working folder and with the environment a person would have).

The footgun these tests pin: `catalogue fill --db other.db` once wrote into the default catalogue's ./data/boards
and overwrote its files; with CATALOGUE_DB set from another folder, `verify` looked for the files in the current
folder. Now a folder is marked with its catalogue's id, recorded in the catalogue, and refused to any other.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from catalogue.cli import app
from catalogue.errors import UserError
from catalogue.pipeline.run import fill
from catalogue.store import Catalogue
from catalogue.store import folder as folders
from consistency import assert_consistent


def run_cli(*args: str, cwd: Path, env: dict | None = None) -> SimpleNamespace:
    """``catalogue ARGS`` run from the folder ``cwd``, with no catalogue settings inherited but ``env``: its exit
    code, stdout and stderr (an uncaught exception fails the test)."""
    environ = {k: None for k in os.environ if k.startswith("CATALOGUE_")}
    environ.update(env or {})
    here = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, list(args), prog_name="catalogue", env=environ)
    finally:
        os.chdir(here)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return SimpleNamespace(returncode=result.exit_code, stdout=result.stdout, stderr=result.stderr)


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file of a folder with its bytes and modification time: what "untouched" means."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


# --- where the folder is ---------------------------------------------------------------------------------------

def test_default_folder_sits_beside_the_database_file(tmp_path):
    assert folders.default_folder(tmp_path / "data" / "catalogue.db") == tmp_path / "data" / "boards"
    assert folders.default_folder(tmp_path / "other.db") == tmp_path / "other-boards"
    assert folders.default_folder(None) == Path("data/boards").absolute()  # PostgreSQL: no file to sit beside


@settings(max_examples=60, deadline=None)
@given(parts=st.lists(st.sampled_from(["a", "b", "..", "boards", "x y"]), min_size=1, max_size=4),
       inside=st.booleans())
def test_recorded_folder_round_trips(tmp_path_factory, parts, inside):
    base = tmp_path_factory.mktemp("db")
    database = base / "c.db"
    folder = (base if inside else Path("/elsewhere")).joinpath(*parts)
    text = folders.recorded_text(folder, database)
    assert folders.from_recorded(text, database) == Path(os.path.abspath(folder))
    if Path(os.path.abspath(folder)).is_relative_to(base):
        assert not Path(text).is_absolute()  # moves with the catalogue


@pytest.mark.slow
def test_the_recorded_folder_is_found_from_any_working_folder_and_after_a_move(tmp_path):
    first = tmp_path / "one" / "catalogue.db"
    catalogue = Catalogue.open(first)
    fill(catalogue, 12, batch=4, seed=1)
    assert catalogue.folder == tmp_path / "one" / "boards" and catalogue.recorded_folder == catalogue.folder
    catalogue.close()
    shutil.move(tmp_path / "one", tmp_path / "two")  # the catalogue travels with its files
    moved = tmp_path / "two" / "catalogue.db"
    result = run_cli("verify", env={"CATALOGUE_DB": str(moved)}, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"12 checked in {tmp_path / 'two' / 'boards'}: all good" in result.stdout
    assert not (tmp_path / "data").exists() and not (tmp_path / "boards").exists()


# --- one owner ---------------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_a_second_catalogue_never_touches_the_first_ones_files(tmp_path):
    """The footgun as a user meets it: two catalogues, one working folder, the second pointed at the first's
    folder by --out and by CATALOGUE_OUT; each attempt is one line and exit 1, and not one byte of the first
    catalogue's files changes."""
    first = run_cli("fill", "--count", "20", "--seed", "1", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    boards = tmp_path / "data" / "boards"
    marker = json.loads((boards / ".catalogue").read_text())
    before = snapshot(boards)
    assert len(before) == 21  # 20 boards and the marker

    for args, env in ((["--out", "data/boards"], {}), ([], {"CATALOGUE_OUT": str(boards)})):
        result = run_cli("fill", "--count", "5", "--db", "other.db", *args, cwd=tmp_path, env=env)
        assert result.returncode == 1
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
        assert result.stderr.startswith(f"catalogue: {boards} holds the board files of another catalogue "
                                        f"(data/catalogue.db)")
        assert snapshot(boards) == before
        assert not (tmp_path / "other.db").exists()  # refused before the new catalogue was created

    # without --out the second catalogue gets its own folder beside its file
    second = run_cli("fill", "--count", "5", "--db", "other.db", "--seed", "2", cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert snapshot(boards) == before
    other = tmp_path / "other-boards"
    assert sorted(p.name for p in other.iterdir()) == [".catalogue", "0.txt", "1.txt", "2.txt", "3.txt", "4.txt"]
    assert json.loads((other / ".catalogue").read_text())["catalogue"] != marker["catalogue"]

    # and once it exists, the second catalogue is refused the first one's folder too
    result = run_cli("verify", "--repair", "--db", "other.db", "--out", "data/boards", cwd=tmp_path)
    assert result.returncode == 1 and "holds the board files of another catalogue" in result.stderr
    result = run_cli("fill", "--count", "1", "--db", "other.db", "--out", "data/boards", cwd=tmp_path)
    assert result.returncode == 1 and "holds the board files of another catalogue" in result.stderr
    assert snapshot(boards) == before
    assert run_cli("verify", cwd=tmp_path).returncode == 0
    assert run_cli("verify", "--db", "other.db", cwd=tmp_path).returncode == 0


def test_an_unmarked_folder_of_this_catalogue_is_adopted_and_a_foreign_one_refused(tmp_path):
    """Folders filled before folders were marked: ours if its files hold our boards, refused otherwise."""
    catalogue = Catalogue.open(tmp_path / "catalogue.db", tmp_path / "boards")
    fill(catalogue, 10, batch=5, seed=3)
    catalogue.close()
    (tmp_path / "boards" / ".catalogue").unlink()  # as a folder written before markers existed

    again = Catalogue.open(tmp_path / "catalogue.db", tmp_path / "boards")
    fill(again, 5, batch=5, seed=4)  # adopted: its files are this catalogue's boards
    assert json.loads((tmp_path / "boards" / ".catalogue").read_text())["catalogue"] == again.id
    assert_consistent(again.url, again.folder)
    again.close()

    stranger = Catalogue.open(tmp_path / "stranger.db", tmp_path / "elsewhere")
    fill(stranger, 3, batch=3, seed=5)
    (tmp_path / "boards" / ".catalogue").unlink()
    wrong = Catalogue(stranger.url, tmp_path / "boards")
    with pytest.raises(UserError, match=r"holds board files that are not this catalogue's \(15 files, no marker\)"):
        wrong.claim_folder()
    stranger.close()


def test_a_foreign_marker_is_refused_whatever_it_holds(tmp_path):
    (tmp_path / "f").mkdir()
    (tmp_path / "f" / ".catalogue").write_text("not json")
    with pytest.raises(UserError, match="another catalogue \\(a marker this program did not write\\)"):
        Catalogue.open(tmp_path / "c.db", tmp_path / "f")
    assert not (tmp_path / "c.db").exists()


def test_the_folder_is_recorded_once_and_out_does_not_move_it(tmp_path):
    catalogue = Catalogue.open(tmp_path / "c.db", tmp_path / "first")
    fill(catalogue, 4, batch=4, seed=6)
    assert catalogue.recorded_folder == tmp_path / "first"
    catalogue.close()
    rebuild = Catalogue.open(tmp_path / "c.db", tmp_path / "copy")  # e.g. the files rebuilt on another host
    report = rebuild.check_files()
    assert len(report.missing) == 4
    rebuild.claim_folder()
    rebuild.repair(report)
    assert rebuild.check_files().describe() == "all good"
    assert rebuild.recorded_folder == tmp_path / "first"  # the catalogue's own folder is unchanged
    rebuild.close()
    assert Catalogue.open(tmp_path / "c.db").folder == tmp_path / "first"
