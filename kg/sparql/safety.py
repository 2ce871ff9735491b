"""What a SPARQL text asks for, read from its tokens: its form, how deep it nests, and whether it
reaches outside the graph (``SERVICE``) or changes it (Update).

:func:`inspect` never runs anything. The server refuses on its answer before the engine sees the text;
``kg query`` refuses nesting that would overflow the engine's parser stack.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from kg.sparql.lexer import tokens

__all__ = ["Inspection", "inspect", "iri_problem", "DEFAULT_MAX_DEPTH", "QUERY_FORMS", "UPDATE_KEYWORDS"]

#: nesting of { ( [ allowed by default; deeper texts are refused before parsing
DEFAULT_MAX_DEPTH = 64
QUERY_FORMS = ("SELECT", "ASK", "CONSTRUCT", "DESCRIBE")
UPDATE_KEYWORDS = ("INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "WITH")
_OPEN, _CLOSE = "{([", "})]"


@dataclass(frozen=True)
class Inspection:
    """What :func:`inspect` found.

    ``form``: SELECT, ASK, CONSTRUCT or DESCRIBE, or None when the text starts with none of them after
    its prologue; ``depth``: the deepest nesting of brackets; ``service``: a SERVICE keyword occurs;
    ``update``: an Update keyword occurs; ``tokens``: how many tokens the text has.
    """

    form: str | None
    depth: int
    service: bool
    update: bool
    tokens: int


@lru_cache(maxsize=2048)
def inspect(text: str) -> Inspection:
    """Read ``text`` token by token; :class:`kg.sparql.lexer.LexError` if it is not SPARQL tokens.

    Keywords are matched as Oxigraph's parser matches them: case-insensitively and without a word
    boundary, so ``SERVICESILENT`` counts as SERVICE. A bare word that merely contains SERVICE or starts
    with an Update keyword is counted too (no SPARQL keyword or function name does), which errs on the
    side of refusing.
    """
    form: str | None = None
    depth = deepest = count = 0
    service = update = False
    expect_prologue = True
    for tok in tokens(text):
        count += 1
        if tok.kind == "PUNCT":
            if tok.text in _OPEN:
                depth += 1
                deepest = max(deepest, depth)
            elif tok.text in _CLOSE:
                depth -= 1
            continue
        if tok.kind != "NAME":
            continue
        word = tok.text.upper()
        if "SERVICE" in word:
            service = True
        if word.startswith(UPDATE_KEYWORDS):
            update = True
        if expect_prologue and word not in ("PREFIX", "BASE"):
            expect_prologue = False
            form = next((f for f in QUERY_FORMS if word == f), None)
    return Inspection(form=form, depth=deepest, service=service, update=update, tokens=count)


_IRI_FORBIDDEN = frozenset('<>"{}|^`\\') | {chr(c) for c in range(0x21)}


def iri_problem(iri: str) -> str | None:
    """Why ``iri`` is not an absolute IRI (no scheme, or a space or one of ``<>"{}|^`\\``), or None if it is."""
    head, sep, _ = iri.partition(":")
    bad = sorted({c for c in iri if c in _IRI_FORBIDDEN})
    if bad:
        return "it contains " + " ".join(repr(c) for c in bad)
    if not sep or not head[:1].isascii() or not head[:1].isalpha() or not all(
            c.isascii() and (c.isalnum() or c in "+-.") for c in head):
        return "it has no scheme such as https:"
    return None
