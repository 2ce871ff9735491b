"""The format registry: format name -> reader, and file extension -> format name."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator

from kg.ingest.arxiv import read_arxiv
from kg.ingest.bibtex import read_bibtex
from kg.ingest.csljson import read_csl_json
from kg.ingest.csv_ import read_csv, read_tsv
from kg.ingest.jsonl import read_jsonl
from kg.ingest.openalex import read_openalex
from kg.ingest.record import Record, SkippedRecord
from kg.ingest.ris import read_ris
from kg.ingest.s2 import read_s2
from kg.ingest.seed import read_seed

#: ``reader(path, display, on_skip)`` yields the records of one file
Reader = Callable[[Path, str, Callable[[SkippedRecord], None]], Iterator[Record]]

READERS: dict[str, Reader] = {
    "seed": read_seed,
    "jsonl": read_jsonl,
    "csv": read_csv,
    "tsv": read_tsv,
    "bibtex": read_bibtex,
    "ris": read_ris,
    "csl-json": read_csl_json,
    "openalex": read_openalex,
    "arxiv": read_arxiv,
    "s2": read_s2,
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
    ".bib": "bibtex",
    ".ris": "ris",
    ".json": "csl-json",
}

#: the formats whose files share the JSON extensions (.json, .jsonl, .json.gz, ...): for these, the
#: extension only says "JSON" and the content tells which of them a file is
JSON_FORMATS = frozenset({"jsonl", "csl-json", "openalex", "arxiv", "s2"})


def format_names() -> str:
    """The format names, for messages: ``seed, jsonl, csv, tsv, bibtex, ...``."""
    return ", ".join(READERS)


def format_from_extension(path: Path) -> str | None:
    """The format the file name's extension stands for, None when it names none."""
    name = path.name.lower()
    for suffix in sorted(EXTENSIONS, key=len, reverse=True):
        if name.endswith(suffix) and len(name) > len(suffix):
            return EXTENSIONS[suffix]
    return None


def extension_fits(path: Path, fmt: str) -> bool:
    """True when the file's extension suits format ``fmt`` (any JSON extension suits every JSON format)."""
    found = format_from_extension(path)
    return found == fmt or (found in JSON_FORMATS and fmt in JSON_FORMATS)


def supported_extensions() -> str:
    """The registered extensions, for messages: ``.txt, .md, .jsonl, ...``."""
    return ", ".join(EXTENSIONS)
