"""Read-only safety checks applied to every query the server is asked to run, before the engine sees it.

The checks read the text's tokens (:mod:`kg.sparql.lexer`), so they see a keyword where the engine
would and nowhere else, and they fail closed: a text the lexer cannot read is refused. Refused: SPARQL
Update (it would change the shared graph), ``SERVICE`` (federation would make the server fetch URLs a
caller chooses), nesting deeper than the server's bound (the engine's parser is recursive) and ``.rq``
paths. Anything else that is not a query is left to the engine's parser, which only parses
queries and reports where the syntax is wrong. Each refusal is a :class:`Refused` carrying the HTTP status.
"""
from __future__ import annotations

import re

from kg.errors import QueryError
from kg.sparql.lexer import LexError
from kg.sparql.safety import DEFAULT_MAX_DEPTH, Inspection, inspect, iri_problem

__all__ = ["Refused", "check_query", "check_iri", "DEFAULT_MAX_DEPTH"]


class Refused(QueryError):
    """A request the server will not run; ``status`` is the HTTP status of the answer."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def check_query(text: str, max_bytes: int, max_depth: int = DEFAULT_MAX_DEPTH) -> Inspection:
    """What ``text`` is (its :class:`~kg.sparql.safety.Inspection`), or :class:`Refused` with the status
    to answer unless it is a read-only query the server may run."""
    size = len(text.encode("utf-8"))
    if size > max_bytes:
        raise Refused(f"the query is {size} bytes, over this server's limit of {max_bytes} bytes", 413)
    stripped = text.strip()
    if not stripped:
        raise Refused("empty query: send SPARQL in the 'query' parameter or as an application/sparql-query body")
    if stripped.endswith(".rq") and "\n" not in stripped:
        raise Refused("send the SPARQL text itself, not the name of a .rq file")
    try:
        found = inspect(text)
    except LexError as exc:
        _refuse_escaped(text)
        raise Refused(f"the query cannot be checked, so it is refused: {exc}") from None
    if found.update:
        raise Refused("this endpoint is read-only: SPARQL Update (INSERT, DELETE, LOAD, CLEAR, ...) is refused", 403)
    if found.service:
        raise Refused("SERVICE (federated query) is refused: this endpoint does not fetch other endpoints", 403)
    if found.depth > max_depth:
        raise Refused(f"the query nests {found.depth} levels of brackets, over this server's limit of "
                      f"{max_depth}; flatten the groups", 400)
    return found


_CODEPOINT = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")


def _refuse_escaped(text: str) -> None:
    """Name what an unreadable text was trying to do when ``\\uXXXX`` escapes spell a refused keyword
    (``\\u0053ERVICE``); the text is refused either way."""

    def replace(match: re.Match[str]) -> str:
        code = int(match.group(1) or match.group(2), 16)
        return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else match.group(0)

    try:
        found = inspect(_CODEPOINT.sub(replace, text))
    except LexError:
        return
    if found.update:
        raise Refused("this endpoint is read-only: SPARQL Update (INSERT, DELETE, LOAD, CLEAR, ...) is refused", 403)
    if found.service:
        raise Refused("SERVICE (federated query) is refused: this endpoint does not fetch other endpoints", 403)


def check_iri(iri: str, what: str = "IRI") -> str:
    """``iri`` if it is an absolute IRI; :class:`Refused` (400) naming what is wrong otherwise."""
    problem = iri_problem(iri)
    if problem:
        raise Refused(f"{what} {iri!r} is not a valid absolute IRI: {problem}")
    return iri
