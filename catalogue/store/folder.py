"""The board folder belongs to its catalogue: where it is, and the marker that says whose it is.

A catalogue records its folder of ``N.txt`` files in its own ``catalogue`` row, and marks the folder with a small
file, ``.catalogue``, naming the catalogue's id. Before any command writes a board file it *claims* the folder:

- a folder marked with this catalogue's id is ours;
- a folder marked with another id belongs to another catalogue: the command stops with one line, before any
  work (two catalogues writing ``0.txt`` into one folder overwrite each other's boards);
- an unmarked folder with no board files is new: it is marked and used;
- an unmarked folder with board files was filled before folders were marked: it is ours only if its files hold
  our boards (a few are compared); otherwise it is refused like a foreign folder.

Where the folder is, when a command gives no ``--out``: the recorded folder; else, for a SQLite file, the folder
beside it (``boards/`` beside ``catalogue.db``, ``NAME-boards/`` beside any other ``NAME.db``, so two catalogues
in one folder never share one); else ``./data/boards`` (PostgreSQL, whose database has no file). A folder is
recorded relative to the database file's folder when it lies inside it, so a catalogue moved with its files
still finds them; anything else is recorded as an absolute path.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable, Optional

from ..config import DEFAULT_SERVER_FOLDER
from ..errors import UserError

MARKER = ".catalogue"
#: the most a marker holds (ours is about 200 bytes): a longer file is not one of ours, and is not read further
MARKER_LIMIT = 64 * 1024
#: how many of an unmarked folder's board files are compared with the database before it is adopted
ADOPT_SAMPLE = 3


def default_folder(database_file: Optional[Path]) -> Path:
    """Where a catalogue's board files go when nothing else says so (see the module docstring)."""
    if database_file is None:
        return Path(DEFAULT_SERVER_FOLDER).expanduser().absolute()
    name = "boards" if database_file.stem == "catalogue" else f"{database_file.stem}-boards"
    return database_file.expanduser().absolute().parent / name


def recorded_text(folder: Path, database_file: Optional[Path]) -> str:
    """How ``folder`` is written into the catalogue row: relative to the database file's folder if inside it."""
    folder = Path(os.path.abspath(folder))
    if database_file is not None:
        base = Path(os.path.abspath(database_file)).parent
        if folder == base or base in folder.parents:
            return folder.relative_to(base).as_posix() or "."
    return str(folder)


def from_recorded(text: str, database_file: Optional[Path]) -> Path:
    """The folder a catalogue row names (the inverse of :func:`recorded_text`)."""
    path = Path(text)
    if not path.is_absolute() and database_file is not None:
        path = Path(os.path.abspath(database_file)).parent / path
    return Path(os.path.abspath(path))


def read_marker(folder: Path) -> Optional[dict]:
    """The marker's content, None when the folder has no marker. An unreadable marker reads as a foreign one."""
    from . import plainfile

    try:
        data = plainfile.read(folder / MARKER, MARKER_LIMIT)  # a FIFO or a link in its place: never waited on
    except plainfile.NotPlainFile as e:
        return {"catalogue": None, "database": f"a marker that is {e.what}"}
    except OSError as e:
        return {"catalogue": None, "database": f"unreadable marker: {e.strerror}"}
    if data is None:
        return None
    try:
        content = json.loads(data.decode("utf-8")) if len(data) <= MARKER_LIMIT else None
    except ValueError:
        content = None
    if not isinstance(content, dict):
        return {"catalogue": None, "database": "a marker this program did not write"}
    return content


def write_marker(folder: Path, catalogue_id: str, label: str) -> None:
    """Mark ``folder`` as the catalogue's (a temp file renamed into place: never a half-written marker)."""
    text = json.dumps({"catalogue": catalogue_id, "database": label}, indent=2) + "\n"
    temp = folder / f"{MARKER}.{os.getpid()}.tmp"
    try:
        temp.write_text(text, encoding="utf-8")
        os.replace(temp, folder / MARKER)
    except OSError as e:
        temp.unlink(missing_ok=True)
        raise UserError(f"{folder}: cannot mark the board folder ({e.strerror})") from None


