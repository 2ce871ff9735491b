"""CSL-JSON (``.json``): the array of items that Zotero, Mendeley and citeproc tools export.

The file is one JSON document, parsed whole (memory a few times its size); each item is a position
and its line is the line of its ``{``. Fields read: ``abstract`` (required), ``title``, ``author``
(``given`` + particles + ``family`` + ``suffix``, or ``literal``; an ``ORCID`` when the exporter adds
one), ``issued`` (``date-parts``: the year, and a full date when it has three parts; or ``raw``),
``container-title`` (venue), ``DOI``, ``URL``, ``keyword`` (a comma-separated string), ``id``, and
``number`` when it is an arXiv identifier (``arXiv:2310.07777``, as Zotero writes preprints).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator

from kg.errors import InputError
from kg.ingest.fields import FieldError, make_record, squash
from kg.ingest.identifiers import full_date, parse_date
from kg.ingest.jsondoc import load_document, read_items
from kg.ingest.record import Record, SkippedRecord, SourceRef

#: name parts in the order they are written, "Jan" "van der" "Berg" "Jr."
_NAME_PARTS = ("given", "dropping-particle", "non-dropping-particle", "family", "suffix")


def read_csl_json(path: Path, display: str, on_skip: Callable[[SkippedRecord], None]) -> Iterator[Record]:
    """Yield one :class:`Record` per item with an abstract of a CSL-JSON array."""
    doc = load_document(path, display)
    if not isinstance(doc.value, list) or doc.items is None:
        raise InputError(
            f"{display} is not CSL-JSON: it holds a JSON {type(doc.value).__name__}, not an array of items "
            "({\"type\": ..., \"title\": ...}); export the library as CSL JSON or pass the right --format NAME"
        )
    yield from read_items(doc.items, display, on_skip, _record)


def _name(person: Any) -> dict[str, Any]:
    if not isinstance(person, dict):
        raise FieldError(f"`author` must hold name objects, got {person!r:.60}")
    literal = person.get("literal")
    parts = [person.get(k) for k in _NAME_PARTS]
    if not all(p is None or isinstance(p, str) for p in [literal, *parts]):
        raise FieldError(f"`author` name parts must be strings, got {person!r:.80}")
    name = literal or " ".join(p.strip() for p in parts if p and p.strip())
    return {"name": squash(name), "orcid": person.get("ORCID") or person.get("orcid")}


def _issued(item: dict) -> tuple[Any, str | None]:
    """(year, full date) of ``issued``."""
    issued = item.get("issued")
    if not isinstance(issued, dict):
        return None, None
    parts = issued.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        first = parts[0]
        return first[0], full_date(*first) if len(first) == 3 else None
    raw = issued.get("raw") or issued.get("literal")
    day = parse_date(raw)
    return (day[:4] if day else None), day


def _arxiv(number: Any) -> str | None:
    """The arXiv id of a preprint's ``number`` (Zotero writes ``arXiv:2310.07777``)."""
    if isinstance(number, str) and number.strip().lower().startswith("arxiv:"):
        return number
    return None


def _record(item: dict, source: SourceRef) -> Record | SkippedRecord:
    try:
        authors = item.get("author") or []
        if not isinstance(authors, list):
            raise FieldError(f"`author` must be a list of names, got {authors!r:.60}")
        names = [_name(a) for a in authors]
        year, day = _issued(item)
    except FieldError as exc:
        return SkippedRecord(source, f"line {source.line}: {exc}", "invalid field")
    raw = {
        "id": item.get("id"),
        "title": squash(item.get("title")),
        "authors": [n for n in names if n["name"]],
        "year": year,
        "venue": squash(item.get("container-title")),
        "keywords": item.get("keyword"),
        "doi": item.get("DOI"),
        "arxiv": _arxiv(item.get("number")),
        "url": item.get("URL"),
        "date": day,
    }
    return make_record(item.get("abstract"), source, raw)
