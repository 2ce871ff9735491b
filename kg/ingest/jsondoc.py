"""JSON inputs: whole documents whose array items keep the line they start on, and JSON lines.

The standard library decodes every value; this module only steps over the punctuation of the
top level (and of one array member of a top-level object) to learn where each item starts.
"""
from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from kg.errors import InputError
from kg.ingest.record import Record, SkippedRecord, SourceRef
from kg.ingest.source import is_blank, iter_lines

_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class Item:
    """A JSON value and the 1-based line where it starts."""

    line: int
    value: Any


@dataclass(frozen=True)
class Document:
    """A parsed JSON document: its value, the items of its array (a top-level array, or the array member
    of a top-level object that the reader asked for; None when it has neither) and the line it starts on."""

    value: Any
    items: list[Item] | None
    line: int


class _Lines:
    """Line numbers of increasing offsets into one text, counted as the offsets advance."""

    def __init__(self, text: str) -> None:
        self.text, self.offset, self.line = text, 0, 1

    def at(self, offset: int) -> int:
        self.line += self.text.count("\n", self.offset, offset)
        self.offset = offset
        return self.line


def _skip(text: str, pos: int) -> int:
    return _WS.match(text, pos).end()  # type: ignore[union-attr]


def _expect(text: str, pos: int, char: str, what: str) -> int:
    if text[pos:pos + 1] != char:
        raise json.JSONDecodeError(f"Expecting {what}", text, pos)
    return _skip(text, pos + 1)


def _array(text: str, pos: int, lines: _Lines, partial: bool) -> tuple[list[Item], int]:
    """The items of the array opening at ``pos`` and the offset after it."""
    items: list[Item] = []
    pos = _skip(text, pos + 1)
    if text.startswith("]", pos):
        return items, pos + 1
    while True:
        try:
            value, end = _DECODER.raw_decode(text, pos)
        except json.JSONDecodeError:
            if partial:
                return items, len(text)
            raise
        items.append(Item(lines.at(pos), value))
        pos = _skip(text, end)
        if text.startswith("]", pos):
            return items, pos + 1
        pos = _expect(text, pos, ",", "',' delimiter")


def _object(text: str, pos: int, keys: tuple[str, ...], lines: _Lines, partial: bool
            ) -> tuple[dict, list[Item] | None, int]:
    """The object opening at ``pos``, the items of its first array member named in ``keys`` (None when it
    has none) and the offset after it."""
    obj: dict[str, Any] = {}
    items: list[Item] | None = None
    pos = _skip(text, pos + 1)
    if text.startswith("}", pos):
        return obj, items, pos + 1
    try:
        while True:
            if not text.startswith('"', pos):
                raise json.JSONDecodeError("Expecting property name enclosed in double quotes", text, pos)
            name, pos = _DECODER.raw_decode(text, pos)
            pos = _expect(text, _skip(text, pos), ":", "':' delimiter")
            if name in keys and items is None and text.startswith("[", pos):
                items, pos = _array(text, pos, lines, partial)
                obj[name] = [item.value for item in items]
            else:
                obj[name], pos = _DECODER.raw_decode(text, pos)
            pos = _skip(text, pos)
            if text.startswith("}", pos):
                return obj, items, pos + 1
            pos = _expect(text, pos, ",", "',' delimiter")
    except json.JSONDecodeError:
        if partial:
            return obj, items, len(text)
        raise


def parse_document(text: str, keys: tuple[str, ...] = (), *, partial: bool = False) -> Document | None:
    """The JSON document ``text``, with the items of its array: the top-level array, or the first array
    member of a top-level object named in ``keys``.

    Raises :class:`json.JSONDecodeError`. With ``partial``, ``text`` may be the start of a longer document
    (for detection): what it holds whole is returned, a value cut off at its end is left out, and None is
    returned when nothing is whole.
    """
    lines = _Lines(text)
    pos = _skip(text, 0)
    start = lines.at(pos)
    items: list[Item] | None = None
    try:
        if text.startswith("[", pos):
            items, end = _array(text, pos, lines, partial)
            value: Any = [item.value for item in items]
        elif text.startswith("{", pos) and (keys or partial):
            value, items, end = _object(text, pos, keys, lines, partial)
        else:
            value, end = _DECODER.raw_decode(text, pos)
    except json.JSONDecodeError:
        if partial:
            return None
        raise
    end = _skip(text, end)
    if end != len(text) and not partial:
        raise json.JSONDecodeError("Extra data", text, end)
    return Document(value, items, start)


def read_text(path: Path, display: str) -> str:
    """The whole file as text (strict UTF-8, gzip decompressed), for formats that are one document."""
    return "".join(line for _, line in iter_lines(path, display))


def load_document(path: Path, display: str, keys: tuple[str, ...] = ()) -> Document:
    """:func:`parse_document` of the file, raising :class:`InputError` naming the line when it is not JSON."""
    text = read_text(path, display)
    if is_blank(text):
        raise InputError(f"{display} is empty (only whitespace); put a JSON document in it")
    try:
        return parse_document(text, keys)  # type: ignore[return-value]
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{display} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
            "fix the file or export it again"
        ) from None
    except RecursionError:
        raise InputError(f"{display} is not valid JSON (nested too deeply); fix the file or export it again") from None


