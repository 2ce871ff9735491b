"""The SPARQL 1.1 Protocol's request side: where the query is, and which result format to answer in.

Pure functions over already-read request parts, so they are tested without a server.
"""
from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qsl

from kg.server.guard import Refused

__all__ = ["ProtocolRequest", "parse_request", "negotiate", "MEDIA_TYPES", "FORMAT_PARAMS", "PARAM_PREFIX"]

#: media type -> result format name (kg.sparql.formats.RESULT_FORMATS), per result kind
MEDIA_TYPES: dict[str, dict[str, str]] = {
    "tabular": {
        "application/sparql-results+json": "json",
        "application/json": "json",
        "application/sparql-results+xml": "xml",
        "application/xml": "xml",
        "text/xml": "xml",
        "text/csv": "csv",
        "text/tab-separated-values": "tsv",
    },
    "graph": {
        "text/turtle": "turtle",
        "application/turtle": "turtle",
        "application/x-turtle": "turtle",
        "application/n-triples": "nt",
        "text/plain": "nt",
        "application/ld+json": "jsonld",
        "application/x-json+ld": "jsonld",
        "application/rdf+xml": "rdfxml",
    },
}
#: the format used for */* or no Accept header
DEFAULTS = {"tabular": "json", "graph": "turtle"}
#: values of the non-standard ``format`` / ``output`` parameter (sent by SPARQLWrapper and browsers' links)
FORMAT_PARAMS: dict[str, dict[str, str]] = {
    "tabular": {"json": "json", "xml": "xml", "csv": "csv", "tsv": "tsv"},
    "graph": {"turtle": "turtle", "ttl": "turtle", "n3": "turtle", "nt": "nt", "ntriples": "nt",
              "n-triples": "nt", "json-ld": "jsonld", "jsonld": "jsonld", "rdf+xml": "rdfxml", "xml": "rdfxml"},
}
#: request parameters ``param.NAME=value`` bind ?NAME (an extension used by the explorer for saved queries)
PARAM_PREFIX = "param."


@dataclass
class ProtocolRequest:
    """What a protocol request asks: the query text, bound parameters and the explicit format parameter."""

    query: str
    params: dict[str, str]
    format_param: str | None = None


def _pairs(query_string: str, form_body: bytes | None) -> list[tuple[str, str]]:
    pairs = parse_qsl(query_string, keep_blank_values=True)
    if form_body:
        try:
            pairs += parse_qsl(form_body.decode("utf-8"), keep_blank_values=True, strict_parsing=False)
        except UnicodeDecodeError:
            raise Refused("the form body is not UTF-8") from None
    return pairs


def parse_request(method: str, content_type: str, query_string: str, body: bytes) -> ProtocolRequest:
    """Find the query of a GET, a form-encoded POST or an ``application/sparql-query`` POST.

    Raises :class:`Refused` for an update request, dataset parameters (``default-graph-uri``,
    ``named-graph-uri``: not supported, the served graph is the one dataset), a missing or repeated query,
    or an unsupported body type.
    """
    media = content_type.split(";", 1)[0].strip().lower()
    form: bytes | None = None
    direct: str | None = None
    if method == "POST":
        if media == "application/x-www-form-urlencoded":
            form = body
        elif media == "application/sparql-query":
            try:
                direct = body.decode("utf-8")
            except UnicodeDecodeError:
                raise Refused("the query body is not UTF-8") from None
        elif media == "application/sparql-update":
            raise Refused("this endpoint is read-only: SPARQL Update is refused", 403)
        else:
            raise Refused(f"unsupported request body type {media or '(none)'!r}; POST "
                          "application/x-www-form-urlencoded or application/sparql-query", 415)
    pairs = _pairs(query_string, form)
    names = [k for k, _ in pairs]
    if "update" in names:
        raise Refused("this endpoint is read-only: SPARQL Update is refused", 403)
    for name in ("default-graph-uri", "named-graph-uri"):
        if name in names:
            raise Refused(f"{name} is not supported: this endpoint serves one graph as its default graph; "
                          "leave the parameter out (or use GRAPH patterns)")
    queries = [v for k, v in pairs if k == "query"]
    if direct is not None:
        if queries:
            raise Refused("give the query either as the body or as the 'query' parameter, not both")
        queries = [direct]
    if not queries:
        raise Refused("no query: send it in the 'query' parameter (GET or form POST) or as an "
                      "application/sparql-query body")
    if len(queries) > 1:
        raise Refused("more than one 'query' parameter")
    params = {k[len(PARAM_PREFIX):]: v for k, v in pairs if k.startswith(PARAM_PREFIX) and v != ""}
    fmt = next((v for k, v in pairs if k in ("format", "output", "results") and v), None)
    return ProtocolRequest(query=queries[0], params=params, format_param=fmt)


def _accepted(accept: str) -> list[tuple[float, int, str]]:
    """Media ranges of an Accept header with their q-values, best first (ties: order given)."""
    out = []
    for position, part in enumerate(accept.split(",")):
        fields = [f.strip() for f in part.split(";")]
        media = fields[0].lower()
        if not media:
            continue
        q = 1.0
        for f in fields[1:]:
            if f.lower().startswith("q="):
                try:
                    q = float(f[2:])
                except ValueError:
                    q = 0.0
        if q > 0:
            out.append((-q, position, media))
    out.sort()
    return out


def negotiate(kind: str, accept: str | None, format_param: str | None = None) -> tuple[str, str]:
    """The ``(result format name, media type)`` to answer a ``kind`` result with ("select", "ask",
    "construct", "describe"); :class:`Refused` (406) if the client accepts none of them."""
    family = "tabular" if kind in ("select", "ask") else "graph"
    table = MEDIA_TYPES[family]
    canonical = {name: media for media, name in reversed(list(table.items()))}
    for _, _, media in _accepted(accept or ""):
        if media in table:
            return table[media], canonical[table[media]]
        if media == "*/*" or media.endswith("/*"):
            break
    if format_param:
        for value in format_param.split(","):
            value = value.strip().lower()
            if value in FORMAT_PARAMS[family]:
                name = FORMAT_PARAMS[family][value]
                return name, canonical[name]
            if value in table:
                return table[value], canonical[table[value]]
    ranges = [m for _, _, m in _accepted(accept or "")]
    if not accept or not ranges or any(m == "*/*" or m.endswith("/*") for m in ranges):
        name = DEFAULTS[family]
        return name, canonical[name]
    raise Refused(f"cannot answer a {kind.upper()} result in {accept!r}; acceptable: "
                  f"{', '.join(sorted(set(canonical.values())))}", 406)
