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
        return sys.stdin.read(), "<stdin>"
    p = Path(path)
    if not p.exists():
        raise UserError(f"{path}: no such file")
    if p.is_dir():
        raise UserError(f"{path}: is a directory, not a file")
    try:
        data = p.read_bytes()
    except OSError as e:
        raise UserError(f"{path}: cannot read ({e.strerror})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UserError(f"{path}: not UTF-8 text (byte {e.start + 1})") from None
    if not text.strip():
        raise UserError(f"{path}: empty file")
    return text, path


def write_atomic(path: str | os.PathLike, data: str | bytes) -> None:
    """Write a whole file or nothing: a temp file in the same folder, then rename over the target."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
