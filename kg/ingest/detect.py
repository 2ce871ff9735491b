"""Decide the format of an input file from its extension AND its content.

Content evidence: gzip magic bytes or a first non-blank character ``{`` mean JSONL; a first
line that is a header row (two or more column-name-like cells, one of them an abstract
column) split by ``,`` or by a tab means CSV or TSV. Plain text is no evidence either way.
When extension and content disagree, or neither decides, :class:`InputError` asks the user
to pass ``--format NAME``: the format is never guessed.
"""
from __future__ import annotations

import csv
import gzip
import re
import zlib
from pathlib import Path

from kg.errors import InputError
from kg.ingest.csv_ import abstract_column, normalise_column
from kg.ingest.registry import format_from_extension, format_names
from kg.ingest.source import ASCII_WHITESPACE, GZIP_MAGIC, UTF8_BOM, display_path, not_utf8_error

#: bytes of (decompressed) content looked at
SAMPLE_BYTES = 1 << 16
_COLUMN_NAME = re.compile(r"[^\W\d][\w .()/#-]{0,63}")


def detect_format(path: str | Path, display: str | None = None) -> str:
    """The format name (a key of ``READERS``) of the file at ``path``.

    Raises :class:`InputError` when the file is missing, empty or not UTF-8, when its
    extension and content disagree, or when neither tells the format.
    """
    path = Path(path)
    display = display if display is not None else display_path(path)
    if not path.exists():
        raise InputError(f"no such file or directory: {display}; check the path")
    if path.is_dir():
        raise InputError(f"{display} is a directory; its format cannot be detected, pass its files or the directory to read")
    by_extension = format_from_extension(path)
    content, why = _sniff(path, display)
    flag = f"pass --format NAME (one of {format_names()})"
    if by_extension is not None and content is not None and by_extension not in content:
        raise InputError(
            f"{display}: its extension says {by_extension} but {why}, which means {' or '.join(sorted(content))}; "
            f"fix the extension or {flag}"
        )
    if by_extension is not None:
        return by_extension
    if content is not None and len(content) == 1:
        return next(iter(content))
    if content is not None:
        raise InputError(f"{display}: {why}, which fits {' and '.join(sorted(content))}; {flag}")
    raise InputError(f"cannot tell the format of {display} from its extension or its content; {flag}")


def _sniff(path: Path, display: str) -> tuple[set[str] | None, str]:
    """The formats the content is compatible with (None: no evidence) and why."""
    try:
        with path.open("rb") as fh:
            head = fh.read(SAMPLE_BYTES)
            complete = not fh.read(1)
    except PermissionError:
        raise InputError(f"cannot read {display}: permission denied; check the file's permissions") from None
    if head.startswith(GZIP_MAGIC):
        try:
            with gzip.open(path, "rb") as gz:
                _decode(gz.read(SAMPLE_BYTES), display, truncated=True)
        except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
            raise InputError(
                f"{display} is not a valid gzip file ({exc}); re-compress it with gzip or pass the uncompressed file"
            ) from None
        return {"jsonl"}, "it is gzip-compressed (only JSONL may be)"
    text = _decode(head, display, truncated=not complete)
    stripped = text.lstrip(ASCII_WHITESPACE)
    if not stripped and complete:
        raise InputError(f"{display} is empty (only whitespace); put abstracts in it")
    if stripped.startswith("{"):
        return {"jsonl"}, "its first non-blank character is '{'"
    first_line = text.split("\n", 1)[0]
    formats = {fmt for fmt, delimiter in (("csv", ","), ("tsv", "\t")) if _is_header(first_line, delimiter)}
    if formats:
        return formats, "its first line is a header row with an abstract column"
    return None, ""


def _decode(data: bytes, display: str, truncated: bool) -> str:
    """Decode a sample strictly, allowing a character cut at the end of a truncated sample."""
    base = 0
    if data.startswith(UTF8_BOM):
        data, base = data[len(UTF8_BOM):], len(UTF8_BOM)
    nul = data.find(b"\x00")
    try:
        text = data.decode("utf-8")
        bad = nul
    except UnicodeDecodeError as exc:
        cut = truncated and exc.reason == "unexpected end of data" and exc.end == len(data)
        bad = min(exc.start, nul) if nul >= 0 else (-1 if cut else exc.start)
        text = data[:exc.start].decode("utf-8") if bad < 0 else ""
    if bad >= 0:
        raise not_utf8_error(display, data[bad:bad + 1], data.count(b"\n", 0, bad) + 1, base + bad)
    return text


def _is_header(line: str, delimiter: str) -> bool:
    """True when ``line`` is a header row naming an abstract column."""
    try:
        cells = next(csv.reader([line], delimiter=delimiter))
    except (csv.Error, StopIteration):
        return False
    names = [c.strip(ASCII_WHITESPACE) for c in cells]
    if len(names) < 2 or not all(not n or _COLUMN_NAME.fullmatch(n) and len(n.split()) <= 4 for n in names):
        return False
    try:
        return abstract_column([normalise_column(n) for n in names]) is not None
    except ValueError:
        return True
