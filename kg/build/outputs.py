"""All-or-nothing build outputs: stage every output beside its target, then rename them all in one step.

A build writes ``kg.ttl``, ``graph.html``, ``report.html`` and ``manifest.json``. Each is first written
to a staging file in the same directory (``.kg.ttl.<pid>.tmp``); :meth:`OutputSet.commit` then fsyncs
them and renames them over their targets in one short step, with SIGINT and SIGTERM held back until the
step is over, and ``kg.ttl`` last: a reader that sees a new ``kg.ttl`` sees new everything. A build that
fails or is interrupted before the commit leaves every previous output as it was; staging files that a
killed build could not remove are removed by the next build (:func:`remove_stale`).
"""
from __future__ import annotations

import contextlib
import os
import re
import signal
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from kg.errors import OutputError
from kg.store.io import fsync

#: staging and temporary names paperkg writes in an output directory: ``.NAME.PID.tmp``,
#: ``.NAME.PID.XXXXXX.tmp`` (atomic writes) and ``.kg-build-PID-XXXXXX.tmp`` (scratch stores and files, with
#: their SQLite companions ``-wal`` and ``-shm``)
_TEMPORARY = re.compile(r"^\.(?:kg-build-(?P<scratch>\d+)-[\w]+|.+?\.(?P<pid>\d+)(?:\.[\w]+)?)\.tmp(?:-wal|-shm|-journal)?$")


def staging_name(name: str, pid: int | None = None) -> str:
    """The staging file name of output ``name`` for process ``pid`` (default: this one)."""
    return f".{name}.{os.getpid() if pid is None else pid}.tmp"


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's live process
    return True


def remove_stale(directory: Path) -> list[Path]:
    """Remove the staging files and scratch directories that builds no longer running left in ``directory``
    (a killed build cannot clean up after itself); return what was removed."""
    import shutil

    removed: list[Path] = []
    try:
        entries = list(directory.iterdir())
    except (FileNotFoundError, NotADirectoryError):
        return removed
    except OSError as exc:
        raise OutputError(f"cannot list the output directory {directory}: {exc.strerror or exc}; "
                          "check its permissions") from exc
    for entry in entries:
        match = _TEMPORARY.match(entry.name)
        if match is None or _alive(int(match.group("scratch") or match.group("pid"))):
            continue
        with contextlib.suppress(OSError):
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
            removed.append(entry)
    return removed


@contextlib.contextmanager
def deferred_signals(signums: Sequence[int] = (signal.SIGINT, signal.SIGTERM)) -> Iterator[list[int]]:
    """Hold back ``signums`` for the duration of the block; the first one received is delivered (to the
    handler that was in place) when the block ends. Yields the list of signals received so far.
    Outside the main thread signals cannot be handled, and the block runs as is."""
    received: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield received
        return
    previous = {s: signal.signal(s, lambda n, _frame: received.append(n)) for s in signums}
    try:
        yield received
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        if received:
            signal.raise_signal(received[0])


class OutputSet:
    """The outputs of one build, staged in ``directory`` and committed together.

    >>> outputs = OutputSet(Path("output"))           # doctest: +SKIP
    >>> write_turtle(outputs.stage("kg.ttl"))          # doctest: +SKIP
    >>> outputs.commit()                               # doctest: +SKIP

    ``last`` names the outputs renamed after all the others (``kg.ttl``). Used as a context manager,
    the staging files are removed when the block raises.
    """

    def __init__(self, directory: Path, last: Sequence[str] = ("kg.ttl",)) -> None:
        self.directory = directory
        self.last = tuple(last)
        self._staged: dict[str, Path] = {}
        #: signals received (and delivered) during the commit
        self.interrupted_at_commit = False

    def stage(self, name: str) -> Path:
        """The staging path for output ``name`` (write the output there)."""
        path = self.directory / staging_name(name)
        self._staged[name] = path
        return path

    def target(self, name: str) -> Path:
        """Where output ``name`` goes when committed."""
        return self.directory / name

    def _order(self) -> list[str]:
        return [n for n in self._staged if n not in self.last] + [n for n in self.last if n in self._staged]

    def commit(self) -> list[Path]:
        """fsync the staged outputs, then rename them over their targets (``last`` ones last) with SIGINT and
        SIGTERM held back until every rename is done. Returns the targets in the order committed."""
        order = self._order()
        for name in order:
            staged = self._staged[name]
            if not staged.is_file():
                raise OutputError(f"the build did not write {staged}; it is not committed")
            try:
                fsync(staged)
            except OSError as exc:
                raise OutputError(f"cannot write {self.target(name)}: {exc.strerror or exc}") from exc
        from kg.build.checkpoints import checkpoint

        done: list[Path] = []
        with deferred_signals() as received:
            for i, name in enumerate(order):
                if i == 1:
                    checkpoint("commit")  # the middle of the step, for the tests that interrupt it
                try:
                    os.replace(self._staged[name], self.target(name))
                except OSError as exc:
                    raise OutputError(f"cannot replace {self.target(name)}: {exc.strerror or exc}; "
                                      "check the directory's permissions") from exc
                done.append(self.target(name))
            with contextlib.suppress(OSError):
                fsync(self.directory)
            self._staged.clear()
            self.interrupted_at_commit = bool(received)
        return done

    def discard(self) -> None:
        """Remove the staged outputs that were not committed."""
        for path in self._staged.values():
            with contextlib.suppress(OSError):
                path.unlink()
        self._staged.clear()

    def __enter__(self) -> OutputSet:
        return self

    def __exit__(self, *exc: object) -> None:
        self.discard()
