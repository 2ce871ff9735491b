"""OpenAlex works: API pages (a JSON object with ``meta`` and a ``results`` array, ``.json``) and snapshot
lines (JSON lines, one work object per line, often gzip-compressed).

Snapshot files are streamed line by line; a page is one JSON document and is parsed whole. A JSON
array of works, or a single work, is read too. Each work is a position; its line is the line of its
``{`` in a document, or its line in JSON lines. Fields read: ``abstract_inverted_index`` (required:
the abstract rebuilt by placing each word at its positions and joining them with spaces), ``title``
(or ``display_name``), ``authorships`` (``author.display_name``, ``author.orcid``),
``publication_year``, ``publication_date``, ``primary_location.source.display_name`` (venue),
``doi`` (and the arXiv id of an arXiv DOI, ``10.48550/arXiv.<id>``), ``keywords`` (``display_name``; the
``concepts`` when there are none) and ``id`` (the W-id).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator

from kg.ingest.fields import FieldError, make_record
from kg.ingest.identifiers import parse_doi
from kg.ingest.jsondoc import read_api_file
from kg.ingest.record import Record, SkippedRecord, SourceRef

INDEX = "abstract_inverted_index"
_ID_PREFIX = "https://openalex.org/"
#: arXiv's DOIs are 10.48550/arXiv.<arXiv id>
_ARXIV_DOI = "10.48550/arxiv."


def is_work(obj: dict) -> bool:
    """True for an OpenAlex work object (it has ``abstract_inverted_index``, null when it has no abstract)."""
    return INDEX in obj


def is_page(obj: dict) -> bool:
    """True for an OpenAlex API list page: ``meta`` and a ``results`` array."""
    return "meta" in obj and isinstance(obj.get("results"), list)


def read_openalex(path: Path, display: str, on_skip: Callable[[SkippedRecord], None]) -> Iterator[Record]:
    """Yield one :class:`Record` per work with an abstract of an OpenAlex page or snapshot file."""
    return read_api_file(path, display, on_skip, is_one=is_work, is_page=is_page, member="results",
                         convert=_record, what="an OpenAlex work",
                         expected="OpenAlex works: expected an API page ({\"meta\": ..., \"results\": [...]}), "
                                  "a work, or one work per line with `abstract_inverted_index`")


def _is_position(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def rebuild_abstract(index: Any) -> str | None:
    """The abstract text of an inverted index (``{"We": [0], "graphs": [2], "study": [1]}`` -> ``"We study
    graphs"``), None for a null or empty index. Raises :class:`FieldError` when it is not word -> positions."""
    if index is None:
        return None
    if not isinstance(index, dict) or not all(
        isinstance(positions, list) and all(_is_position(p) for p in positions) for positions in index.values()
    ):
        raise FieldError(f"`{INDEX}` must map each word to a list of positions, got {str(index)[:60]!r}")
    placed = sorted((p, word) for word, positions in index.items() for p in positions)
    return " ".join(word for _, word in placed) or None


def _get(obj: Any, *path: str) -> Any:
    for key in path:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj


def _names(items: Any, field: str) -> list[Any]:
    if items is None:
        return []
    if not isinstance(items, list):
        raise FieldError(f"`{field}` must be a list, got {items!r:.60}")
    return [_get(i, "display_name") or _get(i, "keyword") for i in items if isinstance(i, dict)]


def _record(work: dict, source: SourceRef) -> Record | SkippedRecord:
    try:
        abstract = rebuild_abstract(work.get(INDEX))
        authorships = work.get("authorships") or []
        if not isinstance(authorships, list):
            raise FieldError(f"`authorships` must be a list, got {authorships!r:.60}")
        authors = [{"name": _get(a, "author", "display_name"), "orcid": _get(a, "author", "orcid")}
                   for a in authorships if _get(a, "author", "display_name")]
        keywords = [k for k in _names(work.get("keywords"), "keywords") if k] or \
            [k for k in _names(work.get("concepts"), "concepts") if k]
    except FieldError as exc:
        return SkippedRecord(source, f"line {source.line}: {exc}", "invalid field")
    identifier = work.get("id")
    if isinstance(identifier, str) and identifier.startswith(_ID_PREFIX):
        identifier = identifier[len(_ID_PREFIX):]
    doi = parse_doi(work.get("doi"))
    raw = {
        "id": identifier,
        "title": work.get("title") or work.get("display_name"),
        "authors": authors,
        "year": work.get("publication_year"),
        "venue": _get(work, "primary_location", "source", "display_name"),
        "keywords": keywords,
        "doi": doi,
        "arxiv": doi[len(_ARXIV_DOI):] if doi and doi.startswith(_ARXIV_DOI) else None,
        "date": work.get("publication_date"),
    }
    return make_record(abstract, source, raw, INDEX)
