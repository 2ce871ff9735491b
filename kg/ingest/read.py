"""``read_records``: expand paths, pick each file's reader, apply the size limit."""
from __future__ import annotations

import errno
import functools
import os
from pathlib import Path
from typing import Callable, Iterable, Iterator

from kg.errors import InputError
from kg.ingest.detect import detect_format
from kg.ingest.record import Record, SkippedRecord
from kg.ingest.registry import (
    READERS,
    Reader,
    extension_fits,
    format_from_extension,
    format_names,
    supported_extensions,
)
from kg.ingest.seed import read_seed
from kg.ingest.source import display_path

DEFAULT_MAX_CHARS = 200_000

PathLike = str | os.PathLike[str]


def _ignore(skipped: SkippedRecord) -> None:
    """The default ``on_skip``: drop the notice."""


def expand_paths(paths: PathLike | Iterable[PathLike], fmt: str | None = None) -> list[tuple[Path, str]]:
    """The input files as ``(path, display name)``, in order, without repeats.

    A directory expands to its non-hidden files with a supported extension (of format
    ``fmt`` when given), sorted by name, non-recursively.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files: list[tuple[Path, str]] = []
    seen: set[str] = set()
    for given in paths:
        path = Path(given)
        display = display_path(given)
        _check_resolvable(path, display)
        if path.is_dir():
            found = _directory_files(path, display, fmt)
        elif path.exists():
            found = [(path, display)]
        else:
            raise InputError(f"no such file or directory: {display}; check the path")
        for item in found:
            key = os.path.realpath(item[0])
            if key not in seen:
                seen.add(key)
                files.append(item)
    if not files:
        raise InputError(f"no input files given; pass abstract files ({supported_extensions()}) or directories")
    return files


def _check_resolvable(path: Path, display: str) -> None:
    """Raise :class:`InputError` for a path that cannot be followed: a symlink loop, a too-long name."""
    try:
        os.stat(path)
    except FileNotFoundError:
        return  # reported as a missing path
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(f"{display} is a symlink loop (it points back to itself); fix or remove the link") from None
        raise InputError(f"cannot read {display}: {exc.strerror or exc}; check the path") from None


#: Files a data directory holds about its data, not data: skipped when the directory is read (named
#: directly, such a file is read like any other).
DOCUMENT_STEMS: frozenset[str] = frozenset({"readme", "license", "licence", "changelog", "contributing"})


def _directory_files(directory: Path, display: str, fmt: str | None) -> list[tuple[Path, str]]:
    entries = sorted(directory.iterdir(), key=lambda p: p.name)
    files = [
        p for p in entries
        if not p.name.startswith(".") and p.is_file() and p.name.split(".")[0].lower() not in DOCUMENT_STEMS
        and (format_from_extension(p) is not None if fmt is None else extension_fits(p, fmt))
    ]
    if not files:
        wanted = f"{fmt} files" if fmt else f"supported files ({supported_extensions()})"
        raise InputError(f"directory {display} holds no {wanted}; put input files in it or pass files directly")
    prefix = "" if display in ("", ".") else display.rstrip("/") + "/"
    return [(p, prefix + p.name) for p in files]


def read_records(
    paths: PathLike | Iterable[PathLike],
    fmt: str | None = None,
    on_skip: Callable[[SkippedRecord], None] | None = None,
    max_chars: int = DEFAULT_MAX_CHARS,
    *,
    seed_header: bool | None = None,
) -> Iterator[Record]:
    """Yield the records of files and directories, in the order given (directories by name).

    ``fmt`` forces the format of every file (a key of ``READERS``); otherwise each file's
    format is detected with :func:`detect_format`, for all files before any is read.
    Records whose abstract is longer than ``max_chars`` characters, and bad records, go to
    ``on_skip``. ``seed_header`` forces (True/False) the seed header decision.
    Raises :class:`InputError` for unreadable input.
    """
    if fmt is not None and fmt not in READERS:
        raise InputError(f"unknown input format {fmt!r}; pass --format NAME with one of {format_names()}")
    skip = on_skip or _ignore
    plan = [(path, display, fmt or detect_format(path, display)) for path, display in expand_paths(paths, fmt)]
    for path, display, name in plan:
        reader: Reader = READERS[name]
        if name == "seed" and seed_header is not None:
            reader = functools.partial(read_seed, header=seed_header)
        for record in reader(path, display, skip):
            size = len(record.abstract)
            if size > max_chars:
                skip(SkippedRecord(
                    record.source,
                    f"line {record.source.line}: abstract has {size:,} characters, over the limit of {max_chars:,}",
                    "abstract too long",
                ))
                continue
            yield record
