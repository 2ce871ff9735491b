"""The "seed" text format: an optional header line, then one abstract per paragraph.

Paragraphs are separated by one or more blank lines (lines of ASCII whitespace only).
Each abstract is its paragraph exactly, internal line breaks kept as in the file, with
leading/trailing ASCII whitespace stripped. The header is recognised by
:func:`looks_like_header`; :func:`split_seed` exposes the decision.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from kg.errors import InputError
from kg.ingest.record import Record, SkippedRecord, SourceRef
from kg.ingest.source import ASCII_WHITESPACE, is_blank, iter_lines

#: a header is a single line shorter than this
MAX_HEADER_CHARS = 120
#: a line ending with one of these (before closing quotes/brackets) is a sentence, not a header
SENTENCE_END = ".!?;。！？；…"
_CLOSERS = "\"')]}»”’」』）"


@dataclass(frozen=True)
class Paragraph:
    """One paragraph: its text (stripped) and the 1-based line where it starts."""

    text: str
    line: int


@dataclass(frozen=True)
class SeedLayout:
    """How a seed file was split: the header line (None when there is none) and the abstracts."""

    header: Paragraph | None
    abstracts: list[Paragraph]


def looks_like_header(text: str) -> bool:
    """True when a first paragraph is a title line rather than an abstract.

    A header is a single line, shorter than :data:`MAX_HEADER_CHARS` characters, that does
    not end with sentence punctuation (e.g. ``ICLR 2026 论文列表``).
    """
    if "\n" in text or len(text) >= MAX_HEADER_CHARS:
        return False
    core = text.rstrip(ASCII_WHITESPACE + _CLOSERS)
    return bool(core) and core[-1] not in SENTENCE_END


def paragraphs(lines: Iterable[tuple[int, str]]) -> Iterator[Paragraph]:
    """Group numbered lines into paragraphs separated by blank lines."""
    chunk: list[str] = []
    start = 0
    for lineno, line in lines:
        if is_blank(line):
            if chunk:
                yield Paragraph("".join(chunk).strip(ASCII_WHITESPACE), start)
                chunk = []
            continue
        if not chunk:
            start = lineno
        chunk.append(line)
    if chunk:
        yield Paragraph("".join(chunk).strip(ASCII_WHITESPACE), start)


def split_seed(paras: list[Paragraph], header: bool | None = None) -> SeedLayout:
    """Split paragraphs into header and abstracts; ``header`` forces the decision when not None."""
    has_header = looks_like_header(paras[0].text) if header is None and paras else bool(header and paras)
    if has_header:
        return SeedLayout(paras[0], paras[1:])
    return SeedLayout(None, paras)


def read_seed(
    path: Path,
    display: str,
    on_skip: Callable[[SkippedRecord], None],
    *,
    header: bool | None = None,
) -> Iterator[Record]:
    """Yield one :class:`Record` per abstract paragraph of a seed text file.

    ``header`` = None detects the header line, True/False forces it. Raises
    :class:`InputError` for an empty file or one holding only a header.
    """
    layout = split_seed(list(paragraphs(iter_lines(path, display))), header)
    if layout.header is None and not layout.abstracts:
        raise InputError(f"{display} is empty (only whitespace); put one abstract per paragraph in it")
    if not layout.abstracts:
        raise InputError(
            f"{display} holds only a header line ({layout.header.text!r:.60}) and no abstracts; "  # type: ignore[union-attr]
            "add abstracts after it, one per paragraph separated by blank lines"
        )
    for position, para in enumerate(layout.abstracts):
        yield Record(abstract=para.text, source=SourceRef(display, position, para.line))
