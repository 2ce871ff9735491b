"""Turn raw metadata values (from JSON or CSV) into :class:`Record` fields.

Shared by the JSONL and CSV readers so both accept the same shapes:
``authors`` and ``keywords`` as lists or delimited strings, ``year`` as an int or a string.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Mapping

from kg.ingest.identifiers import parse_arxiv, parse_date, parse_doi, parse_orcid
from kg.ingest.record import Author, Record, SkippedRecord, SourceRef
from kg.ingest.source import ASCII_WHITESPACE

#: the metadata fields a record may carry besides its abstract
FIELDS = ("id", "title", "authors", "year", "venue", "keywords", "doi", "arxiv", "url", "date")

_AUTHOR_SPLIT = re.compile(r"\s*,\s*|\s+and\s+")
_SEMICOLON_SPLIT = re.compile(r"\s*;\s*")
_KEYWORD_SPLIT = re.compile(r"\s*[,;]\s*")
_YEAR = re.compile(r"(\d{4})(?:\.0+)?")


class FieldError(ValueError):
    """A field value has the wrong shape; the message says which field and why."""


#: a lone UTF-16 surrogate, which JSON escapes can produce but UTF-8 cannot encode
_SURROGATE = re.compile("[\ud800-\udfff]")


def _strip(text: str) -> str:
    return text.strip(ASCII_WHITESPACE)


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not _strip(value))


def _text(name: str, value: Any) -> str | None:
    if _empty(value):
        return None
    if not isinstance(value, str):
        raise FieldError(f"`{name}` must be a string, got {type(value).__name__}")
    _check_unicode(name, value)
    return _strip(value)


def _check_unicode(name: str, value: str) -> None:
    if _SURROGATE.search(value):
        raise FieldError(f"`{name}` holds an unpaired surrogate escape, which is not Unicode text; fix the escape")


def _identifier(value: Any) -> str | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return _text("id", value)


def _names(name: str, value: Any, splitter: re.Pattern[str]) -> tuple[str, ...]:
    if _empty(value):
        return ()
    if isinstance(value, str):
        parts = splitter.split(value)
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        parts = value
    else:
        raise FieldError(f"`{name}` must be a list of strings or a delimited string, got {value!r:.60}")
    for part in parts:
        _check_unicode(name, part)
    return tuple(p for p in (_strip(p) for p in parts) if p)


def split_authors(value: Any) -> tuple[str, ...]:
    """Author names from a list or a string: ``"A; B"`` splits on ``;`` only, else on ``,`` and ``and``."""
    if isinstance(value, str) and ";" in value:
        return _names("authors", value, _SEMICOLON_SPLIT)
    return _names("authors", value, _AUTHOR_SPLIT)


def parse_authors(value: Any) -> tuple[Author, ...]:
    """Authors from a delimited string, a list of names, or a list of ``{"name": ..., "orcid": ...}`` objects."""
    if isinstance(value, list) and any(isinstance(v, dict) for v in value):
        authors = []
        for item in value:
            if isinstance(item, str):
                item = {"name": item}
            if not isinstance(item, dict):
                raise FieldError(f"`authors` must hold names or {{\"name\": ...}} objects, got {item!r:.60}")
            name = _text("authors", item.get("name"))
            if name:
                authors.append(Author(name, parse_orcid(item.get("orcid"))))
        return tuple(authors)
    return tuple(Author(name) for name in split_authors(value))


def split_keywords(value: Any) -> tuple[str, ...]:
    """Keywords from a list or a comma/semicolon separated string."""
    return _names("keywords", value, _KEYWORD_SPLIT)


def parse_year(value: Any) -> int | None:
    """A four-digit year from an int, an integral float or a string (``"2024"``, ``"2024.0"``)."""
    if _empty(value):
        return None
    year: int | None = None
    if isinstance(value, bool):
        year = None
    elif isinstance(value, int):
        year = value
    elif isinstance(value, float) and value.is_integer():
        year = int(value)
    elif isinstance(value, str):
        match = _YEAR.fullmatch(_strip(value))
        year = int(match.group(1)) if match else None
    if year is None or not 1000 <= year <= 9999:
        raise FieldError(f"`year` must be a four-digit year like 2024, got {value!r:.40}")
    return year


def build_record(abstract: str, source: SourceRef, raw: Mapping[str, Any]) -> Record:
    """A :class:`Record` with ``abstract`` kept exactly and metadata read from ``raw``.

    A metadata value of the wrong shape (``"year": "in press"``) is left out and the reason kept in the
    record's ``dropped``: one bad field never costs the abstract.
    """
    dropped: list[str] = []

    def read(parse: Callable[..., Any], *args: Any, empty: Any = None) -> Any:
        try:
            return parse(*args)
        except FieldError as exc:
            dropped.append(str(exc))
            return empty

    date = parse_date(raw.get("date"))
    year = read(parse_year, raw.get("year"))
    return Record(
        abstract=abstract,
        source=source,
        id=read(_identifier, raw.get("id")),
        title=read(_text, "title", raw.get("title")),
        authors=read(parse_authors, raw.get("authors"), empty=()),
        year=year if year is not None or date is None else int(date[:4]),  # a full date gives its year
        venue=read(_text, "venue", raw.get("venue")),
        keywords=read(split_keywords, raw.get("keywords"), empty=()),
        doi=parse_doi(raw.get("doi")),
        arxiv=parse_arxiv(raw.get("arxiv")),
        url=read(_text, "url", raw.get("url")),
        date=date,
        dropped=tuple(dropped),
    )


def abstract_problem(value: Any) -> str | None:
    """Why ``value`` is not a usable abstract, or None when it is one."""
    if value is None:
        return "no `abstract`"
    if not isinstance(value, str):
        return f"`abstract` must be a string, got {type(value).__name__}"
    if not _strip(value):
        return "empty `abstract`"
    bad = _SURROGATE.search(value)
    if bad is not None:
        return f"`abstract` holds an unpaired surrogate \\u{ord(bad.group()):04x}, which is not Unicode text; fix the escape"
    return None


def make_record(
    abstract: Any, source: SourceRef, raw: Mapping[str, Any], field: str = "abstract"
) -> Record | SkippedRecord:
    """The :class:`Record` of one source record, or the :class:`SkippedRecord` saying why it cannot be one.

    A missing or empty abstract is skipped as "no abstract", an abstract that is no string or no Unicode
    text as "invalid field"; a metadata value of the wrong shape is left out (:func:`build_record`). ``raw``
    holds the metadata under the names of :data:`FIELDS`, ``field`` names the abstract's field in messages.
    """
    where = f"line {source.line}"
    if abstract is None or (isinstance(abstract, str) and not _strip(abstract)):
        state = "no" if abstract is None else "an empty"
        return SkippedRecord(source, f"{where}: the record has {state} `{field}`; it needs an abstract to be read",
                             "no abstract")
    problem = abstract_problem(abstract)
    if problem is not None:
        return SkippedRecord(source, f"{where}: {problem.replace('`abstract`', f'`{field}`')}", "invalid field")
    return build_record(abstract, source, raw)


_ASCII_RUN = re.compile(f"[{re.escape(ASCII_WHITESPACE)}]+")


def squash(value: Any) -> Any:
    """A string with its runs of ASCII whitespace (hard line wraps) made single spaces; other values as given."""
    return _ASCII_RUN.sub(" ", value).strip(" ") if isinstance(value, str) else value
