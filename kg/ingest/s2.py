"""Semantic Scholar Graph API paper objects: a response with a ``data`` array (search, bulk search,
author papers), a JSON array of papers (the batch endpoint), a single paper, or JSON lines of papers.

JSON lines are streamed line by line; a response is one JSON document and is parsed whole. Each paper
is a position; its line is the line of its ``{`` in a document, or its line in JSON lines. Fields read:
``paperId`` (id), ``title``, ``abstract`` (required), ``authors`` (``name``), ``year``, ``venue`` (else
``publicationVenue.name``), ``externalIds`` (``DOI``, ``ArXiv``), ``publicationDate``,
``fieldsOfStudy`` and ``s2FieldsOfStudy`` categories (keywords), ``url``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator

from kg.ingest.fields import FieldError, make_record
from kg.ingest.jsondoc import read_api_file
from kg.ingest.record import Record, SkippedRecord, SourceRef


def is_paper(obj: dict) -> bool:
    """True for a Semantic Scholar paper object (it has ``paperId``)."""
    return "paperId" in obj


#: members of a Graph API list response besides ``data``
_PAGING = ("total", "offset", "next", "token")


def is_response(obj: dict) -> bool:
    """True for a Graph API list response: a ``data`` array of papers (or an empty one next to ``total``,
    ``offset``, ``next`` or ``token``)."""
    data = obj.get("data")
    if not isinstance(data, list):
        return False
    if not data:
        return any(k in obj for k in _PAGING)
    return isinstance(data[0], dict) and is_paper(data[0])


def read_s2(path: Path, display: str, on_skip: Callable[[SkippedRecord], None]) -> Iterator[Record]:
    """Yield one :class:`Record` per paper with an abstract of a Semantic Scholar response or paper file."""
    return read_api_file(path, display, on_skip, is_one=is_paper, is_page=is_response, member="data",
                         convert=_record, what="a Semantic Scholar paper",
                         expected="Semantic Scholar papers: expected a response ({\"data\": [...]}), a paper "
                                  "({\"paperId\": ...}) or one paper per line")


def _list(obj: dict, field: str) -> list[Any]:
    value = obj.get(field)
    if value is None:
        return []
    if not isinstance(value, list):
        raise FieldError(f"`{field}` must be a list, got {value!r:.60}")
    return value


def _record(paper: dict, source: SourceRef) -> Record | SkippedRecord:
    try:
        authors = [a.get("name") for a in _list(paper, "authors") if isinstance(a, dict) and a.get("name")]
        keywords: list[Any] = []
        for name in [*_list(paper, "fieldsOfStudy"),
                     *(f.get("category") for f in _list(paper, "s2FieldsOfStudy") if isinstance(f, dict))]:
            if name and name not in keywords:
                keywords.append(name)
    except FieldError as exc:
        return SkippedRecord(source, f"line {source.line}: {exc}", "invalid field")
    external = paper.get("externalIds") if isinstance(paper.get("externalIds"), dict) else {}
    publication_venue = paper.get("publicationVenue")
    venue = paper.get("venue") or (publication_venue.get("name") if isinstance(publication_venue, dict) else None)
    raw = {
        "id": paper.get("paperId"),
        "title": paper.get("title"),
        "authors": authors,
        "year": paper.get("year"),
        "venue": venue,
        "keywords": keywords,
        "doi": external.get("DOI"),
        "arxiv": external.get("ArXiv"),
        "url": paper.get("url"),
        "date": paper.get("publicationDate"),
    }
    return make_record(paper.get("abstract"), source, raw)
