"""Reading command input (a file or ``-`` for stdin) and writing output files without leaving half-written ones."""
from __future__ import annotations

import io
import os
import stat
import sys
import tempfile
from pathlib import Path

from .errors import UserError


#: the most a command reads from one file or stdin, in bytes. Why 16 MiB: the text of a file is held while it is
#: read, and its grids while the command works (a byte a cell: a 16 MiB file of 9x9 lines is 200,000 puzzles in
#: 20 MB, docs/reliability.md, "Memory"), and it is above the 10 MB a single line (a JSON file written on one
#: line) may take. Anything longer is refused after reading at most this much. What a command holds is bounded by
#: how files are read, not by this cap: well under 500 MB for any file it accepts.
MAX_INPUT_BYTES = 16 * 1024 * 1024


def too_big(name: str, size: int | None = None) -> UserError:
    got = f"{size / 1e6:,.1f} MB is more" if size is not None else "more"
    return UserError(f"{name}: {got} than a command reads at once ({MAX_INPUT_BYTES // 2**20} MiB); "
                     f"split the file (e.g. split -l 100000)")


def read_text(path: str) -> tuple[str, str]:
    """The text of ``path`` (``-`` reads stdin) and the name to use for it in messages; at most
    :data:`MAX_INPUT_BYTES` are read."""
    if path == "-":
        # Bytes, decoded like a file's: a BOM from a Windows editor is dropped and bad bytes are named, the same
        # whether the text comes from the file or from `cat file |`.
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            text = sys.stdin.read(MAX_INPUT_BYTES + 1)
            if len(text) > MAX_INPUT_BYTES:
                raise too_big("<stdin>")
            return text.lstrip("\ufeff"), "<stdin>"
        size = _regular_size(stream)  # `catalogue check - < big.sdm`: refused before reading, with its size
        if size > MAX_INPUT_BYTES:
            raise too_big("<stdin>", size)
        data = stream.read(MAX_INPUT_BYTES + 1)
        if len(data) > MAX_INPUT_BYTES:
            raise too_big("<stdin>")
        return _decode(data, "<stdin>"), "<stdin>"
    p = Path(path)
    try:
        if not p.exists():
            raise UserError(f"{path}: no such file")
        if p.is_dir():
            raise UserError(f"{path}: is a directory, not a file")
        with p.open("rb") as f:
            size = os.fstat(f.fileno()).st_size  # 0 for pipes and /dev/stdin: the bounded read below decides
            if size > MAX_INPUT_BYTES:
                raise too_big(path, size)
            data = f.read(MAX_INPUT_BYTES + 1)
            if len(data) > MAX_INPUT_BYTES:
                raise too_big(path)
    except (OSError, ValueError) as e:  # ValueError: a NUL byte in the path
        raise UserError(f"{path}: cannot read ({getattr(e, 'strerror', None) or e})") from None
    text = _decode(data, path)
    if not text.strip():
        raise UserError(f"{path}: empty file")
    return text, path


def _regular_size(stream) -> int:
    """The size of the file behind ``stream`` when it is a regular file, else 0 (a pipe, a terminal, a test's)."""
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return 0
    return st.st_size if stat.S_ISREG(st.st_mode) else 0


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = len(data[data.rfind(b"\n", 0, e.start) + 1:e.start].decode("utf-8-sig", errors="replace")) + 1
        raise UserError(f"{name}:{line}:{column}: not UTF-8 text (byte {e.start + 1})") from None


def write_atomic(path: str | os.PathLike, data: str | bytes) -> None:
    """Write ``data`` to an output path without harming what is there (:func:`output_kind` says how):

    - ``-``: standard output;
    - a regular file, or a path that does not exist yet: the whole file or nothing, as a temp file in the same
      folder renamed over the target (missing folders are made; the mode a plain write would give, the old
      file's, else 0666 less the umask). Through a symbolic link, the file it points to is written and the link
      stays: a link is followed, never replaced;
    - a character device or a FIFO (``/dev/null``, a named pipe) and anything under ``/dev`` or ``/proc``
      (``/dev/stdout``: the shell's redirection, appended to): written into as a stream, never replaced.

    Any failure (no permission, a full disk) is one :class:`UserError` naming the path, and no temp file is left.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    kind = output_kind(path)
    if kind == "stdout":
        stream = getattr(sys.stdout, "buffer", None)
        if stream is None:  # a test's captured stdout: text only
            sys.stdout.write(payload.decode("utf-8", errors="replace"))
        else:
            stream.write(payload)
        sys.stdout.flush()
        return
    target = Path(path)
    if kind == "stream":
        flags = os.O_WRONLY | (os.O_APPEND if stat.S_ISREG(os.stat(target).st_mode) else 0)
        try:
            fd = os.open(target, flags)
            try:
                view = memoryview(payload)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                os.close(fd)
        except OSError as e:
            raise UserError(f"{target}: cannot write ({e.strerror or e})") from None
        return
    target = Path(os.path.realpath(target)) if os.path.islink(target) else target  # the link's file, not the link
    try:
        mode = _file_mode(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as e:
        raise UserError(f"{path}: cannot write ({e.strerror or e})") from None
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
            raise UserError(f"{path}: cannot write ({e.strerror or e})") from None
        raise


#: output paths under these folders are devices or the process's own files (/dev/stdout, /proc/self/fd/1): written
#: into, never replaced, whatever they point to
_STREAM_FOLDERS = ("/dev/", "/proc/")


def output_kind(path: str | os.PathLike) -> str:
    """How :func:`write_atomic` writes ``path``: ``"stdout"`` (``-``), ``"stream"`` (into what is there: a
    character device, a FIFO, anything under /dev or /proc) or ``"file"`` (the atomic write of a regular file, or
    of one to be made). A UserError for what can never be written: a folder, a socket, a block device, a path
    through a file."""
    if str(path) == "-":
        return "stdout"
    target = check_output_path(path)
    try:
        st = os.stat(target)  # follows links: what the path leads to
    except FileNotFoundError:
        return "stream" if os.path.abspath(target).startswith(_STREAM_FOLDERS) else "file"
    except OSError as e:
        raise UserError(f"{target}: cannot write ({e.strerror or e})") from None
    if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
        return "stream"
    if stat.S_ISREG(st.st_mode):
        return "stream" if os.path.abspath(target).startswith(_STREAM_FOLDERS) else "file"
    return "file"  # unreachable: check_output_path refused the rest


def check_output_path(path: str | os.PathLike) -> Path:
    """``path`` as a Path, or a UserError when it can never be written: a folder, a socket, a block device (a
    disk), or a file in place of a folder. ``-`` (standard output) passes.

    Commands call it before long work, so a typo in an output path fails at once instead of after the work.
    """
    target = Path(path)
    if str(path) == "-":
        return target
    try:
        st = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):
        st = None
    except OSError as e:
        raise UserError(f"{target}: cannot write ({e.strerror or e})") from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise UserError(f"{target}: is a directory, not a file")
        if stat.S_ISSOCK(st.st_mode):
            raise UserError(f"{target}: is a socket, not a file")
        if stat.S_ISBLK(st.st_mode):
            raise UserError(f"{target}: is a block device (a disk), not a file: refused")
        return target
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
