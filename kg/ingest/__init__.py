"""Reading abstracts for ``kg build``: seed text, JSONL(.gz), CSV/TSV, BibTeX, RIS, CSL-JSON, OpenAlex, arXiv
snapshot and Semantic Scholar files (``READERS`` names them; ``detect_format`` picks one per file).

>>> from kg.ingest import read_records
>>> for record in read_records(["seeds/"], on_skip=print): ...  # doctest: +SKIP
"""
from __future__ import annotations

from kg.ingest.detect import detect_format
from kg.ingest.read import DEFAULT_MAX_CHARS, expand_paths, read_records
from kg.ingest.record import Author, Record, SkippedRecord, SourceRef
from kg.ingest.registry import EXTENSIONS, READERS, Reader

__all__ = [
    "Author",
    "DEFAULT_MAX_CHARS",
    "EXTENSIONS",
    "READERS",
    "Reader",
    "Record",
    "SkippedRecord",
    "SourceRef",
    "detect_format",
    "expand_paths",
    "read_records",
]
