"""BibTeX and BibLaTeX (``.bib``), read with bibtexparser 2.

The file is parsed whole (bibtexparser has no streaming mode), then its entries are yielded in order;
memory is a few times the file's size. Each entry is a position; its line is the line of its
``@type{``. Fields read: ``abstract`` (required), ``title``, ``author`` (split on ``and``, "Last, First"
turned to "First Last", ``others`` dropped), ``year``, ``date`` or ``month`` + ``day``, ``journal`` /
``journaltitle`` / ``booktitle`` (venue), ``doi``, ``url``, ``keywords``, and ``eprint`` when
``archivePrefix`` (or ``eprinttype``) is arXiv. LaTeX in text fields is decoded to Unicode (the
abstract spaced as LaTeX reads it: hard line wraps are spaces, blank lines end paragraphs); ``doi``,
``url`` and ``eprint`` are taken verbatim. Entries without an abstract, with a name bibtexparser cannot
split, a duplicate key or field, or broken syntax go to ``on_skip``.
"""
from __future__ import annotations

import contextlib
import logging
import re
from pathlib import Path
from typing import Any, Callable, Iterator

import bibtexparser
from bibtexparser import middlewares
from bibtexparser.middlewares.middleware import Middleware
from bibtexparser.model import (
    DuplicateBlockKeyBlock,
    DuplicateFieldKeyBlock,
    Entry,
    MiddlewareErrorBlock,
    ParsingFailedBlock,
)

from kg.errors import InputError
from kg.ingest.fields import make_record, squash
from kg.ingest.identifiers import full_date, parse_date
from kg.ingest.jsondoc import read_text
from kg.ingest.latex import latex_paragraphs, latex_to_text
from kg.ingest.record import Record, SkippedRecord, SourceRef
from kg.ingest.source import is_blank

_VENUE_FIELDS = ("journal", "journaltitle", "booktitle")
_YEAR_START = re.compile(r"\d{4}")


def _parse_stack() -> list[Middleware]:
    """bibtexparser's default stack (string references resolved, enclosing braces removed), then field keys
    lower-cased, names split into "First von Last Jr" and months made numbers."""
    return [
        *middlewares.default_parse_stack(),
        middlewares.NormalizeFieldKeys(),
        middlewares.SeparateCoAuthors(),
        middlewares.SplitNameParts(),
        middlewares.MergeNameParts(style="first"),
        middlewares.MonthIntMiddleware(),
    ]


@contextlib.contextmanager
def _quiet_parser() -> Iterator[None]:
    """Keep bibtexparser's own warnings off stderr: the reader reports each broken entry as a skip."""
    logger = logging.getLogger("bibtexparser")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def read_bibtex(path: Path, display: str, on_skip: Callable[[SkippedRecord], None]) -> Iterator[Record]:
    """Yield one :class:`Record` per entry with an abstract of a BibTeX/BibLaTeX file."""
    text = read_text(path, display)
    if is_blank(text):
        raise InputError(f"{display} is empty (only whitespace); put BibTeX entries (@article{{key, ...}}) in it")
    with _quiet_parser():
        library = bibtexparser.parse_string(text, parse_stack=_parse_stack())
    blocks = [b for b in library.blocks if isinstance(b, (Entry, ParsingFailedBlock))]
    if not library.entries:
        first = f" ({_failure(blocks[0])})" if blocks else ""
        raise InputError(
            f"{display} holds no BibTeX entry{first}; a .bib file needs entries such as "
            "@article{key, abstract = {...}}, or pass the right --format NAME"
        )
    for position, block in enumerate(blocks):
        source = SourceRef(display, position, (block.start_line or 0) + 1)
        if isinstance(block, Entry):
            result = _record(block, source)
        else:
            result = _skip(block, source)
        if isinstance(result, Record):
            yield result
        else:
            on_skip(result)


def _failure(block: ParsingFailedBlock | Entry) -> str:
    if isinstance(block, Entry):
        return f"entry {block.key!r}"
    error = block.error
    return (getattr(error, "abort_reason", None) or str(error) or type(error).__name__).strip()


def _skip(block: ParsingFailedBlock, source: SourceRef) -> SkippedRecord:
    where = f"line {source.line}"
    if isinstance(block, DuplicateBlockKeyBlock):
        first = (block.previous_block.start_line or 0) + 1
        return SkippedRecord(source, f"{where}: entry key {block.key!r} was already used by the entry at line {first}, "
                                     "which is the one read; give this entry its own key", "duplicate key")
    if isinstance(block, DuplicateFieldKeyBlock):
        return SkippedRecord(source, f"{where}: the entry sets a field twice ({_failure(block).split('.')[0]}); "
                                     "keep one of them", "duplicate field")
    if isinstance(block, MiddlewareErrorBlock):
        return SkippedRecord(source, f"{where}: {_failure(block)}", "invalid field")
    return SkippedRecord(source, f"{where}: the entry is not valid BibTeX ({_failure(block)}); "
                                 "fix its braces or quotes", "invalid BibTeX")


def _text(value: Any) -> Any:
    return latex_to_text(value) if isinstance(value, str) else value


def _record(entry: Entry, source: SourceRef) -> Record | SkippedRecord:
    fields = {f.key: f.value for f in entry.fields}
    abstract = fields.get("abstract")
    if isinstance(abstract, str):
        abstract = latex_paragraphs(abstract)
    names = fields.get("author") or []
    authors = [squash(latex_to_text(n)) for n in names if isinstance(n, str) and n.strip().lower() != "others"]
    year = fields.get("year")
    day = parse_date(fields.get("date")) or full_date(year, fields.get("month"), fields.get("day"))
    if year is None and isinstance(fields.get("date"), str):
        start = _YEAR_START.match(fields["date"].strip())
        year = start.group() if start else None
    venue = next((fields[k] for k in _VENUE_FIELDS if fields.get(k)), None)
    prefix = fields.get("archiveprefix") or fields.get("eprinttype")
    arxiv = fields.get("eprint") if isinstance(prefix, str) and prefix.strip().lower() == "arxiv" else None
    raw = {
        "id": entry.key,
        "title": squash(_text(fields.get("title"))),
        "authors": authors,
        "year": year,
        "venue": squash(_text(venue)),
        "keywords": _text(fields.get("keywords")),
        "doi": fields.get("doi"),
        "arxiv": arxiv,
        "url": fields.get("url"),
        "date": day,
    }
    return make_record(abstract, source, raw)
