"""JSON Lines (optionally gzip-compressed): one object per line with ``abstract`` and metadata.

Blank lines are ignored; every other line is a record and consumes a position, so
positions stay stable when a line is skipped. Malformed lines are reported through
``on_skip``; a file in which no line is a JSON object raises :class:`InputError`.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Iterator

from kg.errors import InputError
from kg.ingest.fields import abstract_problem, build_record
from kg.ingest.record import Record, SkippedRecord, SourceRef
from kg.ingest.source import is_blank, iter_lines


def read_jsonl(path: Path, display: str, on_skip: Callable[[SkippedRecord], None]) -> Iterator[Record]:
    """Yield one :class:`Record` per JSON object line of a ``.jsonl`` / ``.jsonl.gz`` file."""
    pending: list[SkippedRecord] = []  # held back until one line parses, so a non-JSONL file fails once
    seen_object = False
    position = -1
    for lineno, line in iter_lines(path, display):
        if is_blank(line):
            continue
        position += 1
        source = SourceRef(display, position, lineno)
        record, reason, is_object, kind = _parse(line, source)
        if is_object and not seen_object:
            seen_object = True
            for skipped in pending:
                on_skip(skipped)
            pending.clear()
        if record is not None:
            yield record
            continue
        skipped = SkippedRecord(source, f"line {lineno}: {reason}", kind)
        if seen_object:
            on_skip(skipped)
        else:
            pending.append(skipped)
    if position < 0:
        raise InputError(f"{display} is empty (only whitespace); put one JSON object per line in it")
    if not seen_object:
        raise InputError(
            f"{display} has no valid JSON object line ({pending[0].reason}); "
            "JSONL needs one JSON object per line, e.g. {\"abstract\": \"...\"}"
        )


def _parse(line: str, source: SourceRef) -> tuple[Record | None, str, bool, str]:
    """``(record or None, reason it was skipped, whether the line is a JSON object, kind of the skip)``."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        return None, f"invalid JSON: {exc.msg} (column {exc.colno})", False, "invalid JSON"
    except RecursionError:
        return None, "invalid JSON: nested too deeply", False, "invalid JSON"
    if not isinstance(obj, dict):
        return None, f"expected a JSON object, got {type(obj).__name__}", False, "not a JSON object"
    problem = abstract_problem(obj.get("abstract"))
    if problem is not None:
        keys = ", ".join(sorted(obj)) or "none"
        return (None, f"{problem} (keys found: {keys:.200}); each object needs a non-empty \"abstract\" string", True,
                "no usable abstract")
    return build_record(obj["abstract"], source, obj), "", True, ""
