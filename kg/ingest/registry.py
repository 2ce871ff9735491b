"""The format registry: format name -> reader, and file extension -> format name."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator

from kg.ingest.csv_ import read_csv, read_tsv
from kg.ingest.jsonl import read_jsonl
from kg.ingest.record import Record, SkippedRecord
from kg.ingest.seed import read_seed

#: ``reader(path, display, on_skip)`` yields the records of one file
Reader = Callable[[Path, str, Callable[[SkippedRecord], None]], Iterator[Record]]

READERS: dict[str, Reader] = {
    "seed": read_seed,
    "jsonl": read_jsonl,
    "csv": read_csv,
    "tsv": read_tsv,
}

#: file-name suffix (lower-case, longest first wins) -> format name
EXTENSIONS: dict[str, str] = {
    ".txt": "seed",
    ".md": "seed",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".jsonl.gz": "jsonl",
    ".ndjson.gz": "jsonl",
    ".json.gz": "jsonl",
    ".csv": "csv",
    ".tsv": "tsv",
}


def format_names() -> str:
    """The format names, for messages: ``seed, jsonl, csv, tsv``."""
    return ", ".join(READERS)


def format_from_extension(path: Path) -> str | None:
    """The format the file name's extension stands for, None when it names none."""
    name = path.name.lower()
    for suffix in sorted(EXTENSIONS, key=len, reverse=True):
        if name.endswith(suffix) and len(name) > len(suffix):
            return EXTENSIONS[suffix]
    return None
