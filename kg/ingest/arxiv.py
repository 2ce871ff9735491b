"""The arXiv metadata snapshot (``arxiv-metadata-oai-snapshot.json``: JSON lines despite its name).

Streamed line by line; each line is a position. Fields read: ``id`` (the record's id and its arXiv
identifier), ``title`` (hard line wraps joined), ``abstract`` (required: surrounding whitespace stripped
and its hard-wrapped lines joined into one paragraph with single spaces; nothing else changed),
``authors_parsed`` (``[last, first, suffix]`` -> "first last suffix"; else the ``authors`` string, its
LaTeX decoded), ``categories`` (keywords), ``versions[0].created`` (the first version's date, else
``update_date``: the date and year), ``doi`` and ``journal-ref`` (venue).
"""
from __future__ import annotations

from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any, Callable, Iterator

from kg.ingest.fields import FieldError, make_record, split_authors, squash
from kg.ingest.identifiers import parse_date
from kg.ingest.jsondoc import read_json_lines
from kg.ingest.latex import latex_to_text
from kg.ingest.record import Record, SkippedRecord, SourceRef
from kg.ingest.source import ASCII_WHITESPACE


def is_arxiv_record(obj: dict) -> bool:
    """True for a snapshot line: ``id`` and ``abstract``, with ``authors_parsed``, or ``categories`` and
    ``submitter`` or ``versions``."""
    return "id" in obj and "abstract" in obj and (
        "authors_parsed" in obj or ("categories" in obj and ("submitter" in obj or "versions" in obj))
    )


def read_arxiv(path: Path, display: str, on_skip: Callable[[SkippedRecord], None]) -> Iterator[Record]:
    """Yield one :class:`Record` per line with an abstract of an arXiv metadata snapshot file."""
    yield from read_json_lines(path, display, on_skip, is_arxiv_record, _record, "an arXiv metadata record")


def join_lines(text: Any) -> Any:
    """An abstract as one paragraph: stripped, each line break with the spaces around it made one space."""
    if not isinstance(text, str):
        return text
    return " ".join(line.strip(ASCII_WHITESPACE) for line in text.strip(ASCII_WHITESPACE).split("\n")
                    if line.strip(ASCII_WHITESPACE))


def _authors(obj: dict) -> list[str]:
    parsed = obj.get("authors_parsed")
    if isinstance(parsed, list) and parsed:
        names = []
        for parts in parsed:
            if not isinstance(parts, list) or not all(isinstance(p, str) for p in parts):
                raise FieldError(f"`authors_parsed` must hold [last, first, suffix] lists, got {parts!r:.60}")
            last, first, suffix = (parts + ["", "", ""])[:3]
            names.append(" ".join(p.strip() for p in (first, last, suffix) if p.strip()))
        return [n for n in names if n]
    authors = obj.get("authors")
    return list(split_authors(latex_to_text(squash(authors)))) if isinstance(authors, str) else []


def _first_version_date(obj: dict) -> str | None:
    versions = obj.get("versions")
    created = versions[0].get("created") if isinstance(versions, list) and versions and isinstance(versions[0], dict) \
        else None
    if not isinstance(created, str):
        return None
    try:
        return parsedate_to_datetime(created).date().isoformat()
    except (TypeError, ValueError):
        return None


def _record(obj: dict, source: SourceRef) -> Record | SkippedRecord:
    try:
        authors = _authors(obj)
    except FieldError as exc:
        return SkippedRecord(source, f"line {source.line}: {exc}", "invalid field")
    day = _first_version_date(obj) or parse_date(obj.get("update_date"))
    categories = obj.get("categories")
    raw = {
        "id": obj.get("id"),
        "title": squash(obj.get("title")),
        "authors": authors,
        "year": day[:4] if day else None,
        "venue": squash(obj.get("journal-ref")),
        "keywords": categories.split() if isinstance(categories, str) else categories,
        "doi": obj.get("doi"),
        "arxiv": obj.get("id"),
        "date": day,
    }
    return make_record(join_lines(obj.get("abstract")), source, raw)
