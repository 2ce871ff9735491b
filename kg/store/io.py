"""Atomic file writing: a failure never leaves a half-written output file."""
from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import IO, Iterator

from kg.errors import GraphError


@contextlib.contextmanager
def atomic_open(path: str | Path) -> Iterator[IO[bytes]]:
    """Open a temporary file next to ``path`` for binary writing; on success fsync and rename it over ``path``.

    If the block raises, the temporary file is removed and ``path`` is left untouched. A ``path`` that is no
    regular file but a device or a pipe (``/dev/null``, ``/dev/stdout``, a FIFO) is written to directly: a
    rename would replace it; a symbolic link keeps pointing to the file, which is replaced.
    """
    target = Path(path)
    if target.is_dir():
        raise GraphError(f"cannot write {target}: it is a directory; give a file name in it")
    if target.exists() and (not target.is_file() or str(target.absolute()).startswith(("/dev/", "/proc/"))):
        try:  # a device or pipe, or /dev/stdout standing for whatever the shell opened
            with open(target, "wb") as special:
                yield special
        except OSError as exc:
            raise GraphError(f"cannot write {target}: {exc.strerror or exc}") from exc
        return
    if target.is_symlink():
        target = target.resolve()  # replace the file the link points to, and keep the link
    directory = target.parent if str(target.parent) else Path(".")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise GraphError(f"cannot write {target}: {why_unwritable(directory, exc)}; choose another path or make its "
                         "directory writable") from exc
    tmp = Path(tmp_name)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600 files; outputs are ordinary files
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(exc, OSError):
            raise GraphError(f"cannot write {target}: {exc.strerror or exc}") from exc
        raise
    with contextlib.suppress(OSError):  # make the rename durable
        fsync(directory)


def why_unwritable(directory: Path, exc: OSError) -> str:
    """Why ``directory`` could not be created or written, in words: a file standing where a directory must
    be is named ("/data/notes.txt is a file, not a directory"), else the system's reason."""
    blocker = next((d for d in [directory, *directory.parents] if d.exists() and not d.is_dir()), None)
    return f"{blocker} is a file, not a directory" if blocker is not None else str(exc.strerror or exc)


def fsync(path: str | Path) -> None:
    """Flush ``path`` (a file, or a directory after a rename in it) to disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temp file in the same directory, fsync, ``os.replace``)."""
    with atomic_open(path) as handle:
        handle.write(data)