def board_files(folder: Path) -> list[int]:
    """The numbers of the files in ``folder`` named like board files (``N.txt``), sorted."""
    numbers = []
    try:
        entries = list(os.scandir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return []
    for entry in entries:
        stem, dot, ext = entry.name.rpartition(".")
        if ext == "txt" and dot and stem.isdigit() and str(int(stem)) == stem:
            numbers.append(int(stem))
    return sorted(numbers)


def _holds(holds_our_board: Callable[[int, bytes], bool], number: int, path: Path) -> bool:
    """Whether ``path`` is a plain file holding our board ``number`` (a link, a FIFO, a device never is)."""
    from . import plainfile

    try:
        data = plainfile.read(path, 1 << 20)  # a 25x25 board's file is about 2 KB
    except (plainfile.NotPlainFile, OSError):
        return False
    return data is not None and holds_our_board(number, data)


def check_usable(folder: Path, name: Optional[str] = None) -> None:
    """One clear UserError when ``folder`` cannot be a folder at all (a file is in the way). ``name`` is how the
    message names it (``--out DIR`` when the user gave it; the path by default)."""
    name = name or str(folder)
    if folder.exists() and not folder.is_dir():
        raise UserError(f"{name}: is a file, not a folder for the board files")
    blocker = next((p for p in folder.parents if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise UserError(f"{name}: cannot create the folder ({blocker} is a file, not a folder)")


def foreign_owner(folder: Path, catalogue_id: str) -> Optional[str]:
    """Who else the folder's marker names (a description for the message), None if it is unmarked or ours."""
    marker = read_marker(folder)
    if marker is None or marker.get("catalogue") == catalogue_id:
        return None
    return str(marker.get("database") or marker.get("catalogue") or "another catalogue")


def check_new(folder: Path, name: Optional[str] = None) -> None:
    """Refuse, before a new catalogue is created, a folder that another catalogue marked or filled."""
    folder = Path(os.path.abspath(folder))
    check_usable(folder, name)
    marker = read_marker(folder)
    if marker is not None:
        owner = marker.get("database") or marker.get("catalogue") or "another catalogue"
        raise UserError(f"{folder} holds the board files of another catalogue ({owner}): give this catalogue "
                        f"its own folder with --out")
    numbers = board_files(folder)
    if numbers:
        raise UserError(f"{folder} holds board files that are not this catalogue's ({len(numbers):,} files, "
                        f"no marker): give this catalogue its own folder with --out")


def claim(folder: Path, catalogue_id: str, label: str, holds_our_board: Callable[[int, bytes], bool],
          name: Optional[str] = None) -> Path:
    """Make sure ``folder`` is this catalogue's (see the module docstring), creating and marking it if need be.

    ``holds_our_board(number, content)`` says whether a file's content is this catalogue's board ``number``.
    Raises UserError, before anything is written, when the folder belongs to another catalogue.
    """
    folder = Path(os.path.abspath(folder))
    check_usable(folder, name)
    owner = foreign_owner(folder, catalogue_id)
    if owner is not None:
        raise UserError(f"{folder} holds the board files of another catalogue ({owner}): give this catalogue "
                        f"its own folder with --out")
    if read_marker(folder) is not None:
        return folder  # ours
    numbers = board_files(folder)
    if numbers:
        sample = numbers[:ADOPT_SAMPLE]
        if not all(_holds(holds_our_board, n, folder / f"{n}.txt") for n in sample):
            raise UserError(f"{folder} holds board files that are not this catalogue's ({len(numbers):,} files, "
                            f"no marker): give this catalogue its own folder with --out")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"{name or folder}: cannot create the folder ({e.strerror})") from None
    write_marker(folder, catalogue_id, label)
    return folder
