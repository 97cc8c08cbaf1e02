"""Reading command input (a file or ``-`` for stdin) and writing output files without leaving half-written ones."""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from .errors import UserError


def read_text(path: str) -> tuple[str, str]:
    """The text of ``path`` (``-`` reads stdin) and the name to use for it in messages."""
    if path == "-":
        # Bytes, decoded like a file's: a BOM from a Windows editor is dropped and bad bytes are named, the same
        # whether the text comes from the file or from `cat file |`.
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            return sys.stdin.read().lstrip("\ufeff"), "<stdin>"
        return _decode(stream.read(), "<stdin>"), "<stdin>"
    p = Path(path)
    if not p.exists():
        raise UserError(f"{path}: no such file")
    if p.is_dir():
        raise UserError(f"{path}: is a directory, not a file")
    try:
        data = p.read_bytes()
    except OSError as e:
        raise UserError(f"{path}: cannot read ({e.strerror})") from None
    text = _decode(data, path)
    if not text.strip():
        raise UserError(f"{path}: empty file")
    return text, path


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UserError(f"{name}: not UTF-8 text (byte {e.start + 1})") from None


def write_atomic(path: str | os.PathLike, data: str | bytes) -> None:
    """Write a whole file or nothing: a temp file in the same folder, then rename over the target.

    Missing folders of the path are made. The file gets the mode a plain write would give it (the old file's, else
    0666 less the umask), not mkstemp's 0600. Any failure (a folder in the way, no permission, a full disk) is one
    :class:`UserError` naming the path, and no temp file is left behind.
    """
    target = check_output_path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        mode = _file_mode(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as e:
        raise UserError(f"{target}: cannot write ({e.strerror or e})") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise UserError(f"{target}: cannot write ({e.strerror or e})") from None
        raise


def check_output_path(path: str | os.PathLike) -> Path:
    """``path`` as a Path, or a UserError when it can never be written (a folder, or a file in place of a folder).

    Commands call it before long work, so a typo in an output path fails at once instead of after the work.
    """
    target = Path(path)
    if target.is_dir():
        raise UserError(f"{target}: is a directory, not a file")
    # a file where a folder of the path should be: mkdir would say "File exists", which names the wrong problem
    blocker = next((p for p in target.parents if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise UserError(f"{target}: cannot write ({blocker} is a file, not a folder)")
    return target


def _file_mode(target: Path) -> int:
    """The mode a plain ``open(target, "w")`` would leave: the existing file's, else 0666 less the umask."""
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
