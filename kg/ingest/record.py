"""The records every reader yields: an abstract plus where it came from."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class SourceRef:
    """Where a record starts in its input file.

    ``file`` is the path as the user gave it (relative to the current directory when it
    is under it, POSIX separators); ``position`` is the 0-based record index within the
    file; ``line`` is the 1-based line where the record starts.
    """

    file: str
    position: int
    line: int


@dataclass(frozen=True, slots=True)
class Author:
    """An author as the input names them, with their ORCID iD (``0000-0002-1825-0097``) when it gives one.

    Names are kept as written: two authors are the same person only when they share an ORCID iD, or,
    without one, the same full name within a build.
    """

    name: str
    orcid: str | None = None


@dataclass(frozen=True, slots=True)
class Record:
    """One abstract with its optional metadata, exactly as read from the input.

    ``doi`` is the bare DOI, lower-cased (``10.1000/xyz``); ``arxiv`` the arXiv identifier without
    its version (``2106.01234``, ``hep-th/9901001``); ``date`` an ISO 8601 full date (``2024-05-07``),
    set only when the input gives day, month and year; ``year`` is set whenever it gives a year.
    ``dropped`` says why each metadata value of the wrong shape was left out (``year = {in press}``):
    the record keeps its abstract and the rest.
    """

    abstract: str
    source: SourceRef
    id: str | None = None
    title: str | None = None
    authors: tuple[Author, ...] = ()
    year: int | None = None
    venue: str | None = None
    keywords: tuple[str, ...] = ()
    doi: str | None = None
    arxiv: str | None = None
    url: str | None = None
    date: str | None = None
    dropped: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class SkippedRecord:
    """A record that was not read, with a one-line reason naming the line and the problem, and its kind
    (a short fixed phrase such as "invalid JSON", for counting skipped records by kind)."""

    source: SourceRef
    reason: str
    kind: str = "invalid record"
