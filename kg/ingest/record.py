"""The records every reader yields: an abstract plus where it came from."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SourceRef:
    """Where a record starts in its input file.

    ``file`` is the path as the user gave it (relative to the current directory when it
    is under it, POSIX separators); ``position`` is the 0-based record index within the
    file; ``line`` is the 1-based line where the record starts.
    """

    file: str
    position: int
    line: int


@dataclass(frozen=True)
class Record:
    """One abstract with its optional metadata, exactly as read from the input."""

    abstract: str
    source: SourceRef
    id: str | None = None
    title: str | None = None
    authors: tuple[str, ...] = ()
    year: int | None = None
    venue: str | None = None
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class SkippedRecord:
    """A record that was not read, with a one-line reason naming the line and the problem, and its kind
    (a short fixed phrase such as "invalid JSON", for counting skipped records by kind)."""

    source: SourceRef
    reason: str
    kind: str = "invalid record"
