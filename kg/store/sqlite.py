"""A table of rows under one fingerprint in a SQLite file, written in committed batches.

The base of the build's caches (:class:`kg.build.cache.ExtractionCache`, :class:`kg.rdf.fragments.FragmentCache`):
rows stored under another fingerprint stop matching and are pruned after a complete build.
"""
from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from kg.errors import GraphError


class SqliteCache:
    """One table of a SQLite file (``path=None``: in memory) holding rows under one fingerprint, written in
    committed batches so that an interrupted build keeps what it stored. Subclasses name the table."""

    #: what the cache holds, for error messages
    what = "cache"
    #: the table, its key column and its fingerprint column
    table = key_column = fingerprint_column = ""
    schema = ""
    #: how many columns a row has (for the INSERT)
    width = 0

    #: rows written per committed batch unless the caller says otherwise
    default_batch = 256
    #: pending rows are committed at least this often, so a killed build loses seconds of work at most
    commit_seconds = 2.0

    def __init__(self, path: str | Path | None, fingerprint: str, batch: int | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self.fingerprint = fingerprint
        self.batch = batch or self.default_batch
        self._pending: list[tuple] = []
        self._committed_at = time.monotonic()
        try:
            if self.path is not None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path) if self.path is not None else ":memory:")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(self.schema)
            self._db.commit()
        except sqlite3.DatabaseError as exc:
            raise GraphError(f"{self.what} {self.path}: {exc}; delete the file to start a fresh cache") from exc

    def _values(self, column: str, keys: Iterable[str], chunk: int = 500) -> Iterator[tuple[str, object]]:
        """(key, ``column`` value or None) for each of ``keys``, in order, read ``chunk`` keys at a time."""
        self.flush()
        keys = list(keys)
        for i in range(0, len(keys), chunk):
            part = keys[i : i + chunk]
            rows = dict(self._db.execute(
                f"SELECT {self.key_column}, {column} FROM {self.table} WHERE {self.fingerprint_column} = ? "
                f"AND {self.key_column} IN ({','.join('?' * len(part))})", (self.fingerprint, *part)))
            for k in part:
                yield k, rows.get(k)

    def _required(self, column: str, keys: Iterable[str], chunk: int = 500) -> Iterator[object]:
        """The ``column`` value of each of ``keys``, in order; KeyError names a key without a row."""
        for k, value in self._values(column, keys, chunk):
            if value is None:
                raise KeyError(k)
            yield value

    def _add(self, row: tuple) -> None:
        self._pending.append(row)
        if len(self._pending) >= self.batch or time.monotonic() - self._committed_at >= self.commit_seconds:
            self.flush()

    def flush(self) -> None:
        """Commit the pending writes. A full disk raises :class:`OutputError` naming the file."""
        if self._pending:
            try:
                self._db.executemany(f"INSERT OR REPLACE INTO {self.table} VALUES ({','.join('?' * self.width)})",
                                     self._pending)
                self._db.commit()
            except sqlite3.OperationalError as exc:
                from kg.errors import OutputError

                raise OutputError(f"cannot write the {self.what} {self.path}: {exc}; free some space (or raise the "
                                  "file-size limit) and build again, or pass --no-cache") from exc
            self._pending.clear()
        self._committed_at = time.monotonic()

    def prune(self) -> int:
        """Delete the rows of other fingerprints; return how many were deleted."""
        self.flush()
        n = self._db.execute(f"DELETE FROM {self.table} WHERE {self.fingerprint_column} != ?",
                             (self.fingerprint,)).rowcount
        self._db.commit()
        return n

    def close(self) -> None:
        """Commit and close."""
        try:
            self.flush()
        finally:
            self._db.close()

    def __enter__(self):  # type: ignore[no-untyped-def]
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
