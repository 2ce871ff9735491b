"""Low-level access to input files: display names, gzip, UTF-8 decoding with precise errors."""
from __future__ import annotations

import gzip
import os
import zlib
from pathlib import Path
from typing import BinaryIO, Iterator

from kg.errors import InputError

GZIP_MAGIC = b"\x1f\x8b"
UTF8_BOM = b"\xef\xbb\xbf"
#: whitespace that separates paragraphs and surrounds fields; Unicode spaces (NBSP, ...) are text
ASCII_WHITESPACE = " \t\r\n\f\v"


def display_path(path: str | os.PathLike[str]) -> str:
    """The path as the user gave it, relative to the current directory when under it, with ``/``."""
    given = Path(path)
    cwd = Path.cwd()
    absolute = Path(os.path.abspath(given))
    try:
        return absolute.relative_to(cwd).as_posix()
    except ValueError:
        return given.as_posix()


def is_gzip(path: Path) -> bool:
    """True when the file starts with the gzip magic bytes."""
    with path.open("rb") as fh:
        return fh.read(2) == GZIP_MAGIC


def open_binary(path: Path) -> BinaryIO:
    """Open ``path`` for binary reading, transparently decompressing gzip (by magic bytes)."""
    if is_gzip(path):
        return gzip.open(path, "rb")  # type: ignore[return-value]
    return path.open("rb")


def not_utf8_error(display: str, data: bytes, lineno: int, offset: int) -> InputError:
    """The error for a byte that is not UTF-8 text (or a NUL byte, the sign of a binary file)."""
    return InputError(
        f"{display} is not UTF-8 text (byte 0x{data[0]:02x} at line {lineno}, byte offset {offset}); "
        "convert it with `iconv -f <encoding> -t UTF-8` or pass a JSONL/CSV file"
    )


def decode_line(raw: bytes, display: str, lineno: int, line_offset: int) -> str:
    """Decode one line of bytes as strict UTF-8, refusing NUL bytes (binary files)."""
    nul = raw.find(b"\x00")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = exc.start if nul < 0 else min(exc.start, nul)
        raise not_utf8_error(display, raw[bad:bad + 1], lineno, line_offset + bad) from None
    if nul >= 0:
        raise not_utf8_error(display, b"\x00", lineno, line_offset + nul)
    return text


def iter_lines(path: Path, display: str) -> Iterator[tuple[int, str]]:
    """Yield ``(line number, line)`` with line endings kept; lines end at ``\\n`` only.

    A leading UTF-8 BOM is dropped; gzip is decompressed; bad bytes raise :class:`InputError`
    naming the line and byte offset.
    """
    offset = 0
    try:
        with open_binary(path) as fh:
            for lineno, raw in enumerate(fh, start=1):
                start = offset
                offset += len(raw)
                if lineno == 1 and raw.startswith(UTF8_BOM):
                    raw = raw[len(UTF8_BOM):]
                    start += len(UTF8_BOM)
                yield lineno, decode_line(raw, display, lineno, start)
    except (gzip.BadGzipFile, EOFError, zlib.error) as exc:
        raise InputError(
            f"{display} is not a valid gzip file ({exc}); re-compress it with gzip or pass the uncompressed file"
        ) from None
    except IsADirectoryError:
        raise InputError(f"{display} is a directory, not a file; pass the directory itself or a file in it") from None
    except FileNotFoundError:
        raise InputError(f"no such file or directory: {display}; check the path") from None
    except PermissionError:
        raise InputError(f"cannot read {display}: permission denied; check the file's permissions") from None


def is_blank(line: str) -> bool:
    """True for a line holding only ASCII whitespace."""
    return not line.strip(ASCII_WHITESPACE)
