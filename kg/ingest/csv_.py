"""CSV and TSV with a header row naming the columns (case-insensitive).

Columns: ``abstract`` (required; ``summary`` or ``text`` are accepted instead when exactly one
of them is present and there is no ``abstract`` column), and optional ``id``, ``title``,
``authors``, ``year``, ``venue``, ``keywords``; other columns are ignored. Quoting follows
the usual CSV rules (RFC 4180, as Excel and pandas write it) for both delimiters.
Every non-blank data row consumes a position, skipped or not.
"""
from __future__ import annotations

import csv
from pathlib import Path
from typing import Callable, Iterator

from kg.errors import InputError
from kg.ingest.fields import FIELDS, abstract_problem, build_record
from kg.ingest.record import Record, SkippedRecord, SourceRef
from kg.ingest.source import ASCII_WHITESPACE, iter_lines

ABSTRACT_COLUMN = "abstract"
#: used as the abstract column only when exactly one is present and ``abstract`` is absent
ABSTRACT_ALIASES = ("summary", "text")
#: big enough for any abstract: the ``max_chars`` limit is applied after reading
_FIELD_LIMIT = 2**31 - 1


def normalise_column(name: str) -> str:
    """A header cell as matched against column names: stripped and lower-cased."""
    return name.strip(ASCII_WHITESPACE).lower()


def abstract_column(columns: list[str]) -> str | None:
    """The (normalised) column holding abstracts, None when there is none.

    Raises :class:`ValueError` when only aliases are present and more than one of them.
    """
    if ABSTRACT_COLUMN in columns:
        return ABSTRACT_COLUMN
    aliases = [a for a in ABSTRACT_ALIASES if a in columns]
    if len(aliases) > 1:
        raise ValueError(f"columns {' and '.join(aliases)} could both hold the abstracts")
    return aliases[0] if aliases else None


def _reader(delimiter: str, kind: str) -> Callable[[Path, str, Callable[[SkippedRecord], None]], Iterator[Record]]:
    def read(path: Path, display: str, on_skip: Callable[[SkippedRecord], None]) -> Iterator[Record]:
        old_limit = csv.field_size_limit(_FIELD_LIMIT)
        try:
            yield from _read_delimited(path, display, on_skip, delimiter, kind)
        finally:
            csv.field_size_limit(old_limit)

    read.__name__ = f"read_{kind}"
    read.__qualname__ = read.__name__
    read.__doc__ = f"Yield one :class:`Record` per data row of a {kind.upper()} file with a header row."
    return read


def _read_delimited(
    path: Path, display: str, on_skip: Callable[[SkippedRecord], None], delimiter: str, kind: str
) -> Iterator[Record]:
    lines = (line for _, line in iter_lines(path, display))
    reader = csv.reader(lines, delimiter=delimiter, strict=True)
    header = _header(reader, display, kind)
    columns = [normalise_column(c) for c in header]
    try:
        abstract_col = abstract_column(columns)
    except ValueError as exc:
        raise InputError(f"{display}: {exc}; rename the one holding the abstracts to `abstract`") from None
    if abstract_col is None and delimiter.join(header).lstrip(ASCII_WHITESPACE)[:1] in ("{", "["):
        raise InputError(f"{display} is not {kind.upper()}: its first line is JSON; read it as JSON Lines or JSON "
                         f"(--format jsonl, or no --format: the format is detected from the content)")
    if abstract_col is None:
        found = ", ".join(repr(c) for c in header) or "none"
        raise InputError(
            f"{display} has no abstract column (columns found: {found:.300}); "
            f"name the column holding the abstracts `abstract`"
            + (" or pass --format tsv" if kind == "csv" and "\t" in "".join(header) else "")
        )
    wanted = [abstract_col, *FIELDS]
    for name in wanted:
        if columns.count(name) > 1:
            raise InputError(f"{display} has the column {name!r} twice in its header; keep only one")
    index = {name: columns.index(name) for name in wanted if name in columns}
    position = -1
    while True:
        lineno = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            position += 1
            on_skip(SkippedRecord(SourceRef(display, position, lineno), f"line {lineno}: malformed {kind.upper()}: {exc}",
                                  f"malformed {kind.upper()}"))
            continue
        if not row or (len(row) == 1 and not row[0].strip(ASCII_WHITESPACE)):
            continue  # blank line
        position += 1
        source = SourceRef(display, position, lineno)
        if len(row) != len(header):
            on_skip(SkippedRecord(source, f"line {lineno}: row has {len(row)} fields but the header has {len(header)}",
                                  "wrong number of fields"))
            continue
        raw = {name: row[i] for name, i in index.items()}
        abstract = raw.pop(abstract_col)
        problem = abstract_problem(abstract)
        if problem is not None:
            on_skip(SkippedRecord(source, f"line {lineno}: {problem} in column {header[index[abstract_col]]!r}",
                                  "no usable abstract"))
            continue
        yield build_record(abstract, source, raw)
    if position < 0:
        raise InputError(f"{display} has a header row but no data rows; add one row per abstract")


def _header(reader: "csv._reader", display: str, kind: str) -> list[str]:
    """The first non-blank row."""
    try:
        for row in reader:
            if row and any(cell.strip(ASCII_WHITESPACE) for cell in row):
                return row
    except csv.Error as exc:
        raise InputError(f"{display} line {reader.line_num}: malformed {kind.upper()} header: {exc}") from None
    raise InputError(f"{display} is empty (only whitespace); it needs a header row and one row per abstract")


read_csv = _reader(",", "csv")
read_tsv = _reader("\t", "tsv")
