"""The files of a board folder read and written as plain files only: never through a symbolic link, never blocking
on a FIFO, never reading a device, never replacing what the catalogue did not write.

Why: a board folder is a place other people and programs can reach. A link ``21.txt -> ../victim.txt`` made a
fill write board 21 into ``../victim.txt``; a FIFO in place of ``5.txt`` or of the marker hung ``verify``; a link
to ``/dev/zero`` grew ``verify`` to gigabytes; strays at the next numbers were overwritten. Every open here uses
``O_NOFOLLOW`` (a link is an error, not a path) and ``O_NONBLOCK`` (a FIFO answers at once), checks with ``fstat``
that what it opened is a regular file, and reads at most what a board file can hold. A new board's file is made
with ``O_EXCL``: whatever is already there stays.
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from ..errors import UserError

_KINDS = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))
_READ = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
_WRITE = (os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
          | getattr(os, "O_BINARY", 0))


class NotPlainFile(UserError):
    """Something other than a regular file (a link, a FIFO, a device, a folder) where a plain file is read or
    written, or a file already there where a new one is made; ``what`` says which."""

    def __init__(self, path: Path, what: str):
        super().__init__(f"{path}: {what} is where the catalogue keeps a board file; it never writes through it "
                         f"or over it: move it away (catalogue verify --full lists the folder)")
        self.path, self.what = Path(path), what


def kind(mode: int) -> str:
    """``a symbolic link``, ``a FIFO``, ... for a file mode; ``a regular file`` for one."""
    return next((name for test, name in _KINDS if test(mode)), "a regular file")


def lkind(path: Path) -> str | None:
    """What is at ``path`` itself (a link is not followed), None if nothing is."""
    try:
        return kind(os.lstat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return None


def read(path: Path, limit: int) -> bytes | None:
    """The bytes of the regular file ``path``, at most ``limit + 1`` of them (one more than a good file holds, so a
    longer one is seen as such without reading it all); None if there is no file. NotPlainFile for anything else."""
    try:
        fd = os.open(path, _READ)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as e:
        if e.errno == errno.ELOOP:  # O_NOFOLLOW met a link
            raise NotPlainFile(path, "a symbolic link") from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotPlainFile(path, kind(mode))
        chunks, left = [], limit + 1
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def write(path: Path, payload: bytes, *, replace: bool) -> None:
    """Write ``payload`` as the whole content of the regular file ``path``: a new file (``replace`` False: anything
    already there, a stray included, raises NotPlainFile and stays as it was) or the catalogue's own file rewritten
    (``replace`` True: a regular file only). A full disk leaves no torn file: the file is removed."""
    try:
        fd = os.open(path, _WRITE | (0 if replace else os.O_EXCL), 0o644)
    except OSError as e:
        if e.errno == errno.EEXIST:
            raise NotPlainFile(path, f"{lkind(path) or 'a file'} the catalogue did not write") from None
        if e.errno in (errno.ELOOP, errno.ENXIO, errno.EISDIR):  # a link; a FIFO with no reader; a folder
            raise NotPlainFile(path, lkind(path) or "not a regular file") from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotPlainFile(path, kind(mode))
        if replace:
            os.ftruncate(fd, 0)
        view = memoryview(payload)
        while view:
            view = view[os.write(fd, view):]
    except NotPlainFile:
        os.close(fd)
        raise
    except OSError as e:
        # a full disk: no torn file is left (a missing one is what every check looks for, and the next open or
        # `verify --repair` rewrites it from its row); os.write's error names no file, this one does
        os.close(fd)
        Path(path).unlink(missing_ok=True)
        raise OSError(e.errno, e.strerror, str(path)) from None
    else:
        os.close(fd)
