"""A SPARQL 1.1 lexer: the query text as tokens, the way the engine's grammar reads it.

The server's safety checks read tokens, never raw text, so a keyword hidden in a string, an IRI, a
comment or a prefixed name with escapes (``e:q\\#`` is one name, not a name and a comment) is seen
for what it is. The lexer fails closed: any character that starts no SPARQL token raises
:class:`LexError` with its line and column, and the caller refuses the text.

Escapes follow Oxigraph: ``\\uXXXX`` and ``\\UXXXXXXXX`` are read inside strings and IRIs only, so a
backslash outside them (``\\u0053ERVICE``) is not a token and is refused.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from kg.errors import QueryError

__all__ = ["LexError", "Token", "tokens"]

_UCHAR = r"\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}"
_ECHAR = r"""\\[tbnrf\\"']"""
_PN_CHARS_BASE = (r"A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D"
                  r"\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\U00010000-\U000EFFFF")
_PN_CHARS_U = _PN_CHARS_BASE + "_"
_PN_CHARS = _PN_CHARS_U + r"\-0-9\u00B7\u0300-\u036F\u203F-\u2040"
_PLX = r"%[0-9A-Fa-f]{2}|\\[_~.\-!$&'()*+,;=/?#@%]"
_PN_PREFIX = rf"[{_PN_CHARS_BASE}](?:[{_PN_CHARS}.]*[{_PN_CHARS}])?"
_PN_LOCAL = (rf"(?:[{_PN_CHARS_U}:0-9]|{_PLX})"
             rf"(?:(?:[{_PN_CHARS}.:]|{_PLX})*(?:[{_PN_CHARS}:]|{_PLX}))?")
_VARNAME = rf"[{_PN_CHARS_U}0-9][{_PN_CHARS_U}0-9\u00B7\u0300-\u036F\u203F-\u2040]*"

#: token kinds, tried in this order at each position
_SPEC = [
    ("WS", r"[ \t\r\n]+"),
    ("COMMENT", r"#[^\r\n]*"),
    ("IRI", rf"<(?:[^<>\"{{}}|^`\\\x00-\x20]|{_UCHAR})*>"),
    ("STRING", rf"'''(?:(?:'|'')?(?:[^'\\]|{_ECHAR}|{_UCHAR}))*'''"
               rf'|"""(?:(?:"|"")?(?:[^"\\]|{_ECHAR}|{_UCHAR}))*"""'
               rf"|'(?:[^'\\\n\r]|{_ECHAR}|{_UCHAR})*'"
               rf'|"(?:[^"\\\n\r]|{_ECHAR}|{_UCHAR})*"'),
    ("VAR", rf"[?$]{_VARNAME}"),
    ("BNODE", rf"_:[{_PN_CHARS_U}0-9](?:[{_PN_CHARS}.]*[{_PN_CHARS}])?"),
    ("PNAME", rf"(?:{_PN_PREFIX})?:(?:{_PN_LOCAL})?"),
    ("NUMBER", r"(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?"),
    ("LANGTAG", r"@[a-zA-Z]+(?:-[a-zA-Z0-9]+)*"),
    ("NAME", r"[A-Za-z_][A-Za-z0-9_]*"),
    ("PUNCT", r"\^\^|&&|\|\||!=|<=|>=|[{}()\[\].,;*/+\-!=<>|^?]"),
]
_MASTER = re.compile("|".join(f"(?P<{kind}>{rx})" for kind, rx in _SPEC))


class LexError(QueryError):
    """Text that is not made of SPARQL tokens; ``line`` and ``column`` are 1-based."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"{message} at line {line}, column {column}")
        self.line = line
        self.column = column


@dataclass(frozen=True)
class Token:
    """One token: its kind (a key of the lexer's table, WS and COMMENT dropped), text and offset."""

    kind: str
    text: str
    start: int


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def tokens(text: str) -> Iterator[Token]:
    """The tokens of ``text`` (whitespace and comments left out); :class:`LexError` where none starts."""
    pos, end = 0, len(text)
    while pos < end:
        match = _MASTER.match(text, pos)
        if match is None or match.end() == pos:
            line, col = _position(text, pos)
            raise LexError(f"cannot read {text[pos:pos + 12]!r} as SPARQL", line, col)
        kind = match.lastgroup or ""
        if kind not in ("WS", "COMMENT"):
            yield Token(kind, match.group(), pos)
        pos = match.end()
