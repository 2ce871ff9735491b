"""Read-only safety checks applied to every query the server is asked to run.

The server refuses, before any evaluation: SPARQL Update (it would change the shared graph),
``SERVICE`` (federation would make the server fetch URLs a caller chooses), dataset parameters it
does not implement, and texts that are not SPARQL (a ``.rq`` path would make :func:`kg.query.resolve_query`
read a file on the server). Each refusal is a :class:`Refused` carrying the HTTP status to answer with.
"""
from __future__ import annotations

import re
import threading
from typing import Any

from kg.errors import QueryError
from kg.query import is_update

__all__ = ["Refused", "check_query", "unescape_codepoints", "uses_service"]


class Refused(QueryError):
    """A query the server will not run; ``status`` is the HTTP status of the answer."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


_CODEPOINT = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")


def unescape_codepoints(text: str) -> str:
    r"""Apply the ``\uXXXX`` / ``\UXXXXXXXX`` escapes, which SPARQL processes before parsing (so
    ``\u0053ERVICE`` is the keyword SERVICE to Oxigraph)."""

    def replace(match: re.Match[str]) -> str:
        code = int(match.group(1) or match.group(2), 16)
        return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else match.group(0)

    return _CODEPOINT.sub(replace, text)


# strings, IRIs and comments, which may contain the word SERVICE without it being the keyword
_NOT_CODE = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""' r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
                       r'|"(?:[^"\\\n]|\\.)*"' r"|'(?:[^'\\\n]|\\.)*'" r"|<[^<>\"{}|^`\\\s]*>" r"|#[^\n]*")
_SERVICE_TOKEN = re.compile(r"(?<![\w:?$])SERVICE(?![\w:-])", re.IGNORECASE)


_PARSER_LOCK = threading.Lock()


def _has_service_pattern(node: Any) -> bool:
    """Whether rdflib's parse tree of a query contains a ServiceGraphPattern."""
    stack = [node]
    while stack:
        item = stack.pop()
        if getattr(item, "name", None) == "ServiceGraphPattern":
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif hasattr(item, "asList") and not isinstance(item, str):
            stack.extend(item.asList())
    return False


def uses_service(text: str) -> bool:
    """Whether the query calls ``SERVICE``: found in rdflib's parse tree, and, where rdflib cannot parse
    the query (Oxigraph extensions such as LATERAL), as a keyword outside strings, IRIs and comments."""
    text = unescape_codepoints(text)
    if "service" not in text.lower():
        return False  # the keyword cannot be spelt without these letters once escapes are applied
    from pyparsing import ParseException
    from rdflib.plugins.sparql.parser import parseQuery

    try:
        with _PARSER_LOCK:  # pyparsing's packrat cache is shared by all threads
            tree = parseQuery(text)
        if _has_service_pattern(tree):
            return True
    except (ParseException, Exception):  # noqa: BLE001 - rdflib's parser raises several types
        pass
    return bool(_SERVICE_TOKEN.search(_NOT_CODE.sub(" ", text)))


def check_query(text: str, max_bytes: int) -> None:
    """Raise :class:`Refused` (with its HTTP status) unless ``text`` is a read-only query the server may run."""
    size = len(text.encode("utf-8"))
    if size > max_bytes:
        raise Refused(f"the query is {size} bytes, over this server's limit of {max_bytes} bytes", 413)
    stripped = text.strip()
    if not stripped:
        raise Refused("empty query: send SPARQL in the 'query' parameter or as an application/sparql-query body")
    if stripped.endswith(".rq") and "\n" not in stripped:
        raise Refused("send the SPARQL text itself, not the name of a .rq file")
    if is_update(unescape_codepoints(text)):
        raise Refused("this endpoint is read-only: SPARQL Update (INSERT, DELETE, LOAD, CLEAR, ...) is refused", 403)
    if uses_service(text):
        raise Refused("SERVICE (federated query) is refused: this endpoint does not fetch other endpoints", 403)
