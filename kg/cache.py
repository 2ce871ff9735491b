"""The extraction cache: one pickled :class:`PaperExtraction` per abstract, in a SQLite file.

Entries are keyed by the SHA-256 of the abstract text and stored under the *pipeline fingerprint*:
the hash of :data:`kg.extract.model.PIPELINE_VERSION`, the spaCy pipeline's name and version and the
contents of the ontology and vocabulary files. Changing any of them changes the fingerprint, so the
old entries stop matching (and are pruned after the next complete build).

Writes are committed every 256 rows or 2 seconds, whichever comes first, so an interrupted (even killed)
build keeps what it had extracted up to a few seconds before.
"""
from __future__ import annotations

import hashlib
import pickle
import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from kg.errors import GraphError
from kg.extract.types import PaperExtraction

#: default location of the cache, relative to the build's output directory
CACHE_DIR = ".cache"
CACHE_FILE = "extractions.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS extractions (
    pipeline TEXT NOT NULL,
    key TEXT NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (pipeline, key)
) WITHOUT ROWID
"""


def text_key(text: str) -> str:
    """The cache key of an abstract: SHA-256 of its exact text (extraction depends on every character)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def pipeline_fingerprint(model: str | None = None) -> str:
    """A hash of everything extraction depends on besides the text: code version, spaCy pipeline, vocabularies."""
    import importlib.metadata

    from kg.extract.model import PIPELINE_VERSION, find_model
    from kg.resources import ontology_files

    name = model or find_model()
    h = hashlib.sha256()
    h.update(f"paperkg-pipeline {PIPELINE_VERSION}\n{name}\n".encode())
    for dist in (name, name.replace("_", "-"), "spacy"):
        try:
            h.update(f"{dist} {importlib.metadata.version(dist)}\n".encode())
        except importlib.metadata.PackageNotFoundError:
            continue
    for path in ontology_files():
        h.update(path.name.encode() + b"\n" + path.read_bytes() + b"\n")
    # the extraction code itself, so that a changed rule never serves stale results (resolve.py too:
    # extractions carry the resolution keys of their written forms)
    package = Path(__file__).resolve().parent
    for path in [*sorted((package / "extract").rglob("*.py")), package / "resolve.py"]:
        h.update(path.name.encode() + b"\n" + path.read_bytes() + b"\n")
    # the trained models shipped in the package (their weights decide mentions as much as the code does)
    for path in sorted(p for p in (package / "models").rglob("*") if p.is_file()):
        h.update(path.relative_to(package).as_posix().encode() + b"\n" + path.read_bytes() + b"\n")
    return h.hexdigest()[:32]


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


class ExtractionCache(SqliteCache):
    """A SQLite file of extractions under one pipeline fingerprint; ``path=None`` keeps them in memory."""

    what = "extraction cache"
    table, key_column, fingerprint_column, schema, width = "extractions", "key", "pipeline", _SCHEMA, 3

    # -- reading
    def keys(self) -> set[str]:
        """The keys cached under this fingerprint."""
        self.flush()
        rows = self._db.execute("SELECT key FROM extractions WHERE pipeline = ?", (self.fingerprint,))
        return {k for (k,) in rows}

    def get(self, key: str) -> PaperExtraction | None:
        """The cached extraction of ``key``, or None."""
        data = next(self._values("data", [key]))[1]
        return pickle.loads(data) if data is not None else None  # type: ignore[arg-type]

    def get_many(self, keys: Iterable[str], chunk: int = 500) -> Iterator[PaperExtraction]:
        """The cached extractions of ``keys``, in order; KeyError names a missing key."""
        for data in self._required("data", keys, chunk):
            yield pickle.loads(data)  # type: ignore[arg-type]

    # -- writing
    def put(self, key: str, extraction: PaperExtraction) -> None:
        """Store ``extraction`` under ``key`` (committed with the next full batch or :meth:`flush`)."""
        self._add((self.fingerprint, key, pickle.dumps(extraction, protocol=pickle.HIGHEST_PROTOCOL)))


def above_confidence(extraction: PaperExtraction, minimum: float) -> PaperExtraction:
    """``extraction`` without the mentions a model scored under ``minimum`` (unscored mentions stay)."""
    from dataclasses import replace

    kept = [m for m in extraction.mentions if m.confidence is None or m.confidence >= minimum]
    return extraction if len(kept) == len(extraction.mentions) else replace(extraction, mentions=kept)


class ConfidentExtractions:
    """A read view of an :class:`ExtractionCache` whose extractions keep only the mentions at or above
    ``minimum`` confidence (``kg build --min-confidence``); writing goes to the cache unfiltered."""

    def __init__(self, cache: ExtractionCache, minimum: float) -> None:
        self.cache, self.minimum = cache, minimum
        self.fingerprint = cache.fingerprint

    def get(self, key: str) -> PaperExtraction | None:
        """The filtered extraction of ``key``, or None."""
        found = self.cache.get(key)
        return above_confidence(found, self.minimum) if found is not None else None

    def get_many(self, keys: Iterable[str], chunk: int = 500) -> Iterator[PaperExtraction]:
        """The filtered extractions of ``keys``, in order."""
        return (above_confidence(ex, self.minimum) for ex in self.cache.get_many(keys, chunk))
