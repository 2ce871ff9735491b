"""RIS (``.ris``: Scopus, Web of Science, EndNote, Zotero exports), read with rispy.

Streamed record by record: the lines from a ``TY  -`` line to its ``ER  -`` line are handed to rispy's
parser, so each record's line is its ``TY  -`` line. Tags read: ``AB`` (abstract, or ``N2`` when there
is no ``AB``), ``TI``/``T1`` (title), ``AU`` and ``A1`` (authors, "Last, First" turned to "First Last"),
``PY`` (year; and ``DA``/``Y1``/``PY`` for a full date when one gives ``YYYY/MM/DD``), ``T2``/``JO``/``JF``
(venue), ``DO``, ``UR`` (the first), ``KW``, ``ID``. Records without an abstract, and a record cut off
before its ``ER  -`` line, go to ``on_skip``.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, Iterator

import rispy

from kg.errors import InputError
from kg.ingest.fields import make_record, squash
from kg.ingest.identifiers import full_date
from kg.ingest.record import Record, SkippedRecord, SourceRef
from kg.ingest.source import is_blank, iter_lines

#: RIS dates: ``YYYY``, ``YYYY///``, ``YYYY/MM/DD/other``, or with ``-``
_RIS_DATE = re.compile(r"(\d{4})(?:[/-](\d{1,2})?(?:[/-](\d{1,2})?)?)?(?:[/-].*)?")


def read_ris(path: Path, display: str, on_skip: Callable[[SkippedRecord], None]) -> Iterator[Record]:
    """Yield one :class:`Record` per ``TY  -`` ... ``ER  -`` record with an abstract of a RIS file."""
    parser = rispy.RisParser()
    chunk: list[str] | None = None
    source: SourceRef | None = None
    position = -1
    stray: tuple[int, str] | None = None
    for lineno, line in iter_lines(path, display):
        tag, _ = parser.parse_line(line)
        if tag == parser.START_TAG:
            if chunk is not None and source is not None:
                on_skip(_unterminated(source, f"before the next `{parser.START_TAG}  -` line {lineno}"))
            position += 1
            chunk, source = [line], SourceRef(display, position, lineno)
        elif chunk is not None and source is not None:
            chunk.append(line)
            if tag == parser.END_TAG:
                result = _record(parser.parse_lines(iter(chunk))[0], source)
                if isinstance(result, Record):
                    yield result
                else:
                    on_skip(result)
                chunk = source = None
        elif stray is None and not is_blank(line):
            stray = (lineno, line.strip())
    if chunk is not None and source is not None:
        on_skip(_unterminated(source, "before the end of the file"))
    if position < 0:
        if stray is None:
            raise InputError(f"{display} is empty (only whitespace); put RIS records (TY  - JOUR ... ER  - ) in it")
        raise InputError(
            f"{display} holds no RIS record (line {stray[0]} is {stray[1]!r:.60}); RIS records start with a "
            "`TY  - ` line and end with an `ER  - ` line; pass a RIS file or the right --format NAME"
        )


def _unterminated(source: SourceRef, where: str) -> SkippedRecord:
    return SkippedRecord(source, f"line {source.line}: the record has no `ER  - ` end line {where}; end it with one",
                         "unterminated record")


def first_last(name: str) -> str:
    """``"Last, First"`` -> ``"First Last"``, ``"Last, First, Jr."`` -> ``"First Last Jr."``; other names as given."""
    parts = [p.strip() for p in name.split(",")]
    if len(parts) == 2 and all(parts):
        return f"{parts[1]} {parts[0]}"
    if len(parts) == 3 and parts[0] and parts[1]:
        return " ".join(p for p in (parts[1], parts[0], parts[2]) if p)
    return name.strip()


def _date_parts(value: Any) -> tuple[str, str | None, str | None] | None:
    match = _RIS_DATE.fullmatch(value.strip()) if isinstance(value, str) else None
    return match.groups() if match else None  # type: ignore[return-value]


def _first(entry: dict, *names: str) -> Any:
    return next((entry[n] for n in names if entry.get(n)), None)


def _record(entry: dict, source: SourceRef) -> Record | SkippedRecord:
    names: list[str] = []
    for name in [*entry.get("authors", []), *entry.get("first_authors", [])]:
        full = first_last(name)
        if full and full not in names:
            names.append(full)
    dates = [_date_parts(entry.get(k)) for k in ("date", "publication_year", "year")]
    year_parts = _date_parts(entry.get("year")) or next((d for d in dates if d), None)
    day = next((d for d in (full_date(*p) for p in dates if p) if d), None)
    urls = entry.get("urls") or []
    raw = {
        "id": entry.get("id"),
        "title": squash(_first(entry, "title", "primary_title")),
        "authors": names,
        "year": year_parts[0] if year_parts else entry.get("year"),
        "venue": squash(_first(entry, "secondary_title", "journal_name", "alternate_title3")),
        "keywords": entry.get("keywords"),
        "doi": entry.get("doi"),
        "url": urls[0] if urls else None,
        "date": day,
    }
    return make_record(_first(entry, "abstract", "notes_abstract"), source, raw, "AB")
