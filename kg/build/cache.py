"""The extraction cache: one pickled :class:`PaperExtraction` per abstract, in a SQLite file.

Entries are keyed by the SHA-256 of the abstract text and stored under the *pipeline fingerprint*:
the hash of :data:`kg.extract.model.PIPELINE_VERSION`, the spaCy pipeline's name and version, the
contents of the ontology and vocabulary files, the extraction code (:data:`EXTRACTION_CODE`) and the
shipped models. Changing any of them changes the fingerprint, so the
old entries stop matching (and are pruned after the next complete build).

Writes are committed every 256 rows or 2 seconds, whichever comes first, so an interrupted (even killed)
build keeps what it had extracted up to a few seconds before.
"""
from __future__ import annotations

import hashlib
import pickle
from collections.abc import Iterable, Iterator
from pathlib import Path

from kg.extract.types import PaperExtraction
from kg.store.sqlite import SqliteCache

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


#: the code whose results the cache stores, relative to the kg package: the extraction (its modules and the
#: data files beside them: the lexicons), and the keys of written forms it computes for resolution
#: (extractions carry them)
EXTRACTION_CODE = ("extract", "keys.py")

#: the files of a code directory that decide what it extracts: its modules and their data
_SOURCE_SUFFIXES = frozenset({".py", ".json"})


def extraction_sources() -> list[Path]:
    """The source files :func:`pipeline_fingerprint` hashes as extraction code, in a stable order."""
    package = Path(__file__).resolve().parents[1]
    out: list[Path] = []
    for name in EXTRACTION_CODE:
        path = package / name
        out.extend(sorted(p for p in path.rglob("*") if p.suffix in _SOURCE_SUFFIXES and p.is_file())
                   if path.is_dir() else [path])
    return out


def pipeline_fingerprint(model: str | None = None) -> str:
    """A hash of everything extraction depends on besides the text: code version, spaCy pipeline, vocabularies."""
    import importlib.metadata

    from kg.extract.model import PIPELINE_VERSION, find_model
    from kg.entity_types import TYPE_NAMES
    from kg.namespaces import ID, KG
    from kg.resources import ontology_files

    name = model or find_model()
    h = hashlib.sha256()
    h.update(f"paperkg-pipeline {PIPELINE_VERSION}\n{name}\n".encode())
    for dist in (name, name.replace("_", "-"), "spacy", "onnxruntime", "tokenizers"):
        try:
            h.update(f"{dist} {importlib.metadata.version(dist)}\n".encode())
        except importlib.metadata.PackageNotFoundError:
            continue
    for path in ontology_files():
        h.update(path.name.encode() + b"\n" + path.read_bytes() + b"\n")
    # the extraction code itself, so that a changed rule never serves stale results
    package = Path(__file__).resolve().parents[1]
    for path in extraction_sources():
        h.update(path.name.encode() + b"\n" + path.read_bytes() + b"\n")
    # the names the extraction writes into what it stores: entity types and the IRIs of concepts
    h.update(f"{' '.join(TYPE_NAMES)}\n{ID}\n{KG}\n".encode())
    # the trained models shipped in the package (their weights decide mentions as much as the code does)
    for path in sorted(p for p in (package / "models").rglob("*") if p.is_file()):
        h.update(path.relative_to(package).as_posix().encode() + b"\n" + path.read_bytes() + b"\n")
    return h.hexdigest()[:32]


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
    """``extraction`` without the mentions and relations a model scored under ``minimum`` (unscored ones,
    found by rules alone, stay)."""
    from dataclasses import replace

    kept = [m for m in extraction.mentions if m.confidence is None or m.confidence >= minimum]
    relations = [r for r in extraction.relations if r.confidence is None or r.confidence >= minimum]
    if len(kept) == len(extraction.mentions) and len(relations) == len(extraction.relations):
        return extraction
    return replace(extraction, mentions=kept, relations=relations)


class ConfidentExtractions:
    """A read view of an :class:`ExtractionCache` whose extractions keep only the mentions and relations at
    or above ``minimum`` confidence (``kg build --min-confidence``); writing goes to the cache unfiltered."""

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