def first_line_is_document(path: Path, display: str) -> bool:
    """True when the file is one JSON document over several lines (or a JSON array) rather than JSON lines:
    its first non-blank line is an array, or a JSON value cut off at the end of the line."""
    with contextlib.closing(iter_lines(path, display)) as lines:
        line = next((line for _, line in lines if not is_blank(line)), "")
    text = line.rstrip(" \t\r\n")
    if not text:
        return False
    try:
        return not isinstance(json.loads(text), dict)
    except json.JSONDecodeError as exc:
        return exc.pos >= len(text)
    except RecursionError:
        return False


#: turns one JSON object into a record, or a skip when it cannot be one
Convert = Callable[[dict, SourceRef], "Record | SkippedRecord"]


def read_json_lines(
    path: Path,
    display: str,
    on_skip: Callable[[SkippedRecord], None],
    fits: Callable[[dict], bool],
    convert: Convert,
    what: str,
    expand: Callable[[dict], list[Any] | None] | None = None,
) -> Iterator[Record]:
    """Yield the records of a JSON-lines file: one object per non-blank line, each a position.

    ``fits`` tells whether an object is a record of the format (``what`` names it in messages); objects
    that do not fit, invalid lines and non-objects go to ``on_skip``, held back until one object fits so
    that a file of another format fails once with :class:`InputError`. ``expand`` returns the records an
    object holds when it is a container of them (an API page on one line), else None.
    """
    pending: list[SkippedRecord] = []
    seen = False
    position = -1
    lines = 0

    def skip(skipped: SkippedRecord) -> None:
        (on_skip if seen else pending.append)(skipped)

    for lineno, line in iter_lines(path, display):
        if is_blank(line):
            continue
        lines += 1
        try:
            obj = json.loads(line.rstrip("\r\n"))
        except json.JSONDecodeError as exc:
            position += 1
            skip(SkippedRecord(SourceRef(display, position, lineno),
                               f"line {lineno}: invalid JSON: {exc.msg} (column {exc.colno})", "invalid JSON"))
            continue
        except RecursionError:
            position += 1
            skip(SkippedRecord(SourceRef(display, position, lineno), f"line {lineno}: invalid JSON: nested too deeply",
                               "invalid JSON"))
            continue
        contained = expand(obj) if expand is not None and isinstance(obj, dict) else None
        for value in contained if contained is not None else [obj]:
            position += 1
            source = SourceRef(display, position, lineno)
            if not isinstance(value, dict):
                skip(SkippedRecord(source, f"line {lineno}: expected a JSON object, got {type(value).__name__}",
                                   "not a JSON object"))
                continue
            if not fits(value):
                keys = ", ".join(sorted(value)) or "none"
                skip(SkippedRecord(source, f"line {lineno}: not {what} (keys found: {keys:.200})", f"not {what}"))
                continue
            if not seen:
                seen = True
                for held in pending:
                    on_skip(held)
                pending.clear()
            result = convert(value, source)
            if isinstance(result, Record):
                yield result
            else:
                on_skip(result)
    if not lines:
        raise InputError(f"{display} is empty (only whitespace); put one JSON object per line in it")
    if not seen:
        first = pending[0].reason if pending else "no records"
        raise InputError(f"no line of {display} is {what} ({first}); pass a file of that format or the right --format NAME")


def read_items(
    items: list[Item],
    display: str,
    on_skip: Callable[[SkippedRecord], None],
    convert: Convert,
) -> Iterator[Record]:
    """Yield the records of a document's items (positions 0-based in order); non-objects go to ``on_skip``."""
    for position, item in enumerate(items):
        source = SourceRef(display, position, item.line)
        if not isinstance(item.value, dict):
            on_skip(SkippedRecord(source, f"line {item.line}: expected a JSON object, got {type(item.value).__name__}",
                                  "not a JSON object"))
            continue
        result = convert(item.value, source)
        if isinstance(result, Record):
            yield result
        else:
            on_skip(result)


def read_api_file(
    path: Path,
    display: str,
    on_skip: Callable[[SkippedRecord], None],
    *,
    is_one: Callable[[dict], bool],
    is_page: Callable[[dict], bool],
    member: str,
    convert: Convert,
    what: str,
    expected: str,
) -> Iterator[Record]:
    """Yield the records of a file of an API's objects: one object, a list page (its ``member`` array), an
    array of objects, or one object or page per line. ``is_one`` and ``is_page`` tell the two apart; ``what``
    names one object and ``expected`` the file's forms in messages (:class:`InputError` for another format)."""
    if not first_line_is_document(path, display):
        yield from read_json_lines(path, display, on_skip, is_one, convert, what,
                                   expand=lambda obj: obj[member] if is_page(obj) else None)
        return
    doc = load_document(path, display, (member,))
    if isinstance(doc.value, dict) and is_one(doc.value):
        items = [Item(doc.line, doc.value)]
    elif doc.items is not None and (is_page(doc.value) if isinstance(doc.value, dict)
                                    else not doc.value or any(isinstance(v, dict) and is_one(v) for v in doc.value)):
        items = doc.items
    else:
        raise InputError(f"{display} is not {expected}; pass the right --format NAME")
    yield from read_items(items, display, on_skip, convert)
