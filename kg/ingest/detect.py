"""Decide the format of an input file from its extension AND its content.

Content evidence: JSON (a first non-blank character ``{`` or ``[``, gzip-compressed or not) is told
apart by its first object: an OpenAlex work (``abstract_inverted_index``) or API page (``meta`` +
``results``), a Semantic Scholar paper (``paperId``) or response (a ``data`` array of papers), an
arXiv snapshot line, an array of CSL items (``type`` + ``title``), else our JSONL; a first entry
``@type{`` means BibTeX; a first line ``TY  - `` means RIS; a first line that is a header row (two or
more column-name-like cells, one of them an abstract column) split by ``,`` or by a tab means CSV or
TSV. Plain text is no evidence either way. The JSON extensions (``.json``, ``.jsonl``, ``.json.gz``,
...) only say "JSON": the content picks which JSON format. When extension and content disagree, or
neither decides, :class:`InputError` asks the user to pass ``--format NAME``: the format is never guessed.
"""
from __future__ import annotations

import csv
import gzip
import json
import re
import zlib
from pathlib import Path

import rispy

from kg.errors import InputError
from kg.ingest.arxiv import is_arxiv_record
from kg.ingest.csv_ import abstract_column, normalise_column
from kg.ingest.jsondoc import parse_document
from kg.ingest.openalex import is_page, is_work
from kg.ingest.registry import JSON_FORMATS, format_from_extension, format_names
from kg.ingest.s2 import is_paper, is_response
from kg.ingest.source import ASCII_WHITESPACE, GZIP_MAGIC, UTF8_BOM, display_path, not_utf8_error

#: bytes of (decompressed) content looked at
SAMPLE_BYTES = 1 << 16
_COLUMN_NAME = re.compile(r"[^\W\d][\w .()/#-]{0,63}")
#: the start of a BibTeX entry, ``@article{`` or ``@inproceedings(``
_BIBTEX_ENTRY = re.compile(r"[ \t]*@[ \t]*[A-Za-z]+[ \t]*[{(]")
_PLAIN_JSON = "its first non-blank character is '{'"


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
        if by_extension in JSON_FORMATS and content <= JSON_FORMATS:
            if len(content) == 1:
                return next(iter(content))
            raise InputError(f"{display}: {why}, which fits {' and '.join(sorted(content))}; {flag}")
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
                data = gz.read(SAMPLE_BYTES)
                whole = not gz.read(1)
        except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
            raise InputError(
                f"{display} is not a valid gzip file ({exc}); re-compress it with gzip or pass the uncompressed file"
            ) from None
        formats, why = _text_evidence(_decode(data, display, truncated=not whole), whole)
        if formats is None:
            return {"jsonl"}, "it is gzip-compressed (read as JSONL when its content tells no other format)"
        return formats, f"it is gzip-compressed and {why}"
    text = _decode(head, display, truncated=not complete)
    if not text.strip(ASCII_WHITESPACE) and complete:
        raise InputError(f"{display} is empty (only whitespace); put abstracts in it")
    return _text_evidence(text, complete)


def _text_evidence(text: str, complete: bool) -> tuple[set[str] | None, str]:
    """The formats the start of a file (all of it when ``complete``) is compatible with, and why."""
    stripped = text.lstrip(ASCII_WHITESPACE)
    if stripped[:1] in ("{", "["):
        formats, why = _json_evidence(stripped, complete)
        if formats is not None:
            return formats, why
    lines = [line for line in text.split("\n") if line.strip(ASCII_WHITESPACE)]
    entry = next((line for line in lines if not line.lstrip(ASCII_WHITESPACE).startswith("%")), "")
    if _BIBTEX_ENTRY.match(entry):
        return {"bibtex"}, "its first entry starts like `@article{`"
    parser = rispy.RisParser()
    if lines and parser.parse_line(lines[0].lstrip(ASCII_WHITESPACE))[0] == parser.START_TAG:
        return {"ris"}, "its first line is a RIS `TY  - ` tag"
    first_line = text.split("\n", 1)[0]
    formats = {fmt for fmt, delimiter in (("csv", ","), ("tsv", "\t")) if _is_header(first_line, delimiter)}
    if formats:
        return formats, "its first line is a header row with an abstract column"
    return None, ""


def _json_evidence(text: str, complete: bool) -> tuple[set[str] | None, str]:
    """The JSON formats that ``text`` (starting with ``{`` or ``[``; all of the file when ``complete``) fits."""
    try:
        first = json.loads(text.split("\n", 1)[0])
    except (json.JSONDecodeError, RecursionError):
        first = None
    if isinstance(first, dict):
        return _object_formats(first, "its first line is")
    try:
        doc = parse_document(text, ("results", "data"), partial=not complete)
    except (json.JSONDecodeError, RecursionError):
        doc = None
    if doc is not None and isinstance(doc.value, list):
        item = next((v for v in doc.value if isinstance(v, dict)), None)
        found = {} if item is None else _item_formats(item)
        if found:
            return set(found), f"it is a JSON array of {' and '.join(found.values())}"
        return None, ""
    if doc is not None and isinstance(doc.value, dict):
        return _object_formats(doc.value, "it is")
    return ({"jsonl"}, _PLAIN_JSON) if text.startswith("{") else (None, "")


def _item_formats(item: dict) -> dict[str, str]:
    """What an array's first item is: OpenAlex works, Semantic Scholar papers or CSL items."""
    found = {}
    if is_work(item):
        found["openalex"] = "OpenAlex works (`abstract_inverted_index`)"
    if is_paper(item):
        found["s2"] = "Semantic Scholar papers (`paperId`)"
    if not found and "type" in item and "title" in item:
        found["csl-json"] = "CSL items (`type`, `title`)"
    return found


def _object_formats(obj: dict, lead: str) -> tuple[set[str], str]:
    """The formats a first JSON object fits: the specific ones it has the marks of, else our JSONL."""
    found = {}
    if is_work(obj):
        found["openalex"] = "an OpenAlex work (`abstract_inverted_index`)"
    elif is_page(obj):
        found["openalex"] = "an OpenAlex API page (`meta`, `results`)"
    if is_paper(obj):
        found["s2"] = "a Semantic Scholar paper (`paperId`)"
    elif is_response(obj):
        found["s2"] = "a Semantic Scholar response (a `data` array of papers)"
    if is_arxiv_record(obj):
        found["arxiv"] = "an arXiv metadata record (`id`, `abstract`, `authors_parsed`/`categories`)"
    if not found:
        return {"jsonl"}, _PLAIN_JSON
    return set(found), f"{lead} {' and '.join(found.values())}"


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
